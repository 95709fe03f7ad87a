"""The public API: the state, the cue styles, recorded games, and the simulated board's inputs.

Reading is open to everyone on the network (spectators); the only writes here drive the
simulated board, exist only when the configured sensor is the simulated one, and need the
referee's login unless the server listens on loopback only (the demo on one's own computer).
"""

from collections.abc import Callable

from fastapi import APIRouter, Depends, HTTPException, Response
from pydantic import BaseModel, Field
from starlette.convertors import Convertor, register_url_convertor

from engine.cues import CUE_STYLES, CueKind
from engine.pdn.writer import write_game
from poolboard import records
from poolboard.locale import LANGUAGES
from poolboard.locale import messages as catalogue_messages
from poolboard.session import RefereeError, Session
from poolboard.session.state import BoardState, SaidView
from poolboard.simulated_board import SimulatedBoard
from poolboard.storage import DamagedGame, StorageError, StoredGame
from poolboard.web.models import BoardSnapshot, SideBody
from poolboard.web.referee import Refused

_BLINK_HERTZ = {"solid": 0.0, "slow": 1.0, "fast": 4.0}
#: Game ids are SQLite rowids: 64-bit signed integers.
_LARGEST_ID = 2**63 - 1


class _GameId(Convertor[int]):
    """A path's game id: digits, read as an int without converting thousands of them (Python
    refuses more than 4,300); any id beyond 64 bits becomes one that no game has."""

    regex = "[0-9]+"

    def convert(self, value: str) -> int:
        digits = value.lstrip("0") or "0"
        return int(digits) if len(digits) <= 19 else _LARGEST_ID + 1

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("game_id", _GameId())


class CueStyle(BaseModel):
    """How one cue kind is drawn: its colour and how it blinks."""

    rgb: list[int]
    hex: str
    blink: str
    hertz: float


class CueStyles(BaseModel):
    """Every cue kind's style, the kinds in priority order (highest first), the blink duty."""

    priority: list[str]
    kinds: dict[str, CueStyle]
    duty: float


class GameSummary(BaseModel):
    """A game in a listing; a damaged one has the same fields, empty, and ``damaged`` its
    reason (null for a sound game)."""

    id: int
    created: str
    rules: str | None
    headers: dict[str, str]
    result: str | None
    result_reason: str | None
    result_said: SaidView | None = Field(
        default=None, description="result_reason, to say in any language (if it was kept)"
    )
    plies: int
    damaged: str | None


class RecordedMove(BaseModel):
    """A move of a stored game, when it was recorded and the clocks after it (if one ran)."""

    ply: int
    move: str
    recorded: str
    clock_black: float | None
    clock_white: float | None


class GameDetail(GameSummary):
    """One game: its summary, start position and moves."""

    start_fen: str
    moves: list[RecordedMove]


def page_messages(language: str) -> dict[str, str]:
    """The pages' words in ``language`` (English text to its translation; English itself needs
    none), or a 404 naming the languages there are: a board's pages and the hall's alike."""
    if language not in LANGUAGES:
        raise HTTPException(404, f"no messages in {language!r}: one of {', '.join(LANGUAGES)}")
    return dict(catalogue_messages(language))


def cue_styles() -> CueStyles:
    """CUE_STYLES as JSON: each kind's colour and blink, in priority order (highest first)."""
    kinds = {}
    for kind in CueKind:
        style = CUE_STYLES[kind]
        red, green, blue = style.rgb
        kinds[kind.value] = CueStyle(
            rgb=[red, green, blue],
            hex=f"#{red:02x}{green:02x}{blue:02x}",
            blink=style.blink.value,
            hertz=_BLINK_HERTZ[style.blink.value],
        )
    return CueStyles(priority=[kind.value for kind in CueKind], kinds=kinds, duty=0.5)


def _summary(game: StoredGame | DamagedGame) -> GameSummary:
    """A game in a listing; a damaged one keeps the same fields, empty, with the reason."""
    if isinstance(game, DamagedGame):
        return GameSummary(
            id=game.id,
            created=game.created,
            rules=None,
            headers={},
            result=None,
            result_reason=None,
            plies=0,
            damaged=game.reason,
        )
    said = records.said_now(game.result_reason, game.result_said)
    return GameSummary(
        id=game.id,
        created=game.created,
        rules=game.rules,
        headers=game.headers,
        result=game.result,
        result_reason=game.result_reason,
        result_said=None if said is None else SaidView.model_validate(said.to_json()),
        plies=len(game.moves),
        damaged=None,
    )


def api_router(session: Session, board_login: Callable[..., str] | None = None) -> APIRouter:
    """``/api/...`` for everyone: state, cue styles, games, and the simulated board, whose
    inputs need ``board_login`` (a dependency, the referee's login) when it is given."""
    router = APIRouter(prefix="/api", tags=["public"])
    board_access = [Depends(board_login)] if board_login else []

    def stored(game_id: int) -> StoredGame:
        if game_id > _LARGEST_ID:
            raise HTTPException(404, "no such game: game ids are below 2**63")
        try:
            return session.store.game(game_id)
        except KeyError:
            raise HTTPException(404, f"no game {game_id}") from None
        except StorageError as error:
            raise HTTPException(500, str(error)) from None

    def simulated() -> SimulatedBoard:
        if not isinstance(session.sensor, SimulatedBoard):
            raise HTTPException(
                409,
                f"the board is a {session.config.sensor.kind} sensor, not the simulated board: "
                "play on the real board",
            )
        return session.sensor

    @router.get("/state", response_model=BoardState, response_model_by_alias=True)
    def state() -> BoardState:
        """Everything a screen shows: position, moves, clock, cues, result, counts, headers."""
        return session.board_state()

    @router.get("/info")
    def info() -> dict[str, object]:
        """What this server offers: the sensor kind, whether the virtual board and the referee
        console are open, the pages' language ([display]) and those there are."""
        return {
            "sensor": session.config.sensor.kind,
            "virtual_board": isinstance(session.sensor, SimulatedBoard),
            "referee_console": bool(session.config.referee.password),
            "language": session.config.display.language,
            "languages": list(LANGUAGES),
        }

    @router.get("/messages/{language}")
    def messages(language: str) -> dict[str, str]:
        """The pages' words in ``language``: English text to its translation (docs/web.md)."""
        return page_messages(language)

    @router.get("/cue-styles")
    def styles() -> CueStyles:
        """How each cue is drawn: colour and blink (engine/cues.py CUE_STYLES, docs/cues.md)."""
        return cue_styles()

    @router.get("/games")
    def games() -> list[GameSummary]:
        """Every recorded game, oldest first (headers, result, number of plies); a damaged one
        with ``damaged`` giving the reason (``null`` for a sound one)."""
        return [_summary(game) for game in session.store.games()]

    # Declared before /games/{id} so that "7.pdn" is never read as an id.
    @router.get(
        "/games/{game_id:game_id}.pdn",
        response_class=Response,
        responses={200: {"content": {"application/x-pdn": {}}}},
    )
    def game_pdn(game_id: int) -> Response:
        """One game as a PDN file, to download."""
        text = write_game(session.store.record(stored(game_id)))
        return Response(
            text,
            media_type="application/x-pdn; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="poolboard-{game_id}.pdn"'},
        )

    @router.get("/games/{game_id:game_id}")
    def game(game_id: int) -> GameDetail:
        """One game: headers, start position, moves with the clock times left after each."""
        found = stored(game_id)
        return GameDetail(
            **_summary(found).model_dump(),
            start_fen=found.start_fen,
            moves=[
                RecordedMove(
                    ply=move.ply,
                    move=move.notation,
                    recorded=move.recorded,
                    clock_black=move.clock_black,
                    clock_white=move.clock_white,
                )
                for move in found.moves
            ],
        )

    @router.get("/board", dependencies=board_access)
    def board() -> dict[str, list[int]]:
        """The simulated board's occupancy now (409 for a real sensor)."""
        return {"occupied": sorted(simulated().occupied)}

    @router.post("/board", dependencies=board_access)
    def set_board(body: BoardSnapshot) -> dict[str, list[int]]:
        """Report a whole occupancy from the simulated board, as the hardware would."""
        simulated().set_occupied(body.occupied)
        return {"occupied": body.occupied}

    @router.post("/lever", dependencies=board_access)
    def lever(body: SideBody) -> dict[str, str]:
        """A player presses their clock lever on the simulated board."""
        simulated().press_lever(body.color)
        return {"lever": body.side}

    @router.post("/hint", dependencies=board_access)
    def hint() -> dict[str, bool]:
        """Ask for a hint for the side to move: found by the engine, then lit on the board
        with the hint cues (docs/opponents.md); 409 says why no hint can be given now, as a
        referee's refusal does (``detail``, ``message``, ``values``)."""
        try:
            session.request_hint("web")
        except RefereeError as error:
            raise Refused.of(error, 409) from None
        return {"ok": True}

    @router.post("/adjust", dependencies=board_access)
    def adjust(body: SideBody) -> dict[str, str]:
        """A player announces "adjust" (R-TCH-3) on the simulated board."""
        simulated().announce_adjust(body.color)
        return {"adjust": body.side}

    return router
