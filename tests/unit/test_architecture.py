"""The engine's middle: State as a value type, the Ruleset hooks, and step validation."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import ClassVar

import attrs
import pytest

import calabrasella as cb
from calabrasella import places
from calabrasella.actions import GIVE_BACKS
from calabrasella.rulesets import Calls, Terms
from calabrasella.rulesets.steps import (
    DiscardStep,
    DrawStep,
    Exchange,
    GiveBackStep,
    RaiseStep,
    Role,
    Step,
    TakeStep,
    Work,
    card_actions,
)
from calabrasella.testing import check_ruleset


def mid_deal(rules: cb.Ruleset = cb.CAVENDISH, seed: int = 3) -> cb.State:
    """A state some way into the play."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, seed=seed)
    while not state.is_over and state.tricks_played < 4:
        state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    return state


# --- State is a value, not a tuple ---------------------------------------------------


def test_state_is_not_a_sequence() -> None:
    """A state has no length, no order and does not equal a tuple of its fields."""
    state = cb.new_deal(cb.CAVENDISH, seed=7)
    assert not isinstance(state, tuple)
    with pytest.raises(TypeError):
        len(state)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        state < state  # type: ignore[operator]  # noqa: B015
    with pytest.raises(TypeError):
        tuple(state)  # type: ignore[arg-type]
    assert state != (state.rules, state.deal)


def test_state_fields_are_read_only() -> None:
    """Assigning to a field raises AttributeError; the state is unchanged."""
    state = cb.new_deal(cb.CAVENDISH, seed=7)
    with pytest.raises(AttributeError):
        state.phase = cb.Phase.OVER  # type: ignore[misc]
    with pytest.raises(AttributeError):
        state.anything = 1  # type: ignore[attr-defined]
    assert state.phase is cb.Phase.BIDDING


def test_equal_states_hash_equal_and_differ_by_any_field() -> None:
    """States compare and hash by value: two routes to the same deal are equal."""
    a = cb.new_deal(cb.CAVENDISH, seed=7)
    b = cb.deal_from(cb.CAVENDISH, a.deal.hands, a.deal.stock)
    assert a == b and hash(a) == hash(b) and a is not b
    assert cb.apply(a, cb.Pass()) != a


@pytest.mark.parametrize("rules", [cb.CAVENDISH, cb.CALABRESELLA], ids=["cavendish", "calabresella"])
def test_pickle_round_trip_and_views_leave_no_trace(rules: cb.Ruleset) -> None:
    """A pickled state loads equal, and asking for views does not make its pickle grow."""
    state = mid_deal(rules)
    before = pickle.dumps(state)
    for seat in range(rules.players):
        state.view(seat)
        state.view(seat)
    assert pickle.dumps(state) == before
    assert pickle.loads(before) == state


# --- the Ruleset hooks -------------------------------------------------------------------


def test_the_base_ruleset_is_abstract() -> None:
    """Ruleset() and a subclass missing a hook cannot be built (TypeError naming the hooks)."""
    with pytest.raises(TypeError, match="bidding_turn"):
        cb.Ruleset()  # type: ignore[abstract]

    @attrs.frozen(kw_only=True)
    class Incomplete(cb.Ruleset):
        def score(self, tally: cb.Tally) -> cb.Result:
            raise AssertionError

    with pytest.raises(TypeError, match="exchange_plan"):
        Incomplete()  # type: ignore[abstract]


@attrs.frozen(kw_only=True)
class DealerPaysOnVoid(cb.Cavendish):
    """When all pass, the dealer pays each other seat 1 (a test variant)."""

    name: ClassVar[str] = "test-dealer-pays"
    terms: ClassVar[Terms] = Terms(title="test")

    def void_result(self, *, players: int, dealer: int, calls: Calls) -> cb.Result:
        payments = tuple(1 - players if seat == dealer else 1 for seat in range(players))
        return attrs.evolve(cb.Result.void_deal(players), payments=payments)


def test_void_result_is_overridable() -> None:
    """A ruleset's void_result decides what a deal nobody won is worth."""
    state = cb.new_deal(DealerPaysOnVoid(), dealer=1, seed=7)
    for _ in range(3):
        state = cb.apply(state, cb.Pass())
    assert state.is_over and state.result is not None
    assert state.result.payments == (1, -2, 1)


@attrs.frozen(kw_only=True)
class LastStandWins(cb.Cavendish):
    """Every seat speaks; the last to stand plays (a test variant)."""

    name: ClassVar[str] = "test-last-stand"

    def bidding_turn(
        self, order: tuple[int, ...], calls: Calls
    ) -> tuple[int, tuple[cb.Contract, ...]] | None:
        return None if len(calls) == 3 else (order[len(calls)], (cb.Contract.STAND,))

    def auction_winner(self, calls: Calls) -> tuple[int, cb.Contract] | None:
        standing = [(seat, bid) for seat, bid in calls if bid is not None]
        return standing[-1] if standing else None


def test_auction_winner_is_overridable() -> None:
    """A ruleset's auction_winner picks the declarer: here the last to stand."""
    state = cb.new_deal(LastStandWins(), dealer=0, seed=7)
    for action in (cb.Bid("stand"), cb.Bid("stand"), cb.Pass()):
        state = cb.apply(state, action)
    assert state.declarer == 2  # eldest 1 stood, then 2 stood, then 0 passed
    assert check_ruleset(LastStandWins(), deals=5).deals == 5


@attrs.frozen(kw_only=True)
class ThirteenCards(cb.Cavendish):
    """Claims the play starts with thirteen cards a hand (a broken test variant)."""

    name: ClassVar[str] = "test-thirteen"

    def play_sizes(self, contract: cb.Contract, modifier: cb.Modifier | None) -> tuple[int, int]:
        return 13, 1


def test_play_sizes_are_checked_when_the_exchange_ends() -> None:
    """The engine refuses to start a play whose card counts differ from play_sizes."""
    state = cb.apply(cb.new_deal(ThirteenCards(), seed=7), cb.Bid("stand"))

    def to_the_play(state: cb.State) -> None:
        rng = random.Random(1)
        while state.phase is not cb.Phase.PLAYING:
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))

    with pytest.raises(cb.RulesetError, match="not 13"):
        to_the_play(state)


def test_contracts_order_the_legal_bids() -> None:
    """The legal bids come in the ruleset's contracts order, lowest first."""
    state = cb.new_deal(cb.CALABRESELLA, seed=7)
    bids = [a for a in cb.legal_actions(state) if isinstance(a, cb.Bid)]
    assert tuple(b.contract for b in bids) == cb.Calabresella.contracts


def test_terms_name_each_games_words() -> None:
    """Each ruleset carries the words its sources use."""
    assert (cb.CAVENDISH.terms.stock, cb.CAVENDISH.terms.declarer) == ("stock", "single player")
    assert (cb.CALABRESELLA.terms.stock, cb.CALABRESELLA.terms.base) == ("monte", "stake")


# --- steps are validated when built ----------------------------------------------------------


@pytest.mark.parametrize(
    "build",
    [
        lambda: TakeStep(Role.DECLARER, "everything"),  # type: ignore[arg-type]
        lambda: TakeStep("declarer", "all"),  # type: ignore[arg-type]
        lambda: DiscardStep(Role.FIRST, 3, 2),
        lambda: DiscardStep(Role.FIRST, 0, 0),
        lambda: DiscardStep(Role.FIRST, 1, 9),
        lambda: DrawStep(Role.SECOND, -1),
        lambda: RaiseStep(()),
        lambda: RaiseStep(("dividete",)),  # type: ignore[arg-type]
        lambda: GiveBackStep(face_up="yes"),  # type: ignore[arg-type]
    ],
    ids=[
        "take-count",
        "take-role",
        "discard-min-over-max",
        "discard-nothing",
        "discard-too-many",
        "draw-negative",
        "raise-no-choice",
        "raise-not-a-modifier",
        "give-back-not-bool",
    ],
)
def test_a_malformed_step_is_refused_when_built(build: object) -> None:
    """A step with fields out of range raises RulesetError at construction."""
    with pytest.raises(cb.RulesetError):
        build()  # type: ignore[operator]


# --- forced moves ------------------------------------------------------------------------------


def test_forced_moves_are_reported_and_hidden_from_who_may_not_see_them() -> None:
    """A solo takes the whole monte by itself: reported; a hidden monte is hidden from others."""
    rules = cb.Calabresella(solo_monte_exposed=False)
    state = cb.new_deal(rules, seed=0)
    for action in (cb.Bid("solo"), cb.Pass(), cb.Pass()):
        state = cb.apply(state, action)
    declarer = state.declarer
    assert declarer == 1
    forced = state.forced_moves
    assert [seat for _, seat, _ in forced] == [1, 1, 1, 1]
    assert cb.CardSet.of(a.card for _, _, a in forced if isinstance(a, cb.Take)) == state.deal.stock
    assert state.view(1).forced_moves == forced
    other = state.view(2).forced_moves
    assert all(isinstance(a, cb.Hidden) and a.kind == "take" for _, _, a in other)


# --- what a variant author ran into ---------------------------------------------------------


@attrs.frozen
class PassAsGiveBack(Step):
    """The seat playing ``giver`` passes a card face down to the seat playing ``receiver``,
    carried in a ``GiveBack`` (as the swap example did before it had its own ``Swap``)."""

    phase: ClassVar[cb.Phase] = cb.Phase.GIVING_BACK

    giver: Role
    receiver: Role

    def start(self, work: Work) -> bool:
        giver = work.seat(self.giver)
        return bool(work.hands[giver]) and work.ask(giver, self.phase)

    def legal_actions(self, work: Work) -> tuple[cb.Action, ...]:
        return card_actions(GIVE_BACKS, work.hands[work.seat(self.giver)])

    def apply(self, work: Work, action: cb.Action) -> bool:
        giver, receiver = work.seat(self.giver), work.seat(self.receiver)
        if not isinstance(action, cb.GiveBack) or not work.hands[giver] >> action.card.index & 1:
            raise cb.IllegalActionError(action, f"seat {giver} is to pass a card he holds")
        work.record(giver, action)
        work.move(
            action.card, places.hand(giver), places.hand(receiver), seen_by=(giver, receiver),
            words="passed a card face down",
        )  # fmt: skip
        return True


def test_a_step_overriding_hidden_from_is_warned_and_still_asked() -> None:
    """Step.hidden_from is deprecated: a step that overrides it gets a warning naming
    Work.move, and what it hides stays hidden."""
    with pytest.warns(DeprecationWarning, match=r"Work\.move\(cards, source, target, seen_by"):

        @attrs.frozen
        class OldSwap(PassAsGiveBack):
            def apply(self, work: Work, action: cb.Action) -> bool:
                giver, receiver = work.seat(self.giver), work.seat(self.receiver)
                assert isinstance(action, cb.GiveBack)
                work.record(giver, action)
                work.move(
                    action.card, places.hand(giver), places.hand(receiver), seen_by="all",
                    words="passed a card",
                )  # fmt: skip
                return True

            def hidden_from(
                self, seat: int, viewer: int, action: cb.Action, exchange: Exchange
            ) -> str | None:
                return None if viewer == exchange.seat(self.receiver) else "swap"

    @attrs.frozen(kw_only=True)
    class OldSwapRules(cb.Cavendish):
        name: ClassVar[str] = "test-old-swap"

        def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
            passes = (OldSwap(Role.FIRST, Role.SECOND), OldSwap(Role.SECOND, Role.FIRST))
            return (*super().exchange_plan(contract), *passes)

    for seed in range(60):
        rng = random.Random(seed)
        state = cb.new_deal(OldSwapRules(), seed=seed)
        while not state.is_over and not (
            state.exchange is not None and state.exchange.step == len(state.exchange.plan) - 2
        ):
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        if state.is_over:
            continue
        first, declarer = state.to_move, state.declarer
        assert declarer is not None
        after = cb.apply(state, state.legal_actions()[0])
        second = next(s for s in after.deal.order if s not in (first, declarer))
        assert not isinstance(after.view(second).history[-1][1], cb.Hidden)  # the receiver
        assert after.view(declarer).history[-1][1] == cb.Hidden("swap", "")
        return
    raise AssertionError("no deal reached the swap")


def test_given_back_is_read_only_from_the_give_back_step() -> None:
    """A later step passing the given-back card as a GiveBack does not reveal it as given back."""

    @attrs.frozen(kw_only=True)
    class SwapAfter(cb.Cavendish):
        name: ClassVar[str] = "test-swap-after"

        def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
            passes = (
                PassAsGiveBack(Role.FIRST, Role.SECOND),
                PassAsGiveBack(Role.SECOND, Role.FIRST),
            )
            return (*super().exchange_plan(contract), *passes)

    rules = SwapAfter()
    checked = 0
    for seed in range(400):
        rng = random.Random(seed)
        state = cb.new_deal(rules, seed=seed)
        while not state.is_over and state.phase is not cb.Phase.PLAYING:
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        if state.is_over or state.giver is None:
            continue
        others = [s for s in state.deal.order if s not in (state.declarer, state.giver)]
        assert state.view(others[0]).given_back is None  # a face-down give-back stays hidden
        checked += 1
    assert checked > 100


def test_card_actions_keeps_each_table_apart() -> None:
    """Two tables built on the fly never get each other's actions (ids can be reused)."""
    mask = cb.CardSet.parse("Ad 7h 4c").mask
    for _ in range(50):
        discards = tuple(cb.Discard(c) for c in cb.DECK)
        assert {type(a) for a in card_actions(discards, mask)} == {cb.Discard}
        del discards
        takes = tuple(cb.Take(c) for c in cb.DECK)
        assert {type(a) for a in card_actions(takes, mask)} == {cb.Take}
        del takes


@attrs.frozen
class WaitsInPlay(Step):
    """A broken step: it asks the declarer to act in the play phase."""

    def start(self, work: Work) -> bool:
        return work.ask(work.declarer, cb.Phase.PLAYING)


@attrs.frozen(kw_only=True)
class BrokenPhase(cb.Cavendish):
    name: ClassVar[str] = "test-broken-phase"

    def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
        return (WaitsInPlay(),)


def test_a_step_waiting_outside_the_exchange_phases_is_refused() -> None:
    """The engine refuses a step that waits in PLAYING (its actions would go to the play)."""
    state = cb.new_deal(BrokenPhase(), seed=7)
    with pytest.raises(cb.RulesetError, match="waits in phase PLAYING"):
        cb.apply(state, cb.Bid("stand"))


def test_exchange_names_seats_by_role() -> None:
    """Exchange.seat(role) gives the seat of each role, for hidden_from."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    state = cb.apply(cb.apply(state, cb.Pass()), cb.Bid("stand"))  # seat 2 stands
    ex = state.exchange
    assert ex is not None
    assert (ex.seat(Role.DECLARER), ex.seat(Role.FIRST), ex.seat(Role.SECOND)) == (2, 0, 1)


# --- a step's own state, and one source for every rule ------------------------------------


@attrs.frozen
class CountsStock(Step):
    """Keeps the stock's size when it starts, in the exchange record (a test step)."""

    def start(self, work: Work) -> bool:
        work.set("test.stock", work.stock.bit_count())
        work.set("test.a-first", ("sorted", "by key"))
        return False


@attrs.frozen(kw_only=True)
class NotesTheStock(cb.Cavendish):
    name: ClassVar[str] = "test-notes-stock"

    def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
        return (CountsStock(), *super().exchange_plan(contract))


def test_a_step_keeps_its_own_state_in_the_exchange_record() -> None:
    """Work.set keeps a value in the record: read back, part of the state's value, pickled."""
    state = cb.apply(cb.new_deal(NotesTheStock(), dealer=0, seed=7), cb.Bid("stand"))
    ex = state.exchange
    assert ex is not None
    assert ex.get("test.stock") == 4  # Cavendish's stock: 4 cards
    assert ex.get("test.missing", "none") == "none"
    assert [key for key, _ in ex.data] == ["test.a-first", "test.stock"]
    assert ex.data != cb.apply(cb.new_deal(cb.CAVENDISH, dealer=0, seed=7), cb.Bid("stand")).exchange.data  # type: ignore[union-attr]
    with cb.registered_ruleset(NotesTheStock):
        again = pickle.loads(pickle.dumps(state))
    assert again == state and again.exchange.get("test.stock") == 4
    assert check_ruleset(NotesTheStock(), deals=20).deals == 20


def test_work_set_refuses_what_cannot_be_part_of_a_value() -> None:
    """A step's state must hash (it is part of the state's value) and be keyed by a str."""
    record = cb.rulesets.Exchange.begin(0, cb.Contract.STAND, (), (1, 2, 0), 3)
    work = Work(cb.CAVENDISH, [0, 0, 0], 0, record, 0)
    with pytest.raises(TypeError):
        work.set("test.list", [1, 2])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        work.set(3, "x")  # type: ignore[arg-type]
    work.set("k", 1)
    work.set("k", 2)  # set again: replaced
    assert work.exchange().data == (("k", 2),)


def test_no_exchange_rule_is_written_outside_its_step() -> None:
    """Outside rulesets/, nothing names a built-in step class (the sampler reads the moves)."""
    names = ("CallStep", "GiveBackStep", "DiscardStep", "ExposeStep", "TakeStep", "RaiseStep", "DrawStep")
    package = Path(cb.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        if "rulesets" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        found += [f"{path.name}: {name}" for name in names if name in text]
    assert found == []


def test_the_records_constructors_fill_every_field_by_its_name() -> None:
    """Exchange.begin and Work.exchange, which build by position for speed, agree with the names."""
    plan = cb.CAVENDISH.exchange_plan(cb.Contract.STAND)
    begun = cb.rulesets.Exchange.begin(2, cb.Contract.STAND, plan, (1, 2, 0), 3)
    assert begun == cb.rulesets.Exchange(
        declarer=2, contract=cb.Contract.STAND, modifier=None, plan=plan, step=0, moved=0,
        starts=(), forced=(), order=(1, 2, 0), legal=(), data=(),
    )  # fmt: skip
    state = mid_deal()
    ex = state.exchange
    assert ex is not None
    work = Work(state.rules, list(state.hand_masks), state.stock_mask, ex, 0)
    assert work.exchange(ex.legal) == ex
    work.set("k", 1)
    assert work.exchange(ex.legal) == ex._replace(data=(("k", 1),))
