"""Hidden-card sampling: what a sampled world keeps, its errors, and its uniformity.

Expected values come from the rules (who must hold what), from counting by
formula, or from brute force written here: the alternative worlds of a tiny
ending are built by relabelling or swapping cards in the true deal, replayed
through the engine, and kept when the seat's view is unchanged.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, ClassVar, cast

import attrs
import pytest

import calabrasella as cb
from calabrasella import places
from calabrasella.bots._calling import callable_kind
from calabrasella.bots.sampling import InconsistentViewError, ReplaySampler, Sampler, sample_state
from calabrasella.rulesets.steps import Role, Step, Work
from calabrasella.testing import cards_seat_may_know, relabel_action, relabel_cards

THREES = cb.CardSet.parse("3d 3h 3s 3c")
TWOS = cb.CardSet.parse("2d 2h 2s 2c")


# --- helpers -----------------------------------------------------------------------


def run(
    rules: cb.Ruleset,
    seed: int,
    script: Sequence[str] = (),
    *,
    dealer: int = 0,
    deal: cb.State | None = None,
    until: Callable[[cb.State], bool] | None = None,
) -> list[cb.State]:
    """Deal (or take ``deal``), apply ``script``, then random legal actions (seeded) until
    ``until`` holds or the deal is over; return every state."""
    state = deal if deal is not None else cb.new_deal(rules, dealer=dealer, seed=seed)
    rng = random.Random(seed)
    states = [state]
    for text in script:
        if state.is_chance and text == "draw":
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            state = cb.apply(state, cb.parse_action(text))
        states.append(state)
    while not state.is_over and not (until is not None and until(state)):
        if state.is_chance:
            action: cb.Action = cb.sample_chance(state, rng)
        else:
            action = rng.choice([a for a in cb.legal_actions(state) if not _irregular(a)])
        state = cb.apply(state, action)
        states.append(state)
    return states


def _irregular(action: cb.Action) -> bool:
    return isinstance(action, (cb.Revoke, cb.TurnStock, cb.OutOfTurn, cb.Abandon))


def draws(view: cb.View, n: int, seed: int = 1) -> list[cb.State]:
    sampler = Sampler(view)
    rng = random.Random(seed)
    return [sampler.sample(rng) for _ in range(n)]


def tricks(n: int) -> Callable[[cb.State], bool]:
    return lambda s: s.phase is cb.Phase.PLAYING and s.tricks_played == n and not s.trick


def regularized_lower_gamma(a: float, x: float) -> float:
    """P(a, x) by its power series (enough terms for the small arguments used here)."""
    if x <= 0:
        return 0.0
    term = math.exp(a * math.log(x) - x - math.lgamma(a + 1))
    total = term
    n = 1
    while term > 1e-17 * total or n < x:
        term *= x / (a + n)
        total += term
        n += 1
    return min(total, 1.0)


def chi2_critical(df: int, alpha: float = 0.001) -> float:
    """The value a chi-square statistic with ``df`` degrees of freedom exceeds with probability ``alpha``."""
    low, high = 0.0, 10.0 * df + 100.0
    for _ in range(200):
        mid = (low + high) / 2
        if regularized_lower_gamma(df / 2, mid / 2) < 1 - alpha:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def assert_uniform(
    observed: Counter[Hashable],
    cells: Iterable[Hashable],
    weights: dict[Hashable, float] | None = None,
) -> None:
    """Chi-square test of ``observed`` against equal (or given) probabilities over ``cells``."""
    cells = list(cells)
    stray = set(observed) - set(cells)
    assert not stray, f"samples outside the worlds: {sorted(map(str, stray))[:3]}"
    n = sum(observed.values())
    total_w = sum(weights.values()) if weights else len(cells)
    stat = 0.0
    for cell in cells:
        expected = n * (weights[cell] if weights else 1) / total_w
        assert expected >= 5, "too few draws for a chi-square test"
        stat += (observed[cell] - expected) ** 2 / expected
    assert stat < chi2_critical(len(cells) - 1), (stat, len(cells))


def relabelled_worlds(
    states: list[cb.State],
    actions: list[cb.Action],
    seat: int,
    groups: Sequence[Callable[[cb.State], int]],
) -> set[tuple[int, ...]]:
    """Brute force: every way to put the cards ``seat`` cannot know into the groups they
    fill now (hands, discards, stock), replayed with the deal and actions relabelled;
    return the groups' contents of each world whose view for ``seat`` is unchanged."""
    now = states[-1]
    unknown = ~cards_seat_may_know(now, seat).mask
    true = [g(now) & unknown for g in groups]
    cards = sorted(c for c in range(40) if any(m >> c & 1 for m in true))
    sizes = [m.bit_count() for m in true]
    target = now.view(seat)
    found: set[tuple[int, ...]] = set()

    def splits(left: list[int], k: int) -> Iterable[list[list[int]]]:
        if k == len(sizes):
            yield []
            return
        for combo in itertools.combinations(left, sizes[k]):
            rest = [c for c in left if c not in combo]
            for tail in splits(rest, k + 1):
                yield [list(combo), *tail]

    deal = states[0].deal
    for split in splits(cards, 0):
        perm = list(range(40))
        for mask, new in zip(true, split):
            for old, card in zip(sorted(_bits(mask)), new):
                perm[old] = card
        state = cb.deal_from(
            now.rules,
            [relabel_cards(h, perm) for h in deal.hands],
            relabel_cards(deal.stock, perm),
            dealer=deal.dealer,
        )
        try:
            for action in actions:
                state = cb.apply(state, relabel_action(action, perm))
        except cb.IllegalActionError:
            continue
        if state.view(seat) == target:
            found.add(tuple(g(state) for g in groups))
    return found


def _bits(mask: int) -> list[int]:
    return [c for c in range(40) if mask >> c & 1]


def replay(states: list[cb.State]) -> list[cb.Action]:
    """The actions of a run, read back from the final state's history."""
    return [action for _, action in states[-1].history]


# --- the chi-square helper itself -----------------------------------------------------


@pytest.mark.parametrize(
    ("df", "table"),
    [(1, 10.828), (3, 16.266), (5, 20.515), (10, 29.588), (30, 59.703), (100, 149.449)],
)
def test_chi2_critical_matches_the_printed_table(df: int, table: float) -> None:
    """The 0.1% critical values agree with a printed chi-square table to 3 decimals."""
    assert chi2_critical(df) == pytest.approx(table, abs=2e-3)


# --- a world keeps what the seat knows -------------------------------------------------


def test_a_fresh_deal_has_every_split_of_the_unseen_cards() -> None:
    """Before any move a seat knows only its hand: 28 cards go to two hands and the stock."""
    view = cb.new_deal(cb.CAVENDISH, seed=3).view(0)
    assert Sampler(view).count == math.factorial(28) // (
        math.factorial(12) ** 2 * math.factorial(4)
    )
    four = cb.new_deal(cb.Cavendish(players=4), dealer=2, seed=3).view(2)  # the dealer sitting out
    expected = math.factorial(40) // (math.factorial(12) ** 3 * math.factorial(4))
    assert Sampler(four).count == expected


def test_samples_keep_the_seat_hand_and_vary_the_others() -> None:
    """Every sample keeps the seat's hand; the other hands are not always the true ones."""
    state = cb.new_deal(cb.CAVENDISH, seed=5)
    worlds = draws(state.view(1), 20)
    assert all(w.hand(1) == state.hand(1) and w.view(1) == state.view(1) for w in worlds)
    assert len({w.hand(0) for w in worlds}) > 10


def test_same_seed_same_state_and_seeds_differ() -> None:
    """A seed or a generator in the same state gives the same world; other seeds others."""
    states = run(cb.CALABRESELLA, 21, ("bid solissimo", "raise dividete", "draw"), until=tricks(4))
    view = states[-1].view(1)
    assert sample_state(view, 9) == sample_state(view, random.Random(9)) == Sampler(view).sample(9)
    assert len({sample_state(view, seed) for seed in range(8)}) > 1


def test_a_show_out_means_no_card_of_that_suit() -> None:
    """A seat that did not follow suit (it must, when it can) holds none of that suit in any world."""
    for seed in range(40):
        states = run(cb.CAVENDISH, seed, ("bid stand",))
        for before, after in itertools.pairwise(states):
            _, action = after.history[-1]
            if not before.trick or not isinstance(action, cb.Play):
                continue
            led = before.trick[0].suit
            if action.card.suit == led or before.to_move == 0:
                continue
            who = before.to_move
            assert who is not None
            worlds = draws(after.view(0), 30)
            assert all(led not in {c.suit for c in w.hand(who)} for w in worlds)
            return
    pytest.fail("no show-out found")


def test_without_follow_suit_a_show_out_proves_nothing() -> None:
    """With follow_suit=False a seat that played off the suit led may still hold that suit."""
    rules = cb.Calabresella(follow_suit=False)
    for seed in range(60):
        states = run(rules, seed, ("bid solissimo", "pass"))
        for before, after in itertools.pairwise(states):
            who = before.to_move
            _, action = after.history[-1]
            if not before.trick or not isinstance(action, cb.Play) or who is None or who == 0:
                continue
            led = before.trick[0].suit
            if action.card.suit == led or led not in {c.suit for c in after.hand(who)}:
                continue  # the interesting case: off suit while still holding it
            worlds = draws(after.view(0), 60)
            assert any(led in {c.suit for c in w.hand(who)} for w in worlds)
            return
    pytest.fail("no revoke-like play found")


def test_the_called_card_was_dealt_to_the_seat_that_gave_it() -> None:
    """Chiamo: the card called was in the giver's hand as dealt, in every world."""
    held = next(iter(cb.new_deal(cb.CALABRESELLA, seed=4).hand(2)))
    state = run(cb.CALABRESELLA, 4, ("bid chiamo", "pass", "pass", f"call {held}"))[4]
    giver, called = 2, state.called
    assert (state.giver, called, state.declarer) == (giver, held, 1)
    other = 0  # the adversary that did not give
    for w in draws(state.view(other), 25):
        assert called in w.deal.hands[giver]
        assert w.deal.stock == state.deal.stock  # the monte was shown to all


def _with_hand(rules: cb.Ruleset, seat: int, cards: str, seed: int) -> cb.State:
    """A deal in which ``seat`` holds ``cards`` and the rest is shuffled from ``seed``."""
    held = cb.CardSet.parse(cards)
    rest = [c for c in cb.DECK if c not in held]
    random.Random(seed).shuffle(rest)
    hands: list[list[cb.Card]] = [[], [], []]
    hands[seat] = list(held)
    for s in range(3):
        while len(hands[s]) < 12:
            hands[s].append(rest.pop())
    return cb.deal_from(rules, [cb.CardSet.of(h) for h in hands], cb.CardSet.of(rest), dealer=0)


def test_asking_for_a_two_means_the_single_player_held_every_three() -> None:
    """Cavendish: he asks for a 2 only holding all four 3s; every world deals them to him."""
    deal = _with_hand(cb.CAVENDISH, 1, "3d 3h 3s 3c Ad Kh Qs Jc 7d 6h 5s 4c", seed=2)
    two = next(c for c in TWOS if c not in deal.stock)
    states = run(cb.CAVENDISH, 2, ("bid stand", f"call {two}"), deal=deal, until=tricks(2))
    for seat in (0, 2):
        for w in draws(states[-1].view(seat), 20):
            assert THREES.mask & ~w.deal.hands[1].mask == 0


def test_no_ask_means_he_held_every_three_and_two() -> None:
    """Cavendish: with all 3s and 2s in hand there is nothing to ask for; the worlds agree,
    and count the 20 cards that are not his eight into his other 4, the other hand and the stock."""
    deal = _with_hand(cb.CAVENDISH, 1, "3d 3h 3s 3c 2d 2h 2s 2c Ad Kh Qs Jc", seed=3)
    state = cb.apply(deal, cb.Bid(cb.Contract.STAND))
    assert state.phase is cb.Phase.DISCARDING and state.called is None
    view = state.view(0)
    f = math.factorial
    assert Sampler(view).count == f(20) // (f(4) * f(12) * f(4))
    for w in draws(view, 15):
        assert (THREES.mask | TWOS.mask) & ~w.deal.hands[1].mask == 0


def test_while_he_asks_he_cannot_hold_every_three_and_two() -> None:
    """Cavendish, asking: the single player has something to ask for, so the worlds in which
    he holds all eight 3s and 2s are left out (count by formula)."""
    deal = _with_hand(cb.CAVENDISH, 0, "Ad Kd Qd Jd Ah Kh Qh Jh As Ks Qs Js", seed=4)
    state = cb.apply(deal, cb.Bid(cb.Contract.STAND))
    assert state.phase is cb.Phase.CALLING
    f = math.factorial
    every = f(28) // (f(12) * f(12) * f(4))
    all_eight = f(20) // (f(4) * f(12) * f(4))
    assert Sampler(state.view(0)).count == every - all_eight


def test_an_exposed_stock_and_the_final_stock_are_kept() -> None:
    """The stock shown to all is the dealt stock in every world; at the end, so is the final one."""
    states = run(cb.CAVENDISH, 8, ("bid stand",))
    final = states[-1]
    exposed = next(s for s in states if s.exchange is not None and s.view(0).exposed)
    for w in draws(exposed.view(0), 10):
        assert w.deal.stock == exposed.deal.stock
    for w in draws(final.view(2), 10):
        assert w.stock == final.stock and w.result == final.result


def test_scegliete_cards_taken_stay_with_their_taker() -> None:
    """Scegliete: a card an adversary took from the face-up monte is in his hand or discards."""
    states = run(cb.CALABRESELLA, 5, ("bid solissimo", "raise scegliete"), until=tricks(3))
    state = states[-1]
    taken = {a.card: who for who, a in state.history if isinstance(a, cb.Take)}
    taken.update({a.card: who for _, who, a in state.forced_moves if isinstance(a, cb.Take)})
    assert taken
    for w in draws(state.view(1), 15):
        for card, who in taken.items():
            view = w.view(who)
            played = {a.card for s, a in w.history if s == who and isinstance(a, cb.Play)}
            assert card in view.hand or card in view.discards or card in played


def test_dividete_draws_are_two_of_the_cards_that_went_through_that_hand() -> None:
    """Dividete: each adversary drew two unseen cards, from those he held, played or discarded."""
    states = run(cb.CALABRESELLA, 7, ("bid solissimo", "raise dividete", "draw"), until=tricks(5))
    state = states[-1]
    for w in draws(state.view(1), 15):
        for adversary in (0, 2):
            view = w.view(adversary)
            played = cb.CardSet.of(
                [a.card for s, a in w.history if s == adversary and isinstance(a, cb.Play)]
            )
            assert len(view.drawn) == 2
            assert view.drawn.mask & ~(view.hand.mask | view.discards.mask | played.mask) == 0


def test_an_unseen_monte_taken_by_solo_varies() -> None:
    """Solo with the monte face down: the adversaries do not know it; worlds take four of the
    declarer's cards for it."""
    rules = cb.Calabresella(solo_monte_exposed=False)
    states = run(rules, 9, ("bid solo", "pass", "pass"), until=tricks(2))
    state = states[-1]
    monti = set()
    for w in draws(state.view(0), 20):
        mine = w.view(1)
        played = cb.CardSet.of([a.card for s, a in w.history if s == 1 and isinstance(a, cb.Play)])
        assert w.deal.stock.mask & ~(mine.hand.mask | mine.discards.mask | played.mask) == 0
        monti.add(w.deal.stock)
    assert len(monti) > 5


def test_a_face_down_give_back_of_a_monte_card_is_found_out() -> None:
    """Chiamo, give-back face down: the other adversary does not see it, but once the giver has
    played a monte card he can only have had it back from the declarer: every world says so."""
    rules = cb.Calabresella(give_back="face_down")
    for seed in range(60):
        deal = cb.new_deal(rules, seed=seed)
        state = deal
        for text in ("bid chiamo", "pass", "pass"):
            state = cb.apply(state, cb.parse_action(text))
        calls = [a for a in cb.legal_actions(state) if isinstance(a, cb.Call)]
        state = cb.apply(state, next(a for a in calls if a.card not in state.stock))
        giver = state.giver
        monte = deal.stock
        backs = [a for a in cb.legal_actions(state) if isinstance(a, cb.GiveBack)]
        back = next((a for a in backs if a.card in monte), None)
        if giver is None or back is None:
            continue
        states = run(rules, seed, (), deal=cb.apply(state, back))
        final = states[-1]
        other = 2 - giver  # the declarer is seat 1
        for w in draws(final.view(other), 10):
            assert (1, back) in w.history
        assert Sampler(final.view(other)).count == math.factorial(4)  # only his discards' order
        return
    pytest.fail("no suitable deal")


def test_a_revoke_proves_the_suit_was_held() -> None:
    """Table mode: a seat that revoked and has played none of that suit since holds some of it."""
    rules = cb.Cavendish(irregularities="record")
    for seed in range(80):
        rng = random.Random(seed)
        state = cb.apply(cb.new_deal(rules, seed=seed), cb.Bid(cb.Contract.STAND))
        while not state.is_over:
            legal = cb.legal_actions(state)
            revokes = [a for a in legal if isinstance(a, cb.Revoke)]
            who = state.to_move
            if revokes and who is not None and who != 0:
                led = state.trick[0].suit
                after = cb.apply(state, revokes[0])
                for w in draws(after.view(0), 30):
                    assert led in {c.suit for c in w.hand(who)}
                return
            state = cb.apply(state, rng.choice([a for a in legal if not _irregular(a)]))
    pytest.fail("no revoke found")


def test_a_variant_of_built_in_steps_is_sampled() -> None:
    """A variant made of the built-in steps (Cavendish with the stock left alone) is sampled."""

    @attrs.frozen(kw_only=True)
    class NoStock(cb.Cavendish):
        name = "cavendish_no_stock_sampling"

        def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
            return super().exchange_plan(contract)[:2]

    states = run(NoStock(), 3, ("bid stand",), until=tricks(3))
    for seat in range(3):
        view = states[-1].view(seat)
        assert all(w.view(seat) == view for w in draws(view, 5))


# --- errors ------------------------------------------------------------------------------


def test_not_a_view_is_a_state_error() -> None:
    """A state (or anything else) where a view is needed: StateError, with a hint for a state."""
    state = cb.new_deal(cb.CAVENDISH, seed=1)
    with pytest.raises(cb.StateError, match=r"state\.view\(seat\)"):
        Sampler(state)  # type: ignore[arg-type]
    with pytest.raises(cb.StateError):
        sample_state("view", 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["7", 1.5, True, None])
def test_a_bad_seed_is_a_seed_error(seed: object) -> None:
    """A seed that is neither an int nor a random.Random: SeedError."""
    view = cb.new_deal(cb.CAVENDISH, seed=1).view(0)
    with pytest.raises(cb.SeedError):
        sample_state(view, seed)  # type: ignore[arg-type]


def _late_view() -> tuple[cb.State, cb.View]:
    states = run(cb.CAVENDISH, 8, ("bid stand",), until=tricks(3))
    return states[-1], states[-1].view(0)


def _edits() -> list[tuple[str, Callable[[cb.State, cb.View], cb.View]]]:
    def played_card_in_hand(s: cb.State, v: cb.View) -> cb.View:
        other = next(a.card for who, a in s.history if who != 0 and isinstance(a, cb.Play))
        return attrs.evolve(v, hand=cb.CardSet.of([*list(v.hand)[1:], other]))

    def own_move_hidden(s: cb.State, v: cb.View) -> cb.View:
        history = list(v.history)
        i = next(i for i, (who, a) in enumerate(history) if who == 0 and isinstance(a, cb.Play))
        history[i] = (0, cb.Hidden("discard", "discarded a card face down"))
        return attrs.evolve(v, history=tuple(history))

    def my_card_played_by_another(s: cb.State, v: cb.View) -> cb.View:
        history = list(v.history)
        i = next(i for i, (who, a) in enumerate(history) if who != 0 and isinstance(a, cb.Play))
        history[i] = (history[i][0], cb.Play(next(iter(v.hand))))
        return attrs.evolve(v, history=tuple(history))

    return [
        ("a card another seat played is in the hand", played_card_in_hand),
        (
            "a hand of 10",
            lambda s, v: attrs.evolve(v, hand=v.hand | cb.CardSet.of(list(s.hand(1))[:1])),
        ),
        ("hand sizes", lambda s, v: attrs.evolve(v, hand_sizes=(9, 10, 8))),
        ("stock size", lambda s, v: attrs.evolve(v, stock_size=3)),
        ("own move hidden", own_move_hidden),
        ("another seat played a card this one holds", my_card_played_by_another),
        ("exposed overlaps the hand", lambda s, v: attrs.evolve(v, exposed=v.hand)),
        ("not a hand at all", lambda s, v: attrs.evolve(v, hand=cast(cb.CardSet, "3d 2d"))),
        ("a declarer not at the table", lambda s, v: attrs.evolve(v, declarer=7)),
        (
            "a history of lists",
            lambda s, v: attrs.evolve(v, history=cast(Any, [list(e) for e in v.history])),
        ),
    ]


@pytest.mark.parametrize(("what", "edit"), _edits(), ids=[name for name, _ in _edits()])
def test_an_impossible_view_is_refused(
    what: str, edit: Callable[[cb.State, cb.View], cb.View]
) -> None:
    """A view edited by hand so that no deal gives it: InconsistentViewError, a RecordError."""
    state, view = _late_view()
    bad = edit(state, view)
    with pytest.raises(InconsistentViewError) as info:
        Sampler(bad).sample(1)
    assert isinstance(info.value, cb.RecordError) and isinstance(info.value, ValueError)
    assert "view" in str(info.value)
    with pytest.raises(InconsistentViewError):
        sample_state(bad, 1)


def test_a_view_with_wrong_legal_actions_is_refused_when_sampled() -> None:
    """Legal actions that do not follow from the hand are found when a world is replayed."""
    states = run(
        cb.CAVENDISH,
        8,
        ("bid stand",),
        until=lambda s: s.phase is cb.Phase.PLAYING and s.to_move == 0,
    )
    view = states[-1].view(0)
    bad = attrs.evolve(view, legal_actions=view.legal_actions[1:])  # (its moves kept)
    with pytest.raises(InconsistentViewError, match="legal actions"):
        sample_state(bad, 3)


def test_a_ruleset_with_its_own_step_kind_is_followed_through_its_moves() -> None:
    """A step kind of a variant's own that moves no card: the sampler follows the
    recorded moves (none) and its worlds give the view back."""

    @attrs.frozen
    class Pause(Step):
        def start(self, work: object) -> bool:
            return False

    @attrs.frozen(kw_only=True)
    class Paused(cb.Cavendish):
        name = "cavendish_paused_sampling"

        def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
            return (Pause(), *super().exchange_plan(contract))

    state = cb.apply(cb.new_deal(Paused(), seed=1), cb.Bid(cb.Contract.STAND))
    for seat in range(3):
        view = state.view(seat)
        assert Sampler(view).sample(seat).view(seat) == view


def test_a_step_of_its_own_moving_stock_cards_unseen_is_followed() -> None:
    """A step of a variant's own that moves a stock card to the declarer and one of his
    back, by itself and unseen by the others (the first of each, a rule of its own): the
    sampler follows the moves, and its worlds (checked by replay) give each view back."""

    @attrs.frozen
    class PeekAndKeep(Step):
        def start(self, work: Work) -> bool:
            card = next(iter(cb.CardSet(work.stock)))
            declarer = work.declarer
            work.move(card, places.STOCK, places.hand(declarer), seen_by=(declarer,), words="kept a card")
            work.move(
                next(iter(work.hand(declarer))), places.hand(declarer), places.STOCK,
                seen_by=(declarer,), words="put a card back",
            )  # fmt: skip
            return False

    @attrs.frozen(kw_only=True)
    class Peeking(cb.Cavendish):
        name = "cavendish_peeking_sampling"

        def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
            return (PeekAndKeep(), *super().exchange_plan(contract))

    state = cb.apply(cb.new_deal(Peeking(), seed=1), cb.Bid(cb.Contract.STAND))
    for seat in range(3):
        view = state.view(seat)
        assert all(w.view(seat) == view for w in draws(view, 3))


# --- uniformity on tiny endings ------------------------------------------------------------


def _presents(
    view_seat: int, states: list[cb.State], groups: Sequence[Callable[[cb.State], int]]
) -> tuple[set[tuple[int, ...]], Counter[Hashable], Sampler]:
    worlds = relabelled_worlds(states, replay(states), view_seat, groups)
    sampler = Sampler(states[-1].view(view_seat))
    n = 6 * len(worlds)
    rng = random.Random(2024)
    seen: Counter[Hashable] = Counter()
    for _ in range(n):
        world = sampler.sample(rng)
        seen[tuple(g(world) for g in groups)] += 1
    return worlds, seen, sampler


def test_uniform_over_the_adversaries_hands_seen_by_the_single_player() -> None:
    """Cavendish, three cards left each, seen by the single player: every split of the six
    unseen cards that keeps his view is equally likely, and they are all the worlds."""
    states = run(cb.CAVENDISH, 12, ("bid stand",), until=tricks(9))
    d = states[-1].declarer
    assert d is not None
    a, b = (s for s in range(3) if s != d)
    worlds, seen, sampler = _presents(
        d, states, [lambda s: s.hand(a).mask, lambda s: s.hand(b).mask]
    )
    assert 2 < len(worlds) <= 20
    assert sampler.count == len(worlds)
    assert_uniform(seen, worlds)


def test_uniform_over_the_adversaries_hands_after_a_swap_the_single_player_did_not_see() -> None:
    """The swap variant (a step of its own), three cards left each, seen by the single
    player, who saw neither pass: every split of the six unseen cards that keeps his view
    is equally likely, and every world drawn is one of them (found by brute force)."""
    swap = _swap_variant()
    rules = swap.SwapCavendish()
    with cb.registered_ruleset(swap.SwapCavendish), cb.registered_action(swap.Swap):
        states = run(rules, 12, ("bid stand",), until=tricks(9))
        d = states[-1].declarer
        assert d is not None
        assert sum(isinstance(a, cb.Hidden) for _, a in states[-1].view(d).history) >= 2
        a, b = (s for s in range(3) if s != d)
        worlds, seen, _ = _presents(d, states, [lambda s: s.hand(a).mask, lambda s: s.hand(b).mask])
        assert 2 < len(worlds) <= 20
        assert_uniform(seen, worlds)


def test_uniform_over_hands_and_the_unseen_monte() -> None:
    """Solissimo without a raise, one trick left, seen by an adversary: the declarer's card,
    the partner's card and the four monte cards, all worlds equally likely."""
    states = run(cb.CALABRESELLA, 14, ("bid solissimo", "pass"), until=tricks(11))
    d = states[-1].declarer
    assert d == 1
    worlds, seen, sampler = _presents(
        0, states, [lambda s: s.hand(1).mask, lambda s: s.hand(2).mask, lambda s: s.stock.mask]
    )
    assert sampler.count == len(worlds) <= 30  # at most 6! / (1! 1! 4!)
    assert_uniform(seen, worlds)


def test_uniform_over_dividete_discards_seen_by_the_declarer() -> None:
    """Dividete, one trick left, seen by the declarer: the adversaries' last cards and
    discards, equally likely; each such placement comes with C(14, 2) unseen draws for each
    adversary (any two of the fourteen cards through his hand) and 2! orders of each discard."""
    states = run(cb.CALABRESELLA, 16, ("bid solissimo", "raise dividete", "draw"), until=tricks(11))
    assert states[-1].declarer == 1
    worlds, seen, sampler = _presents(
        1,
        states,
        [
            lambda s: s.hand(0).mask,
            lambda s: s.hand(2).mask,
            lambda s: s.view(0).discards.mask,
            lambda s: s.view(2).discards.mask,
        ],
    )
    assert sampler.count == len(worlds) * math.comb(14, 2) ** 2 * 2 * 2
    assert_uniform(seen, worlds)


def test_uniform_over_a_face_down_give_back() -> None:
    """Chiamo, give-back face down, the deal over, seen by the adversary who did not give: the
    card given back is any of the giver's twelve that the declarer could have held. Brute force
    swaps it with each card of the pack in the deal, with each order of the four discards."""
    rules = cb.Calabresella(give_back="face_down")
    for seed in range(40):
        states = run(rules, seed, ("bid chiamo", "pass", "pass"))
        final = states[-1]
        give = [(i, a) for i, (_, a) in enumerate(final.history) if isinstance(a, cb.GiveBack)]
        if not give or give[0][1].card in final.deal.stock:
            continue
        break
    else:
        pytest.fail("no suitable deal")
    (at, back), giver, d = give[0], final.giver, final.declarer
    assert giver is not None and d is not None
    other = 3 - giver - d  # seats 0, 1, 2
    actions = replay(states)
    discards = [
        i for i, (who, a) in enumerate(final.history) if who == d and isinstance(a, cb.Discard)
    ]
    consistent: Counter[Hashable] = Counter()
    for card in cb.DECK:
        swap = {back.card: card, card: back.card}
        hands = [cb.CardSet.of([swap.get(c, c) for c in h]) for h in final.deal.hands]
        stock = cb.CardSet.of([swap.get(c, c) for c in final.deal.stock])
        for order in itertools.permutations(discards):
            moved = list(actions)
            moved[at] = cb.GiveBack(card)
            for i, j in zip(discards, order):
                moved[i] = actions[j]
            try:
                state = cb.deal_from(rules, hands, stock, dealer=0)
                for action in moved:
                    state = cb.apply(state, action)
            except cb.CalabrasellaError:
                continue
            if state.view(other) == final.view(other):
                consistent[card] += 1
    sampler = Sampler(final.view(other))
    assert sampler.count == sum(consistent.values()) == 12 * 24
    rng = random.Random(7)
    seen: Counter[Hashable] = Counter()
    for _ in range(120):
        w = sampler.sample(rng)
        given = w.history[at][1]
        assert isinstance(given, cb.GiveBack)
        seen[given.card] += 1
    assert_uniform(seen, consistent)


def test_uniform_over_an_unseen_solo_monte() -> None:
    """Solo with the monte face down, the deal over, seen by an adversary: any four of the
    sixteen cards the declarer played or discarded were the monte (brute force replays each),
    so the number of monte cards among his discards is hypergeometric."""
    rules = cb.Calabresella(solo_monte_exposed=False)
    states = run(rules, 3, ("bid solo", "pass", "pass"))
    final = states[-1]
    d = final.declarer
    assert d == 1
    through = [
        c for who, a in final.history if who == d and isinstance(a, cb.Play) for c in [a.card]
    ]
    through += list(final.stock)
    actions = replay(states)
    fits = 0
    for monte in itertools.combinations(through, 4):
        hands = list(final.deal.hands)
        hands[d] = cb.CardSet.of([c for c in through if c not in monte])
        state = cb.deal_from(rules, hands, cb.CardSet.of(monte), dealer=0)
        try:
            for action in actions:
                state = cb.apply(state, action)
        except cb.CalabrasellaError:
            continue
        fits += state.view(0) == final.view(0)
    assert fits == math.comb(16, 4)
    sampler = Sampler(final.view(0))
    assert sampler.count == fits * math.factorial(4)  # and the four discards in any order
    rng = random.Random(11)
    seen: Counter[Hashable] = Counter()
    for _ in range(600):
        w = sampler.sample(rng)
        discarded = (w.deal.stock.mask & final.stock.mask).bit_count()  # monte cards he discarded
        seen[min(3, discarded)] += 1
    weights: dict[Hashable, float] = {j: math.comb(4, j) * math.comb(12, 4 - j) for j in range(3)}
    weights[3] = sum(math.comb(4, j) * math.comb(12, 4 - j) for j in (3, 4))
    assert_uniform(seen, weights, weights)


# --- the rule of calling, asked of the ruleset ---------------------------------------------


@attrs.frozen(kw_only=True)
class AcesFirst(cb.Cavendish):
    """A rule of calling of its own: an ace he does not hold; holding all four, any card."""

    name = "cavendish_aces_first"

    def callable_cards(self, hand: cb.CardSet, contract: cb.Contract) -> cb.CardSet:
        aces = cb.CardSet.parse("Ad Ah As Ac")
        return aces - hand if aces - hand else cb.CardSet.all() - hand


def test_the_rule_of_calling_is_read_from_the_hook() -> None:
    """The built-in rules are recognised by their answers; a rule of its own is not."""
    stand, chiamo = cb.Contract.STAND, cb.Contract.CHIAMO
    assert callable_kind(cb.CAVENDISH, stand) == "threes_then_twos"
    assert callable_kind(cb.CALABRESELLA, chiamo) == "any_unheld"
    assert callable_kind(cb.Calabresella(callable="threes_then_twos"), chiamo) == (
        "threes_then_twos"
    )
    assert callable_kind(AcesFirst(), stand) is None


def test_a_rule_of_calling_of_its_own_is_sampled_by_rejection() -> None:
    """The declarer holds all four aces and so calls another card: every world an
    adversary's view draws gives him the four aces (the rule says he held them), and
    equals the view."""
    hands = (
        cb.CardSet.parse("3d 2d Kd Qd Jd 7d 6d 5d 4d 3h 2h Kh"),  # seat 0, adversary
        cb.CardSet.parse("Ad Ah As Ac 3s 2s Ks Qs Js 7s 6s 5s"),  # seat 1, the declarer
        cb.CardSet.parse("Qh Jh 7h 6h 5h 4h 3c 2c Kc Qc Jc 7c"),  # seat 2, adversary
    )
    stock = cb.CardSet.parse("4s 6c 5c 4c")
    state = cb.deal_from(AcesFirst(), hands, stock, dealer=2)  # seat 0 speaks first
    for text in ("pass", "bid stand"):
        state = cb.apply(state, cb.parse_action(text))
    assert state.declarer == 1 and state.phase is cb.Phase.CALLING
    state = cb.apply(state, cb.Call(cb.Card.parse("3d")))  # not an ace: he holds all four
    for seat in (0, 2):
        view = state.view(seat)
        sampler = Sampler(view)
        rng = random.Random(5)
        for _ in range(10):
            world = sampler.sample(rng)
            assert world.view(seat) == view
            assert cb.CardSet.parse("Ad Ah As Ac") <= world.hand(1)


# --- the generic path: worlds by replay and rejection --------------------------------------


def _swap_variant() -> Any:
    from support import load_example

    return load_example("swap_variant")


@pytest.mark.parametrize("players", [3, 4])
def test_a_ruleset_with_its_own_step_is_sampled_by_replay(players: int) -> None:
    """The swap variant, late in the play, from every seat: each world drawn by replay (and
    by the sampler, which follows the swap's recorded moves) is
    a state whose view is the seat's view, in which the seat was dealt its own hand (the
    rules move a card of its hand only by a move it sees: its own, or a pass to it)."""
    rules = _swap_variant().SwapCavendish(players=players)
    checked = 0
    for seed in range(8):
        state = cb.new_deal(rules, dealer=seed % players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and not (
            state.phase is cb.Phase.PLAYING and len(state.hand(state.to_move or 0)) <= 6
        ):
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        if state.is_over:
            continue
        for seat in range(players):  # the exact sampler follows the swap's moves too
            assert Sampler(state.view(seat)).sample(seed).view(seat) == state.view(seat)
        for seat in range(players):
            view = state.view(seat)
            sampler = ReplaySampler(view)
            for k in range(3):
                world = sampler.sample(random.Random(k))
                assert world.view(seat) == view
                assert world.deal.hands[seat] == state.deal.hands[seat]
                checked += 1
    assert checked >= 5 * 3 * 3


def test_the_generic_path_follows_the_built_in_rulesets_too() -> None:
    """Under the presets (which the exact sampler models), replayed worlds fit the view."""
    for rules in (cb.CAVENDISH, cb.CALABRESELLA):
        for seed in range(4):
            state = cb.new_deal(rules, seed=seed)
            rng = random.Random(seed)
            for _ in range(20 + 5 * seed):
                if state.is_over:
                    break
                state = cb.apply(state, rng.choice(cb.legal_actions(state)))
            for seat in range(3):
                view = state.view(seat)
                world = ReplaySampler(view).sample(seed)
                assert world.view(seat) == view


def test_the_generic_path_raises_ruleset_error_when_it_finds_no_world() -> None:
    """Zero tries find nothing: a RulesetError naming the seat, never a hang."""
    view = cb.new_deal(cb.CAVENDISH, seed=1).view(2)
    with pytest.raises(cb.RulesetError, match="seat 2"):
        ReplaySampler(view).sample(1, tries=0)
    with pytest.raises(cb.StateError):
        ReplaySampler(cb.new_deal(cb.CAVENDISH, seed=1))  # type: ignore[arg-type]


def test_a_face_down_entry_that_records_no_move_is_left_to_the_replay() -> None:
    """A step that moves a card without recording it (it changes the hands itself, and
    hides its action with the deprecated ``hidden_from``): the sampler cannot follow
    it and says so; the replay sampler finds worlds."""
    with pytest.warns(DeprecationWarning, match="hidden_from"):

        @attrs.frozen
        class SlipByHand(Step):
            phase: ClassVar[cb.Phase] = cb.Phase.GIVING_BACK

            def start(self, work: Work) -> bool:
                return work.ask(work.seat(Role.FIRST), self.phase)

            def legal_actions(self, work: Work) -> tuple[cb.Action, ...]:
                return tuple(cb.GiveBack(card) for card in work.hand(Role.FIRST))

            def apply(self, work: Work, action: cb.Action) -> bool:
                assert isinstance(action, cb.GiveBack)
                giver, receiver = work.seat(Role.FIRST), work.seat(Role.SECOND)
                work.hands[giver] &= ~(1 << action.card.index)
                work.hands[receiver] |= 1 << action.card.index
                work.record(giver, action)
                return True

            def hidden_from(self, seat: int, viewer: int, action: cb.Action, exchange: Any) -> str:
                return "swap"

    @attrs.frozen(kw_only=True)
    class Unrecorded(cb.Cavendish):
        name = "cavendish_unrecorded_sampling"

        def exchange_plan(self, contract: cb.Contract) -> tuple[Step, ...]:
            return (SlipByHand(), *super().exchange_plan(contract))

    state = cb.apply(cb.new_deal(Unrecorded(), dealer=0, seed=2), cb.Bid(cb.Contract.STAND))
    state = cb.apply(state, state.legal_actions()[0])
    view = state.view(state.declarer or 0)
    assert isinstance(view.history[-1][1], cb.Hidden)
    with pytest.raises(cb.RulesetError, match="records no move"):
        Sampler(view)
    assert ReplaySampler(view).sample(1).view(view.seat) == view


def test_a_sampler_says_whose_view_and_how_many_worlds() -> None:
    """Its repr: the seat, the rules, the phase and the count (a bound where a rule of the
    ruleset's own is left out of the model: the declarer knows his own hand)."""
    view = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7).view(1)
    assert repr(Sampler(view)) == "Sampler(seat 1 of cavendish, bidding, 55,367,594,100 worlds)"
    state = cb.apply(cb.new_deal(AcesFirst(), dealer=2, seed=1), cb.Pass())
    state = cb.apply(state, cb.Bid(cb.Contract.STAND))
    assert repr(Sampler(state.view(0))) == (
        "Sampler(seat 0 of cavendish_aces_first, calling, at most 55,367,594,100 worlds)"
    )
    assert "at most" not in repr(Sampler(state.view(1)))


def test_uniform_over_hands_and_discards_after_a_give_back_the_adversary_did_not_see() -> None:
    """Cavendish, three cards left each, seen by the adversary who did not give the called
    card: he saw neither the card given back nor the discards. Every placement of the
    unseen cards into the other two hands and the discards that keeps his view is equally
    likely, every world drawn is one of them (found by brute force), and each comes with
    twelve give-backs: any card the giver held once he had it was the one given back."""
    for seed in range(20, 80):
        states = run(cb.CAVENDISH, seed, ("bid stand",), until=tricks(9))
        final = states[-1]
        d, giver = final.declarer, final.giver
        if d is None or giver is None or len(final.view(d).discards) != 1:
            continue
        other = 3 - d - giver
        break
    else:
        pytest.fail("no suitable deal")
    worlds, seen, sampler = _presents(
        other,
        states,
        [lambda s: s.hand(d).mask, lambda s: s.hand(giver).mask, lambda s: s.view(d).discards.mask],
    )
    assert 2 < len(worlds) <= 140
    assert sampler.count == len(worlds) * 12  # any of the giver's twelve cards came back
    assert_uniform(seen, worlds)
