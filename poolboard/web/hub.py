"""Fan the session's state out to WebSocket spectators.

The hub subscribes to the session's :class:`~poolboard.session.events.BoardChanged` events, which
the session publishes from its own thread; the hub encodes each state once and hands it
to the event loop, where every client keeps only the newest state not yet sent. Each message is
the whole state, so a slow client that skips an intermediate one still shows the right picture,
and no client can make the session or another client wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Coroutine
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from poolboard.session import Session
from poolboard.session.events import BoardChanged


class _Client:
    """One connected spectator: the newest unsent message and a flag to wake its sender."""

    def __init__(self) -> None:
        self.pending: str | None = None
        self.closed = False
        self.ready = asyncio.Event()

    def offer(self, text: str) -> None:
        self.pending = text
        self.ready.set()

    def close(self) -> None:
        self.closed = True
        self.ready.set()

    async def next(self) -> str | None:
        """The next message to send, or ``None`` once the hub is closing."""
        await self.ready.wait()
        self.ready.clear()
        text, self.pending = self.pending, None
        return None if self.closed else text


class Hub:
    """Connects WebSocket clients to ``session``: ``start`` on the server's loop, ``stop`` at
    shutdown, ``serve(websocket)`` for each connection."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._clients: set[_Client] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Callable[[], None] | None = None

    @property
    def client_count(self) -> int:
        """How many spectators are connected now."""
        return len(self._clients)

    def start(self) -> None:
        """Subscribe to the session; call from the running event loop."""
        self._loop = asyncio.get_running_loop()
        self._unsubscribe = self.session.events.subscribe(BoardChanged, self._on_change)

    def stop(self) -> None:
        """Unsubscribe and tell every client's sender to close."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for client in self._clients:
            client.close()

    def _on_change(self, changed: BoardChanged) -> None:
        """Session thread: encode once, publish on the loop."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        text = json.dumps(changed.json, separators=(",", ":"))
        with contextlib.suppress(RuntimeError):  # the loop closed since the check
            loop.call_soon_threadsafe(self._publish, text)

    def _publish(self, text: str) -> None:
        for client in self._clients:
            client.offer(text)

    async def serve(self, websocket: WebSocket) -> None:
        """Send the whole state at once, then every change, until the client leaves."""
        await websocket.accept()
        client = _Client()
        self._clients.add(client)
        try:
            await asyncio.to_thread(self._offer_current, client)
            await relay(websocket, self._send(websocket, client))
        finally:
            self._clients.discard(client)

    def _offer_current(self, client: _Client) -> None:
        """Worker thread: queue the whole state for a new client, under the session lock, so
        it lands in order with the announcements (the client is registered already)."""
        loop = self._loop
        assert loop is not None, "Hub.start() was not called"
        with self.session.lock:
            text = json.dumps(self.session.state(), separators=(",", ":"))
            loop.call_soon_threadsafe(client.offer, text)

    @staticmethod
    async def _send(websocket: WebSocket, client: _Client) -> None:
        while (text := await client.next()) is not None:
            await websocket.send_text(text)
        await websocket.close(code=1001)  # going away: the server is stopping


async def relay(websocket: WebSocket, sender: Coroutine[Any, Any, None]) -> None:
    """Run ``sender`` (which writes to ``websocket``) until it ends or the client leaves, reading
    (and ignoring) what the client sends so that its leaving is noticed; a client that left
    is not an error. Shared by the board's and the hall's spectators."""
    sending = asyncio.create_task(sender)
    receiving = asyncio.create_task(_drain(websocket))
    try:
        done, pending = await asyncio.wait(
            {sending, receiving}, return_when=asyncio.FIRST_COMPLETED
        )
        for task in pending:
            task.cancel()
        for task in done:
            task.result()
    except (WebSocketDisconnect, ConnectionError):
        pass


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, to notice when it leaves."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
