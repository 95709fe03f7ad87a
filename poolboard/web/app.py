"""The web application and how it is served.

``create_app(session)`` assembles the pages, the public API, the referee API and the WebSocket;
``WebServer`` runs it with uvicorn in a background thread (tests, benchmarks); ``serve_web`` is
what ``poolboard run`` and ``poolboard demo`` call: it serves until their stop event is set.
"""

import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated

import uvicorn
from fastapi import Depends, FastAPI, HTTPException, WebSocket
from fastapi.responses import FileResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.web.api import api_router
from poolboard.web.hub import Hub
from poolboard.web.referee import referee_guard, referee_router

STATIC = Path(str(resources.files("poolboard.web.static")))

#: Our pages load nothing from elsewhere; the browser is told so.
_PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; connect-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html", headers=_PAGE_HEADERS)


def create_app(session: Session) -> FastAPI:
    """The whole web UI for ``session``: pages, ``/api``, ``/ws`` (docs/web.md, docs/api.md)."""
    hub = Hub(session)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        hub.start()
        yield
        hub.stop()

    app = FastAPI(
        title="poolboard",
        summary="An electronic pool checkers board: live state, recorded games, referee console",
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.include_router(api_router(session))
    app.include_router(referee_router(session))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    referee = Annotated[str, Depends(referee_guard(session))]

    @app.get("/", include_in_schema=False)
    def spectator() -> FileResponse:
        return _page("spectator.html")

    @app.get("/big", include_in_schema=False)
    def big_screen() -> FileResponse:
        return _page("spectator.html")

    @app.get("/board", include_in_schema=False)
    def virtual_board() -> FileResponse:
        if not isinstance(session.sensor, SimulatedBoard):
            raise HTTPException(404, "the virtual board exists only with the simulated sensor")
        return _page("board.html")

    @app.get("/referee", include_in_schema=False)
    def referee_console(_: referee) -> FileResponse:
        return _page("referee.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> RedirectResponse:
        return RedirectResponse("/static/favicon.svg")

    @app.websocket("/ws")
    async def live(websocket: WebSocket) -> None:
        """The whole state at once, then the whole state after every change."""
        await hub.serve(websocket)

    return app


class AppServer:
    """An ASGI ``app`` served by uvicorn in a background thread (the board's web UI, the
    hall's pages)."""

    def __init__(self, app: FastAPI, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.app = app
        config = uvicorn.Config(
            self.app,
            host=host,
            port=port,
            log_level="warning",
            timeout_graceful_shutdown=2,
            ws_max_size=65_536,
        )
        self._server = uvicorn.Server(config)
        self._socket: socket.socket | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port listened on (the one picked when 0 was asked for)."""
        assert self._socket is not None, "WebServer.start() was not called"
        return int(self._socket.getsockname()[1])

    @property
    def url(self) -> str:
        """``http://host:port`` of the running server."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def is_running(self) -> bool:
        """Whether the server thread is still serving."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = 10.0) -> str:
        """Listen and start serving; returns the URL. ``OSError`` says why the address cannot
        be listened on (the port is taken, the host is not this machine's)."""
        config = self._server.config
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind((self.host, config.port))
            listener.listen(config.backlog)
        except OSError as error:
            listener.close()
            raise OSError(
                f"web UI: cannot listen on {self.host}:{config.port}: {error.strerror}"
            ) from None
        self._socket = listener
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [listener]}, name="web", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise OSError(f"web UI: the server on {self.host}:{self.port} did not start")
            time.sleep(0.01)
        return self.url

    def stop(self) -> None:
        """Close every connection and stop serving."""
        self._server.should_exit = True
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(timeout=5)
        if self._socket is not None:
            self._socket.close()


class WebServer(AppServer):
    """``create_app(session)`` served by uvicorn in a background thread.

    >>> server = WebServer(session, "127.0.0.1", 0)   # doctest: +SKIP
    >>> server.start()                                 # doctest: +SKIP
    'http://127.0.0.1:40213'
    """

    def __init__(self, session: Session, host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(create_app(session), host, port)


def serve_web(
    session: Session, stop: threading.Event, *, announce: Callable[[str], None] = print
) -> None:
    """Serve the web UI on the config's ``[web]`` host and port until ``stop`` is set (or the
    server dies); ``announce`` is told the addresses. ``OSError`` if the port is taken."""
    web = session.config.web
    server = WebServer(session, web.host, web.port)
    url = server.start()
    board = ", virtual board /board" if isinstance(session.sensor, SimulatedBoard) else ""
    announce(
        f"poolboard: web UI on {url}/ (spectators /, big screen /big{board}, "
        "referee /referee, API /docs)"
    )
    if web.host in ("0.0.0.0", "::"):
        announce(
            "poolboard: from a phone on the same network: "
            f"http://<this board's address>:{server.port}/"
        )
    try:
        while server.is_running and not stop.wait(0.5):
            pass
    finally:
        server.stop()
