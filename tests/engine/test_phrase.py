"""Words stored or sent as JSON read back by one reader (``Phrase.from_json``): what was written
is read as it was, anything else refused with a ValueError saying what is wrong and where."""

import doctest
import json

import pytest

import engine.phrase
from engine.phrase import MAX_DEPTH, MAX_SAID, Phrase, joined


def test_words_written_are_read_back_as_they_were() -> None:
    moves = joined(["12-16", "12-17", "12-20"], "{first} or {then}")
    line = Phrase(
        "{first}; {then}",
        first=Phrase("put a piece on {squares}", squares="12"),
        then=Phrase("then move {moves} ({count} of {ratio})", moves=moves, count=3, ratio=0.5),
    )
    again = Phrase.from_json(json.loads(json.dumps(line.to_json())))
    assert again == line
    assert str(again) == "put a piece on 12; then move 12-16 or 12-17 or 12-20 (3 of 0.5)"
    # Words without values may leave them out (or send null), and say their message as it is.
    assert Phrase.from_json({"message": "Draw"}) == Phrase("Draw")
    assert Phrase.from_json({"message": "{side}", "values": None}) == Phrase("{side}")
    # Keys a newer program adds are left unread.
    assert Phrase.from_json({"message": "Draw", "tone": "calm"}) == Phrase("Draw")


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (None, "phrase: None is not an object with a message"),
        ("Draw", "phrase: 'Draw' is not an object with a message"),
        ({"values": {}}, "phrase: the message None is not a text"),
        ({"message": 7}, "phrase: the message 7 is not a text"),
        ({"message": "{n}", "values": [1]}, "phrase: the values [1] are not an object"),
        ({"message": "{n}", "values": {1: "a"}}, "phrase: the value name 1 is not a text"),
        ({"message": "{n}", "values": {"n": True}}, "phrase.values.n: True is not a text, a"),
        ({"message": "{n}", "values": {"n": None}}, "phrase.values.n: None is not a text, a"),
        ({"message": "{n}", "values": {"n": [1]}}, "phrase.values.n: [1] is not a text, a"),
        ({"message": "{n}", "values": {"m": 1}}, "phrase: '{n}' has no value for {n}"),
        ({"message": "{} and {n}", "values": {"n": 1}}, "phrase: '{} and {n}': {} is not a"),
        ({"message": "{0}", "values": {"n": 1}}, "phrase: '{0}': {0} is not a {name}"),
        ({"message": "{n.real}", "values": {"n": 1}}, "phrase: '{n.real}': {n.real} is not a"),
        ({"message": "{n[0]}", "values": {"n": "x"}}, "phrase: '{n[0]}': {n[0]} is not a"),
        ({"message": "{n!r}", "values": {"n": "x"}}, "phrase: '{n!r}': {n!r} is not a {name}"),
        ({"message": "{n:>9}", "values": {"n": "x"}}, "phrase: '{n:>9}': {n:>9} is not a"),
        ({"message": "{n", "values": {"n": 1}}, "phrase: '{n' cannot be said: expected"),
        (
            {"message": "{a}", "values": {"a": {"message": "ply {n}", "values": {"m": 3}}}},
            "phrase.values.a: 'ply {n}' has no value for {n}",
        ),
        (
            {"message": "{a}", "values": {"a": {"text": "ply 3"}}},
            "phrase.values.a: the message None is not a text",
        ),
        (
            {"message": "{a}", "values": {"a": {"message": "{b}", "values": {"b": 1.5j}}}},
            "phrase.values.a.values.b: 1.5j is not a text, a number or words",
        ),
    ],
)
def test_anything_else_is_refused_saying_what_and_where(data: object, error: str) -> None:
    with pytest.raises(ValueError) as refused:
        Phrase.from_json(data)
    assert str(refused.value).startswith(error)


def test_words_nested_without_end_are_refused_in_a_short_error() -> None:
    deep: dict[str, object] = {"message": "ply 1"}
    for _ in range(MAX_DEPTH - 1):
        deep = {"message": "({inner})", "values": {"inner": deep}}
    assert str(Phrase.from_json(deep)) == "(" * (MAX_DEPTH - 1) + "ply 1" + ")" * (MAX_DEPTH - 1)
    deeper = {"message": "({inner})", "values": {"inner": deep}}
    with pytest.raises(ValueError, match=f"nested deeper than {MAX_DEPTH} levels") as refused:
        Phrase.from_json(deeper)
    assert len(str(refused.value)) < 200
    huge = "k" * 10_000
    with pytest.raises(ValueError) as refused:
        Phrase.from_json({"message": "{a}", "values": {huge: None}})
    assert len(str(refused.value)) < 200


def test_words_that_would_say_too_much_are_refused_unsaid() -> None:
    """A value used twice at each of 40 levels would say 2**40 characters: refused from the
    lengths alone, as is one text over the limit."""
    laugh: dict[str, object] = {"message": "ha"}
    for _ in range(40):
        laugh = {"message": "{a}{a}", "values": {"a": laugh}}
    with pytest.raises(ValueError, match=f"phrase.values.a.*: words longer than {MAX_SAID}"):
        Phrase.from_json(laugh)
    long = {"message": "{a}{a}", "values": {"a": "x" * (MAX_SAID // 2)}}
    assert len(str(Phrase.from_json(long))) == MAX_SAID
    with pytest.raises(ValueError, match=f"^phrase: words longer than {MAX_SAID} characters"):
        Phrase.from_json({**long, "message": "{a}{a}!"})


def test_the_module_examples_run() -> None:
    assert doctest.testmod(engine.phrase).failed == 0
