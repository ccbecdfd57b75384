"""The observation encoder against a plain one written here from the documented layout,
over thousands of views; the View's own helpers; the encoding's bad input.

The reference below fills a list per part of ``observation_parts(rules)`` (so
the layout drives both encoders) by the definitions the docs give, one card
and one history entry at a time, with nothing shared with the encoder (no
history scan, no bit tricks, no trick-winner rule of the library's, no walk
of the auction: where the auction ended is told by the playout, from the
step at which its state left the bidding phase).
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterable
from typing import Any

import attrs
import pytest

import calabrasella as cb
from calabrasella import encoding as enc
from grids import OPTION_GRID

np = pytest.importorskip("numpy")

def _in_play(view: cb.View) -> list[int]:
    n = view.rules.players
    return [(view.dealer + k) % n for k in (1, 2, 3)]


#: The kinds of move, in the documented order (a variant's own kinds would follow).
KINDS = [
    "pass", "done", "dividete", "scegliete", "call", "give_back", "discard", "take", "draw",
    "play", "revoke", "turn_stock", "out_of_turn", "abandon", "other",
]  # fmt: skip
COUNTED = [k for k in KINDS if k not in ("play", "revoke")]
CARDED = ["give_back", "discard", "take", "out_of_turn"]
_NAMES = {
    cb.Pass: "pass", cb.Done: "done", cb.Call: "call", cb.GiveBack: "give_back",
    cb.Discard: "discard", cb.Take: "take", cb.Draw: "draw", cb.Play: "play",
    cb.Revoke: "revoke", cb.TurnStock: "turn_stock", cb.OutOfTurn: "out_of_turn",
    cb.Abandon: "abandon",
}  # fmt: skip


def _move(seat: int, action: Any, forced: bool) -> tuple[int, str, list[cb.Card], bool, bool]:
    """A history entry as (seat, kind, the cards it shows, face down, forced)."""
    if isinstance(action, cb.Hidden):
        return seat, action.kind if action.kind in KINDS else "other", [], True, forced
    if isinstance(action, cb.Raise):
        return seat, action.modifier.value, [], False, forced
    if isinstance(action, cb.Draw):
        return seat, "draw", list(action.cards), False, forced
    card = getattr(action, "card", None)
    return seat, _NAMES.get(type(action), "other"), [card] if card else [], False, forced


def reference(view: cb.View, calls: int, recall: bool = False) -> list[float] | None:
    """The observation, part by part, as the layout's meanings say; ``calls``: how many
    entries of the history are the auction's. ``None``: too many moves for the information
    state's room (table mode's cards out of turn)."""
    rules = view.rules
    parts = {name: [0.0] * size for name, size, _ in enc.observation_parts(rules, recall)}

    def one(part: str, at: int) -> None:
        parts[part][at] = 1.0

    one("phase", list(cb.Phase).index(view.phase))
    one("seat", view.seat)
    one("dealer", view.dealer)
    if view.to_move is not None:
        one("to_move", view.to_move)
    if view.declarer is not None:
        one("declarer", view.declarer)
        if view.seat in _in_play(view) and view.seat != view.declarer:
            mates = [s for s in _in_play(view) if s not in (view.seat, view.declarer)]
            one("partner", mates[0])
    if view.giver is not None:
        one("giver", view.giver)
    stake = getattr(rules, "stake", None)
    if view.contract is not None:
        one("contract", list(cb.Contract).index(view.contract))
        parts["stake"][0] = float(stake(view.contract, view.modifier)) if stake else 1.0
    if view.modifier is not None:
        one("modifier", list(cb.Modifier).index(view.modifier))
    for seat, size in enumerate(view.hand_sizes):
        parts["hand_sizes"][seat] = float(size)
    parts["stock_size"][0] = float(view.stock_size)
    if view.trick:
        one("leader", view.leader)
        best_seat, best = view.trick[0]
        for seat, card in view.trick[1:]:
            if card.suit == best.suit and card.rank > best.rank:
                best_seat, best = seat, card
        one("winning", best_seat)
    for seat, won in enumerate(view.tricks_won):
        parts["tricks_won"][seat] = float(won)
    for seat, units in enumerate(view.card_units_won):
        parts["card_units_won"][seat] = float(units)
    if view.phase is cb.Phase.OVER:
        left = 0
    elif view.phase is cb.Phase.PLAYING:
        left = max(view.hand_sizes[s] for s in _in_play(view))
    else:
        contract = view.contract or rules.contracts[0]
        left = rules.play_sizes(contract, view.modifier)[0]
    parts["tricks_left"][0] = float(left)

    def cards(part: str, these: Iterable[cb.Card]) -> None:
        for card in these:
            one(part, card.index)

    cards("hand", view.hand)
    cards("called", [] if view.called is None else [view.called])
    cards("given_back", [] if view.given_back is None else [view.given_back])
    cards("exposed", view.exposed)
    cards("discards", view.discards)
    cards("drawn", view.drawn)
    cards("final_stock", view.final_stock or [])
    for seat, card in view.trick:
        one("trick", 40 * seat + card.index)
    seen = set(view.hand) | set(view.exposed) | set(view.discards) | set(view.drawn)
    seen |= set(view.final_stock or ()) | ({view.given_back} if view.given_back else set())
    plays = 0
    led = None
    for seat, action in view.history:
        if isinstance(action, (cb.Play, cb.Revoke)):
            one("played", 40 * seat + action.card.index)
            if plays % 3 == 0:
                led = action.card.suit
            elif isinstance(action, cb.Play) and action.card.suit != led and rules.follow_suit:
                assert led is not None
                one("voids", 4 * seat + int(led))
            plays += 1
        if isinstance(action, cb.Draw):
            seen |= set(action.cards)
        elif not isinstance(action, (cb.Hidden, cb.Call)) and isinstance(
            getattr(action, "card", None), cb.Card
        ):
            seen.add(action.card)  # type: ignore[union-attr]
    for card in cb.DECK:
        if card not in seen:
            one("unseen", card.index)
    # the auction: each call's seat, then pass or the contract; the highest bid
    width = 5 + len(rules.contracts)
    high = None
    for i, (seat, action) in enumerate(view.history[:calls]):
        one("auction", width * i + seat)
        if isinstance(action, cb.Pass):
            one("auction", width * i + 4)
        else:
            rank = rules.contracts.index(action.contract)  # type: ignore[union-attr]
            one("auction", width * i + 5 + rank)
            if high is None or rank > high[0]:
                high = (rank, seat)
    if high is not None:
        one("high_bid", high[0])
        one("high_bidder", high[1])
        if view.contract is None:
            contract = rules.contracts[high[0]]
            parts["stake"][0] = float(stake(contract, None)) if stake else 1.0
    # the moves after the auction, forced ones before the entry they came before
    moves = []
    forced = list(view.forced_moves)
    for i in range(calls, len(view.history) + 1):
        while forced and forced[0][0] <= i:
            moves.append(_move(forced[0][1], forced.pop(0)[2], True))
        if i < len(view.history):
            moves.append(_move(*view.history[i], False))
    for seat, kind, shown, _, _ in moves:
        if kind in COUNTED:
            parts["move_counts"][4 * COUNTED.index(kind) + seat] += 1.0
        if kind in CARDED:
            for card in shown:
                one("move_cards", 160 * CARDED.index(kind) + 40 * seat + card.index)
    if recall:
        width = 46 + len(KINDS)
        if len(moves) * width > len(parts["moves"]):
            return None
        for i, (seat, kind, shown, down, was_forced) in enumerate(moves):
            one("moves", width * i + seat)
            one("moves", width * i + 4 + KINDS.index(kind))
            if down:
                one("moves", width * i + 4 + len(KINDS))
            if was_forced:
                one("moves", width * i + 5 + len(KINDS))
            for card in shown:
                one("moves", width * i + 6 + len(KINDS) + card.index)
    return [x for name, _, _ in enc.observation_parts(rules, recall) for x in parts[name]]


def deal_views(rules: cb.Ruleset, seed: int) -> list[tuple[cb.View, int]]:
    """Every seat's view of every state of a random deal, with how many of its history's
    entries are the auction's."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
    views = []
    calls = 0
    while True:
        views += [(state.view(seat), calls) for seat in range(rules.players)]
        if state.is_over:
            return views
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            calls += state.phase is cb.Phase.BIDDING
            state = cb.apply(state, rng.choice(state.legal_actions()))


def test_the_encoder_equals_the_reference_over_thousands_of_views() -> None:
    """Both games, table mode and four seats: the list and the array equal the reference,
    views taken deal by deal and then again in a shuffled order (the encoder keeps what it
    read of recent histories: no order of calls may change a vector); and so does the
    information state, refused with a StateError where table mode's cards out of turn
    leave it no room."""
    pairs = [p for rules in OPTION_GRID for seed in range(6) for p in deal_views(rules, seed)]
    views = [view for view, _ in pairs]
    assert len(views) > 3000
    expected = [reference(view, calls) for view, calls in pairs]
    for view, want in zip(views, expected):
        got = enc.observation(view)
        assert got == want
        assert all(type(x) is float for x in got)
    order = list(range(len(views)))
    random.Random(5).shuffle(order)
    for i in order:
        array = enc.observation(views[i], numpy=True)
        size = enc.observation_size(views[i].rules)
        assert array.dtype == np.float32 and array.shape == (size,)
        assert array.tolist() == expected[i]
    for i in order[:300]:  # views built anew from plain data: equal entries, other objects
        twin = pickle.loads(pickle.dumps(views[i]))
        assert enc.observation(twin) == expected[i]
    full = 0
    for i in order[:1500]:  # the information state, in another order again
        view, calls = pairs[i]
        want = reference(view, calls, recall=True)
        if want is None:  # more moves than it has room for: refused
            with pytest.raises(cb.StateError, match="moves after the auction"):
                enc.observation(view, recall=True)
            full += 1
        else:
            assert enc.observation(view, recall=True) == want
    assert 0 < full < 100


def test_branching_histories_do_not_mix() -> None:
    """Two continuations of one state, observed in turn, each give its own vector."""
    rng = random.Random(3)
    state = cb.new_deal(cb.CALABRESELLA, seed=3)
    calls = 0
    while state.phase is not cb.Phase.PLAYING or len(state.trick) != 1:
        if state.is_over:
            state, calls = cb.new_deal(cb.CALABRESELLA, seed=rng), 0
        calls += state.phase is cb.Phase.BIDDING
        state = cb.apply(
            state, cb.sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions())
        )
    branches = [cb.apply(state, a) for a in state.legal_actions()[:2]]
    for _ in range(4):
        for i, branch in enumerate(branches):
            for seat in range(3):
                view = branch.view(seat)
                assert enc.observation(view) == reference(view, calls)
                assert enc.observation(view, recall=True) == reference(view, calls, recall=True)
            if not branch.is_over:
                branches[i] = cb.apply(branch, branch.legal_actions()[-1])


def test_each_array_is_a_new_one() -> None:
    """Arrays are not reused between calls: a kept observation stays as it was."""
    view = cb.new_deal(cb.CAVENDISH, seed=2).view(0)
    first = enc.observation(view, numpy=True)
    kept = first.copy()
    first[:] = 9.0
    assert enc.observation(view, numpy=True).tolist() == kept.tolist()
    mask = enc.legal_mask(cb.new_deal(cb.CAVENDISH, seed=2).view(1), numpy=True)
    assert mask.dtype == np.int8 and mask.flags.writeable


@pytest.mark.parametrize("rules", OPTION_GRID, ids=lambda r: repr(r)[:50])
def test_the_view_helpers_are_the_encoding_functions(rules: cb.Ruleset) -> None:
    """``view.cards_played`` ... ``view.tricks_left`` say what the encoding's functions say,
    and agree with the reference's reading of the history."""
    for view, calls in deal_views(rules, 1)[::3]:
        assert view.cards_played == enc.cards_played(view)
        assert view.unseen_cards == enc.unseen_cards(view)
        assert view.known_voids == enc.known_voids(view)
        assert view.winning_seat == enc.winning_seat(view)
        assert view.partner == enc.partner(view)
        assert view.tricks_left == enc.tricks_left(view)
        obs = reference(view, calls)
        assert obs is not None
        layout = enc.observation_layout(rules)
        unseen = obs[layout["unseen"]]
        assert view.unseen_cards == cb.CardSet.of([c for c in cb.DECK if unseen[c.index]])
        played = obs[layout["played"]]
        for seat, cards in enumerate(view.cards_played):
            assert cards == cb.CardSet.of([c for c in cb.DECK if played[40 * seat + c.index]])
        voids = obs[layout["voids"]]
        for seat, suits in enumerate(view.known_voids):
            assert suits == {s for s in cb.Suit if voids[4 * seat + int(s)]}
        assert obs[layout["tricks_left"]] == [float(view.tricks_left)]


def test_bad_input_gets_clear_errors() -> None:
    """A seat not at the table, or something that is neither a state nor a view."""
    view = cb.new_deal(cb.CALABRESELLA, seed=1).view(0)
    with pytest.raises(cb.SeatError):
        enc.partner(view, 3)
    with pytest.raises(cb.SeatError):
        enc.partner(view, "1")  # type: ignore[arg-type]
    junk: Any = "a view"
    with pytest.raises(cb.StateError):
        enc.legal_mask(junk)
    with pytest.raises(cb.StateError):
        enc.legal_ids(junk)
    with pytest.raises(cb.StateError):
        enc.action_of(0, junk)
    four = attrs.evolve(cb.CALABRESELLA, players=4)
    state = cb.new_deal(four, dealer=0, seed=1)
    assert enc.partner(state.view(0)) is None  # the dealer sits out
