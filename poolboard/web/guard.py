"""What every request must satisfy before the application sees it (docs/service.md, "Who may do
what, and the limits").

:class:`RequestGuard` is the outermost ASGI layer, so it runs before routing and before any
password is checked:

- on a server listening on loopback, the ``Host`` must be a loopback name (a hostile site that
  re-points its own name at 127.0.0.1, "DNS rebinding", gets nothing);
- a change (POST, PUT, PATCH, DELETE) must carry the ``X-Poolboard`` header our pages send, and
  its ``Origin`` (or ``Referer``) must be this server: a browser cannot add that header to a
  cross-site form or ``no-cors`` fetch, and refuses to add it to any other cross-origin request
  without a CORS preflight, which this server never grants (cross-site request forgery);
- a body is at most :data:`MAX_BODY` bytes, refused from its ``Content-Length`` before it is
  read, and must arrive within ``body_seconds``;
- no response may be framed by another site (``frame-ancestors 'none'``, ``X-Frame-Options``).
"""

from __future__ import annotations

import asyncio
import ipaddress
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The largest request body accepted: the biggest real one (a penalty note) is under 7 KB.
MAX_BODY = 8192
#: The header our pages send with every change; any value will do.
CHANGE_HEADER = "X-Poolboard"
_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_NO_FRAMING = {"x-frame-options": "DENY", "x-content-type-options": "nosniff"}


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, ``[::1]`` too) is this machine's loopback."""
    name = host.strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _hostname(netloc: str) -> str:
    """``host`` of ``host:port`` / ``[v6]:port``."""
    return urlsplit(f"//{netloc}").hostname or ""


class RequestGuard:
    """ASGI middleware refusing cross-site changes, foreign Host names on loopback, and big or
    slow bodies; adds the no-framing headers to every response."""

    def __init__(self, app: ASGIApp, *, loopback_only: bool, body_seconds: float = 10.0) -> None:
        self.app = app
        self.loopback_only = loopback_only
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if self.loopback_only and not is_loopback(_hostname(host)):
            await self._refuse(scope, receive, send, 421, f"unknown host {host[:100]!r}")
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        send = _with_headers(send)
        if scope["method"] in _CHANGING:
            problem = _cross_site(headers, host)
            if problem:
                await self._refuse(scope, receive, send, 403, problem)
                return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await self._refuse(scope, receive, send, 413, _too_big())
            return
        if scope["method"] in _CHANGING or length is not None:
            try:
                async with asyncio.timeout(self.body_seconds):
                    body = await _read_body(receive)
            except TimeoutError:
                await self._refuse(scope, receive, send, 408, "the request body came too slowly")
                return
            if body is None:  # the client left
                return
            if len(body) > MAX_BODY:
                await self._refuse(scope, receive, send, 413, _too_big())
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, why: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": why[:100]})
            return
        headers = {"connection": "close"} if status in (408, 413) else None
        await JSONResponse({"detail": why}, status, headers=headers)(scope, receive, send)


def _cross_site(headers: Headers, host: str) -> str:
    """Why a change is refused as cross-site, or "" if it comes from this server's pages."""
    if CHANGE_HEADER not in headers:
        return (
            f"refused: a change needs the {CHANGE_HEADER} header that this board's pages send "
            "(cross-site request?)"
        )
    source = headers.get("origin") or headers.get("referer")
    if source is not None and urlsplit(source).netloc.lower() != host.lower():
        return f"refused: a change from another site ({source[:100]!r}) (cross-site request?)"
    return ""


def _too_big() -> str:
    return f"request body too large: at most {MAX_BODY} bytes"


async def _read_body(receive: Receive) -> bytes | None:
    """The whole body, or as soon as it is longer than MAX_BODY, that much of it; ``None`` if
    the client disconnected."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_BODY or not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the application the body already read, then the real one."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Message:
        return pending.pop() if pending else await receive()

    return replayed


def _with_headers(send: Send) -> Send:
    """Add the no-framing headers to the response (pages set a fuller CSP of their own)."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            for name, value in _NO_FRAMING.items():
                headers[name] = value
            if "content-security-policy" not in headers:
                headers["content-security-policy"] = "frame-ancestors 'none'"
        await send(message)

    return sending
