"""The observation vectors: their layouts, and the encoder that fills them from a view.

Private: :mod:`calabrasella.encoding` publishes :data:`OBSERVATION_LAYOUT`,
:func:`observation_parts`, :func:`observation_layout`,
:func:`observation_size` and :func:`observation`.

A vector begins with the parts every ruleset shares (:data:`OBSERVATION_LAYOUT`)
and goes on with parts sized from the ruleset: the highest bid, the auction's
calls in order (room for its longest auction), the moves each seat made
after it as this seat saw them, and, in the information state
(``recall=True``), every move after the auction in order.

The encoder writes every 0/1 entry of the vector as one bit of a single
int (bit ``i`` for entry ``i``: the one-hot parts by shifts, each part made
of cards as its 40-bit mask shifted into place) and the counts apart; the
int's bytes become the vector through a table of each byte's eight entries
(a NumPy ``take`` of a 256 x 8 table, or tuples of floats added to a list), and
the counts are written over their zeros. Every offset comes from the layout.
What a view's auction and moves before the play give the vector is worked
out once and kept with their reading (:mod:`calabrasella._encoding_moves`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._encoding_moves import PLAY, REVOKE, Moves, Vocabulary, move_of, read, vocabulary
from ._encoding_views import ALL, partner, scan, tricks_left
from ._memo import keep
from ._tricks import winning_play
from .actions import Contract, Modifier, Play, Revoke
from .errors import StateError
from .phases import PLAYING, Phase
from .rulesets.base import PLAY_TABLE

if TYPE_CHECKING:
    from .rulesets.base import Ruleset
    from .views import View

__all__ = [
    "OBSERVATION_LAYOUT",
    "OBSERVATION_VERSION",
    "observation",
    "observation_layout",
    "observation_parts",
    "observation_size",
]

_PHASES = tuple(Phase)
_CONTRACTS = tuple(Contract)
_MODIFIERS = tuple(Modifier)

#: The version of the vectors' layout: 2 added the auction, the moves after it and the
#: information state (``recall=True``), and made the size depend on the ruleset.
OBSERVATION_VERSION = 2

#: The parts every ruleset's vector begins with, in order: (name, size, meaning).
#: Seats are absolute (0 to 3), cards by :attr:`Card.index`, counts as plain
#: numbers; the parts made of cards are 40 entries each, 1.0 where the card is.
#: The parts sized from the ruleset follow (:func:`observation_parts`).
OBSERVATION_LAYOUT: tuple[tuple[str, int, str], ...] = (
    ("phase", len(_PHASES), "one-hot Phase (bidding ... over, exchanging)"),
    ("seat", 4, "one-hot: whose view this is"),
    ("dealer", 4, "one-hot: the dealer"),
    ("to_move", 4, "one-hot: the seat to act (all zero at chance and at the end)"),
    ("declarer", 4, "one-hot: the declarer, once known"),
    ("partner", 4, "one-hot: this seat's partner, if it has one"),
    ("giver", 4, "one-hot: the seat that gave the called card"),
    ("contract", len(_CONTRACTS), "one-hot: stand, chiamo, solo, solissimo"),
    ("modifier", len(_MODIFIERS), "one-hot: dividete, scegliete"),
    ("stake", 1, "the multiplier so far: Calabresella's stake of the contract, or in the auction of the highest bid (1 to 16); 1 for Cavendish once a seat stood; 0 before any bid"),
    ("hand_sizes", 4, "how many cards each seat holds"),
    ("stock_size", 1, "how many cards the stock holds"),
    ("leader", 4, "one-hot: the seat that led the current trick"),
    ("winning", 4, "one-hot: the seat winning the current trick"),
    ("voids", 16, "known voids: 4 suits per seat, seat 0 first (suits in the order of Suit: coins, cups, swords, batons)"),
    ("tricks_won", 4, "tricks won by each seat"),
    ("card_units_won", 4, "card units in each seat's tricks"),
    ("tricks_left", 1, "tricks still to complete"),
    ("hand", 40, "this seat's cards"),
    ("called", 40, "the card called or asked for"),
    ("given_back", 40, "the card given back, if this seat saw it"),
    ("exposed", 40, "the stock cards shown to every seat"),
    ("discards", 40, "this seat's own discards"),
    ("drawn", 40, "the cards this seat drew unseen"),
    ("played", 160, "cards played to tricks by each seat: 40 per seat, seat 0 first"),
    ("trick", 160, "the current trick: the card each seat played to it, 40 per seat"),
    ("unseen", 40, "cards this seat has not seen (see unseen_cards)"),
    ("final_stock", 40, "the stock shown at the end of the deal"),
)  # fmt: skip

_COMMON = sum(size for _, size, _ in OBSERVATION_LAYOUT)


def _offsets(parts: tuple[tuple[str, int, str], ...]) -> dict[str, slice]:
    out = {}
    at = 0
    for name, size, _ in parts:
        out[name] = slice(at, at + size)
        at += size
    return out


_SLICES = _offsets(OBSERVATION_LAYOUT)
_AT = {name: part.start for name, part in _SLICES.items()}
(_SEAT, _DEALER, _TO_MOVE, _DECLARER, _PARTNER, _GIVER, _CONTRACT, _MODIFIER, _LEADER,
 _WINNING, _VOIDS) = (_AT[name] for name in (
    "seat", "dealer", "to_move", "declarer", "partner", "giver", "contract", "modifier",
    "leader", "winning", "voids"))  # fmt: skip
_CARD_PARTS = (
    "hand", "called", "given_back", "exposed", "discards", "drawn", "played", "trick",
    "unseen", "final_stock",
)  # fmt: skip
#: The common parts made of cards come last among them, in this order (the encoder
#: shifts masks into them).
assert [name for name, _, _ in OBSERVATION_LAYOUT[-len(_CARD_PARTS) :]] == list(_CARD_PARTS)
_HAND = _AT["hand"]
#: Where each part made of cards begins, counted from the hand's first entry.
(_CALLED, _GIVEN_BACK, _EXPOSED, _DISCARDS, _DRAWN, _PLAYED, _TRICK, _UNSEEN, _FINAL) = (
    _AT[n] - _HAND for n in _CARD_PARTS[1:]
)
#: The counts come in two runs (stake, hand sizes, stock size; tricks, units, tricks
#: left), written over the zeros the bits leave there; a third, the move counts, is
#: among the parts sized from the ruleset.
_HEAD = slice(_AT["stake"], _AT["stock_size"] + 1)
_TAIL = slice(_AT["tricks_won"], _AT["tricks_left"] + 1)
assert _HEAD.stop - _HEAD.start == 6 and _TAIL.stop - _TAIL.start == 9
assert _AT["tricks_won"] + 4 == _AT["card_units_won"] and _AT["hand_sizes"] == _HEAD.start + 1

#: The kinds of move whose cards the vector shows, seat by seat, and a variant's own
#: kinds (a call's card is the ``called`` part, a seat's own draws ``drawn``, plays and
#: revokes ``played``).
_CARD_KINDS = ("give_back", "discard", "take", "out_of_turn")


class _Layout:
    """A ruleset's layout: its parts (without and with recall) and where each begins."""

    def __init__(self, rules: Any) -> None:
        voc: Vocabulary = vocabulary(rules)
        self.rules = rules
        self.voc = voc
        contracts = tuple(rules.contracts)
        self.contracts = {id(c): i for i, c in enumerate(contracts)}
        names = ", ".join(c.value for c in contracts)
        n = len(contracts)
        self.call_width = 5 + n
        kinds = voc.kinds
        counted = [k for k in range(len(kinds)) if k not in (PLAY, REVOKE)]
        self.count_at = {k: i for i, k in enumerate(counted)}
        carded = [voc.index[k] for k in _CARD_KINDS] + [*voc.custom.values()]
        self.card_at = {k: i for i, k in enumerate(carded)}
        self.move_width = 46 + len(kinds)
        self.room = voc.moves
        own = (
            ("high_bid", n, f"one-hot: the highest bid so far ({names})"),
            ("high_bidder", 4, "one-hot: the seat that made the highest bid"),
            ("auction", voc.calls * self.call_width,
             f"the auction's calls in order, {voc.calls} of {self.call_width} entries each "
             f"(room for the longest auction): the seat (4), then a pass (1) or the contract bid "
             f"({n}); a call not made is all zero"),
            ("move_counts", 4 * len(counted),
             "the moves after the auction other than plays, as this seat saw them: per kind ("
             + ", ".join(kinds[k] for k in counted) + "), how many each seat made (4 entries, "
             "face up or face down, forced ones too)"),
            ("move_cards", 160 * len(carded),
             "the cards this seat saw move after the auction: per kind ("
             + ", ".join(kinds[k] for k in carded) + "), 40 per seat, seat 0 first, the cards "
             "that seat moved that way face up to this seat"),
        )  # fmt: skip
        recall = (
            ("moves", self.room * self.move_width,
             f"every move after the auction in order, forced ones in their places, plays "
             f"included: {self.room} of {self.move_width} entries each, the seat (4), the kind "
             f"({len(kinds)}: " + ", ".join(kinds) + "), face down (1), forced (1), the cards "
             "it showed (40); a move not made is all zero"),
        )  # fmt: skip
        self.parts = OBSERVATION_LAYOUT + own
        self.recall_parts = self.parts + recall
        self.slices = _offsets(self.parts)
        self.recall_slices = _offsets(self.recall_parts)
        self.size: int = self.slices["move_cards"].stop
        self.recall_size: int = self.recall_slices["moves"].stop
        self.bytes = (self.size + 7) // 8
        self.recall_bytes = (self.recall_size + 7) // 8
        at = self.slices
        self.high_bid: int = at["high_bid"].start
        self.high_bidder: int = at["high_bidder"].start
        self.auction: int = at["auction"].start
        self.counts = at["move_counts"]
        self.cards: int = at["move_cards"].start
        self.moves: int = self.recall_slices["moves"].start
        self.kinds = len(kinds)


_LAYOUTS: dict[int, _Layout] = {}


def _layout(rules: Any) -> _Layout:
    known = _LAYOUTS.get(id(rules))
    if known is None or known.rules is not rules:
        from .rulesets.base import Ruleset

        if not isinstance(rules, Ruleset):
            from .errors import RulesetError

            raise RulesetError(f"expected a Ruleset, not {rules!r}")
        known = keep(_LAYOUTS, id(rules), _Layout(rules), 64)
    return known


def observation_parts(rules: Ruleset, recall: bool = False) -> tuple[tuple[str, int, str], ...]:
    """Return the parts of ``rules``' vector, in order: ``(name, size, meaning)``.

    :data:`OBSERVATION_LAYOUT`, then the parts sized from the ruleset; with
    ``recall=True``, the information state's ``moves`` last.

    Raises:
        RulesetError: ``rules`` is not a ruleset, or its auction may last
            more than 64 calls.

    Example:
        >>> import calabrasella as cb
        >>> [name for name, _, _ in observation_parts(cb.CAVENDISH)][-5:]
        ['high_bid', 'high_bidder', 'auction', 'move_counts', 'move_cards']
    """
    lay = _layout(rules)
    return lay.recall_parts if recall else lay.parts


def observation_layout(rules: Ruleset, recall: bool = False) -> dict[str, slice]:
    """Return each part of ``rules``' vector and its slice.

    Raises:
        RulesetError: As :func:`observation_parts`.

    Example:
        >>> import calabrasella as cb
        >>> observation_layout(cb.CALABRESELLA)["phase"]
        slice(0, 10, None)
    """
    lay = _layout(rules)
    return dict(lay.recall_slices if recall else lay.slices)


def observation_size(rules: Ruleset, recall: bool = False) -> int:
    """Return the length of ``rules``' vectors (with ``recall=True``, of its information states).

    Raises:
        RulesetError: As :func:`observation_parts`.

    Example:
        >>> import calabrasella as cb
        >>> observation_size(cb.CAVENDISH), observation_size(cb.CALABRESELLA)
        (1434, 1442)
    """
    lay = _layout(rules)
    return lay.recall_size if recall else lay.size


assert [int(p) for p in _PHASES] == list(range(len(_PHASES)))  # phase p: bit p
# (by the members' ids: an enum member's own hash is a Python call)
_CONTRACT_BITS = {id(c): 1 << (_CONTRACT + i) for i, c in enumerate(_CONTRACTS)}
_MODIFIER_BITS = {id(m): 1 << (_MODIFIER + i) for i, m in enumerate(_MODIFIERS)}
#: The stake of each (ruleset, contract, modifier) met, by their ids, with the ruleset
#: kept (so its id stays its own): a ruleset is frozen, and its stake a function of both.
_STAKES: dict[tuple[int, int, int], tuple[Any, int]] = {}
_PAD = ((), (), (), (0,), ())  # a three-seat table's seat 3
#: Each byte's eight bits as floats, lowest first.
_BYTE_FLOATS = tuple(tuple(float(b >> i & 1) for i in range(8)) for b in range(256))


def _stake(rules: Any, contract: Any, modifier: Any) -> int:
    key = (id(rules), id(contract), id(modifier))
    known = _STAKES.get(key)
    if known is None or known[0] is not rules:
        of = getattr(rules, "stake", None)
        known = keep(_STAKES, key, (rules, of(contract, modifier) if of else 1), 256)
    return known[1]


def _slot(lay: _Layout, at: int, move: tuple[int, int, int, bool, bool]) -> int:
    """Return a move's bits in the information state's slot ``at``."""
    seat, kind, cards, down, forced = move
    base = lay.moves + at * lay.move_width
    bits = 1 << (base + seat) | 1 << (base + 4 + kind) | cards << (base + 6 + lay.kinds)
    if down:
        bits |= 1 << (base + 4 + lay.kinds)
    if forced:
        bits |= 1 << (base + 5 + lay.kinds)
    return bits


def _room(lay: _Layout, moves: int) -> None:
    if moves > lay.room:
        from .errors import StateError

        raise StateError(
            f"{moves} moves after the auction: the information state of "
            f"{lay.rules.name} holds {lay.room}"
        )


def _before_play(lay: _Layout, moves: Moves) -> tuple[int, tuple[int, ...], Any, int]:
    """Return what the auction and the moves before the play give the vector: its bits,
    the move counts, the highest bid, and the bits of the information state's moves."""
    known = moves.cache.get(id(lay))
    if known is not None:
        return known  # type: ignore[no-any-return]
    bits = 0
    high = None
    rank = -1
    width = lay.call_width
    for i, (seat, contract) in enumerate(moves.calls):
        base = lay.auction + i * width
        bits |= 1 << (base + seat)
        if contract is None:
            bits |= 1 << (base + 4)
            continue
        r = lay.contracts[id(contract)]
        bits |= 1 << (base + 5 + r)
        if r > rank:
            rank, high = r, contract
            bidder = seat
    if high is not None:
        bits |= 1 << (lay.high_bid + rank) | 1 << (lay.high_bidder + bidder)
    counts = [0] * (lay.counts.stop - lay.counts.start)
    recall = 0
    count_at, card_at = lay.count_at, lay.card_at
    for i, move in enumerate(moves.moves):
        seat, kind, cards, _, _ = move
        c = count_at.get(kind)
        if c is not None:
            counts[4 * c + seat] += 1
        if cards:
            p = card_at.get(kind)
            if p is not None:
                bits |= cards << (lay.cards + 160 * p + 40 * seat)
        if i < lay.room:
            recall |= _slot(lay, i, move)
    known = (bits, tuple(counts), high, recall)
    moves.cache[id(lay)] = known
    return known


def _irregular(
    lay: _Layout, plays: tuple[Any, ...], bits: int, counts: tuple[int, ...]
) -> tuple[int, tuple[int, ...]]:
    """Add table mode's moves in the play other than plays and revokes to the bits and the
    move counts."""
    more = list(counts)
    for seat, action in plays:
        if action.__class__ is not Play and action.__class__ is not Revoke:
            _, kind, cards, _, _ = move_of(lay.voc, seat, action, False)
            c = lay.count_at.get(kind)
            if c is not None:
                more[4 * c + seat] += 1
            p = lay.card_at.get(kind)
            if cards and p is not None:
                bits |= cards << (lay.cards + 160 * p + 40 * seat)
    return bits, tuple(more)


def _plays(lay: _Layout, moves: Moves, view: View) -> int:
    """Return the information state's bits of the moves since the play began."""
    history = view.history
    cut = moves.cut
    plays = history[cut:]
    if not plays:
        return 0
    kept = moves.cache.get("plays")
    start, bits = 0, 0
    if kept is not None:
        before, was = kept
        n = len(before)
        if n <= len(plays) and plays[:n] == before:
            start, bits = n, was
    first = len(moves.moves)
    _room(lay, first + len(plays))
    voc = lay.voc
    for j in range(start, len(plays)):
        seat, action = plays[j]
        bits |= _slot(lay, first + j, move_of(voc, seat, action, False))
    moves.cache["plays"] = (plays, bits)
    return bits


def _encode(view: View, recall: bool = False) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], _Layout]:
    """Return the vector's 0/1 entries as an int (bit ``i``: entry ``i``), its three runs
    of counts and the layout."""
    rules = view.rules
    lay = _layout(rules)
    seat = view.seat
    phase = view.phase
    bits = 1 << phase | 1 << (_SEAT + seat) | 1 << (_DEALER + view.dealer)
    to_move = view.to_move
    if to_move is not None:
        bits |= 1 << (_TO_MOVE + to_move)
    declarer = view.declarer
    if declarer is not None:
        bits |= 1 << (_DECLARER + declarer)
        mate = partner(view)
        if mate is not None:
            bits |= 1 << (_PARTNER + mate)
    giver = view.giver
    if giver is not None:
        bits |= 1 << (_GIVER + giver)
    moves = read(view)
    before, counts, high, history_bits = _before_play(lay, moves)
    bits |= before
    if rules._play == PLAY_TABLE:  # a card out of turn, an abandon: moves in the play too
        bits, counts = _irregular(lay, view.history[moves.cut :], bits, counts)
    if recall:
        _room(lay, len(moves.moves))
        bits |= history_bits | _plays(lay, moves, view)
    contract = view.contract
    modifier = view.modifier
    stake = 0
    if contract is not None:
        bits |= _CONTRACT_BITS[id(contract)]
        stake = _stake(rules, contract, modifier)
    elif high is not None:  # the auction: the highest bid's
        stake = _stake(rules, high, None)
    if modifier is not None:
        bits |= _MODIFIER_BITS[id(modifier)]
    trick = view.trick
    in_trick = 0
    if trick:
        bits |= 1 << (_LEADER + view.leader)
        bits |= 1 << (_WINNING + trick[winning_play([c.index for _, c in trick])][0])
        for s, card in trick:
            in_trick |= 1 << (40 * s + card.index)
    played, voids, seen = scan(view)
    hand = view.hand.mask
    called = view.called
    given_back = view.given_back
    final = view.final_stock
    exposed = view.exposed.mask
    discards = view.discards.mask
    drawn = view.drawn.mask
    cards = hand | exposed << _EXPOSED | discards << _DISCARDS | drawn << _DRAWN
    cards |= played << _PLAYED | in_trick << _TRICK
    seen |= hand | exposed | discards | drawn
    if called is not None:
        cards |= 1 << (_CALLED + called.index)
    if given_back is not None:
        cards |= 1 << (_GIVEN_BACK + given_back.index)
        seen |= 1 << given_back.index
    if final is not None:
        cards |= final.mask << _FINAL
        seen |= final.mask
    cards |= (ALL & ~seen) << _UNSEEN
    bits |= voids << _VOIDS | cards << _HAND
    sizes = view.hand_sizes
    # (tricks_left, inline for the play at three seats)
    left = max(sizes) if phase is PLAYING and len(sizes) == 3 else tricks_left(view)
    pad = _PAD[len(sizes)]
    head = (stake, *sizes, *pad, view.stock_size)
    tail = (*view.tricks_won, *pad, *view.card_units_won, *pad, left)
    return bits, head, tail, counts, lay


_np: Any = None
_LUT: Any = None


def _numpy() -> tuple[Any, Any]:
    global _np, _LUT
    if _LUT is None:
        import numpy

        _LUT = numpy.array(_BYTE_FLOATS, dtype=numpy.float32)
        _np = numpy
    return _np, _LUT


def observation(view: View, *, numpy: bool = False, recall: bool = False) -> Any:
    """Return the view as a flat vector laid out as :func:`observation_parts` says.

    Built from the view alone, so worlds the seat cannot tell apart give
    equal vectors. A list of floats, or with ``numpy=True`` a NumPy
    ``float32`` array (a new one each call); its length is
    :func:`observation_size` of the view's ruleset.

    With ``recall=True``, the information state: the same vector followed by
    every move after the auction in order (the auction's calls are already in
    order in it), so two views of different histories give different vectors.

    Raises:
        StateError: ``view`` is not a :class:`~calabrasella.View` (a
            :class:`~calabrasella.State` holds every hand: pass
            ``state.view(seat)``).
        ImportError: ``numpy=True`` and NumPy is not installed.
        StateError: ``recall=True`` and more moves follow the auction than the
            information state holds (table mode's cards out of turn, played
            again and again).

    Example:
        >>> import calabrasella as cb
        >>> view = cb.new_deal(cb.CAVENDISH, seed=7).view(1)
        >>> obs = observation(view)
        >>> sum(obs[observation_layout(view.rules)["hand"]])
        12.0
        >>> len(obs) == observation_size(cb.CAVENDISH)
        True
        >>> observation(cb.new_deal(cb.CAVENDISH, seed=7))
        Traceback (most recent call last):
        ...
        calabrasella.errors.StateError: observation() takes a View, what one seat may know, not a State: pass state.view(seat)
    """
    try:
        bits, head, tail, counts, lay = _encode(view, recall)
    except (AttributeError, TypeError):
        from .views import View as _View  # (checked only on failure: the encoder is a hot path)
        if not isinstance(view, _View):
            raise _not_a_view("observation()", view) from None
        raise
    if recall:
        size, nbytes = lay.recall_size, lay.recall_bytes
    else:
        size, nbytes = lay.size, lay.bytes
    raw = bits.to_bytes(nbytes, "little")
    at = lay.counts
    if numpy:
        np, lut = _np, _LUT
        if lut is None:
            np, lut = _numpy()
        array = lut.take(np.frombuffer(raw, np.uint8), axis=0).reshape(-1)[:size]
        array[_HEAD] = head
        array[_TAIL] = tail
        array[at] = counts
        return array
    out: list[float] = []
    extend = out.extend
    for floats in map(_BYTE_FLOATS.__getitem__, raw):
        extend(floats)
    del out[size:]
    out[_HEAD] = map(float, head)
    out[_TAIL] = map(float, tail)
    out[at] = map(float, counts)
    return out


def _not_a_view(name: str, given: object) -> StateError:
    """The error for something that is not a view given where one is needed."""
    if type(given).__name__ == "State":
        return StateError(f"{name} takes a View, what one seat may know, not a State: pass state.view(seat)")
    return StateError(f"{name} takes a View (state.view(seat)), not {type(given).__name__} {given!r:.60}")
