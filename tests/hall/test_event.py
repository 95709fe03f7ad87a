"""The event: CSV imports with errors naming the line, round robin, R-TRN-2 colours, R-TRN-3
points and the documented tie-breaks, all in a real SQLite file."""

from itertools import combinations

import pytest

from engine.color import Color
from poolboard import records, words
from poolboard.hall.event import EventError, EventStore, result_words, round_robin

TABLES = ["t1", "t2", "t3"]


@pytest.fixture
def event(tmp_path):
    store = EventStore(tmp_path / "hall.sqlite3", TABLES, games_per_match=2)
    yield store
    store.close()


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 9])
def test_round_robin_meets_everyone_once(count) -> None:
    players = [f"p{i}" for i in range(count)]
    rounds = round_robin(players)
    assert len(rounds) == (count if count % 2 else count - 1)
    met = [frozenset(pair) for pairs in rounds for pair in pairs]
    assert sorted(met, key=sorted) == sorted(map(frozenset, combinations(players, 2)), key=sorted)
    for pairs in rounds:  # nobody plays twice in a round
        seated = [name for pair in pairs for name in pair]
        assert len(seated) == len(set(seated))
    firsts = [pair[0] for pairs in rounds for pair in pairs]
    assert max(firsts.count(p) for p in players) - min(firsts.count(p) for p in players) <= 2


def test_player_csv_errors_name_the_line(event) -> None:
    assert event.import_players("name,club\nAnn,Leeds\nBob,\n\n# late entry\nCyd,York\n") == 3
    with pytest.raises(EventError, match=r"players.csv line 3: player 'Ann' is registered"):
        event.import_players("Dan\nEve\nAnn\n")
    assert [n for n, _ in event.players()] == ["Ann", "Bob", "Cyd"]  # all or none
    with pytest.raises(EventError, match=r"line 1: expected name, club; got 3 fields"):
        event.import_players("Dan,York,extra\n")


def test_a_csv_error_is_worded_for_the_console_to_say_in_its_language(event) -> None:
    """The line and what was wrong there apart (a phrase within the refusal), the English as
    it was; the director's console looks each message up in the catalogue (docs/hall.md)."""
    event.import_players("Ann\n")
    with pytest.raises(EventError) as raised:
        event.import_players("Bob\nAnn\n")
    assert str(raised.value) == "players.csv line 2: player 'Ann' is registered already"
    assert raised.value.phrase.to_json() == {
        "message": "{source} line {line}: {error}",
        "values": {
            "source": "players.csv",
            "line": 2,
            "error": {
                "message": "player {name} is registered already",
                "values": {"name": "'Ann'"},
            },
        },
    }
    with pytest.raises(EventError) as raised:
        event.import_players("Cyd,York,extra\n")
    assert str(raised.value) == "players.csv line 1: expected name, club; got 3 fields"
    with pytest.raises(EventError) as raised:
        event.import_players("Cyd,\n,York\n")
    assert str(raised.value) == "players.csv line 2: player name '': expected 1-80 characters"


def test_pairing_csv_errors_name_the_line_and_change_nothing(event) -> None:
    event.import_players("Ann\nBob\nCyd\nDan\n")
    good = "round,table,first,second\n1,t1,Ann,Bob\n1,t2,Cyd,Dan\n"
    assert event.import_pairings(good) == 2
    cases = {
        "1,t1,Ann,Bbo\n": r"line 1: player 'Bbo' is not registered \(did you mean 'Bob'\?\)",
        "2,t1,Ann,Bob\n2,t9,Cyd,Dan\n": r"line 2: unknown table 't9'",
        "x,t1,Ann,Bob\n": r"line 1: round 'x' is not a number",
        "2,t1,Ann,Bob\n2,t2,Ann,Cyd\n": r"line 2: round 2: 'Ann' already plays at table t1",
        "2,t1,Ann\n": r"line 1: expected round, table, first, second; got 3 fields",
        "2,t1,Ann,Ann\n": r"line 1: 'Ann' cannot play themselves",
    }
    for text, message in cases.items():
        with pytest.raises(EventError, match=message):
            event.import_pairings(text, "pairings.csv")
    assert event.rounds() == [1]  # every bad file changed nothing


def test_round_robin_uses_the_tables_in_order(event) -> None:
    event.import_players("A\nB\nC\nD\nE\n")
    assert event.generate_round_robin() == 5
    assert [p.table for p in event.pairings(1)] == ["t1", "t2"]
    event.import_players("F\nG\nH\n")
    with pytest.raises(EventError, match="8 players need 4 tables; the hall has 3"):
        event.generate_round_robin()


def test_scores_colours_and_tie_breaks(event) -> None:
    event.import_players("Ann\nBob\nCyd\nDan\n")
    event.import_pairings("1,t1,Ann,Bob\n1,t2,Cyd,Dan\n")
    pairing = event.pairing(1, "t1")
    assert pairing.colours(1) == ("Ann", "Bob") and pairing.colours(2) == ("Bob", "Ann")
    # t1: Ann (Black) wins game 1, Bob (Black) and Ann draw game 2.
    # Results in checkers order: "1-0" is a win for Black, the side that moves first.
    assert event.report_result(1, "t1", 7, "1-0", "no moves").number == 1
    assert event.report_result(1, "t1", 8, "1/2-1/2", "agreed").number == 2
    assert event.report_result(1, "t1", 9, "0-1", "") is None  # the match has its two games
    assert event.report_result(1, "t1", 7, "1-0", "no moves") is None  # a duplicate
    corrected = event.report_result(1, "t1", 8, "0-1", "the referee corrected a move")
    assert (corrected.number, corrected.result) == (2, "0-1")  # replaces the unconfirmed one
    event.report_result(1, "t1", 8, "1/2-1/2", "agreed")
    # t2: two draws.
    event.report_result(1, "t2", 3, "1/2-1/2", "")
    event.report_result(1, "t2", 4, "1/2-1/2", "")
    assert all(s.points == 0 for s in event.standings())  # nothing confirmed yet
    for table in ("t1", "t2"):
        for number in (1, 2):
            event.confirm("director", 1, table, number)
    lines = {s.name: s for s in event.standings()}
    assert (lines["Ann"].points, lines["Ann"].wins, lines["Ann"].draws) == (6, 1, 1)  # 4 + 2
    assert (lines["Bob"].points, lines["Bob"].losses) == (2, 1)
    assert lines["Cyd"].points == lines["Dan"].points == 4
    assert [(s.place, s.name) for s in event.standings()] == [
        (1, "Ann"),
        (2, "Cyd"),
        (2, "Dan"),
        (4, "Bob"),
    ]
    assert lines["Bob"].buchholz == 6  # Ann's points
    with pytest.raises(EventError, match="no game 3 reported"):
        event.confirm("director", 1, "t1", 3)
    assert [a["action"] for a in event.audit_log()] == ["confirm"] * 4


def test_rejecting_a_warm_up_game(event) -> None:
    event.import_players("Ann\nBob\n")
    event.import_pairings("1,t1,Ann,Bob\n")
    event.report_result(1, "t1", 1, "1-0", "warm-up")
    event.reject("director", 1, "t1", 1)
    assert event.report_result(1, "t1", 1, "1-0", "warm-up") is None  # heard again: still out
    event.report_result(1, "t1", 2, "0-1", "")  # the match's first game: Ann has Black
    event.report_result(1, "t1", 3, "0-1", "")  # the second: Bob has Black
    with pytest.raises(EventError, match=r"only the newest game \(2\) can be rejected"):
        event.reject("director", 1, "t1", 1)
    event.confirm("director", 1, "t1", 2)
    with pytest.raises(EventError, match="game 2 is confirmed already"):
        event.reject("director", 1, "t1", 2)
    assert [(g.table_game_id, g.number) for g in event.results(1)] == [(2, 1), (3, 2)]
    event.confirm("director", 1, "t1", 1)
    assert {s.name: s.points for s in event.standings()} == {"Ann": 4, "Bob": 4}
    # Round 2: the game still on the table's board is round 1's, not round 2's first.
    event.import_pairings("2,t1,Bob,Ann\n")
    assert event.report_result(2, "t1", 3, "0-1", "") is None
    assert event.report_result(2, "t1", 4, "0-1", "").number == 1


def test_rename_withdraw_and_pairings_fixed_once_a_round_starts(event) -> None:
    event.import_players("Ann\nBob\nCyd\nDan\n")
    event.set_pairing(1, "t1", "Ann", "Bob")
    event.set_pairing(2, "t1", "Ann", "Cyd")
    event.set_pairing(2, "t2", "Bob", "Dan")
    # A rename follows the player into every pairing and the standings.
    event.rename_player("Ann", "Ann Lee")
    assert event.pairing(2, "t1") is not None and event.pairing(2, "t1").first == "Ann Lee"
    with pytest.raises(EventError, match="player 'Bob' is registered already"):
        event.rename_player("Cyd", "Bob")
    with pytest.raises(EventError, match=r"player 'Anne' is not registered \(did you mean"):
        event.rename_player("Anne", "X")
    # Starting round 1 fixes its pairings; round 2's can still change.
    event.set_round(1)
    assert event.started_round == 1
    with pytest.raises(EventError, match="round 1 has started: its pairings can no longer change"):
        event.set_pairing(1, "t1", "Cyd", "Dan")
    with pytest.raises(EventError, match="round 1 has started"):
        event.remove_pairing(1, "t1")
    with pytest.raises(EventError, match="a round robin would replace the pairings being played"):
        event.generate_round_robin()
    event.remove_pairing(2, "t2")
    assert [p.table for p in event.pairings(2)] == ["t1"]
    # A withdrawal frees the player's seats in rounds to come and keeps round 1's.
    assert event.withdraw_player("Cyd") == 1
    assert event.pairings(2) == [] and event.pairing(1, "t1") is not None
    assert event.withdrawn() == {"Cyd"} and event.active_players() == ["Ann Lee", "Bob", "Dan"]
    with pytest.raises(EventError, match="player 'Cyd' has withdrawn"):
        event.set_pairing(2, "t1", "Cyd", "Dan")


def test_results_in_words_name_the_winner_and_their_colour(event) -> None:
    """1-0 is Black's win in checkers (the opposite of chess): the words say who."""
    event.import_players("Ann Lee\nBob Ray\n")
    event.set_pairing(1, "t1", "Ann Lee", "Bob Ray")
    first = event.report_result(1, "t1", 7, "1-0", "White resigned")
    second = event.report_result(1, "t1", 8, "1-0", "White has no pieces left (R-END-1)")
    assert first is not None and second is not None
    assert event.described(first)["words"] == "Ann Lee (Black) wins — White resigned"
    # Game 2: colours swap (R-TRN-2), so Black is Bob.
    assert event.described(second)["words"] == (
        "Bob Ray (Black) wins — White has no pieces left (R-END-1)"
    )
    assert result_words("1/2-1/2", "agreed", "A", "B") == "Draw — agreed"
    assert result_words("0-1", "", "A", "?") == "White wins"
    assert result_words(None, "", "A", "B") == ""
    # The board's own pages word it so too (records.ended_said), in each language; the
    # audience's words leave the rule IDs out.
    ended = records.ended_said(Color.BLACK, "White has no pieces left (R-END-1)", "Ann", "Bob")
    assert result_words("1-0", "White has no pieces left (R-END-1)", "Bob", "Ann") == str(ended)
    assert event.described(second)["result_words"]["es"] == (
        "Gana Bob Ray (Negras) — Blancas no tienen piezas (R-END-1)"
    )
    audience = result_words("1-0", "White has no pieces left (R-END-1)", "Bob", "Ann", codes=False)
    assert audience == words.result(Color.BLACK, "White has no pieces left (R-END-1)", "Ann", "Bob")
    assert audience == "Bob (Black) wins — White has no pieces left"


def test_a_name_is_kept_on_one_line_as_a_table_keeps_it(event) -> None:
    """A name pasted with a line break (a form feed, U+2028) or doubled spaces is registered
    on one line, as the table records it in a PDN tag; it is found again however typed."""
    event.add_player("Ann\u2028 Lee", "Leeds\x0cClub")
    assert event.players() == [("Ann Lee", "Leeds Club")]
    event.rename_player("Ann  Lee", "Ann\nLee-Smith")
    assert event.players() == [("Ann Lee-Smith", "Leeds Club")]
    # A name an older hall kept with its spaces is the one found when typed with them.
    event._write("INSERT INTO players (name, club) VALUES ('Bo  Ray', '')", ())
    event.add_player("Bo Ray")
    event.rename_player("Bo  Ray", "Bo Ray-Old")
    assert [name for name, _ in event.players()] == ["Ann Lee-Smith", "Bo Ray-Old", "Bo Ray"]
