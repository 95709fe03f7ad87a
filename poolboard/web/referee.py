"""The referee's API: HTTP Basic credentials from the config, then one endpoint per action.

Spectators are read-only; every change to a game other than play on the board comes through
here, and the session writes each one to the audit log with the referee's name.
"""

import secrets
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, status
from fastapi.security import HTTPBasic, HTTPBasicCredentials

from poolboard.config import RefereeConfig
from poolboard.session import RefereeError, Session
from poolboard.web.models import (
    ClockAdjustment,
    MoveCorrection,
    Penalty,
    Position,
    Result,
    SideBody,
)

REALM = "poolboard referee"
_basic = HTTPBasic(realm=REALM, auto_error=False)


def referee_guard(session: Session) -> Callable[..., str]:
    """A dependency that returns the referee's name, or refuses: 503 when no password is
    configured (the console is closed), 401 for missing or wrong credentials."""
    return basic_guard(
        session.config.referee,
        "referee",
        REALM,
        "the referee console is closed: set [referee] password in the config",
    )


def basic_guard(config: RefereeConfig, role: str, realm: str, closed: str) -> Callable[..., str]:
    """A dependency checking HTTP Basic credentials against ``config``'s name and password
    (the referee's, or the hall director's): the name; 503 ``closed`` without a password;
    401 with ``realm`` for missing or wrong ones."""

    def check(credentials: Annotated[HTTPBasicCredentials | None, Depends(_basic)]) -> str:
        if not config.password:
            raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, closed)
        if credentials is None:
            raise _unauthorized(f"{role} credentials required", realm)
        # Both compared in constant time, always both, so timing tells nothing.
        name_ok = secrets.compare_digest(credentials.username.encode(), config.username.encode())
        password_ok = secrets.compare_digest(
            credentials.password.encode(), config.password.encode()
        )
        if not (name_ok and password_ok):
            raise _unauthorized(f"wrong {role} name or password", realm)
        return credentials.username

    return check


def _unauthorized(detail: str, realm: str) -> HTTPException:
    return HTTPException(
        status.HTTP_401_UNAUTHORIZED, detail, headers={"WWW-Authenticate": f'Basic realm="{realm}"'}
    )


def _apply(action: Callable[[], None]) -> dict[str, Any]:
    """Run a session action; its RefereeError becomes a 422 with the session's message."""
    try:
        action()
    except RefereeError as error:
        raise HTTPException(422, str(error)) from None
    return {"ok": True}


def referee_router(session: Session) -> APIRouter:
    """``/api/referee/...``: the console's actions and the audit log."""
    actor = Annotated[str, Depends(referee_guard(session))]
    router = APIRouter(prefix="/api/referee", tags=["referee"])

    @router.get("/whoami")
    def whoami(name: actor) -> dict[str, str]:
        """Check credentials: the referee's name."""
        return {"referee": name}

    @router.post("/pause")
    def pause(name: actor) -> dict[str, Any]:
        """Stop both clocks."""
        return _apply(lambda: session.pause_clock(name))

    @router.post("/resume")
    def resume(name: actor) -> dict[str, Any]:
        """Restart the clock of the side to move."""
        return _apply(lambda: session.resume_clock(name))

    @router.post("/adjust-clock")
    def adjust_clock(name: actor, body: ClockAdjustment) -> dict[str, Any]:
        """Add time to a side's clock (negative seconds take time)."""
        return _apply(lambda: session.adjust_clock(name, body.color, float(body.seconds)))

    @router.post("/correct-move")
    def correct_move(name: actor, body: MoveCorrection) -> dict[str, Any]:
        """Replace a recorded move; later moves are kept while they stay legal."""
        return _apply(lambda: session.correct_move(name, body.ply, body.move))

    @router.post("/position")
    def set_position(name: actor, body: Position) -> dict[str, Any]:
        """Start a new game from a position (a problem, an adjourned game)."""
        return _apply(lambda: session.set_position(name, body.fen))

    @router.post("/count")
    def invoke_count(name: actor, body: SideBody) -> dict[str, Any]:
        """``side`` (the weaker side) calls the stronger-side count (R-DRW-4)."""
        return _apply(lambda: session.invoke_count(name, body.color))

    @router.post("/penalty")
    def penalty(name: actor, body: Penalty) -> dict[str, Any]:
        """Record a caution, or a forfeit that ends the game (R-TCH-2, R-ILL-1, R-END-3)."""
        return _apply(
            lambda: session.penalty(name, body.color, body.rule, body.severity, body.note)
        )

    @router.post("/result")
    def declare_result(name: actor, body: Result) -> dict[str, Any]:
        """End the game with a result and its reason."""
        return _apply(lambda: session.declare_result(name, body.result, body.reason))

    @router.post("/next-game")
    def next_game(name: actor) -> dict[str, Any]:
        """Start the next game of a match; the players change colours (R-TRN-2)."""
        return _apply(lambda: session.next_game(name))

    @router.get("/audit")
    def audit(name: actor) -> list[dict[str, Any]]:
        """Every referee action, oldest first."""
        return [
            {"time": time, "actor": who, "action": action, "data": data}
            for time, who, action, data in session.store.audit_log()
        ]

    return router
