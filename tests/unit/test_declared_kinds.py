"""One declaration per action kind: every format follows from a kind's ``ActionKind``.

Two things are held here. First, the format modules keep no table of the
built-in action classes: at most three modules of the package import eight
or more of them by name (the roster), counted from the source. Second, a new
exchange action declared the built-in way needs nothing beyond its own
class, its step and a ruleset that plays the step: this module holds all
three (:class:`Slip`, :class:`SlipStep`, :class:`SlipCavendish`), declares
the kind for the length of a test, and finds its text, JSON, record text,
pickle code, action id, face-down kind, words and phase working, with no
edit to any format module; withdrawn, the kind leaves no trace.
"""

from __future__ import annotations

import ast
import inspect
import json
import pickle
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

import calabrasella as cb
from calabrasella import _pickle, encoding, places
from calabrasella._action_kinds import (
    ACTION_CLASSES,
    PLAY_CLASSES,
    RESERVED_WORDS,
    declaration,
    declared,
)
from calabrasella.actions import CARD_FIELD, ActionKind, JsonValue, declared_action
from calabrasella.bots import RandomBot, play_deal
from calabrasella.rulesets import Terms
from calabrasella.rulesets.steps import Role, Step, Work, wrong_kind
from calabrasella.testing import check_ruleset

PACKAGE = Path(cb.__file__).resolve().parent
#: The built-in action classes, by name.
ROSTER = frozenset(
    {
        "Pass", "Done", "Bid", "Raise", "Call", "GiveBack", "Discard", "Take", "Play", "Draw",
        "Revoke", "OutOfTurn", "Abandon", "TurnStock",
    }
)  # fmt: skip
#: A module that imports this many of them holds, or once held, a table of the classes.
MANY = 8


def roster_imports(source: str) -> set[str]:
    """The built-in action classes a module's source imports by name (``from ... import``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] in (
            "actions",
            "calabrasella",
            "",
        ):
            names.update(alias.name for alias in node.names if alias.name in ROSTER)
    return names


def modules_importing_the_roster() -> list[str]:
    return sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if len(roster_imports(path.read_text(encoding="utf-8"))) >= MANY
    )


def test_the_roster_is_the_declared_kinds() -> None:
    assert {d.cls.__name__ for d in declared()} == ROSTER


def test_each_declared_phase_is_a_phase_and_the_plays_kinds_are_the_plays() -> None:
    for d in declared():
        assert d.kind.phase in cb.Phase.__members__, d.cls
    assert {cls.__name__ for cls in PLAY_CLASSES} == {"Play", "Revoke", "OutOfTurn", "Abandon"}


def test_the_built_in_places_are_the_encodings_table() -> None:
    """Known answers from the action-id table of the encoding's docs, and the pickle codes."""
    ids = {d.cls.__name__: d.kind.action_id for d in declared()}
    assert ids == {
        "Pass": 0, "Done": 1, "Bid": 2, "Raise": 6, "Call": 8, "GiveBack": 48, "Discard": 88,
        "Take": 128, "Play": 168, "Revoke": 208, "TurnStock": 248, "Abandon": 252,
        "OutOfTurn": 253, "Draw": None,
    }  # fmt: skip
    codes = {d.cls.__name__: d.kind.code for d in declared()}
    assert codes == {
        "Pass": 0, "Done": 1, "Bid": 2, "Raise": 6, "Call": 8, "GiveBack": 48, "Discard": 88,
        "Take": 128, "Play": 168, "Revoke": 208, "Abandon": 248, "TurnStock": 249,
        "OutOfTurn": 253, "Draw": 413,
    }  # fmt: skip
    assert (encoding.NUM_REGULAR_ACTIONS, encoding.NUM_TABLE_ACTIONS) == (208, 413)
    assert encoding.action_id(cb.OutOfTurn(2, "4c")) == 253 + 80 + 39
    assert _pickle.encode_actions([cb.OutOfTurn(2, "4c"), cb.TurnStock(3)])[0] == bytes(
        [(253 + 80 + 39) % 256, (253 + 80 + 39) // 256, 252, 0]
    )


def test_at_most_three_modules_import_the_roster_of_action_classes() -> None:
    """The package's namespace re-exports them; no format keeps a table of them."""
    found = modules_importing_the_roster()
    assert len(found) <= 3, found
    assert "__init__.py" in found  # (the count sees the one that must import them all)


def test_the_roster_count_sees_a_table_of_the_classes() -> None:
    """The counter is not blind: a module that lists the classes, as the formats did, is seen."""
    table = (
        "from .actions import (Abandon, Bid, Call, Discard, Done, Draw, GiveBack, Pass, Play)\n"
        "_CODES = {Pass: 0, Done: 1, Bid: 2, Call: 8, GiveBack: 48, Discard: 88, Play: 168}\n"
    )
    assert len(roster_imports(table)) == 9
    assert len(roster_imports("from calabrasella import Play, Revoke\n")) == 2


# --- a new exchange action, declared the built-in way -------------------------------


def _card(value: cb.Card | str) -> cb.Card:
    return value if isinstance(value, cb.Card) else cb.Card.parse(value)


@attrs.frozen
class Slip:
    """Slip a card face down to the other adversary: ``Slip("Ad")``, written ``slip Ad``."""

    declared: ClassVar[ActionKind] = ActionKind(
        "slip", "slip {card}", "slip a card face down", (CARD_FIELD,), code=415, action_id=413
    )
    card: cb.Card = attrs.field(converter=_card)


@attrs.frozen
class SlipStep(Step):
    """The seat playing ``giver`` slips one card face down to the seat playing ``receiver``."""

    phase: ClassVar[cb.Phase] = cb.Phase.EXCHANGING
    phase_name: ClassVar[str] = "slipping"
    actions: ClassVar[tuple[type[Any], ...]] = (Slip,)

    giver: Role
    receiver: Role

    def summary(self, terms: Terms) -> str:
        return f"{self.giver.value} adversary slips a card face down to the {self.receiver.value}"

    def start(self, work: Work) -> bool:
        giver = work.seat(self.giver)
        return bool(work.hand(giver)) and work.ask(giver, self.phase)

    def legal_actions(self, work: Work) -> tuple[cb.Action, ...]:
        shared: Any = declaration(Slip).instances  # type: ignore[union-attr]
        return tuple(shared[card.index] for card in work.hand(self.giver))

    def apply(self, work: Work, action: cb.Action) -> bool:
        giver, receiver = work.seat(self.giver), work.seat(self.receiver)
        if not isinstance(action, Slip):
            raise wrong_kind(work, action, f"slip a card face down to seat {receiver}")
        if action.card not in work.hand(giver):
            raise cb.IllegalActionError(action, f"seat {giver} does not hold {action.card}")
        work.move(
            action.card,
            places.hand(giver),
            places.hand(receiver),
            seen_by=(giver, receiver),
            words="slipped a card face down",
        )
        work.record(giver, action)
        return True


@attrs.frozen(kw_only=True)
class SlipCavendish(cb.Cavendish):
    """Cavendish's Calabrasella; before the single player asks, each adversary slips a card."""

    name: ClassVar[str] = "cavendish-slip"
    terms: ClassVar[Terms] = Terms(
        title="Calabrasella with a slip", declarer="single player", stock="stock", base="difference"
    )

    def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
        slips = (SlipStep(Role.FIRST, Role.SECOND), SlipStep(Role.SECOND, Role.FIRST))
        return (*slips, *super().exchange_plan(contract))


@pytest.fixture
def slip() -> Iterator[SlipCavendish]:
    with declared_action(Slip), cb.registered_ruleset(SlipCavendish):
        yield SlipCavendish()


def at_the_slip(rules: cb.Ruleset) -> cb.State:
    """A deal of ``rules`` at its first slip (seed 7: seat 1 stands)."""
    state = cb.new_deal(rules, seed=7)
    while state.phase is cb.Phase.BIDDING:
        legal = state.legal_actions()
        state = cb.apply(state, cb.Bid("stand") if cb.Bid("stand") in legal else legal[0])
    assert state.phase_name == "slipping"
    return state


def played(rules: cb.Ruleset, seed: int) -> cb.State:
    rng = random.Random(seed)
    state = at_the_slip(rules)
    while not state.is_over:
        state = cb.apply(state, rng.choice(state.legal_actions()))
    return state


def test_a_declared_kind_is_read_and_written_in_every_format(slip: SlipCavendish) -> None:
    state = at_the_slip(slip)
    first: Any = state.legal_actions()[0]
    card: cb.Card = first.card
    assert type(first).__name__ == "Slip" and type(first).__module__ == __name__
    # its text, both ways, in any spelling a card is read in
    assert str(first) == f"slip {card}"
    assert cb.parse_action(f"  SLIP   {card}") == first
    slip_ad: Any = Slip("Ad")
    assert cb.parse_action("slip ace of coins") == slip_ad
    with pytest.raises(cb.NotationError, match=r"slip needs a card, e.g. 'slip Ad'"):
        cb.parse_action("slip")
    assert "slip" in RESERVED_WORDS  # no variant's own kind may take its word
    # its pickle code and its action id, where its declaration puts them
    codes, kept = _pickle.encode_actions([first])  # (first is an Any: no Action to mypy)
    assert codes == (415 + card.index).to_bytes(2, "little") and kept == ()
    assert encoding.action_id(first) == 413 + card.index
    assert encoding.action_at(413 + card.index) is first
    assert encoding.num_actions(slip) == 453  # the ruleset's space makes room for it
    mask = encoding.legal_mask(state)
    mover: Any = state.to_move
    assert [i for i, on in enumerate(mask) if on] == [413 + c.index for c in state.hand(mover)]
    assert encoding.action_of(413 + card.index, state) is first
    # its words, and the phase it belongs to (the exchange's, not the play's)
    assert Slip in ACTION_CLASSES and Slip not in PLAY_CLASSES
    with pytest.raises(cb.IllegalActionError, match="is to bid or pass, not to slip a card face down"):
        cb.apply(cb.new_deal(slip, seed=7), first)
    # the state after it: a pickle, a view's pickle, JSON of the view, the observation
    after = cb.apply(state, first)
    assert pickle.loads(pickle.dumps(after)) == after
    for seat in range(slip.players):
        view = after.view(seat)
        assert pickle.loads(pickle.dumps(view)) == view
        assert cb.from_json(cb.to_json(view), cb.View) == view
        assert len(encoding.observation(view, recall=True)) == encoding.observation_size(slip, recall=True)


def test_a_declared_kinds_face_down_move_is_named_by_its_word(slip: SlipCavendish) -> None:
    state = at_the_slip(slip)
    giver: Any = state.to_move
    after = cb.apply(state, state.legal_actions()[0])
    declarer: Any = after.declarer
    shown = after.view(declarer).history[-1]
    assert shown == (giver, cb.Hidden("slip", "slipped a card face down"))
    receiver = next(s for s in range(3) if s not in (giver, declarer))
    assert after.view(receiver).history[-1] == after.history[-1]


def test_records_of_a_declared_kind_read_back(slip: SlipCavendish) -> None:
    for seed in range(4):
        state = played(slip, seed)
        record = cb.Record.from_state(state)
        assert sum(isinstance(a, Slip) for a in record.actions) == 2
        data = json.loads(cb.to_json(record))
        assert any(isinstance(a, str) and a.startswith("slip ") for a in data["actions"])
        assert cb.from_json(cb.to_json(record), cb.Record) == record
        assert cb.Record.from_text(record.to_text()) == record
        assert pickle.loads(pickle.dumps(state)) == state
        assert record.replay() == state


def test_the_conformance_kit_passes_the_declared_kind(slip: SlipCavendish) -> None:
    """Text, JSON and pickle of every action met read back (the kit checks them)."""
    report = check_ruleset(slip, deals=20, seed=3)
    assert report.deals == 20


def test_a_withdrawn_kind_leaves_no_trace() -> None:
    slip_ad: Any = Slip("Ad")
    before_words = set(RESERVED_WORDS)
    size = len(encoding._BY_ID)
    with declared_action(Slip):
        assert encoding.action_id(slip_ad) == 413 + cb.Card.parse("Ad").index
        kept = _pickle.encode_actions([slip_ad])
    assert set(RESERVED_WORDS) == before_words and Slip not in ACTION_CLASSES
    assert len(encoding._BY_ID) == size
    with pytest.raises(cb.NotationError, match="'slip' is no action kind"):
        cb.parse_action("slip Ad")
    with pytest.raises(cb.IllegalActionError, match="not an action"):
        encoding.action_id(slip_ad)
    with pytest.raises(cb.IllegalActionError, match="not an action id"):
        encoding.action_at(413)
    with pytest.raises(TypeError, match="not an action"):
        _pickle.encode_actions([slip_ad])
    with pytest.raises(cb.RecordError, match="no declared action kind"):
        _pickle.decode_actions(*kept)
    assert str(Slip("Ad")) == "slip Ad"  # (its text stays with the class)


def test_a_declaration_that_meets_another_kinds_place_is_refused() -> None:
    @attrs.frozen
    class Clash:
        declared: ClassVar[ActionKind] = ActionKind(
            "clash", "clash {card}", "clash", (CARD_FIELD,), code=200, action_id=None
        )
        card: cb.Card

    with pytest.raises(cb.RulesetError, match="pickle codes 200 to 239 meet Play's, 168 to 207"):
        cb.actions.declare_action(Clash)

    @attrs.frozen
    class Again:
        declared: ClassVar[ActionKind] = ActionKind("play", "again {card}", "x", (CARD_FIELD,), code=900)
        card: cb.Card

    with pytest.raises(cb.RulesetError, match="the word 'play' is Play's"):
        cb.actions.declare_action(Again)

    @attrs.frozen
    class Misfit:
        declared: ClassVar[ActionKind] = ActionKind("misfit", "misfit", "x", (CARD_FIELD,), code=900)
        card: cb.Card

    with pytest.raises(cb.RulesetError, match="names the fields"):
        cb.actions.declare_action(Misfit)

    @attrs.frozen
    class Badly:
        declared: ClassVar[ActionKind] = ActionKind("two words", "badly", "x")

    with pytest.raises(cb.RulesetError, match="'two words' is not a lowercase word"):
        cb.actions.declare_action(Badly)

    @attrs.frozen
    class Nowhere:
        declared: ClassVar[ActionKind] = ActionKind("nowhere", "nowhere", "x")

    with pytest.raises(cb.RulesetError, match="the pickle code -1 is not 0 to 65535"):
        cb.actions.declare_action(Nowhere)
    assert not {Clash, Again, Misfit, Badly, Nowhere} & ACTION_CLASSES


def test_a_custom_kind_may_not_take_a_declared_kinds_word() -> None:
    @attrs.frozen
    class Slipper(cb.CustomAction):
        kind: ClassVar[str] = "slip"

        def __str__(self) -> str:
            return "slip"

        @classmethod
        def parse(cls, argument: str) -> Slipper:
            return cls()

        def to_json(self) -> JsonValue:
            return None

        @classmethod
        def from_json(cls, data: JsonValue) -> Slipper:
            return cls()

    with declared_action(Slip), pytest.raises(cb.RulesetError, match="built-in action's word"):
        cb.register_action(Slipper)
    with cb.registered_action(Slipper), pytest.raises(cb.RulesetError, match="registered custom kind"):
        cb.actions.declare_action(Slip)


def test_the_new_kind_touched_only_this_file() -> None:
    """The action, its step and its ruleset are all here, and no module of the package
    names the kind: text, JSON, pickle, action ids, face-down words and phase needed
    no edit to a format module."""
    here = Path(__file__).resolve()
    for made in (Slip, SlipStep, SlipCavendish):
        assert Path(inspect.getsourcefile(made) or "").resolve() == here
    named = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*")
        if path.suffix in (".py", ".js", ".c", ".html")
        and re.search(r"\bslip\b", path.read_text(encoding="utf-8"), re.IGNORECASE)
    ]
    assert named == []


def test_bots_play_a_declared_kind(slip: SlipCavendish) -> None:
    """play_deal takes a declared kind's action from a bot as an action (is_action)."""
    rng = random.Random(4)
    stood = 0
    for _ in range(6):
        final = play_deal(slip, [RandomBot(rng) for _ in range(3)], rng)
        slips = sum(isinstance(a, Slip) for _, a in final.history)
        assert slips == (2 if final.declarer is not None else 0)
        stood += final.declarer is not None
    assert stood  # (a deal played its slips)
    assert cb.actions.is_action(Slip("Ad")) and not cb.actions.is_action("slip Ad")
