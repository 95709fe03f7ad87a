"""What a tournament director needs beyond the referee's first console: the next game's details,
voiding moves, how a game ended, the match, the whole event as one PDN, the phone address as a
QR code, and a page that says how to open the console when no password is set.
"""

import ipaddress
import socket
from collections.abc import Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from engine.color import Color
from engine.pdn import write_games
from poolboard.session import Session
from poolboard.storage import StorageError, StoredGame
from poolboard.web.models import Done, PhoneLink
from poolboard.web.qr import qr_svg
from poolboard.web.referee import apply_action

_Text = Annotated[str, Field(min_length=1, max_length=100)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Details(_Body):
    """Players, event, site, round, time control: for this game until its first move, else for
    the next game (players as they will sit)."""

    event: _Text | None = None
    site: _Text | None = None
    round: _Text | None = None
    black: _Text | None = None
    white: _Text | None = None
    time_control: _Text | None = Field(default=None, examples=["apca-match", "300+5"])


class Void(_Body):
    """Strike the last ``plies`` moves from the record."""

    plies: StrictInt = Field(default=1, ge=1, le=10_000)


class Ending(_Body):
    """How the game ended: ``side`` resigns (``resign``) or is awarded it (``referee-win``)."""

    how: Literal["resign", "agree-draw", "referee-win", "referee-draw"]
    side: Literal["black", "white"] | None = None
    reason: str = Field(default="", max_length=200)


class Extension(_Body):
    """More games for the match: an even number (R-TRN-2)."""

    games: StrictInt = Field(default=2, ge=2, le=20, multiple_of=2)


class ConsoleClosed(Exception):
    """The referee console was asked for but no password is set: answered with a page saying
    how to set one (``static/closed.html``, 503)."""


def lan_address() -> str | None:
    """This machine's address on the local network (the route a packet out would take; none
    is sent), or ``None`` without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed, never answered
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if ipaddress.ip_address(address).is_loopback else address


def _is_loopback_address(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def phone_url(request: Request, served_on: str) -> str:
    """The address a phone in the room opens: the one this page was reached at, unless that
    is loopback and the server listens on every address, then the LAN address."""
    url = str(request.base_url)
    host = request.url.hostname or ""
    loopback = host == "localhost" or host.startswith("127.") or host == "::1"
    if loopback and served_on in ("0.0.0.0", "::", ""):
        lan = lan_address()
        if lan is not None:
            return url.replace(host, lan, 1)
    return url


def director_router(session: Session, login: Callable[..., str], served_on: str) -> APIRouter:
    """The director's endpoints under ``/api`` (docs/api.md), the referee's behind ``login``;
    ``served_on``: the address the server listens on."""
    actor = Annotated[str, Depends(login)]
    router = APIRouter(prefix="/api", tags=["director"])

    @router.post("/referee/details")
    def details(name: actor, body: Details) -> Done:
        """Set players, event, site, round or time control (this game or the next)."""
        changes = {key: value for key, value in body.model_dump().items() if value is not None}
        if not changes:
            raise HTTPException(
                422, "nothing to set: give event, site, round, black, white or time_control"
            )
        return apply_action(lambda: session.set_details(name, changes))

    @router.post("/referee/void")
    def void(name: actor, body: Void) -> Done:
        """Strike the last moves from the record (misrecorded); audited."""
        return apply_action(lambda: session.void_moves(name, body.plies))

    @router.post("/referee/end")
    def end(name: actor, body: Ending) -> Done:
        """End the game: a resignation, an agreed draw, a referee's decision or draw."""
        side = None if body.side is None else Color(body.side)
        return apply_action(lambda: session.end_game(name, body.how, side, body.reason))

    @router.post("/referee/extend-match")
    def extend(name: actor, body: Extension) -> Done:
        """Give the match more games (an even number)."""
        return apply_action(lambda: session.extend_match(name, body.games))

    @router.post("/referee/new-match")
    def new_match(name: actor) -> Done:
        """Start game 1 of a new match (after a result), with a fresh clock."""
        return apply_action(lambda: session.next_game(name, new_match=True))

    @router.get(
        "/games.pdn",
        response_class=Response,
        responses={200: {"content": {"application/x-pdn": {}}}},
    )
    def event_pdn() -> Response:
        """Every sound recorded game as one PDN file (a damaged one is left out)."""
        try:
            store = session.store
            games = [game for game in store.games() if isinstance(game, StoredGame)]
            text = write_games([store.record(game) for game in games])
        except StorageError as error:
            raise HTTPException(500, str(error)) from None
        return Response(
            text,
            media_type="application/x-pdn; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="poolboard-event.pdn"'},
        )

    @router.get("/phone")
    def phone(request: Request) -> PhoneLink:
        """The address a phone opens to follow the game and its QR code (SVG); ``reachable``
        is false when that address is loopback, which no phone can open."""
        url = phone_url(request, served_on)
        host = url.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0].strip("[]")
        loopback = host == "localhost" or _is_loopback_address(host)
        return PhoneLink(url=url, svg=qr_svg(url), reachable=not loopback)

    return router
