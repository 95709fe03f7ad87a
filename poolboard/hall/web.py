"""The hall's web pages and API: the hall, standings, one table, the director's console, the feed.

Spectators read; everything that changes the event or a game needs the director's HTTP Basic
credentials (checked by the referee console's own guard). ``/ws`` sends every table's tile at
once, then each table's tile when it changes; a client that falls behind gets only the newest
tile of each table, so no client can make the hall or another client wait (docs/hall.md).
"""

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, TypeVar

from fastapi import Body, Depends, FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from engine.board import Board
from engine.phrase import Phrase
from poolboard.config import RefereeConfig
from poolboard.hall.broadcast import Broadcast
from poolboard.hall.event import DescribedResult, EventError, GameResult, Pairing, Standing
from poolboard.hall.monitor import ActionError, Alert, HallMonitor, Tile
from poolboard.hall.seating import LateSeating, seating_words
from poolboard.hall.table import ACTIONS
from poolboard.locale import LANGUAGES
from poolboard.session.state import BoardState
from poolboard.web.api import page_messages
from poolboard.web.app import _PAGE_HEADERS, _invalid_request
from poolboard.web.app import STATIC as BOARD_STATIC
from poolboard.web.guard import RequestGuard, is_loopback
from poolboard.web.hub import relay
from poolboard.web.models import AuditEntry, Done
from poolboard.web.referee import Refused, basic_guard, refused

STATIC = Path(str(resources.files("poolboard.hall.static")))
REALM = "poolboard hall director"
CSV_LIMIT = 200_000  # bytes of an uploaded CSV


#: A round number, in a body or a query (R-TRN-*): within what SQLite and JSON hold.
RoundNumber = Annotated[int, Field(ge=1, le=999)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PlayerBody(_Body):
    """A player to register."""

    name: str = Field(min_length=1, max_length=80)
    club: str = Field(default="", max_length=80)


class PairingBody(_Body):
    """Who plays at a table in a round; ``first`` has Black in game 1 (R-TRN-2)."""

    round: RoundNumber
    table: str = Field(min_length=1, max_length=32)
    first: str = Field(min_length=1, max_length=80)
    second: str = Field(min_length=1, max_length=80)


class RenameBody(_Body):
    """A player's name corrected."""

    name: str = Field(min_length=1, max_length=80)
    new_name: str = Field(min_length=1, max_length=80)


class PlayerName(_Body):
    """One registered player."""

    name: str = Field(min_length=1, max_length=80)


class SeatBody(_Body):
    """One table of one round (a pairing to remove)."""

    round: RoundNumber
    table: str = Field(min_length=1, max_length=32)


class RoundBody(_Body):
    """The round being played."""

    round: RoundNumber


class ConfirmBody(_Body):
    """Game ``game`` of the match at ``table`` in ``round`` is confirmed."""

    round: RoundNumber
    table: str = Field(min_length=1, max_length=32)
    game: int = Field(ge=1, le=40)


class HallView(BaseModel):
    """The event, the round being played and the last started, every round with pairings,
    every table's tile, and the pages' language ([display]) and those there are."""

    event: str
    round: int
    started: int
    rounds: list[int]
    tables: list[Tile]
    language: str
    languages: list[str]


class TableDetail(BaseModel):
    """One table: its tile and the whole state it last published (null before any)."""

    tile: Tile
    state: BoardState | None


class StandingsView(BaseModel):
    """The event and its standings, best first."""

    event: str
    standings: list[Standing]


class Player(BaseModel):
    """A registered player; a ``withdrawn`` one is paired no more."""

    name: str
    club: str
    withdrawn: bool


class Withdrawn(Done):
    """A player withdrew: how many seats in rounds not started were freed."""

    freed: int


class PlayersImported(Done):
    """How many players a CSV registered."""

    players: int


class PairingsImported(Done):
    """How many pairings a CSV set."""

    pairings: int


class RoundRobin(Done):
    """How many rounds the round robin has."""

    rounds: int


class TableRefusal(BaseModel):
    """Why a table was not seated: its refusal as a director's action's 422 or 409 says it."""

    detail: str
    message: str
    values: dict[str, JsonValue]


class RoundStarted(Done):
    """What came of seating each table of the round (``seated`` or why not, in English), and
    the refusal of each table not seated, for the console's language."""

    tables: dict[str, str]
    refused: dict[str, TableRefusal]


class Confirmed(Done):
    """The result as confirmed."""

    result: GameResult


class _Client:
    """One hall page: the newest unsent tile of each table."""

    def __init__(self) -> None:
        self.pending: dict[str, str] = {}
        self.closed = False
        self.ready = asyncio.Event()

    def offer(self, table: str, text: str) -> None:
        self.pending[table] = text
        self.ready.set()

    def close(self) -> None:
        self.closed = True
        self.ready.set()

    async def next(self) -> list[str] | None:
        await self.ready.wait()
        self.ready.clear()
        texts, self.pending = list(self.pending.values()), {}
        return None if self.closed else texts


class HallHub:
    """Fans table tiles out to WebSocket clients. Unlike the board's Hub (one whole state,
    newest wins) a client keeps the newest tile of *each* table, so no table's change is lost
    to another's."""

    def __init__(self, monitor: HallMonitor) -> None:
        self.monitor = monitor
        self._clients: set[_Client] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        """Follow the monitor; call from the running event loop."""
        self._loop = asyncio.get_running_loop()
        self._unsubscribe = self.monitor.subscribe(self._on_change)

    def stop(self) -> None:
        """Stop following and close every client."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        for client in self._clients:
            client.close()

    def _tile(self, table: str) -> str:
        return json.dumps(self.monitor.summary(table), separators=(",", ":"))

    def _on_change(self, table: str) -> None:
        loop = self._loop
        if loop is None or loop.is_closed() or not self._clients:
            return
        text = self._tile(table)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._publish, table, text)

    def _publish(self, table: str, text: str) -> None:
        for client in self._clients:
            client.offer(table, text)

    async def serve(self, websocket: WebSocket) -> None:
        """Every tile at once (an empty list for an empty hall), then each change, until the
        client leaves: the first message tells the page it is live."""
        await websocket.accept()
        client = _Client()
        self._clients.add(client)
        try:
            tiles = [await asyncio.to_thread(self._tile, table) for table in self.monitor.tables]
            await websocket.send_text("[" + ",".join(tiles) + "]")
            await relay(websocket, self._send(websocket, client))
        finally:
            self._clients.discard(client)

    @staticmethod
    async def _send(websocket: WebSocket, client: _Client) -> None:
        while (texts := await client.next()) is not None:
            await websocket.send_text("[" + ",".join(texts) + "]")
        await websocket.close(code=1001)


#: The hall's pages and the titles they are given.
HALL_PAGES = {
    "hall": "the hall",
    "standings": "standings",
    "table": "table",
    "director": "director",
}


def compose(page: str, language: str = "en") -> str:
    """One hall page: the frame every page shares (head, header, navigation) around the page's
    own ``<main>`` from ``<page>.main.html``, telling its scripts the hall's language before
    anything is drawn (``veil.js`` hides a page until it is translated)."""
    frame = (STATIC / "frame.html").read_text(encoding="utf-8")
    main = (STATIC / f"{page}.main.html").read_text(encoding="utf-8")
    filled = frame.replace("{title}", HALL_PAGES[page]).replace("{page}", page)
    filled = filled.replace("{language}", language)
    return filled.replace("{main}", main)


_Value = TypeVar("_Value")


def _event_errors(action: Callable[[], _Value]) -> _Value:
    """What ``action`` returns; an EventError as a 422 with its message and values, which the
    console says in the hall's language."""
    try:
        return action()
    except EventError as error:
        raise Refused.of(error) from None


def create_hall_app(monitor: HallMonitor, broadcast: Broadcast) -> FastAPI:
    """The hall's pages and API (docs/hall.md)."""
    hub = HallHub(monitor)
    event = monitor.event
    config = monitor.config

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        hub.start()
        seating = LateSeating(monitor, event, seat)
        seating.start()
        yield
        seating.stop()
        hub.stop()

    app = FastAPI(title="poolboard hall", summary="Every table of the room live", lifespan=lifespan)
    # The table's own request guard: no cross-site changes from a director's logged-in browser,
    # loopback names only on loopback, bounded bodies, no framing (docs/service.md).
    app.add_middleware(RequestGuard, loopback_only=is_loopback(config.hall.host))
    # 422 naming the field even for NaN or Infinity, which a JSON answer cannot echo.
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(Refused, refused)
    director_config = RefereeConfig(
        username=config.director.username, password=config.director.password
    )
    director = Annotated[
        str,
        Depends(
            basic_guard(
                director_config,
                "director",
                REALM,
                "the director's console is closed: set [director] password in the hall config",
            )
        ),
    ]
    pages = {page: compose(page, config.display.language) for page in HALL_PAGES}

    def page_of(page: str) -> HTMLResponse:
        return HTMLResponse(pages[page], headers=_PAGE_HEADERS)

    app.mount("/static", StaticFiles(directory=BOARD_STATIC), name="static")
    app.mount("/hall-static", StaticFiles(directory=STATIC), name="hall-static")

    def known(table: str) -> str:
        if table not in monitor.tables:
            raise HTTPException(
                404, f"no table {table!r}; the tables are {', '.join(monitor.tables)}"
            )
        return table

    # -- pages ---------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def hall_page() -> HTMLResponse:
        return page_of("hall")

    @app.get("/big", include_in_schema=False)
    def big_screen() -> HTMLResponse:
        return page_of("hall")

    @app.get("/standings", include_in_schema=False)
    def standings_page() -> HTMLResponse:
        return page_of("standings")

    @app.get("/table/{table}", include_in_schema=False)
    def table_page(table: str) -> HTMLResponse:
        known(table)
        return page_of("table")

    @app.get("/director", include_in_schema=False)
    def director_page(_: director) -> HTMLResponse:
        return page_of("director")

    @app.websocket("/ws")
    async def live(websocket: WebSocket) -> None:
        await hub.serve(websocket)

    # -- public API ----------------------------------------------------------------------------

    @app.get("/api/hall")
    def hall() -> HallView:
        """The event, the round, every table's tile, the pages' language."""
        return HallView(
            event=config.hall.event,
            round=event.current_round,
            started=event.started_round,
            rounds=event.rounds(),
            tables=[monitor.summary(t) for t in monitor.tables],
            language=config.display.language,
            languages=list(LANGUAGES),
        )

    @app.get("/api/messages/{language}")
    def messages(language: str) -> dict[str, str]:
        """The pages' words in ``language``: English text to its translation (docs/web.md)."""
        return page_messages(language)

    @app.get("/api/tables/{table}")
    def table_state(table: str) -> TableDetail:
        """One table: its tile and the whole state it last published."""
        known(table)
        with monitor.lock:
            state = monitor.tables[table].state
        return TableDetail(tile=monitor.summary(table), state=state)

    @app.get("/api/standings")
    def standings() -> StandingsView:
        """The standings from confirmed results (points 4/2/0, R-TRN-3; tie-breaks docs/hall.md)."""
        return StandingsView(event=config.hall.event, standings=event.standings())

    @app.get("/api/pairings")
    def pairings(round: Annotated[RoundNumber | None, Query()] = None) -> list[Pairing]:
        """The pairings of one round (or all)."""
        return event.pairings(round)

    @app.get("/api/results")
    def results(round: Annotated[RoundNumber | None, Query()] = None) -> list[DescribedResult]:
        """Every result the tables reported, who had Black and White, the result in words,
        and who confirmed it."""
        return [event.described(r) for r in event.results(round)]

    @app.get("/api/players")
    def players() -> list[Player]:
        """The registered players; ``withdrawn`` ones are paired no more."""
        gone = event.withdrawn()
        return [
            Player(name=name, club=club, withdrawn=name in gone) for name, club in event.players()
        ]

    @app.get("/broadcast/")
    def feed_index() -> list[str]:
        """The feed's files."""
        return broadcast.names()

    @app.get(
        "/broadcast/{name}",
        response_class=PlainTextResponse,
        responses={200: {"content": {"application/x-pdn": {"schema": {"type": "string"}}}}},
    )
    def feed(name: str) -> PlainTextResponse:
        """A feed file: ``round-N.pdn`` or ``round-N-TABLE.pdn``, ``delay_seconds`` behind."""
        text = broadcast.text(name)
        if text is None:
            raise HTTPException(404, f"no feed file {name!r}")
        return PlainTextResponse(text, media_type="application/x-pdn")

    # -- the director --------------------------------------------------------------------------

    @app.get("/api/director/whoami")
    def whoami(name: director) -> dict[str, str]:
        """Check the director's credentials."""
        return {"director": name}

    @app.get("/api/director/alerts")
    def alerts(_: director) -> list[Alert]:
        """Active alerts, newest first."""
        return monitor.active_alerts()

    @app.post("/api/director/alerts/{alert_id}/dismiss")
    def dismiss(name: director, alert_id: int) -> Done:
        """The director has seen an alert."""
        if not monitor.dismiss(alert_id):
            raise HTTPException(404, f"no alert {alert_id}")
        event.audit(name, "dismiss", {"alert": alert_id})
        return Done()

    @app.get("/api/director/audit")
    def audit(_: director) -> list[AuditEntry]:
        """Every director action at the hall, oldest first (actions at a table are also in
        that table's own audit log, as ``hall:<director>``)."""
        return [AuditEntry.model_validate(row) for row in event.audit_log()]

    @app.post("/api/director/players")
    def add_player(name: director, body: PlayerBody) -> Done:
        """Register a player."""
        _event_errors(lambda: event.add_player(body.name, body.club))
        event.audit(name, "player", body.model_dump())
        return Done()

    async def _csv(request: Request) -> str:
        raw = await request.body()
        if len(raw) > CSV_LIMIT:
            too_big = Phrase("CSV larger than {limit} bytes", limit=CSV_LIMIT)
            raise Refused(413, str(too_big), too_big)
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            not_text = Phrase("the CSV is not UTF-8 text")
            raise Refused(422, str(not_text), not_text) from None

    @app.post("/api/director/players/rename")
    def rename_player(name: director, body: RenameBody) -> Done:
        """Correct a player's name; their pairings and results follow."""
        _event_errors(lambda: event.rename_player(body.name, body.new_name))
        event.audit(name, "rename", body.model_dump())
        return Done()

    @app.post("/api/director/players/withdraw")
    def withdraw_player(name: director, body: PlayerName) -> Withdrawn:
        """A player leaves: results kept, seats in rounds not started freed."""
        freed = _event_errors(lambda: event.withdraw_player(body.name))
        event.audit(name, "withdraw", {"name": body.name, "seats freed": freed})
        return Withdrawn(freed=freed)

    @app.post("/api/director/players.csv")
    async def import_players(name: director, request: Request) -> PlayersImported:
        """Register players from CSV ``name,club``; all or none, errors name the line."""
        text = await _csv(request)
        count = _event_errors(lambda: event.import_players(text))
        event.audit(name, "import-players", {"players": count})
        return PlayersImported(players=count)

    @app.post("/api/director/pairings")
    def add_pairing(name: director, body: PairingBody) -> Done:
        """Seat two players at a table for a round."""
        _event_errors(lambda: event.set_pairing(body.round, body.table, body.first, body.second))
        event.audit(name, "pairing", body.model_dump())
        return Done()

    @app.post("/api/director/pairings/remove")
    def remove_pairing(name: director, body: SeatBody) -> Done:
        """Nobody plays at a table in a round not started yet."""
        _event_errors(lambda: event.remove_pairing(body.round, body.table))
        event.audit(name, "unpair", body.model_dump())
        return Done()

    @app.post("/api/director/pairings.csv")
    async def import_pairings(name: director, request: Request) -> PairingsImported:
        """Pairings from CSV ``round,table,first,second``; all or none, errors name the line."""
        text = await _csv(request)
        count = _event_errors(lambda: event.import_pairings(text))
        event.audit(name, "import-pairings", {"pairings": count})
        return PairingsImported(pairings=count)

    @app.post("/api/director/round-robin")
    def generate(name: director) -> RoundRobin:
        """Pair every player with every other (replaces the pairings)."""
        rounds = _event_errors(event.generate_round_robin)
        event.audit(name, "round-robin", {"rounds": rounds})
        return RoundRobin(rounds=rounds)

    def seat(actor: str, round_number: int, table: str, first: str, second: str) -> Refused | None:
        """Send a table its players (the first with Black: game 1), the event and the round;
        None if seated, else the refusal. A finished match gives way to a new one first; a
        game not begun (no move) is set up again so that it is recorded with them."""
        with monitor.lock:
            state = monitor.tables[table].state
        details: dict[str, JsonValue] = {
            "event": config.hall.event[:100],
            "round": str(round_number),
            "black": first,
            "white": second,
        }
        calls: list[tuple[str, dict[str, JsonValue]]] = []
        if state is not None and state.result is not None:
            calls.append(("new-match", {}))
        calls.append(("details", details))
        begun = state is not None and state.clock.state != "ready"
        if state is not None and state.result is None and not state.moves and begun:
            # a game begun with no move yet is set up again, to be recorded with the names
            calls.append(("position", {"fen": state.start_fen or Board().fen()}))
        for action, args in calls:
            refusal = call_table(actor, table, action, args)
            if refusal is not None:
                return refusal
        return None

    @app.post("/api/director/round")
    def set_round(name: director, body: RoundBody) -> RoundStarted:
        """Start round ``round``: its pairings are fixed and each table is sent its players
        (names, event, round: on its pages and in its recorded games). ``tables``: what
        came of it at each table (a table offline is seated when the round is started again)."""
        _event_errors(lambda: event.set_round(body.round))
        event.audit(name, "round", {"round": body.round})
        for table in monitor.tables:
            broadcast.update(table)
        pairings = event.pairings(body.round)
        with ThreadPoolExecutor(max_workers=8) as pool:
            outcomes = pool.map(
                lambda p: seat(name, body.round, p.table, p.first, p.second), pairings
            )
            refusals = dict(zip([p.table for p in pairings], outcomes, strict=True))
        return RoundStarted(
            tables={table: seating_words(refusal) for table, refusal in refusals.items()},
            refused={
                table: TableRefusal.model_validate(
                    {"detail": refusal.detail, **refusal.phrase.to_json()}
                )
                for table, refusal in refusals.items()
                if refusal is not None
            },
        )

    @app.post("/api/director/confirm")
    def confirm(name: director, body: ConfirmBody) -> Confirmed:
        """Confirm a result a table reported; it then counts in the standings."""
        known(body.table)
        result = _event_errors(lambda: event.confirm(name, body.round, body.table, body.game))
        monitor.resolve(result.ref)
        return Confirmed(result=result)

    @app.post("/api/director/reject")
    def reject(name: director, body: ConfirmBody) -> Done:
        """Drop the newest unconfirmed result when it is not a game of the match."""
        known(body.table)
        _event_errors(lambda: event.reject(name, body.round, body.table, body.game))
        monitor.resolve(f"result:{body.round}:{body.table}:{body.game}")
        return Done()

    def call_table(
        actor: str, table: str, action: str, args: dict[str, JsonValue]
    ) -> Refused | None:
        """Send a referee action to ``table`` and audit it with its outcome, answered or not:
        None if done, else the 422 of its refusal or the 409 of no answer, each with its
        ``message`` and ``values`` (the table's session's words, or the hall's)."""
        try:
            reply = monitor.send_action(table, actor, action, args)
        except ActionError as error:
            refusal: Refused | None = Refused.of(error, 409)
            outcome: dict[str, object] = {"id": error.action_id, "ok": False, "error": str(error)}
        else:
            outcome = {"id": reply.id, "ok": reply.ok, "error": reply.error}
            refusal = None
            if not reply.ok:
                # A table older than its refusals' message and values has only the sentence.
                said = reply.error or ""
                values = reply.model_dump(include={"values"})["values"]
                try:
                    phrase = Phrase.from_json({"message": reply.message or said, "values": values})
                except ValueError:  # words the table sent that cannot be said: its sentence
                    phrase = Phrase(said)
                refusal = Refused(422, said, phrase)
        outcome["status"] = 200 if refusal is None else refusal.status_code
        if refusal is not None:
            outcome |= refusal.phrase.to_json()
        # Answered or not, every call is in the audit with what came of it.
        event.audit(actor, f"table-{action}", {"table": table, "args": args, **outcome})
        return refusal

    @app.post("/api/director/tables/{table}/{action}")
    def table_action(
        name: director,
        table: str,
        action: str,
        args: Annotated[dict[str, JsonValue] | None, Body()] = None,
    ) -> Done:
        """Send a referee action (docs/api.md's referee actions) to a table over the broker;
        422 with the table's message if it refuses, 409 if it is offline or silent."""
        known(table)
        if action not in ACTIONS:
            raise HTTPException(404, f"no action {action!r}; expected one of {', '.join(ACTIONS)}")
        try:  # what the table would refuse unread (docs/hall.md, "Topics")
            json.dumps(args, allow_nan=False)
        except ValueError:
            error = Phrase("{action}: NaN and Infinity are not numbers", action=action)
            unsent: dict[str, object] = {"table": table, "id": None, "ok": False}
            unsent |= {"error": str(error), "status": 422} | error.to_json()
            event.audit(name, f"table-{action}", unsent)  # not sent; the args cannot be kept
            raise Refused(422, str(error), error) from None
        refusal = call_table(name, table, action, args or {})
        if refusal is not None:
            raise refusal
        return Done()

    return app
