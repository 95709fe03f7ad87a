"""The web application and how it is served.

``create_app(session)`` assembles the pages, the public API, the referee API and the WebSocket
behind the request guard; ``WebServer`` runs it with uvicorn, within the server's limits, in a
background thread (tests, benchmarks); ``serve_web`` is what ``poolboard run`` and ``poolboard
demo`` call: it serves until their stop event is set.
"""

import math
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import uvicorn
from fastapi import Depends, FastAPI, HTTPException, Request, WebSocket
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from poolboard.session import Session
from poolboard.simulated_board import SimulatedBoard
from poolboard.web.api import api_router
from poolboard.web.director import ConsoleClosed, director_router
from poolboard.web.guard import RequestGuard, is_loopback
from poolboard.web.hub import Hub
from poolboard.web.limits import WebLimits, guarded_protocol, limit_log_rate
from poolboard.web.referee import Refused, referee_guard, referee_router, refused

DEFAULT_LIMITS = WebLimits()
STATIC = Path(str(resources.files("poolboard.web.static")))

#: Our pages load nothing from elsewhere; the browser is told so.
_PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def _page(name: str, language: str) -> HTMLResponse:
    """A page, telling its scripts the board's ``[display] language`` before anything is drawn
    (``veil.js`` hides a page until it is translated)."""
    html = (STATIC / name).read_text(encoding="utf-8")
    html = html.replace('<html lang="en">', f'<html lang="en" data-board-language="{language}">', 1)
    return HTMLResponse(html, headers=_PAGE_HEADERS)


def _json_safe(value: Any) -> Any:
    """``value`` with NaN and infinities spelt as JSON cannot: ``"NaN"``, ``"Infinity"``."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {key: _json_safe(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_safe(item) for item in value]
    return value


async def _invalid_request(_: Request, error: Exception) -> JSONResponse:
    """422 naming each problem, even when the input was a NaN that JSON cannot echo."""
    assert isinstance(error, RequestValidationError)
    return JSONResponse({"detail": _json_safe(jsonable_encoder(error.errors()))}, 422)


def create_app(session: Session, host: str | None = None, *, body_seconds: float = 10.0) -> FastAPI:
    """The whole web UI for ``session``: pages, ``/api``, ``/ws`` (docs/web.md, docs/api.md),
    to be served on ``host`` (default: the config's). Off loopback, the virtual board needs
    the referee's login; on loopback, only loopback host names are answered."""
    loopback = is_loopback(session.config.web.host if host is None else host)
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
    app.add_middleware(RequestGuard, loopback_only=loopback, body_seconds=body_seconds)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(Refused, refused)
    login = referee_guard(session)
    app.include_router(api_router(session, board_login=None if loopback else login))
    app.include_router(referee_router(session, login))
    served_on = session.config.web.host if host is None else host
    app.include_router(director_router(session, login, served_on))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    referee = Annotated[str, Depends(login)]
    board_access = [] if loopback else [Depends(login)]

    @app.get("/", include_in_schema=False)
    def spectator() -> HTMLResponse:
        return _page("spectator.html", session.config.display.language)

    @app.get("/big", include_in_schema=False)
    def big_screen() -> HTMLResponse:
        return _page("spectator.html", session.config.display.language)

    @app.get("/board", include_in_schema=False, dependencies=board_access)
    def virtual_board() -> HTMLResponse:
        if not isinstance(session.sensor, SimulatedBoard):
            raise HTTPException(404, "the virtual board exists only with the simulated sensor")
        return _page("board.html", session.config.display.language)

    def console_open() -> None:
        if not session.config.referee.password:
            raise ConsoleClosed

    def console_closed(_request: object, _error: Exception) -> HTMLResponse:
        """How to open the console, in the reader's language (503: not open yet)."""
        page = _page("closed.html", session.config.display.language)
        page.status_code = 503
        return page

    app.add_exception_handler(ConsoleClosed, console_closed)

    # console_open runs before the login: without a password the page says how to set one.
    @app.get("/referee", include_in_schema=False, dependencies=[Depends(console_open)])
    def referee_console(_: referee) -> HTMLResponse:
        return _page("referee.html", session.config.display.language)

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

    def __init__(
        self,
        app: FastAPI,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        limits: WebLimits = DEFAULT_LIMITS,
    ) -> None:
        self.host = host
        self.app = app
        limit_log_rate()
        config = uvicorn.Config(
            self.app,
            host=host,
            port=port,
            http=guarded_protocol(limits),
            log_level="warning",
            timeout_graceful_shutdown=2,
            timeout_keep_alive=limits.keep_alive_seconds,
            h11_max_incomplete_event_size=limits.max_head_bytes,
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

    def __init__(
        self,
        session: Session,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        limits: WebLimits = DEFAULT_LIMITS,
        app_host: str | None = None,
    ) -> None:
        """``app_host``: the address the app behaves as served on (default ``host``), for tests
        of an open address on loopback."""
        app = create_app(session, app_host or host, body_seconds=limits.body_seconds)
        super().__init__(app, host, port, limits=limits)


def serve_web(
    session: Session, stop: threading.Event, *, announce: Callable[[str], None] = print
) -> None:
    """Serve the web UI on the config's ``[web]`` host and port until ``stop`` is set (or the
    server dies); ``announce`` is told the addresses. ``OSError`` if the port is taken."""
    web = session.config.web
    server = WebServer(session, web.host, web.port)
    url = server.start()
    board = ""
    if isinstance(session.sensor, SimulatedBoard):
        board = ", virtual board /board" + ("" if is_loopback(web.host) else " (referee login)")
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
