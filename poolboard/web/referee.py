"""The referee's API: HTTP Basic credentials from the config, then one endpoint per action.

Spectators are read-only; every change to a game other than play on the board comes through
here, and the session writes each one to the audit log with the referee's name.
"""

import base64
import binascii
import secrets
import time
import unicodedata
from collections.abc import Callable
from typing import Annotated, Self

from fastapi import APIRouter, Depends, HTTPException, Request, status
from fastapi.responses import JSONResponse

from engine.phrase import Phrase
from engine.refusal import Refusal
from poolboard.config import RefereeConfig
from poolboard.session import RefereeError, Session
from poolboard.web.models import (
    AuditEntry,
    ClockAdjustment,
    Done,
    MoveCorrection,
    Penalty,
    PositionSetup,
    Result,
    SideBody,
)

REALM = "poolboard referee"


class LoginBackoff:
    """Wrong passwords from one address: the first ``free`` cost nothing, then each one locks
    that address out for twice as long as the last (1 s, 2 s, 4 s ... at most ``longest``)."""

    def __init__(self, free: int = 5, longest: float = 60.0, remembered: int = 1024) -> None:
        self.free = free
        self.longest = longest
        self.remembered = remembered
        self._failures: dict[str, tuple[int, float]] = {}  # address -> (failures, locked until)

    def wait(self, address: str) -> float:
        """Seconds ``address`` must wait before its next try (0: it may try now)."""
        _, until = self._failures.get(address, (0, 0.0))
        return max(0.0, until - time.monotonic())

    def failed(self, address: str) -> None:
        """Count a wrong password from ``address``."""
        failures = self._failures.pop(address, (0, 0.0))[0] + 1
        locked = (
            0.0 if failures <= self.free else min(self.longest, 2.0 ** (failures - self.free - 1))
        )
        self._failures[address] = (failures, time.monotonic() + locked)
        while len(self._failures) > self.remembered:  # forget the longest-quiet address
            del self._failures[next(iter(self._failures))]

    def succeeded(self, address: str) -> None:
        """The right password: ``address`` starts afresh."""
        self._failures.pop(address, None)


def basic_credentials(header: str) -> tuple[str, str] | None:
    """The name and password of a ``Basic`` Authorization header, decoded as UTF-8 and put in
    Unicode normal form C (a phone may send "é" as one code point or two); ``None`` if it is
    not one."""
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    name, colon, password = decoded.partition(":")
    if not colon:
        return None
    return unicodedata.normalize("NFC", name), unicodedata.normalize("NFC", password)


def referee_guard(session: Session) -> Callable[..., str]:
    """A dependency that returns the referee's name, or refuses: 503 when no password is
    configured (the console is closed), 401 for missing or wrong credentials, 429 while the
    client's address is locked out after wrong passwords (:class:`LoginBackoff`)."""
    return basic_guard(
        session.config.referee,
        "referee",
        REALM,
        "the referee console is closed: set [referee] password in the config",
    )


def basic_guard(config: RefereeConfig, role: str, realm: str, closed: str) -> Callable[..., str]:
    """A dependency checking HTTP Basic credentials against ``config``'s name and password
    (the referee's, or the hall director's): the name; 503 ``closed`` without a password;
    401 with ``realm`` for missing or wrong ones; 429 while the client's address is locked out
    after wrong passwords (:class:`LoginBackoff`)."""
    expected_name = unicodedata.normalize("NFC", config.username).encode()
    expected_password = unicodedata.normalize("NFC", config.password).encode()
    backoff = LoginBackoff()

    def check(request: Request) -> str:
        if not config.password:
            raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, closed)
        header = request.headers.get("authorization")
        if header is None:
            raise _unauthorized(f"{role} credentials required", realm)
        address = request.client.host if request.client else ""
        wait = backoff.wait(address)
        if wait:
            raise HTTPException(
                status.HTTP_429_TOO_MANY_REQUESTS,
                f"too many wrong {role} passwords from {address}: try again in {wait:.0f} s",
                headers={"Retry-After": str(max(1, round(wait)))},
            )
        name, password = basic_credentials(header) or ("", "")
        # Both compared in constant time, always both, so timing tells nothing.
        name_ok = secrets.compare_digest(name.encode(), expected_name)
        password_ok = secrets.compare_digest(password.encode(), expected_password)
        if not (name_ok and password_ok):
            backoff.failed(address)
            raise _unauthorized(f"wrong {role} name or password", realm)
        backoff.succeeded(address)
        return name

    return check


def _unauthorized(detail: str, realm: str) -> HTTPException:
    return HTTPException(
        status.HTTP_401_UNAUTHORIZED,
        detail,
        # Browsers send Basic credentials in UTF-8 when told so (RFC 7617).
        headers={"WWW-Authenticate": f'Basic realm="{realm}", charset="UTF-8"'},
    )


class Refused(HTTPException):
    """A refused action (:func:`refused`): a 422 for the referee's or the director's, a 409
    for a hint that cannot be given now or a director's action a table did not answer, a 413
    for a director's CSV too large; ``detail`` is the English sentence, ``phrase`` the same
    words language-neutral (its ``message`` and ``values``)."""

    def __init__(self, status: int, detail: str, phrase: Phrase):
        super().__init__(status, detail)
        self.phrase = phrase

    @classmethod
    def of(cls, error: Refusal, status: int = 422) -> Self:
        """The answer to ``error``, a refusal of the session or of the hall."""
        return cls(status, str(error), error.phrase)


async def refused(_: Request, error: Exception) -> JSONResponse:
    """The answer to a refused action: ``detail``, ``message`` and ``values``, so a page says
    it in its language (``t(message, values)``, the message being a key of the catalogue)."""
    assert isinstance(error, Refused)
    return JSONResponse({"detail": error.detail, **error.phrase.to_json()}, error.status_code)


def apply_action(action: Callable[[], None]) -> Done:
    """Run a session action; its RefereeError becomes a 422 with the session's message."""
    try:
        action()
    except RefereeError as error:
        raise Refused.of(error) from None
    return Done()


def referee_router(session: Session, login: Callable[..., str]) -> APIRouter:
    """``/api/referee/...``: the console's actions and the audit log, each behind ``login``
    (:func:`referee_guard`)."""
    actor = Annotated[str, Depends(login)]
    router = APIRouter(prefix="/api/referee", tags=["referee"])

    @router.get("/whoami")
    def whoami(name: actor) -> dict[str, str]:
        """Check credentials: the referee's name."""
        return {"referee": name}

    @router.post("/pause")
    def pause(name: actor) -> Done:
        """Stop both clocks."""
        return apply_action(lambda: session.pause_clock(name))

    @router.post("/resume")
    def resume(name: actor) -> Done:
        """Restart the clock of the side to move."""
        return apply_action(lambda: session.resume_clock(name))

    @router.post("/adjust-clock")
    def adjust_clock(name: actor, body: ClockAdjustment) -> Done:
        """Add time to a side's clock (negative seconds take time)."""
        return apply_action(lambda: session.adjust_clock(name, body.color, float(body.seconds)))

    @router.post("/correct-move")
    def correct_move(name: actor, body: MoveCorrection) -> Done:
        """Replace a recorded move; later moves are kept while they stay legal."""
        return apply_action(lambda: session.correct_move(name, body.ply, body.move))

    @router.post("/position")
    def set_position(name: actor, body: PositionSetup) -> Done:
        """Start a new game from a position (a problem, an adjourned game)."""
        return apply_action(lambda: session.set_position(name, body.fen))

    @router.post("/count")
    def invoke_count(name: actor, body: SideBody) -> Done:
        """``side`` (the weaker side) calls the stronger-side count (R-DRW-4)."""
        return apply_action(lambda: session.invoke_count(name, body.color))

    @router.post("/penalty")
    def penalty(name: actor, body: Penalty) -> Done:
        """Record a caution, or a forfeit that ends the game (R-TCH-2, R-ILL-1, R-END-3)."""
        return apply_action(
            lambda: session.penalty(name, body.color, body.rule, body.severity, body.note)
        )

    @router.post("/result")
    def declare_result(name: actor, body: Result) -> Done:
        """End the game with a result and its reason."""
        return apply_action(lambda: session.declare_result(name, body.result, body.reason))

    @router.post("/next-game")
    def next_game(name: actor) -> Done:
        """Start the next game of a match; the players change colours (R-TRN-2)."""
        return apply_action(lambda: session.next_game(name))

    @router.get("/audit")
    def audit(name: actor) -> list[AuditEntry]:
        """Every referee action, oldest first."""
        return [
            AuditEntry(time=time, actor=who, action=action, data=data)
            for time, who, action, data in session.store.audit_log()
        ]

    return router
