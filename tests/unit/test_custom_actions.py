"""A variant's own kinds of action: registering them, their text, JSON and pickles.

The kinds here are test kinds (``knock``, ``point``); the swap variant's own
action is tested in test_swap_variant.py.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs
import pytest

import calabrasella as cb
from calabrasella import _action_json, _codec, _pickle
from calabrasella._action_kinds import RESERVED_WORDS, JsonValue
from calabrasella.actions import PLAYS
from calabrasella.rulesets.protocol import describe


@attrs.frozen
class Knock(cb.CustomAction):
    """A test kind without a card: knock ``times`` times."""

    kind: ClassVar[str] = "knock"
    description: ClassVar[str] = "knock on the table"

    times: int

    def __str__(self) -> str:
        return f"knock {self.times}"

    @classmethod
    def parse(cls, argument: str) -> Knock:
        if not argument.isdigit() or len(argument) > 3:
            raise cb.NotationError(f"a count, not {argument!r}")
        return cls(int(argument))

    def to_json(self) -> JsonValue:
        return self.times

    @classmethod
    def from_json(cls, data: JsonValue) -> Knock:
        if type(data) is not int or not 0 <= data < 1000:
            raise ValueError(f"expected a count, got {data!r}")
        return cls(data)


@attrs.frozen
class Point(cb.CustomAction):
    """A test kind naming a card; no description (its kind stands in)."""

    kind: ClassVar[str] = "point"

    card: cb.Card

    def __str__(self) -> str:
        return f"point {self.card}"

    @classmethod
    def parse(cls, argument: str) -> Point:
        return cls(cb.Card.parse(argument))

    def to_json(self) -> JsonValue:
        return {"card": self.card.code}

    @classmethod
    def from_json(cls, data: JsonValue) -> Point:
        if not isinstance(data, dict) or set(data) != {"card"} or type(data["card"]) is not str:
            raise ValueError(f"expected {{'card': code}}, got {data!r}")
        return cls(cb.Card.parse(data["card"]))


@pytest.fixture(autouse=True)
def _no_leak() -> Iterator[None]:
    """No test leaves a kind registered."""
    before = cb.action_kinds()
    yield
    assert cb.action_kinds() == before


# --- registering ---------------------------------------------------------------------


def test_a_kind_is_registered_for_a_block_only() -> None:
    assert "knock" not in cb.action_kinds()
    with cb.registered_action(Knock) as cls:
        assert cls is Knock
        assert "knock" in cb.action_kinds()
        with cb.registered_action(Knock):  # the same class again: nothing changes
            assert cb.action_kinds().count("knock") == 1
    assert "knock" not in cb.action_kinds()


def test_register_and_unregister_by_class_or_kind() -> None:
    assert cb.register_action(Knock) is Knock
    assert cb.register_action(Knock) is Knock  # again: nothing happens
    assert cb.unregister_action("knock") is Knock
    cb.register_action(Knock)
    with pytest.raises(cb.RulesetError, match="Point is not registered"):
        cb.unregister_action(Point)
    assert cb.unregister_action(Knock) is Knock
    with pytest.raises(cb.RulesetError, match="no action kind 'knock'"):
        cb.unregister_action("knock")


def test_a_kind_taken_by_another_class_is_refused() -> None:
    @attrs.frozen
    class OtherKnock(Knock):
        pass

    with cb.registered_action(Knock):
        with pytest.raises(cb.RulesetError, match=r"'knock' is registered already, by .*\.Knock"):
            cb.register_action(OtherKnock)
        with (
            pytest.raises(cb.RulesetError, match="is registered already"),
            cb.registered_action(OtherKnock),
        ):
            raise AssertionError("the block does not run")
        with pytest.raises(cb.RulesetError, match="OtherKnock is not registered"):
            cb.unregister_action(OtherKnock)
        assert cb.parse_action("knock 2").__class__ is Knock


@pytest.mark.parametrize("word", sorted(RESERVED_WORDS))
def test_a_built_in_word_is_no_kind(word: str) -> None:
    @attrs.frozen
    class Clash(Knock):
        kind: ClassVar[str] = word

    with pytest.raises(cb.RulesetError, match="built-in action's word"):
        cb.register_action(Clash)


def test_the_reserved_words_are_every_built_in_action_word() -> None:
    """Every first word parse_action reads as a built-in action is reserved, and no other."""
    # The first word of each built-in text form, and the bids and raises written alone.
    forms = [
        "pass", "done", "abandon", "bid solo", "raise dividete", "call 3c", "give back 3c",
        "giveback 3c", "give_back 3c", "discard 3c", "take 3c", "play 3c", "revoke 3c",
        "draw 3c", "seat 1 turns the stock", "seat 1 plays 3c out of turn",
        *(c.value for c in cb.Contract), *(m.value for m in cb.Modifier),
    ]  # fmt: skip
    for text in forms:
        assert not isinstance(cb.parse_action(text), cb.CustomAction)
    words = {text.split()[0] for text in forms}
    assert words == set(RESERVED_WORDS)


@pytest.mark.parametrize("kind", ["", "Knock", "two words", "k" * 41, "9lives", None, 3])
def test_a_malformed_kind_is_refused(kind: object) -> None:
    @attrs.frozen
    class Odd(Knock):
        pass

    Odd.kind = kind  # type: ignore[assignment]
    with pytest.raises(cb.RulesetError, match="must be a lowercase word"):
        cb.register_action(Odd)


def test_only_a_concrete_custom_action_class_registers() -> None:
    class Half(cb.CustomAction):
        kind: ClassVar[str] = "half"

        def __str__(self) -> str:
            return "half"

    with pytest.raises(cb.RulesetError, match="does not write its from_json, parse, to_json"):
        cb.register_action(Half)
    for thing in (cb.Play, "knock", Knock(1)):
        with pytest.raises(cb.RulesetError, match="not a CustomAction subclass"):
            cb.register_action(thing)  # type: ignore[type-var]


# --- text ----------------------------------------------------------------------------


def test_parse_action_reads_a_registered_kind() -> None:
    with cb.registered_action(Knock), cb.registered_action(Point):
        assert cb.parse_action("knock 3") == Knock(3)
        assert cb.parse_action("  KNOCK   12 ") == Knock(12)
        assert cb.parse_action("point ace of coins") == Point(cb.Card.parse("Ad"))
        for action in (Knock(0), Point(cb.DECK[17])):
            assert cb.parse_action(str(action)) == action


def test_a_kind_not_registered_is_not_read() -> None:
    with pytest.raises(cb.NotationError, match=r"'knock' is no action kind") as info:
        cb.parse_action("knock 3")
    assert "none is registered" in str(info.value)
    with (
        cb.registered_action(Point),
        pytest.raises(cb.NotationError, match=r"registered kind \(point\): 'knock'"),
    ):
        cb.parse_action("knock 3")


def test_a_kinds_parser_refusing_is_a_notation_error() -> None:
    with cb.registered_action(Knock), cb.registered_action(Point):
        with pytest.raises(cb.NotationError, match=r"not an action: 'knock x' \(knock: a count"):
            cb.parse_action("knock x")
        with pytest.raises(cb.NotationError, match=r"not an action: 'knock' \(knock: a count"):
            cb.parse_action("knock")
        with pytest.raises(cb.NotationError, match=r"'point Zz' \(point: "):
            cb.parse_action("point Zz")


def test_a_parser_returning_another_thing_is_a_ruleset_error() -> None:
    @attrs.frozen
    class Liar(Knock):
        kind: ClassVar[str] = "liar"

        @classmethod
        def parse(cls, argument: str) -> Knock:  # type: ignore[override]
            return Knock(1)

    with (
        cb.registered_action(Liar),
        pytest.raises(cb.RulesetError, match=r"Liar\.parse returned Knock"),
    ):
        cb.parse_action("liar 1")


def test_describe_uses_the_kinds_own_words() -> None:
    assert describe(Knock(2)) == "knock on the table"
    assert describe(Point(cb.DECK[0])) == "point"  # no description: the kind
    state = cb.new_deal(cb.CAVENDISH, seed=7)
    with pytest.raises(cb.IllegalActionError, match="is to bid or pass, not to knock on the table"):
        cb.apply(state, Knock(2))
    assert not cb.is_legal(state, Point(cb.DECK[0]))


def test_a_custom_action_is_an_action_for_the_type_checker() -> None:
    action: cb.Action = Knock(1)  # mypy --strict checks this file
    assert isinstance(action, cb.CustomAction)


# --- pickles -------------------------------------------------------------------------


def test_a_registered_kind_pickles_as_its_kind_and_data() -> None:
    actions: list[Any] = [cb.Pass(), Knock(3), cb.Draw("5d Jh"), Point(cb.DECK[5]), PLAYS[3]]
    with cb.registered_action(Knock), cb.registered_action(Point):
        codes, extras = _pickle.encode_actions(actions)
        assert extras == (("knock", 3), cb.CardSet.parse("5d Jh").mask, ("point", {"card": "Jd"}))
        assert _pickle.decode_actions(codes, extras) == actions
    with pytest.raises(
        cb.RecordError, match="kind 'knock': no action kind of that name is registered"
    ):
        _pickle.decode_actions(codes, extras)


def test_a_kind_not_registered_pickles_as_itself() -> None:
    codes, extras = _pickle.encode_actions([Knock(3)])
    assert extras == (Knock(3),)
    assert _pickle.decode_actions(codes, extras) == [Knock(3)]
    assert pickle.loads(pickle.dumps(Knock(3))) == Knock(3)


def test_malformed_pickled_data_is_a_record_error() -> None:
    codes, _ = _pickle.encode_actions([Knock(3)])
    with (
        cb.registered_action(Knock),
        pytest.raises(cb.RecordError, match="kind 'knock': expected a count, got 'x'"),
    ):
        _pickle.decode_actions(codes, (("knock", "x"),))


# --- JSON ----------------------------------------------------------------------------


def test_json_writes_a_custom_kind_as_its_kind_and_data() -> None:
    assert _action_json.action_data(Knock(3), "actions[0]") == {"kind": "knock", "data": 3}
    assert _action_json.action_data(Point(cb.DECK[0]), "") == {"kind": "point", "data": {"card": "3d"}}
    assert _action_json.action_data(cb.Play("Ad"), "") == "play Ad"  # the built-ins: their text
    with cb.registered_action(Knock), cb.registered_action(Point):
        for action in (Knock(3), Point(cb.DECK[0])):
            text = json.dumps(_action_json.action_data(action, ""))
            assert _codec.action(json.loads(text), "actions[0]") == action
        assert _codec.action("knock 4", "") == Knock(4)  # the text form is read too


def test_json_refuses_a_kind_not_registered_naming_it() -> None:
    with pytest.raises(
        cb.RecordError, match=r"actions\[2\]\.kind: no action kind 'knock' is registered"
    ):
        _codec.action({"kind": "knock", "data": 3}, "actions[2]")
    with (
        cb.registered_action(Point),
        pytest.raises(
            cb.RecordError, match=r"'knock' is registered in this process \(registered: point\)"
        ),
    ):
        _codec.action({"kind": "knock", "data": 3}, "actions[2]")


@pytest.mark.parametrize(
    ("value", "where", "words"),
    [
        ({"kind": "knock"}, "a.data", "missing"),
        ({"kind": "knock", "data": 3, "more": 1}, "a.more", "unknown key"),
        ({"kind": 3, "data": 3}, "a.kind", "expected a string"),
        (
            {"kind": "knock", "data": "3"},
            "a.data",
            "not the data of a knock action: expected a count",
        ),
        ({"kind": "knock", "data": None}, "a.data", "not the data of a knock action"),
        ({"kind": "point", "data": {"card": "Zz"}}, "a.data", "not the data of a point action"),
        ({"kind": "point", "data": {"card": 5}}, "a.data", "not the data of a point action"),
        ({"kind": "point", "data": [1, 2]}, "a.data", "not the data of a point action"),
        ({"kind": "point", "data": {}}, "a.data", "not the data of a point action"),
    ],
)
def test_malformed_custom_json_is_a_record_error(value: object, where: str, words: str) -> None:
    with (
        cb.registered_action(Knock),
        cb.registered_action(Point),
        pytest.raises(cb.RecordError) as info,
    ):
        _codec.action(value, "a")
    assert info.value.where == where
    assert words in info.value.reason


def test_a_from_json_with_a_bug_is_a_record_error_too() -> None:
    @attrs.frozen
    class Sloppy(Knock):
        kind: ClassVar[str] = "sloppy"

        @classmethod
        def from_json(cls, data: JsonValue) -> Sloppy:
            return cls(data["times"])  # type: ignore[index, call-overload, arg-type]

    with cb.registered_action(Sloppy):
        datas: list[JsonValue] = [3, {}, [1]]
        for data in datas:
            with pytest.raises(cb.RecordError, match="not the data of a sloppy action"):
                _codec.action({"kind": "sloppy", "data": data}, "a")


def test_json_refuses_to_write_data_that_is_not_plain() -> None:
    @attrs.frozen
    class Leaky(Point):
        kind: ClassVar[str] = "leaky"

        def to_json(self) -> JsonValue:
            return {"card": self.card}  # type: ignore[dict-item]

    with pytest.raises(
        cb.RecordError, match=r"actions\[4\]\.data\.card: a Card is not a plain JSON"
    ):
        _action_json.action_data(Leaky(cb.DECK[0]), "actions[4]")
