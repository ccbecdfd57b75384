"""The conformance kit catches what it promises: one broken case for every invariant.

Each case builds something broken (a ruleset, a custom exchange step, or,
where only the engine can break an invariant, a patched engine function) and
checks that :func:`calabrasella.testing.check_ruleset` raises
:class:`~calabrasella.testing.ConformanceError` naming that invariant, and
that its message names the deal and the step precisely: the deal rebuilt
from the dealer and seed it gives, and the actions it lists, lead to the
step it names.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

import attrs
import pytest
from support import load_example

import calabrasella as cb
import calabrasella.testing as kit
from calabrasella import _action_kinds, places
from calabrasella._action_kinds import JsonValue
from calabrasella.rulesets import (
    CallStep,
    DiscardStep,
    ExposeStep,
    GiveBackStep,
    Role,
    Step,
    TakeStep,
)
from calabrasella.rulesets.steps import Work, wrong_kind
from calabrasella.testing import INVARIANTS, ConformanceError, check_ruleset

swap = load_example("swap_variant")

#: Enough deals for every case: the check stops at the first broken invariant.
DEALS = 20

MESSAGE = re.compile(
    r"(?P<rules>.+), deal (?P<deal>\d+) \(dealer (?P<dealer>\d+), seed (?P<seed>\d+)\), "
    r"step (?P<step>\d+): (?P<invariant>\w+): (?P<detail>.+) \[actions so far: (?P<actions>.*)\]",
    re.DOTALL,
)


# --- broken exchange steps ---------------------------------------------------------------


@attrs.frozen
class DiscardKeepingTheCard(DiscardStep):
    """Lays the card into the stock but leaves it in the hand too: a card in two places."""

    def apply(self, work: Work, action: cb.Action) -> bool:
        done = super().apply(work, action)
        if isinstance(action, cb.Discard):
            work.hands[work.declarer] |= 1 << action.card.index
        return done


@attrs.frozen
class DiscardByHand(DiscardStep):
    """Lays the card into the stock by hand, not with Work.move: the ledger misses it."""

    def apply(self, work: Work, action: cb.Action) -> bool:
        if not isinstance(action, cb.Discard) or not work.hands[work.declarer] >> action.card.index & 1:
            return super().apply(work, action)  # (which refuses a card not held)
        bit = 1 << action.card.index
        work.hands[work.declarer] &= ~bit
        work.stock |= bit
        work.moved += 1
        work.record(work.declarer, action)
        return work.moved >= self.max_count


@attrs.frozen
class DiscardNotRecorded(DiscardStep):
    """Discards the card but leaves it out of the history."""

    def apply(self, work: Work, action: cb.Action) -> bool:
        done = super().apply(work, action)
        work.entries.pop()
        return done


@attrs.frozen
class DiscardRecordedForAnother(DiscardStep):
    """Records the declarer's discard as the first adversary's."""

    def apply(self, work: Work, action: cb.Action) -> bool:
        done = super().apply(work, action)
        _, recorded = work.entries.pop()
        work.entries.append((work.seat(Role.FIRST), recorded))
        return done


@attrs.frozen
class DiscardListingEveryCard(DiscardStep):
    """Lists a discard of every card, held or not; ``apply`` refuses the ones not held."""

    def legal_actions(self, work: Work) -> tuple[cb.Action, ...]:
        listed = super().legal_actions(work)
        return (*listed, *(cb.Discard(c) for c in cb.DECK if cb.Discard(c) not in listed))


@attrs.frozen
class DiscardHidingDone(DiscardStep):
    """Never lists ``Done``, yet ``apply`` accepts it."""

    def legal_actions(self, work: Work) -> tuple[cb.Action, ...]:
        return tuple(a for a in super().legal_actions(work) if not isinstance(a, cb.Done))


@attrs.frozen
class DiscardTellingItsWorth(DiscardStep):
    """Face down, but the words the other seats are told say whether the card counts."""

    @staticmethod
    def _put(work: Work, seat: int, card: int, action: cb.Action) -> None:
        counts = cb.DECK[card].units > 0
        words = "discarded a card that counts" if counts else "discarded a card face down"
        work.move(
            cb.DECK[card], places.hand(seat), places.laid_aside(seat), seen_by=(seat,), words=words
        )
        work.moved += 1
        work.record(seat, action)


@attrs.frozen(kw_only=True)
class CavendishWithDiscard(cb.Cavendish):
    """Cavendish with its discard step (1 to 4 cards, face down) replaced by ``discard``."""

    discard: Step = DiscardStep(Role.DECLARER, 1, 4)

    def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
        return (
            CallStep(),
            GiveBackStep(face_up=False),
            self.discard,
            ExposeStep(),
            TakeStep(Role.DECLARER, "as_discarded"),
        )


def cavendish_with(discard: type[DiscardStep]) -> cb.Ruleset:
    return CavendishWithDiscard(discard=discard(Role.DECLARER, 1, 4))


# --- actions of a kind of their own ------------------------------------------------------


@attrs.frozen
class Lay(cb.CustomAction):
    """Lay a card face down: the declarer's discard as an action of its own kind."""

    kind: ClassVar[str] = "lay"

    card: cb.Card

    def __str__(self) -> str:
        return f"{self.kind} {self.card}"

    @classmethod
    def parse(cls, argument: str) -> Lay:
        return cls(cb.Card.parse(argument))

    def to_json(self) -> JsonValue:
        return self.card.code

    @classmethod
    def from_json(cls, data: JsonValue) -> Lay:
        if type(data) is not str:
            raise ValueError(f"expected a card code, got {data!r}")
        return cls(cb.Card.parse(data))


@attrs.frozen
class LayInCoins(Lay):
    """Its text always names the card of coins of the same rank: it reads back as another card."""

    kind: ClassVar[str] = "lay-in-coins"

    def __str__(self) -> str:
        return f"{self.kind} {self.card.rank.char}d"


@attrs.frozen
class LayStep(DiscardStep):
    """The declarer's discard, listed and recorded as ``lay`` actions (of the class ``lay``).

    ``actions`` is what it declares it lists.
    """

    actions: ClassVar[tuple[type[cb.CustomAction], ...]] = (Lay,)

    lay: type[Lay] = attrs.field(default=Lay, kw_only=True)

    def legal_actions(self, work: Work) -> tuple[cb.Action, ...]:
        listed = super().legal_actions(work)
        return tuple(self.lay(a.card) if isinstance(a, cb.Discard) else a for a in listed)

    def apply(self, work: Work, action: cb.Action) -> bool:
        if type(action) is cb.Discard:
            raise wrong_kind(work, action, f"{self.lay.kind} a card")
        if type(action) is not self.lay:
            return super().apply(work, action)
        done = super().apply(work, cb.Discard(action.card))
        seat, _ = work.entries.pop()
        work.entries.append((seat, action))
        return done


def cavendish_laying(
    lay: type[Lay], declared: tuple[type[cb.CustomAction], ...], registered: bool
) -> Callable[[pytest.MonkeyPatch], cb.Ruleset]:
    """Cavendish whose declarer discards with ``lay`` actions, its kind registered or not."""

    def build(monkeypatch: pytest.MonkeyPatch) -> cb.Ruleset:
        if registered:  # for the length of the test
            monkeypatch.setitem(_action_kinds._KINDS, lay.kind, lay)
        declaring = type("DeclaringLayStep", (LayStep,), {"__slots__": (), "actions": declared})
        return CavendishWithDiscard(discard=declaring(Role.DECLARER, 1, 4, lay=lay))

    return build


# --- broken rulesets ---------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class CavendishForgettingTheLastTrick(cb.Cavendish):
    """Scores without the 3 units of the last trick: the sides share 32, not 35."""

    def score(self, tally: cb.Tally) -> cb.Result:
        result = super().score(tally)
        if tally.declarer_last:
            return attrs.evolve(result, declarer_units=result.declarer_units - 3)
        return attrs.evolve(result, adversary_units=result.adversary_units - 3)


@attrs.frozen(kw_only=True)
class CalabresellaDeclarerNeverPays(cb.Calabresella):
    """A losing declarer pays nobody, yet the adversaries collect: not zero-sum."""

    def score(self, tally: cb.Tally) -> cb.Result:
        result = super().score(tally)
        if result.declarer_won:
            return result
        payments = tuple(0 if s == tally.declarer else p for s, p in enumerate(result.payments))
        return attrs.evolve(result, payments=payments)


@attrs.frozen(kw_only=True)
class CavendishNeverRefilling(cb.Cavendish):
    """The single player discards but never takes from the stock: he is left short."""

    def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
        return (CallStep(), GiveBackStep(), DiscardStep(Role.DECLARER, 1, 4), ExposeStep())


_coin = itertools.count()


@attrs.frozen(kw_only=True)
class CalabresellaTossingACoin(cb.Calabresella):
    """Picks the first leader by a hidden coin: the same deal and actions can end otherwise."""

    def first_leader(
        self,
        *,
        order: tuple[int, ...],
        declarer: int,
        contract: cb.Contract,
        modifier: cb.Modifier | None,
    ) -> int:
        return order[next(_coin) % 3]


@attrs.frozen(kw_only=True)
class CalabresellaAuctionByCoin(cb.Calabresella):
    """Lets a hidden coin pick who speaks after the first call: the auction is not a function."""

    def bidding_turn(
        self, order: tuple[int, ...], calls: Sequence[tuple[int, cb.Contract | None]]
    ) -> tuple[int, tuple[cb.Contract, ...]] | None:
        turn = super().bidding_turn(order, calls)
        if turn is None or not calls:
            return turn
        return order[next(_coin) % 3], turn[1]


@attrs.frozen(kw_only=True)
class CavendishScoringByLuck(cb.Cavendish):
    """Adds an unseeded random note to every result."""

    def score(self, tally: cb.Tally) -> cb.Result:
        result = super().score(tally)
        return attrs.evolve(result, notes=(*result.notes, f"luck {random.random()}"))


@attrs.frozen(kw_only=True)
class CavendishRememberingTheLastDeal(cb.Cavendish):
    """Notes in its own frozen field whether the single player won, by rebinding it.

    Every state holds its ruleset, so each of them changes value (and hash)
    under the engine. This is the only way a ruleset can break purity (short
    of digging the state out of the engine's frames): the engine never hands
    a hook the state (a step works on a private
    :class:`~calabrasella.rulesets.steps.Work` copy, thrown away after one
    action; the other hooks get immutable values), and a state's fields are
    immutable values, so a hook can change a state only by defeating the
    frozenness of a value the state holds: itself, or one of its steps.
    """

    last_won: bool = False

    def score(self, tally: cb.Tally) -> cb.Result:
        result = super().score(tally)
        object.__setattr__(self, "last_won", result.declarer_won)
        return result


# --- a broken engine ------------------------------------------------------------------------


def engine_aliasing_the_history(monkeypatch: pytest.MonkeyPatch) -> cb.Ruleset:
    """``apply`` hands the input state the new state's history (``state._history = history``).

    Only the engine (or code holding a state) can rebind a state's slot: a
    ruleset never gets the state (see :class:`CavendishRememberingTheLastDeal`
    for the one way a ruleset can break purity), so this case patches the
    ``apply`` that :mod:`calabrasella.testing` calls.
    """

    def apply(state: cb.State, action: cb.Action) -> cb.State:
        new = cb.apply(state, action)
        object.__setattr__(state, "_history", new.history)
        return new

    monkeypatch.setattr(kit, "apply", apply)
    return cb.CAVENDISH


def engine_noting_refused_actions(monkeypatch: pytest.MonkeyPatch) -> cb.Ruleset:
    """``apply`` writes a refused action into the input state's history, then refuses it."""

    def apply(state: cb.State, action: cb.Action) -> cb.State:  # see engine_aliasing_the_history
        try:
            return cb.apply(state, action)
        except cb.IllegalActionError:
            object.__setattr__(state, "_history", (*state.history, (0, action)))
            raise

    monkeypatch.setattr(kit, "apply", apply)
    return cb.CALABRESELLA


def views_showing_the_stock(monkeypatch: pytest.MonkeyPatch) -> cb.Ruleset:
    """Every seat's view shows the face-down stock (monte)."""
    honest = cb.State.view

    def leaky(self: cb.State, seat: int) -> cb.View:
        view = honest(self, seat)
        return attrs.evolve(view, exposed=view.exposed | self.stock)

    monkeypatch.setattr(cb.State, "view", leaky)
    return cb.CALABRESELLA


def rollout_a_draw_out_of_step(monkeypatch: pytest.MonkeyPatch) -> cb.Ruleset:
    """``rollout`` draws one number before it plays, so it ends elsewhere than the loop.

    The swap variant of the examples: ``rollout`` plays its step by the
    generic path, which the check must hold to the loop like any other.
    """

    def rollout(state: cb.State, rng: random.Random) -> cb.State:
        rng.random()
        return cb.rollout(state, rng)

    monkeypatch.setattr(kit, "rollout", rollout)
    monkeypatch.setitem(_action_kinds._KINDS, swap.Swap.kind, swap.Swap)  # for the test's length
    rules: cb.Ruleset = swap.SwapCavendish()
    return rules


# --- the cases ------------------------------------------------------------------------------


@attrs.frozen
class Case:
    """Something broken: ``build`` returns the ruleset to check (patching what it needs)."""

    name: str
    invariant: str
    build: Callable[[pytest.MonkeyPatch], cb.Ruleset]
    #: What the message says after the invariant's name.
    detail: str


def ruleset(rules: cb.Ruleset) -> Callable[[pytest.MonkeyPatch], cb.Ruleset]:
    return lambda _: rules


CASES = (
    Case(
        "a discard left in the hand too",
        "cards",
        ruleset(cavendish_with(DiscardKeepingTheCard)),
        r".+ are in two places at once",
    ),
    Case(
        "a discard moved by hand, not with Work.move",
        "ledger",
        ruleset(cavendish_with(DiscardByHand)),
        r"replaying the moves gives other hands than the state's",
    ),
    Case(
        "a ruleset rebinding its own field",
        "purity",
        lambda _: CavendishRememberingTheLastDeal(),  # a fresh one: it changes itself
        r"applying the listed actions \(play \S+\) changed the state's hash",
    ),
    Case(
        "the engine aliases the new history into the input state",
        "purity",
        engine_aliasing_the_history,
        r"applying the listed action \S+ changed the state",
    ),
    Case(
        "the engine notes a refused action in the input state",
        "purity",
        engine_noting_refused_actions,
        r"refusing .+ changed the state",
    ),
    Case(
        "a discard missing from the history",
        "history",
        ruleset(cavendish_with(DiscardNotRecorded)),
        r"applying discard \S+ did not append exactly it to the history",
    ),
    Case(
        "a discard recorded for another seat",
        "history",
        ruleset(cavendish_with(DiscardRecordedForAnother)),
        r"discard \S+ by seat (\d) is recorded as seat (?!\1)\d's",
    ),
    Case(
        "a listed discard of a card not held",
        "legality",
        ruleset(cavendish_with(DiscardListingEveryCard)),
        r"the listed action discard \S+ raised IllegalActionError\(.*does not hold",
    ),
    Case(
        "an unlisted Done accepted",
        "legality",
        ruleset(cavendish_with(DiscardHidingDone)),
        r"the unlisted action Done\(\) was accepted",
    ),
    Case(
        "an exchange leaving the declarer short",
        "legality",
        ruleset(CavendishNeverRefilling()),
        r"the listed action (done|discard \S+) raised RulesetError\(.*not 12",
    ),
    Case(
        "the first leader by a hidden coin",
        "determinism",
        ruleset(CalabresellaTossingACoin()),
        r"applying .+ twice gave two different states",
    ),
    Case(
        "an auction whose next speaker is a coin's",
        "determinism",
        ruleset(CalabresellaAuctionByCoin()),
        r"applying .+ twice gave two different states",
    ),
    Case(
        "an unseeded random note in the result",
        "determinism",
        ruleset(CavendishScoringByLuck()),
        r"applying play \S+ twice gave two different states",
    ),
    Case(
        "the last trick's 3 units forgotten",
        "conservation",
        ruleset(CavendishForgettingTheLastTrick()),
        r"the sides' units \(\d+, \d+\) do not add up to 35",
    ),
    Case(
        "a losing declarer who never pays",
        "conservation",
        ruleset(CalabresellaDeclarerNeverPays()),
        r"the payments \(.*\) do not add up to 0",
    ),
    Case(
        "a face-down discard telling whether it counts",
        "views",
        ruleset(cavendish_with(DiscardTellingItsWorth)),
        r"seat \d's view changes when cards it cannot know are swapped .*a card that counts",
    ),
    Case(
        "an action whose text names another card",
        "encoding",
        cavendish_laying(LayInCoins, (LayInCoins,), registered=True),
        r"lay-in-coins \S+d reads back from its text as LayInCoins\(card=Card\.parse\('\S+d'\)\)",
    ),
    Case(
        "an action of a kind not registered",
        "encoding",
        cavendish_laying(Lay, (Lay,), registered=False),
        r"the action kind 'lay' of Lay is not registered",
    ),
    Case(
        "an action its step does not declare",
        "encoding",
        cavendish_laying(Lay, (), registered=True),
        r"DeclaringLayStep lists lay \S+ but does not declare Lay in its actions",
    ),
    Case(
        "views showing the stock",
        "views",
        views_showing_the_stock,
        r"seat \d's view changes when cards it cannot know are swapped .*exposed",
    ),
    Case(
        "a rollout a draw out of step",
        "rollout",
        rollout_a_draw_out_of_step,
        r"rollout\(state, random\.Random\(\d+\)\) ends otherwise than the loop: "
        r"entry \d+ is .+ by seat \d, not .+ by seat \d",
    ),
)


def replay(rules: cb.Ruleset, dealer: int, seed: int, listed: str) -> cb.State:
    """Rebuild the deal from its dealer and seed, and apply the actions a message lists."""
    state = cb.new_deal(rules, dealer=dealer, seed=seed)
    for text in [] if listed == "none" else listed.split(", "):
        (action,) = [a for a in cb.legal_actions(state) if str(a) == text]
        state = cb.apply(state, action)
    return state


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.invariant}: {c.name}")
def test_check_ruleset_catches_every_broken_invariant(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The helper rejects each broken case, naming the invariant, the deal and the step."""
    rules = case.build(monkeypatch)
    with pytest.raises(ConformanceError) as info:
        check_ruleset(rules, deals=DEALS)
    error = info.value
    assert error.invariant == case.invariant
    assert isinstance(error, AssertionError)
    assert isinstance(error, cb.CalabrasellaError)
    found = MESSAGE.fullmatch(str(error))
    assert found is not None, str(error)
    assert found["rules"] == repr(rules)
    assert found["invariant"] == case.invariant
    assert re.match(case.detail, found["detail"], re.DOTALL), found["detail"]
    deal, step = int(found["deal"]), int(found["step"])
    assert int(found["dealer"]) == deal % rules.players
    assert int(found["seed"]) == deal  # seed 0: deal i is shuffled from seed i
    monkeypatch.undo()  # replay with the honest engine (the ruleset stays broken)
    listed = [] if found["actions"] == "none" else found["actions"].split(", ")
    assert len(listed) == step
    replay(rules, int(found["dealer"]), int(found["seed"]), found["actions"])


def test_every_invariant_has_a_broken_case() -> None:
    """The cases above cover every invariant the helper names, and it names no other."""
    assert {case.invariant for case in CASES} == set(INVARIANTS)
    source = Path(kit.__file__).read_text(encoding="utf-8")
    named = set(re.findall(r'self\.fail\(\s*"(\w+)"', source))
    assert named == set(INVARIANTS)


def test_the_step_named_is_the_first_broken_one() -> None:
    """A card in two places: the step named is the action that put it there, not a later one."""
    rules = cavendish_with(DiscardKeepingTheCard)
    with pytest.raises(ConformanceError) as info:
        check_ruleset(rules, deals=DEALS)
    found = MESSAGE.fullmatch(str(info.value))
    assert found is not None
    dealer, seed = int(found["dealer"]), int(found["seed"])
    actions = found["actions"].split(", ")
    assert actions[-1].startswith("discard ")
    before = replay(rules, dealer, seed, ", ".join(actions[:-1]))
    after = replay(rules, dealer, seed, found["actions"])
    declarer = after.declarer
    assert declarer is not None
    assert not before.hand(declarer) & before.stock
    assert after.hand(declarer) & after.stock


def test_a_void_deal_shows_no_seat_the_stock() -> None:
    """After every seat passes, the stock is thrown in unseen: no seat may know it,
    and no view shows it."""
    state = cb.new_deal(cb.CAVENDISH, seed=3)
    while not state.is_over:
        state = cb.apply(state, cb.Pass())
    assert state.declarer is None
    for seat in range(3):
        known = kit.cards_seat_may_know(state, seat)
        assert known == state.deal.hands[seat]
        assert not set(known) & set(state.deal.stock)
        assert state.view(seat).final_stock is None


def test_as_discarded_takes_nothing_after_no_discard_and_all_after_four() -> None:
    """A take "as discarded" asks nothing when there is no choice: after no discard it
    takes nothing (the play begins), after as many discards as the stock holds it takes
    the whole stock by itself; in between the seat chooses."""
    rules = CavendishWithDiscard(discard=DiscardStep(Role.DECLARER, 0, 4))
    state = cb.new_deal(rules, seed=5)
    state = cb.apply(state, cb.Bid(cb.Contract.STAND))
    while state.phase is not cb.Phase.DISCARDING:
        state = cb.apply(state, cb.legal_actions(state)[0])
    declarer = state.to_move
    assert declarer is not None
    hand = state.hand(declarer)
    none = cb.apply(state, cb.Done())
    assert none.phase is cb.Phase.PLAYING
    assert none.hand(declarer) == hand and none.forced_moves == ()
    two = state
    for action in [cb.Discard(c) for c in list(hand)[:2]] + [cb.Done()]:
        two = cb.apply(two, action)
    assert two.phase is cb.Phase.TAKING and two.to_move == declarer
    assert len(cb.legal_actions(two)) == 4
    check_ruleset(rules, deals=40)  # raises ConformanceError on a broken invariant


def test_an_action_of_its_own_kind_passes_when_registered_and_declared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The honest ``lay`` discard passes every invariant; its actions are checked and relabelled."""
    rules = cavendish_laying(Lay, (Lay,), registered=True)(monkeypatch)
    report = check_ruleset(rules, deals=DEALS)
    plain = check_ruleset(cavendish_with(DiscardStep), deals=DEALS)
    # the same deals as with the built-in discard, a lay for each discard; the views'
    # alternative worlds relabel the lays' cards as they do the discards' (none rejected more)
    assert report.decisions == plain.decisions
    assert (report.views_checked, report.worlds_rejected) == (
        plain.views_checked,
        plain.worlds_rejected,
    )
    assert kit.relabel_action(Lay(cb.DECK[0]), [1, 0, *range(2, 40)]) == Lay(cb.DECK[1])
