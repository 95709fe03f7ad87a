"""Hostile and broken sensor logs (issue #14 item 11): one clear error naming the line and what
was wrong, never another exception; and a fuzz test holding the reader to that."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.color import Color
from engine.events import FaultReported
from engine.phrase import Phrase
from engine.sensing import AdjustNotice, LeverPress, LinkHealth, SensorFault, Snapshot
from engine.tracker import TrackerConfig
from hardware.matrix import _diode_fault
from poolboard.commands.replay import replay_log
from poolboard.sensor_log import (
    GameMarker,
    SensorLogError,
    SensorLogWriter,
    read_sensor_log,
)
from poolboard.words import said

GOOD = b'{"t": 0, "occupied": [1, 2]}\n'
#: The start position's occupancy: Black on 1-12, White on 21-32.
START = frozenset(range(1, 13)) | frozenset(range(21, 33))

BAD_LINES = [
    (b'{"t": 1, "occupied": [[1]]}', '"occupied": [1] is not a dark square 1-32 (R-BRD-2)'),
    (b'{"t": 1, "occupied": [{}]}', '"occupied": {} is not a dark square'),
    (b'{"t": 1, "occupied": [true]}', '"occupied": True is not a dark square'),
    (b'{"t": 1, "occupied": 5}', '"occupied" must be a list of squares 1-32, got 5'),
    (b'{"t": 1, "fault": "x", "squares": 5}', '"squares" must be a list of squares'),
    (b'{"t": 1, "fault": "x", "squares": [33]}', '"squares": 33 is not a dark square'),
    (b"[" * 50_000, "nested too deeply"),
    (b'{"t": ' * 10_000, "nested too deeply"),
    (b'{"t": 1, "occupied": [1, "\xff\xfe"]}', "not UTF-8 text (byte 0xff at column 27)"),
    (b'{"t": 1' + b"0" * 400 + b', "occupied": []}', "a number of 401 digits"),
    (b'{"t": 1e400, "occupied": []}', "1e400 is too large a number"),
    (b'{"t": Infinity, "occupied": []}', "Infinity is not a number a log may hold"),
    (b'{"t": -Infinity, "occupied": []}', "-Infinity is not a number a log may hold"),
    (b'{"t": NaN, "occupied": []}', "NaN is not a number a log may hold"),
    (b'{"t": "1", "occupied": []}', "\"t\" must be a finite number of seconds >= 0, got '1'"),
    (b'{"t": -1, "occupied": []}', '"t" must be a finite number of seconds >= 0, got -1'),
    (b'{"t": true, "occupied": []}', '"t" must be a finite number of seconds >= 0, got True'),
    (b'{"occupied": []}', '"t" must be a finite number of seconds >= 0, got None'),
    (b"[1, 2]", "expected a JSON object, got [1, 2]"),
    (b'{"t": 1}', 'a line needs exactly one of the keys "occupied", "lever"'),
    (b'{"t": 1, "occupied": [], "lever": "black"}', "it has occupied, lever"),
    (b'{"t": 1, "lever": "red"}', '"lever" must be "black" or "white", got \'red\''),
    (b'{"t": 1, "adjust": ["white"]}', '"adjust" must be "black" or "white"'),
    (b'{"t": 1, "link": "sideways"}', '"link" must be "up" or "down"'),
    (b'{"t": 1, "link": "up", "detail": {}}', '"detail" must be a string, got {}'),
    (b'{"t": 1, "fault": 7}', '"fault" must be a string, got 7'),
    (b'{"t": 1, "game": true, "fen": "B:W21:B1"}', '"game" must be a game number, got True'),
    (b'{"t": 1, "game": 1}', 'a game marker needs "fen" (a PDN FEN), got None'),
    (b'{"t": 1, "game": 1, "fen": "B:W21:B1", "resume": 1}', '"resume" must be true or false'),
    (b'{"t": 1, "occupied": [1], "pieces": ["b"]}', '"pieces" must be an object'),
    (b'{"t": 1, "occupied": [1], "pieces": {"1": "x"}}', "square 1: 'x' is not b, w, B, W or ?"),
    (b'{"t": 1, "occupied": [1], "pieces": {"one": "b"}}', "\"pieces\": 'one' is not a dark"),
    (b'{"t": 1, "occupied": [1], "pieces": {"2": "b"}}', "they differ on [1, 2]"),
    (b'{"t": 1, "fault": "x", "said": "x"}', "\"said\": phrase: 'x' is not an object with a"),
    (
        b'{"t": 1, "fault": "x", "said": {"message": "y"}}',
        "\"said\" says 'y', not the \"fault\" 'x'",
    ),
    (
        b'{"t": 1, "link": "down", "said": {"message": "{a}", "values": {"b": 1}}}',
        "\"said\": phrase: '{a}' has no value for {a}",
    ),
    (
        b'{"t": 1, "fault": "1", "said": {"message": "{a}", "values": {"a": [1]}}}',
        '"said": phrase.values.a: [1] is not a text, a number or words',
    ),
    (b"{not json}", "not JSON: Expecting property name enclosed in double quotes at column 2"),
    (b'{"t": 1, "occupied": [' + b"9" * 5000 + b"]}", "a number of 5000 digits"),
]


@pytest.mark.parametrize(("line", "message"), BAD_LINES, ids=[m[:40] for _, m in BAD_LINES])
def test_each_bad_line_is_one_clear_error_naming_it(tmp_path: Path, line: bytes, message: str):
    log = tmp_path / "bad.jsonl"
    log.write_bytes(GOOD + line + b"\n" + GOOD)
    with pytest.raises(SensorLogError) as caught:
        list(read_sensor_log(log))
    assert str(caught.value).startswith(f"{log}:2: ")
    assert message in str(caught.value)
    assert len(str(caught.value)) < len(str(log)) + 200  # never echoes a huge token


def test_a_line_too_long_to_be_a_sensor_event_is_refused_unread(tmp_path: Path) -> None:
    log = tmp_path / "huge.jsonl"
    log.write_bytes(GOOD + b'{"t": 1, "fault": "' + b"x" * 10_000_000 + b'"}\n')
    with pytest.raises(SensorLogError, match=r"huge.jsonl:2: line longer than 65536 bytes"):
        list(read_sensor_log(log))


def test_order_sensor_lines_never_go_back_nor_markers(tmp_path: Path) -> None:
    log = tmp_path / "order.jsonl"
    marker = b'{"t": 5, "game": 1, "fen": "B:W21:B1"}\n'
    log.write_bytes(b'{"t": 4, "occupied": [1]}\n' + marker + b'{"t": 4.5, "occupied": [2]}\n')
    assert [e.t for e in read_sensor_log(log)] == [4, 5, 4.5]  # sensed before, handled after
    log.write_bytes(marker + b'{"t": 4.5, "occupied": [2]}\n{"t": 4.4, "occupied": [2]}\n')
    with pytest.raises(SensorLogError, match=r":3: t went back from 4.5 to 4.4; a sensor line"):
        list(read_sensor_log(log))
    log.write_bytes(marker + marker.replace(b"5", b"3"))
    with pytest.raises(SensorLogError, match=r":2: t went back from 5 to 3; a game marker"):
        list(read_sensor_log(log))


def test_a_byte_order_mark_and_blank_lines_are_fine(tmp_path: Path) -> None:
    log = tmp_path / "bom.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + GOOD + b"\n  \n" + GOOD)
    assert [e.occupied for e in read_sensor_log(log)] == [frozenset({1, 2})] * 2


def test_replay_cli_gives_one_line_for_a_hostile_log(tmp_path: Path) -> None:
    log = tmp_path / "hostile.jsonl"
    log.write_bytes(GOOD + b'{"t": 1' + b"0" * 400 + b', "occupied": [[1]]}\n')
    result = subprocess.run(
        [sys.executable, "-m", "poolboard.cli", "replay", str(log)], capture_output=True, text=True
    )
    assert result.returncode == 1
    assert (
        result.stderr.strip().splitlines()
        == [f"poolboard replay: {log}:2: not JSON: a number of 401 digits"]
        or "a number of 401 digits" in result.stderr
    )
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


def test_a_fault_s_words_are_logged_and_replayed_in_each_language(tmp_path: Path) -> None:
    """A fault (and a link going down) keeps its words in the log, so a replay says it in the
    pages' language; a line from an older log, without them, still replays in English."""
    fault = _diode_fault(2.5, 1 << 4, 1 << 8 | 1 << 12)  # as the reed-switch board words it
    waiting = Phrase("waiting for a board with USB id {usb}", usb="2E8A:000A")
    down = LinkHealth(3.0, False, str(waiting), waiting)
    log = tmp_path / "sensor.jsonl"
    with open(log, "w", encoding="utf-8") as handle:
        SensorLogWriter(handle).write_all([Snapshot(0.0, START), fault, down])
        handle.write('{"t": 4.0, "fault": "ghost at 12", "squares": [12]}\n')  # an older log
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    # What an older poolboard reads is there as it wrote it; the words are one key more.
    assert {key: lines[1][key] for key in lines[1] if key != "said"} == {
        "t": 2.5,
        "fault": fault.message,
        "squares": [5, 9, 13],
    }
    assert lines[1]["said"] == fault.said.to_json() and "said" not in lines[3]
    old = SensorFault(4.0, "ghost at 12", frozenset({12}))
    assert list(read_sensor_log(log)) == [Snapshot(0.0, START), fault, down, old]
    ((_tracker, events),) = replay_log(str(log), Board(), TrackerConfig.for_profile("apca"))
    faults = [event for event in events if isinstance(event, FaultReported)]
    assert [(f.message, f.said) for f in faults] == [
        (fault.message, fault.said),
        ("ghost at 12", None),
    ]
    assert said(faults[0].said, "es").startswith("diodo ausente o en cortocircuito en casilla 5")
    assert said(waiting, "es") != str(waiting)


# -- fuzz ---------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
keys = st.sampled_from(
    ["t", "occupied", "pieces", "lever", "adjust", "fault", "squares", "link", "said"]
)
log_objects = st.dictionaries(
    keys | st.sampled_from(["game", "fen", "resume", "detail"]), json_values
)
plain = st.text(st.characters(blacklist_characters="{}"), max_size=8)
names = st.from_regex(r"[a-z]{1,5}", fullmatch=True)
#: Words as a sensor makes them: a message whose places are the names of its values.
phrases = st.recursive(
    st.builds(Phrase, plain),
    lambda inner: st.builds(
        lambda text, values: Phrase(text + "".join(f"{{{n}}}" for n in values), **values),
        plain,
        st.dictionaries(
            names,
            inner
            | plain
            | st.integers(-(10**18), 10**18)
            | st.floats(allow_nan=False, allow_infinity=False),
            max_size=3,
        ),
    ),
    max_leaves=6,
)
squares = st.frozensets(st.integers(min_value=1, max_value=32), max_size=32)
times = st.floats(min_value=0, max_value=1e6)
sides = st.sampled_from(list(Color))
sensor_events = st.one_of(
    st.builds(Snapshot, times, squares),
    st.builds(
        Snapshot.from_pieces,
        times,
        st.dictionaries(st.integers(1, 32), st.sampled_from("bwBW?"), max_size=32),
    ),
    st.builds(LeverPress, times, sides),
    st.builds(AdjustNotice, times, sides),
    st.builds(SensorFault, times, st.text(max_size=20), squares),
    st.builds(LinkHealth, times, st.booleans(), st.text(max_size=20)),
    st.builds(SensorFault.worded, times, phrases, squares),
    st.builds(
        lambda t, up, said: LinkHealth(t, up, str(said), said), times, st.booleans(), phrases
    ),
    st.builds(GameMarker, times, st.integers(0, 10**9), st.text(max_size=20), st.booleans()),
)


def read_or_refuse(path: Path) -> list:
    try:
        return list(read_sensor_log(path))
    except SensorLogError as error:
        assert str(error).startswith(f"{path}:")
        return []


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(log_objects | json_values, max_size=4))
def test_fuzz_any_json_lines_give_events_or_one_clean_error(tmp_path: Path, lines: list) -> None:
    log = tmp_path / "fuzz.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    for event in read_or_refuse(log):
        assert event.t >= 0


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.binary(max_size=60), max_size=4))
def test_fuzz_any_bytes_give_events_or_one_clean_error(tmp_path: Path, lines: list) -> None:
    log = tmp_path / "fuzz.jsonl"
    log.write_bytes(b"\n".join(lines))
    read_or_refuse(log)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(sensor_events, max_size=6))
def test_fuzz_events_written_read_back_the_same(tmp_path: Path, events: list) -> None:
    events.sort(key=lambda e: e.t)
    events = [
        type(e)(**{**{f: getattr(e, f) for f in e.__slots__}, "t": round(e.t, 4)}) for e in events
    ]
    log = tmp_path / "round.jsonl"
    with open(log, "w", encoding="utf-8") as handle:
        SensorLogWriter(handle).write_all(events)
    assert list(read_sensor_log(log)) == events
