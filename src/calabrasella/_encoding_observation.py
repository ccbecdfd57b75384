"""The observation vector: its layout, and the encoder that fills it from a view.

Private: :mod:`calabrasella.encoding` publishes :data:`OBSERVATION_LAYOUT`,
:func:`observation_layout` and :func:`observation`.

The encoder writes every 0/1 entry of the vector as one bit of a single
int (bit ``i`` for entry ``i``: the one-hot parts by shifts, each part made
of cards as its 40-bit mask shifted into place) and the counts apart; the
int's bytes become the vector through a table of each byte's eight entries
(a NumPy ``take`` of a 256 x 8 table, or tuples of floats added to a list), and
the counts are written over their zeros. Every offset comes from the layout
table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._encoding_views import ALL, partner, scan, tricks_left
from ._memo import keep
from ._tricks import winning_play
from .actions import Contract, Modifier
from .errors import StateError
from .phases import PLAYING, Phase

if TYPE_CHECKING:
    from .views import View

__all__ = ["OBSERVATION_LAYOUT", "OBSERVATION_SIZE", "observation", "observation_layout"]

_PHASES = tuple(Phase)
_CONTRACTS = tuple(Contract)
_MODIFIERS = tuple(Modifier)

#: The parts of an observation, in order: (name, size, meaning). Seats are
#: absolute (0 to 3), cards by :attr:`Card.index`, counts as plain numbers; the
#: parts made of cards (40 entries each, 1.0 where the card is) come last.
OBSERVATION_LAYOUT: tuple[tuple[str, int, str], ...] = (
    ("phase", len(_PHASES), "one-hot Phase (bidding ... over)"),
    ("seat", 4, "one-hot: whose view this is"),
    ("dealer", 4, "one-hot: the dealer"),
    ("to_move", 4, "one-hot: the seat to act (all zero at chance and at the end)"),
    ("declarer", 4, "one-hot: the declarer, once known"),
    ("partner", 4, "one-hot: this seat's partner, if it has one"),
    ("giver", 4, "one-hot: the seat that gave the called card"),
    ("contract", len(_CONTRACTS), "one-hot: stand, chiamo, solo, solissimo"),
    ("modifier", len(_MODIFIERS), "one-hot: dividete, scegliete"),
    ("stake", 1, "the multiplier so far: Calabresella's stake of the contract (1 to 16), 1 for Cavendish, 0 before a contract"),
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

OBSERVATION_SIZE: int = sum(size for _, size, _ in OBSERVATION_LAYOUT)


def _offsets() -> dict[str, slice]:
    out = {}
    at = 0
    for name, size, _ in OBSERVATION_LAYOUT:
        out[name] = slice(at, at + size)
        at += size
    return out


_SLICES = _offsets()


def observation_layout() -> dict[str, slice]:
    """Return each part of an observation and its slice of the vector.

    Example:
        >>> observation_layout()["phase"]
        slice(0, 9, None)
    """
    return dict(_SLICES)


_AT = {name: part.start for name, part in _SLICES.items()}
(_SEAT, _DEALER, _TO_MOVE, _DECLARER, _PARTNER, _GIVER, _CONTRACT, _MODIFIER, _LEADER,
 _WINNING, _VOIDS) = (_AT[name] for name in (
    "seat", "dealer", "to_move", "declarer", "partner", "giver", "contract", "modifier",
    "leader", "winning", "voids"))  # fmt: skip
_CARD_PARTS = (
    "hand", "called", "given_back", "exposed", "discards", "drawn", "played", "trick",
    "unseen", "final_stock",
)  # fmt: skip
#: The parts made of cards come last, in this order (the encoder shifts masks into them).
assert [name for name, _, _ in OBSERVATION_LAYOUT[-len(_CARD_PARTS) :]] == list(_CARD_PARTS)
_HAND = _AT["hand"]
#: Where each part made of cards begins, counted from the hand's first entry.
(_CALLED, _GIVEN_BACK, _EXPOSED, _DISCARDS, _DRAWN, _PLAYED, _TRICK, _UNSEEN, _FINAL) = (
    _AT[n] - _HAND for n in _CARD_PARTS[1:]
)
#: The counts come in two runs (stake, hand sizes, stock size; tricks, units, tricks
#: left), written over the zeros the bits leave there.
_HEAD = slice(_AT["stake"], _AT["stock_size"] + 1)
_TAIL = slice(_AT["tricks_won"], _AT["tricks_left"] + 1)
assert _HEAD.stop - _HEAD.start == 6 and _TAIL.stop - _TAIL.start == 9
assert _AT["tricks_won"] + 4 == _AT["card_units_won"] and _AT["hand_sizes"] == _HEAD.start + 1

_BYTES = (OBSERVATION_SIZE + 7) // 8
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


def _encode(view: View) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Return the observation's 0/1 entries as an int (bit ``i``: entry ``i``) and its two
    runs of counts."""
    rules = view.rules
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
    contract = view.contract
    modifier = view.modifier
    stake = 0
    if contract is not None:
        bits |= _CONTRACT_BITS[id(contract)]
        key = (id(rules), id(contract), id(modifier))
        known = _STAKES.get(key)
        if known is None or known[0] is not rules:
            of = getattr(rules, "stake", None)
            known = keep(_STAKES, key, (rules, of(contract, modifier) if of else 1), 256)
        stake = known[1]
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
    return bits, head, tail


_np: Any = None
_LUT: Any = None


def _numpy() -> tuple[Any, Any]:
    global _np, _LUT
    if _LUT is None:
        import numpy

        _LUT = numpy.array(_BYTE_FLOATS, dtype=numpy.float32)
        _np = numpy
    return _np, _LUT


def observation(view: View, *, numpy: bool = False) -> Any:
    """Return the view as a flat vector laid out as :data:`OBSERVATION_LAYOUT` says.

    Built from the view alone, so worlds the seat cannot tell apart give
    equal vectors. A list of floats, or with ``numpy=True`` a NumPy
    ``float32`` array (a new one each call).

    Raises:
        StateError: ``view`` is not a :class:`~calabrasella.View` (a
            :class:`~calabrasella.State` holds every hand: pass
            ``state.view(seat)``).
        ImportError: ``numpy=True`` and NumPy is not installed.

    Example:
        >>> import calabrasella as cb
        >>> state = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> obs = observation(state.view(1))
        >>> sum(obs[observation_layout()["hand"]])
        12.0
        >>> observation(state)
        Traceback (most recent call last):
        ...
        calabrasella.errors.StateError: observation() takes a View, what one seat may know, not a State: pass state.view(seat)
    """
    try:
        bits, head, tail = _encode(view)
    except (AttributeError, TypeError):
        from .views import View as _View  # (checked only on failure: the encoder is a hot path)

        if not isinstance(view, _View):
            raise _not_a_view("observation()", view) from None
        raise
    raw = bits.to_bytes(_BYTES, "little")
    if numpy:
        np, lut = _np, _LUT
        if lut is None:
            np, lut = _numpy()
        array = lut.take(np.frombuffer(raw, np.uint8), axis=0).reshape(-1)[:OBSERVATION_SIZE]
        array[_HEAD] = head
        array[_TAIL] = tail
        return array
    out: list[float] = []
    table = _BYTE_FLOATS
    for byte in raw:
        out += table[byte]
    del out[OBSERVATION_SIZE:]
    out[_HEAD] = map(float, head)
    out[_TAIL] = map(float, tail)
    return out


def _not_a_view(name: str, given: object) -> StateError:
    """The error for something that is not a view given where one is needed."""
    if type(given).__name__ == "State":
        return StateError(f"{name} takes a View, what one seat may know, not a State: pass state.view(seat)")
    return StateError(f"{name} takes a View (state.view(seat)), not {type(given).__name__} {given!r:.60}")
