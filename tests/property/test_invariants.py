"""What RULES.md says is always true, over random deals and random legal play.

One test per invariant ("What is always true"), each over deals drawn by
:func:`strategies.playouts` (any preset or option combination of either
ruleset, any dealer, uniformly random legal actions), then the public
conformance helper :func:`calabrasella.testing.check_ruleset` on the presets,
on random variants, and on broken rulesets it must reject.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
from collections import Counter
from typing import Any, Callable

import attrs
import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st
from strategies import PRESETS, Playout, actions, junk, playouts, rulesets, seeds

import calabrasella as cb
from calabrasella.rulesets import (
    CallStep,
    DiscardStep,
    ExposeStep,
    GiveBackStep,
    Role,
    Step,
)
from calabrasella.testing import CheckReport, ConformanceError, check_ruleset

# ``apply`` and ``is_legal`` called with anything, junk included.
apply_any: Callable[[cb.State, Any], cb.State] = cb.apply
is_legal_any: Callable[[cb.State, Any], bool] = cb.is_legal


def played_cards(state: cb.State) -> list[cb.Card]:
    """The cards played so far, in order, read from the history."""
    return [action.card for _, action in state.history if isinstance(action, cb.Play)]


def contents(state: cb.State) -> tuple[object, ...]:
    """A state's contents as plain values, independent of ``State.__eq__``."""
    return (
        state.deal,
        state.phase,
        state.to_move,
        tuple(h.mask for h in state.hands),
        state.stock.mask,
        state.trick,
        state.history,
        state.exchange,
        state.result,
    )


# --- 40 cards are always accounted for ---------------------------------------------


@given(playouts())
def test_cards_are_accounted_for_exactly_once(playout: Playout) -> None:
    """Hands + stock + completed tricks + current trick hold each of the 40 cards once."""
    for state in playout.states:
        played = played_cards(state)
        where = Counter([card for hand in state.hands for card in hand])
        where.update(state.stock)
        where.update(played)
        assert where == Counter(cb.DECK), f"after {len(state.history)} actions"
        in_trick = len(played) % 3
        assert state.trick == tuple(played[len(played) - in_trick :])


# --- applying an action never changes the state it was applied to --------------------


@given(playouts(), st.lists(st.one_of(actions(), junk()), max_size=3))
def test_apply_never_changes_its_input_state(playout: Playout, probes: list[object]) -> None:
    """Neither a legal action nor a refused one changes the state it was applied to."""
    for state, action in playout.steps():
        twin, digest, plain = copy.deepcopy(state), hash(state), contents(state)
        after = cb.apply(state, action)
        for probe in probes:
            with contextlib.suppress(cb.IllegalActionError):
                apply_any(state, probe)
        assert state == twin
        assert hash(state) == digest
        assert contents(state) == plain
        assert after.history == (*state.history, after.history[-1])
        assert after.history[-1][1] == action


# --- listed actions apply; unlisted ones raise, naming the action, and change nothing --


@given(playouts(), st.lists(st.one_of(actions(), junk()), min_size=1, max_size=6))
def test_listed_actions_apply_and_unlisted_ones_raise(
    playout: Playout, probes: list[object]
) -> None:
    """Every listed action applies; unlisted ones (revokes included) raise IllegalActionError."""
    for state in playout.states:
        legal = cb.legal_actions(state)
        assert len(set(legal)) == len(legal)
        assert bool(legal) != state.is_over
        for action in legal:
            cb.apply(state, action)
            assert cb.is_legal(state, action)
        unlisted = [p for p in probes if p not in legal]
        if state.phase is cb.Phase.PLAYING and state.to_move is not None:
            # revokes: a card held but not of the suit led, while holding that suit
            unlisted += [p for p in map(cb.Play, state.hand(state.to_move)) if p not in legal]
        before = copy.copy(state)
        for probe in unlisted:
            with pytest.raises(cb.IllegalActionError) as info:
                apply_any(state, probe)
            assert info.value.action is probe
            assert info.value.reason
            assert not is_legal_any(state, probe)
            assert state == before


# --- the same deal and the same actions always give the same result --------------------


@given(playouts())
def test_same_deal_and_actions_give_the_same_states(playout: Playout) -> None:
    """Replaying a deal (from its seed, or its cards) with its actions gives equal states."""
    first = playout.states[0]
    assert cb.new_deal(playout.rules, dealer=playout.dealer, seed=playout.seed) == first
    deal = first.deal
    state = cb.deal_from(playout.rules, deal.hands, deal.stock, dealer=deal.dealer)
    for recorded, action in playout.steps():
        assert state == recorded
        assert cb.legal_actions(state) == cb.legal_actions(recorded)
        state = cb.apply(state, action)
    assert state == playout.final
    assert hash(state) == hash(playout.final)
    assert state.result == playout.final.result


# --- a finished deal shares 35 units; payments add up to 0 ---------------------------


def recount(state: cb.State) -> tuple[int, int, int, int]:
    """Recount (declarer units, adversary units, declarer tricks, adversary tricks) by hand."""
    plays = [(seat, a.card) for seat, a in state.history if isinstance(a, cb.Play)]
    assert len(plays) == 36
    units = Counter[int]()
    tricks = Counter[int]()
    last = -1
    for t in range(0, 36, 3):
        trick = plays[t : t + 3]
        led = trick[0][1].suit
        assert last in (-1, trick[0][0]), "the winner of a trick leads to the next"
        _, last = max((card.rank, seat) for seat, card in trick if card.suit is led)
        units[last] += sum(card.units for _, card in trick)
        tricks[last] += 1
    units[last] += 3 + state.stock.units  # the last trick, and the stock with it
    declarer = state.declarer
    assert declarer is not None
    du, dt = units[declarer], tricks[declarer]
    return du, sum(units.values()) - du, dt, sum(tricks.values()) - dt


@given(playouts())
def test_finished_deal_shares_35_units_and_payments_sum_to_zero(playout: Playout) -> None:
    """Not void: the sides' units add to 35 (points to 11), as the tricks say; payments to 0."""
    final = playout.final
    result = final.result
    assert final.is_over and result is not None
    assert len(result.payments) == playout.rules.players
    assert sum(result.payments) == 0
    if result.void:
        assert not any(result.payments)
        assert not played_cards(final)
        return
    assert result.declarer_units + result.adversary_units == 35
    assert result.declarer_points + result.adversary_points == 11
    assert recount(final) == (
        result.declarer_units,
        result.adversary_units,
        result.declarer_tricks,
        result.adversary_tricks,
    )


# --- a player's view never depends on cards that player cannot know ---------------------


def cards_seat_may_know(state: cb.State, seat: int) -> cb.CardSet:
    """The cards ``seat`` may know in ``state``, worked out without ``calabrasella.views``.

    Its hand as dealt and as now; cards of public actions (played, called,
    taken from the stock); the dealt stock cards turned face up; its own
    discards, draws and give-backs; the card given back if that was face up
    or it is the declarer or the giver; at the end, the final stock.
    """
    known = state.deal.hands[seat] | state.hand(seat)
    sees_give_back = False
    ex = state.exchange
    if ex is not None:
        known |= cb.CardSet(ex.exposed) & state.deal.stock
        face_up = any(isinstance(step, GiveBackStep) and step.face_up for step in ex.plan)
        sees_give_back = face_up or seat in (state.declarer, state.giver)
    for who, action in state.history:
        if isinstance(action, cb.Draw) and who == seat:
            known |= action.cards
        elif (
            isinstance(action, (cb.Play, cb.Call, cb.Take))
            or (isinstance(action, cb.Discard) and who == seat)
            or (isinstance(action, cb.GiveBack) and (who == seat or sees_give_back))
        ):
            known = known.with_card(action.card)
    if state.is_over:
        known |= state.stock
    return known


def relabel(action: cb.Action, swap: dict[cb.Card, cb.Card]) -> cb.Action:
    """The same action with its cards swapped."""
    if isinstance(action, cb.Draw):
        return cb.Draw(cb.CardSet.of(swap[c] for c in action.cards))
    if isinstance(action, (cb.Play, cb.Discard, cb.Take, cb.Call, cb.GiveBack)):
        return attrs.evolve(action, card=swap[action.card])
    return action


@given(playouts(), st.data())
def test_view_does_not_depend_on_cards_the_seat_cannot_know(
    playout: Playout, data: st.DataObject
) -> None:
    """Swap the cards a seat cannot know for others of their suit: its views stay equal."""
    k = data.draw(st.integers(min_value=0, max_value=len(playout.actions)), label="step")
    seat = data.draw(st.integers(min_value=0, max_value=playout.rules.players - 1), label="seat")
    unknown = cb.CardSet.all() - cards_seat_may_know(playout.states[k], seat)
    swap = {card: card for card in cb.DECK}
    for suit in cb.Suit:
        group = list(unknown.suit(suit))
        swap.update(zip(group, data.draw(st.permutations(group)), strict=True))
    deal = playout.states[0].deal
    world = [
        cb.deal_from(
            playout.rules,
            [cb.CardSet.of(swap[c] for c in hand) for hand in deal.hands],
            cb.CardSet.of(swap[c] for c in deal.stock),
            dealer=deal.dealer,
        )
    ]
    for action, recorded in zip(playout.actions[:k], playout.states[1:], strict=False):
        try:
            state = cb.apply(world[-1], relabel(action, swap))
        except cb.IllegalActionError:
            reject()  # the seat saw something this world contradicts
        if (state.phase, state.to_move) != (recorded.phase, recorded.to_move):
            reject()  # so did everybody
        world.append(state)
    for step, (state, alternative) in enumerate(zip(playout.states, world, strict=False)):
        assert state.view(seat) == alternative.view(seat), f"seat {seat}, step {step}"


# --- the conformance helper -----------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_check_ruleset_passes_for_every_preset(rules: cb.Ruleset) -> None:
    """The public helper finds nothing wrong with the presets over 300 deals."""
    report = check_ruleset(rules, deals=300, seed=1)
    assert isinstance(report, CheckReport)
    assert report.deals == 300
    assert report.decisions > 300 * 10
    assert report.illegal_probes > report.decisions
    assert report.replays == 300
    assert report.views_checked > 0


@settings(max_examples=8)
@given(rulesets(), seeds())
def test_check_ruleset_passes_for_random_variants(rules: cb.Ruleset, seed: int) -> None:
    """Every option combination of either ruleset passes the helper."""
    assert check_ruleset(rules, deals=15, seed=seed).deals == 15


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


@pytest.mark.parametrize(
    ("rules", "invariant"),
    [
        (CavendishForgettingTheLastTrick(), "conservation"),
        (CalabresellaDeclarerNeverPays(), "conservation"),
        (CavendishNeverRefilling(), "legality"),
        (CalabresellaTossingACoin(), "determinism"),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, cb.Ruleset) else str(v),
)
def test_check_ruleset_catches_a_broken_ruleset(rules: cb.Ruleset, invariant: str) -> None:
    """The helper rejects a ruleset that breaks an invariant, naming the invariant and deal."""
    with pytest.raises(ConformanceError, match=rf"deal \d+ .*step \d+: {invariant}:") as info:
        check_ruleset(rules, deals=100)
    assert info.value.invariant == invariant
    assert isinstance(info.value, AssertionError)
    assert isinstance(info.value, cb.CalabrasellaError)


def test_check_ruleset_catches_a_view_that_shows_the_stock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view showing every seat the face-down stock (monte) fails the view check."""
    honest = cb.State.view

    def leaky(self: cb.State, seat: int) -> cb.View:
        view = honest(self, seat)
        return attrs.evolve(view, exposed=view.exposed | self.stock)

    monkeypatch.setattr(cb.State, "view", leaky)
    with pytest.raises(ConformanceError, match=r"views: seat \d's view changes") as info:
        check_ruleset(cb.CALABRESELLA, deals=10)
    assert info.value.invariant == "views"
