"""The session core's promises (docs/architecture.md): inputs handled one at a time in the order
they came, from any thread; a change told to subscribers only once it is stored."""

import threading
from dataclasses import dataclass

from poolboard.session import Input, Session
from poolboard.session.events import BoardChanged, MovePlayed, RecordRewritten


@dataclass(frozen=True)
class Note(Input[int]):
    """An input that notes its name in ``log`` and answers how many were noted before it."""

    name: str
    log: list

    def handle(self, core: Session) -> int:
        self.log.append(self.name)
        return len(self.log) - 1


def test_an_input_posted_while_the_core_is_busy_is_handled_when_it_is_free(make_table) -> None:
    session = make_table().session
    log: list[str] = []
    with session.lock:  # the core busy with something else
        poster = threading.Thread(target=lambda: session.post(Note("posted", log)))
        poster.start()
        poster.join()  # post never waits for the core
        assert log == []
        assert session.submit(Note("submitted", log)) == 1  # after the one queued before it
        assert log == ["posted", "submitted"]
    session.post(Note("idle", log))  # the core is idle: handled at once
    assert log == ["posted", "submitted", "idle"]
    session.close()


def test_a_move_is_told_only_once_it_is_stored(make_table) -> None:
    table = make_table()
    session = table.session
    heard: list[tuple[str, object]] = []

    def on_move(event: MovePlayed) -> None:
        stored = [m.notation for m in session.store.game(event.game_id).moves]
        heard.append(("move", (event.ply, event.notation, stored)))

    session.events.subscribe(MovePlayed, on_move)
    session.events.subscribe(RecordRewritten, lambda event: heard.append((event.kind, event.ply)))
    session.events.subscribe(BoardChanged, lambda event: heard.append(("state", event.json)))
    table.set_up()
    heard.clear()
    table.move(11, 15)
    kinds = [kind for kind, _ in heard]
    assert kinds.count("move") == 1
    assert kinds[kinds.index("move") + 1] == "state"  # the change's events, then the whole state
    assert ("move", (1, "11-15", ["11-15"])) in heard  # in the store when it is told
    last = heard[-1][1]  # the newest state told is the state now (but the clock, which runs)
    assert {k for k in last if last[k] != session.state()[k]} == {"clock"}
    session.correct_move("referee", 1, "11-16")
    assert ("correction", 1) in heard
    session.close()
