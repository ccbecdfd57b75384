"""What the observation vectors tell apart, over random playouts of each game.

- The information state (``observation(view, recall=True)``, OpenSpiel's
  information-state tensor) has perfect recall: two views whose contents
  differ anywhere (the history as the seat saw it, its forced moves, its hand,
  the final stock...) never share a vector.
- The observation vector (``recall=False``) may forget the order of the
  moves after the auction, but two views that differ in the auction, the
  contract, the exchange as the seat saw it, its hand or the cards played
  never share one.

The keys compared are written here from the views' fields and from the
states the playout walked through (where the auction ended is the step at
which the state left the bidding phase), never from the encoder. Each game
is walked for at least 10,000 states from a fixed seed: Cavendish, Calabresella
with the options that change the auction (the default single round, and
bidding until two pass with a face-down give-back), and the swap variant of
``examples/swap_variant.py``. A larger walk is marked ``slow``.
"""

from __future__ import annotations

import array
import hashlib
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from support import load_example

import calabrasella as cb
from calabrasella import encoding as enc

swap = load_example("swap_variant")

GAMES = [
    pytest.param(cb.CAVENDISH, id="cavendish"),
    pytest.param(cb.CALABRESELLA, id="calabresella"),
    pytest.param(
        cb.Calabresella(auction="until_two_pass", give_back="face_down"),
        id="calabresella-until-two-pass",
    ),
    pytest.param(None, id="swap-variant"),
]


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # (the vectors as lists, packed by the array module)
        return None
    return numpy


numpy = _numpy()


def _vector(view: cb.View, recall: bool) -> bytes:
    """A digest of the view's vector (a digest: 10,000s of vectors of 1,000s of entries)."""
    if numpy is not None:
        raw = enc.observation(view, numpy=True, recall=recall).tobytes()
    else:
        raw = array.array("d", enc.observation(view, recall=recall)).tobytes()
    return hashlib.blake2b(raw, digest_size=16).digest()


def full_key(view: cb.View) -> Any:
    """Everything the view holds but its legal actions (a function of the rest) and the
    result: what OpenSpiel's information-state string is made of, and more."""
    return (
        view.seat, view.dealer, view.phase, view.to_move, view.hand, view.hand_sizes,
        view.stock_size, view.declarer, view.contract, view.modifier, view.called,
        view.giver, view.given_back, view.exposed, view.discards, view.drawn, view.trick,
        view.tricks_won, view.card_units_won, view.final_stock, view.history,
        view.forced_moves,
    )  # fmt: skip


_PLAYS = (cb.Play, cb.Revoke)


def observed_key(view: cb.View, calls: int) -> Any:
    """The auction (the first ``calls`` entries, in order), the contract, the exchange as the
    seat saw it (its entries and forced moves, as a multiset), the hand, the cards each
    seat played and the current trick."""
    history = view.history
    exchange = Counter(e for e in history[calls:] if not isinstance(e[1], _PLAYS))
    exchange.update((seat, a) for _, seat, a in view.forced_moves)
    played = frozenset(e for e in history[calls:] if isinstance(e[1], _PLAYS))
    return (
        view.seat, history[:calls], view.contract, view.declarer, view.modifier,
        frozenset(exchange.items()), view.hand, played, view.trick,
    )  # fmt: skip


def _play_out(
    state: cb.State, calls: int, rng: random.Random
) -> Iterator[tuple[cb.State, int]]:
    """The states after ``state`` of a random playout, with their auction's length."""
    while not state.is_over:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            bidding = state.phase is cb.Phase.BIDDING
            state = cb.apply(state, rng.choice(state.legal_actions()))
            calls += bidding
        yield state, calls


def walk(rules: cb.Ruleset, states: int, seed: int) -> Iterator[tuple[cb.State, int]]:
    """``states`` states of random playouts from ``seed``, each with how many of its history's
    entries are the auction's.

    Each deal is played out again and again from states met before (one before the play
    half the time): the same cards, other histories, where vectors that forget something
    would meet.
    """
    rng = random.Random(seed)
    seen = 0
    deal = 0
    while seen < states:
        root = cb.new_deal(rules, dealer=deal % rules.players, seed=rng.getrandbits(32))
        deal += 1
        met = [(root, 0)]
        yield root, 0
        seen += 1
        for _ in range(40):
            before = [m for m in met if m[0].phase.value in _BEFORE_PLAY]
            pool = before if before and rng.random() < 0.5 else met
            state, calls = rng.choice(pool)
            for step in _play_out(state, calls, rng):
                met.append(step)
                yield step
                seen += 1


_BEFORE_PLAY = {p.value for p in cb.Phase if p not in (cb.Phase.PLAYING, cb.Phase.OVER)}


def check(rules: cb.Ruleset, states: int, seed: int) -> tuple[int, int, int]:
    """Walk ``states`` states; fail on a vector shared by two different keys. Return how
    many views were compared, and how many distinct information states and observations."""
    recalled: dict[bytes, int] = {}
    observed: dict[bytes, int] = {}
    views = 0
    size = enc.observation_size(rules)
    recall_size = enc.observation_size(rules, recall=True)
    for state, calls in walk(rules, states, seed):
        for seat in range(rules.players):
            view = state.view(seat)
            views += 1
            key = hash(full_key(view))
            vector = _vector(view, True)
            other = recalled.setdefault(vector, key)
            assert other == key, f"two information states share a vector: {view!r}"
            key = hash(observed_key(view, calls))
            vector = _vector(view, False)
            other = observed.setdefault(vector, key)
            assert other == key, f"two different views share an observation: {view!r}"
    assert len(enc.observation(view)) == size
    assert len(enc.observation(view, recall=True)) == recall_size
    return views, len(set(recalled.values())), len(set(observed.values()))


@pytest.fixture
def registered() -> Iterator[None]:
    with cb.registered_ruleset(swap.SwapCavendish), cb.registered_action(swap.Swap):
        yield


def _rules(rules: cb.Ruleset | None) -> cb.Ruleset:
    return swap.SwapCavendish() if rules is None else rules


@pytest.mark.parametrize("rules", GAMES)
def test_no_two_views_share_a_vector(rules: cb.Ruleset | None, registered: None) -> None:
    """10,000 states of each game, every seat's view: the information state tells apart any
    two views, the observation any two that differ in what it promises to keep."""
    views, states, observations = check(_rules(rules), 10_000, seed=1)
    assert views >= 30_000
    assert states > 20_000 and observations > 20_000  # (the walk is not one deal over and over)


@pytest.mark.slow
@pytest.mark.parametrize("rules", GAMES)
def test_no_two_views_share_a_vector_on_a_longer_walk(
    rules: cb.Ruleset | None, registered: None
) -> None:
    """The same over 100,000 states of each game."""
    check(_rules(rules), 100_000, seed=2)


def test_the_bids_are_in_the_vector() -> None:
    """After "bid solo" and after "pass", the third seat's vectors differ, and say who bid
    what, the highest bid and its stake so far (Calabresella: chiamo 1, solo 2)."""
    start = cb.new_deal(cb.CALABRESELLA, dealer=0, seed=3)
    assert start.to_move == 1
    solo = cb.apply(start, cb.Bid("solo"))
    passed = cb.apply(start, cb.Pass())
    layout = enc.observation_layout(cb.CALABRESELLA)
    a, b = enc.observation(solo.view(0)), enc.observation(passed.view(0))
    assert a != b
    assert enc.observation(solo.view(0), recall=True) != enc.observation(passed.view(0), recall=True)
    # the auction's first call: seat 1 (4 entries), then pass, chiamo, solo, solissimo
    assert a[layout["auction"]][:8] == [0, 1, 0, 0, 0, 0, 1, 0]
    assert b[layout["auction"]][:8] == [0, 1, 0, 0, 1, 0, 0, 0]
    assert a[layout["auction"]][8:] == [0.0] * 16 == b[layout["auction"]][8:]
    assert a[layout["high_bid"]] == [0, 1, 0] and a[layout["high_bidder"]] == [0, 1, 0, 0]
    assert b[layout["high_bid"]] == [0, 0, 0] and b[layout["high_bidder"]] == [0, 0, 0, 0]
    assert a[layout["stake"]] == [2.0] and b[layout["stake"]] == [0.0]
    chiamo = cb.apply(passed, cb.Bid("chiamo"))
    assert enc.observation(chiamo.view(0))[layout["stake"]] == [1.0]


def test_hidden_moves_are_counted_and_seen_cards_shown() -> None:
    """Cavendish, seed 7: the single player's face-down discards are counted, not shown, in
    an adversary's vector, and shown in his own; the card given back shows only to its
    giver and the single player."""
    rng = random.Random(4)
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    while state.phase is not cb.Phase.PLAYING:
        action: cb.Action
        if state.phase is cb.Phase.BIDDING:
            action = cb.Bid("stand") if cb.Bid("stand") in state.legal_actions() else cb.Pass()
        else:
            action = rng.choice(state.legal_actions())
        state = cb.apply(state, action)
    declarer = state.declarer
    assert declarer is not None
    parts = [name for name, _, _ in enc.observation_parts(cb.CAVENDISH)]
    meaning = dict((n, m) for n, _, m in enc.observation_parts(cb.CAVENDISH))
    assert parts.index("move_cards") == len(parts) - 1
    kinds = meaning["move_cards"].split("(")[1].split(")")[0].split(", ")
    counted = meaning["move_counts"].split("(")[1].split(")")[0].split(", ")
    discarded = cb.CardSet.of(
        [a.card for s, a in state.history if s == declarer and isinstance(a, cb.Discard)]
    )
    assert discarded
    layout = enc.observation_layout(cb.CAVENDISH)
    for seat in range(3):
        obs = enc.observation(state.view(seat))
        cards = obs[layout["move_cards"]]
        at = 160 * kinds.index("discard") + 40 * declarer
        shown = cb.CardSet.of([c for c in cb.DECK if cards[at + c.index]])
        assert shown == (discarded if seat == declarer else cb.CardSet())
        counts = obs[layout["move_counts"]]
        assert counts[4 * counted.index("discard") + declarer] == len(discarded)
        giver = state.view(seat).giver
        at = 160 * kinds.index("give_back") + 40 * declarer
        back = [c for c in cb.DECK if cards[at + c.index]]
        assert len(back) == (1 if seat in (declarer, giver) else 0)


def test_a_ruleset_that_is_not_one_gets_a_clear_error() -> None:
    with pytest.raises(cb.RulesetError, match="expected a Ruleset"):
        enc.observation_size("cavendish")  # type: ignore[arg-type]
    with pytest.raises(cb.RulesetError, match="expected a Ruleset"):
        enc.observation_layout(None)  # type: ignore[arg-type]
