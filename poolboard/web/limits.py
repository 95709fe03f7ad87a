"""The web server's limits under load: connections, slow clients and log volume.

uvicorn times out an idle keep-alive connection, but not one that never finishes its request
head (it waits forever for a client that sends a byte now and then, or nothing at all), and its
``limit_concurrency`` answers 503 to requests yet keeps every idle socket open: a few hundred
silent connections would use up the service's file descriptors. :func:`guarded_protocol` adds
what is missing to uvicorn's h11 protocol: a cap on connections, in all and per client address,
closed as soon as they are accepted, a deadline for each request head, and TCP_NODELAY. When the
cap in all is reached, a client from an address holding fewer connections than the busiest one
takes the place of that address's oldest connection still waiting for a request: many
addresses of one machine cannot lock everyone else out. It
relies on that protocol's internals, so pyproject.toml pins uvicorn to the release tested.
:class:`LogRateLimit` keeps a flood from writing a line per refused connection.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("poolboard.web")


@dataclass(frozen=True)
class WebLimits:
    """How much the web server gives any client (docs/service.md)."""

    max_connections: int = 512  # well under systemd's default 1,024 file descriptors
    per_client: int = 32  # connections from one address: a phone, a big screen, a console
    head_seconds: float = 10.0  # to send a request head, from connecting or the last response
    body_seconds: float = 10.0  # to send a request body (poolboard.web.guard)
    keep_alive_seconds: int = 5  # an idle connection between requests
    max_head_bytes: int = 8192  # a request line and headers


def guarded_protocol(limits: WebLimits) -> type[H11Protocol]:
    """uvicorn's h11 protocol with ``limits``' connection caps and request-head deadline."""

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _armed_for: Any = None
        _opened = 0.0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            # uvicorn writes a response's head and body apart: without TCP_NODELAY the body
            # waits for the client's delayed ACK, about 40 ms on every answer.
            sock = transport.get_extra_info("socket")
            if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            super().connection_made(transport)
            self._opened = time.monotonic()
            address = self.client[0] if self.client else None
            same = sum(1 for c in self.connections if _address(c) == address)
            if len(self.connections) > limits.max_connections and same <= limits.per_client:
                self._make_room(address, same)
            if len(self.connections) > limits.max_connections or same > limits.per_client:
                log.warning(
                    "refused a connection from %s: %d open in all, %d from it",
                    address,
                    len(self.connections),
                    same,
                )
                transport.abort()
                self.connections.discard(self)  # gone now, not when its loss is processed
                return
            self._arm()

        def _make_room(self, address: str | None, same: int) -> None:
            """Close the oldest connection waiting for a request head from the address holding
            the most connections, if it holds more than ``address`` would."""
            counts: dict[str | None, int] = {}
            for connection in self.connections:
                counts[_address(connection)] = counts.get(_address(connection), 0) + 1
            busiest = max(counts, key=lambda a: counts[a])
            if busiest == address or counts[busiest] <= same + 1:
                return
            waiting: list[Any] = [
                c
                for c in self.connections
                if _address(c) == busiest and getattr(c, "_deadline", None) is not None
            ]
            if waiting:
                oldest = min(waiting, key=lambda c: c._opened)
                oldest._disarm()
                oldest.transport.abort()
                self.connections.discard(oldest)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._disarm()  # a spectator's socket lives as long as it likes (pings find the dead)
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            """Give the client head_seconds to send its next request head."""
            self._disarm()
            self._armed_for = self.cycle
            self._deadline = self.loop.call_later(limits.head_seconds, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            serving = self.cycle is not self._armed_for and not self.cycle.response_complete
            if not serving:  # no complete request head in time (a body has its own deadline)
                self.transport.abort()

    return GuardedH11Protocol


def _address(connection: Any) -> str | None:
    client = getattr(connection, "client", None)
    return client[0] if client else None


class LogRateLimit(logging.Filter):
    """Let through at most ``burst`` records of one message per ``window`` seconds; the first
    one after a quiet spell says how many were left out."""

    def __init__(self, burst: int = 5, window: float = 60.0) -> None:
        super().__init__()
        self.burst = burst
        self.window = window
        self._seen: dict[tuple[str, str], tuple[float, int, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg).split("\n", 1)[0][:100])
        now = time.monotonic()
        started, count, dropped = self._seen.get(key, (now, 0, 0))
        if now - started >= self.window:
            started, count = now, 0
        count += 1
        if count > self.burst:
            self._seen[key] = (started, count, dropped + 1)
            return False
        if dropped:
            record.msg = f"{record.msg} (and {dropped} like it left out)"
        self._seen[key] = (started, count, 0)
        if len(self._seen) > 1000:  # messages are templates, but bound it anyway
            self._seen.clear()
        return True


_RATE_LIMIT = LogRateLimit()


def limit_log_rate() -> None:
    """Rate-limit the server's warnings (uvicorn's, asyncio's accept errors, ours); once."""
    for name in ("uvicorn.error", "asyncio", "poolboard.web"):
        logger = logging.getLogger(name)
        if _RATE_LIMIT not in logger.filters:
            logger.addFilter(_RATE_LIMIT)
