"""Where the cards are, and who has seen them: places and the moves between them.

Every card of a deal lies in one *place*: a seat's hand, the stock (the
monte), the cards a seat laid aside face down, the trick on the table, or
the tricks a seat has won. The exchange steps move cards from place to
place through one primitive (:meth:`calabrasella.rulesets.steps.Work.move`),
and each move is recorded with the seats that saw its cards and a few words
for those that did not ("discarded a card face down"). Views, pictures,
observations and the sampler read these records instead of knowing what
each step does.

Example:
    >>> import calabrasella as cb
    >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
    >>> for text in ("bid stand", "call 3c", "give back 5c", "discard 6c"):
    ...     s = cb.apply(s, cb.parse_action(text))
    >>> for move in s.moves:
    ...     print(move)
    seat 2: 3c from hand 2 to hand 1 (seen by all): handed over the called card
    seat 1: 5c from hand 1 to hand 2 (seen by seat 1 and seat 2): gave a card back face down
    seat 1: 6c from hand 1 to laid aside by 1 (seen by seat 1): discarded a card face down
    >>> print(s.view(0).moves[-1])
    seat 1: 1 card from hand 1 to laid aside by 1: discarded a card face down
    >>> print(s.view(0).history[-1][1])
    discarded a card face down
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, NamedTuple, Optional

from .cards import DECK, Card, CardSet, _cardset

if TYPE_CHECKING:
    from .state import State
    from .views import View

__all__ = [
    "CODE_COUNT",
    "EVERYONE",
    "LAID_ASIDE_CODE",
    "STOCK",
    "STOCK_CODE",
    "TRICK",
    "TRICK_CODE",
    "WON_CODE",
    "Move",
    "MoveRecord",
    "Place",
    "Spot",
    "Trick",
    "Where",
    "hand",
    "laid_aside",
    "layout",
    "moves",
    "records",
    "tricks",
    "won",
]


class Where(enum.Enum):
    """The kinds of place a card can be in."""

    #: A seat's hand.
    HAND = "hand"
    #: The stock (monte), face down unless turned up.
    STOCK = "stock"
    #: The cards a seat laid aside face down (its discards); they count with the stock.
    LAID_ASIDE = "laid aside"
    #: The trick on the table.
    TRICK = "trick"
    #: The tricks a seat has won.
    WON = "won"


#: The place codes (:attr:`Place.code`), one small int a place, as move
#: records (:data:`MoveRecord`) hold them: a hand is its seat (0..3), then the
#: stock, each seat's laid-aside cards (``LAID_ASIDE_CODE + seat``), the trick,
#: each seat's tricks won (``WON_CODE + seat``); ``CODE_COUNT`` codes in all.
STOCK_CODE = 4
LAID_ASIDE_CODE = 5
TRICK_CODE = 9
WON_CODE = 10
CODE_COUNT = 14
_STOCK, _LAID, _TRICK, _WON, _CODES = STOCK_CODE, LAID_ASIDE_CODE, TRICK_CODE, WON_CODE, CODE_COUNT

#: ``seen`` mask meaning every seat (a four-seat table included).
EVERYONE = 0b1111


class Place(NamedTuple):
    """One place a card can be in: ``Place(Where.HAND, 1)`` is seat 1's hand.

    Use the names :func:`hand`, :data:`STOCK`, :func:`laid_aside`,
    :data:`TRICK` and :func:`won`; places compare and hash by value.

    Attributes:
        where: The kind of place.
        seat: Whose hand, laid-aside cards or tricks (``None`` for the stock and the trick).
    """

    where: Where
    seat: Optional[int] = None

    @property
    def code(self) -> int:
        """The place as a small int (0..13), as the engine keeps it in its move records."""
        return _code(self)

    @classmethod
    def of(cls, code: int) -> Place:
        """Return the place of a code (see :attr:`code`).

        Raises:
            ValueError: ``code`` names no place.
        """
        if type(code) is not int or not 0 <= code < _CODES:
            raise ValueError(f"no place has the code {code!r} (codes are 0..{_CODES - 1})")
        return _PLACES[code]

    def __str__(self) -> str:
        """``hand 1``, ``the stock``, ``laid aside by 2``, ``the trick``, ``won by 0``."""
        where = self.where
        if where is Where.HAND:
            return f"hand {self.seat}"
        if where is Where.LAID_ASIDE:
            return f"laid aside by {self.seat}"
        if where is Where.WON:
            return f"won by {self.seat}"
        return f"the {where.value}"


def _code(place: Place) -> int:
    where, seat = place
    if where is Where.STOCK:
        return _STOCK
    if where is Where.TRICK:
        return _TRICK
    if type(seat) is not int or not 0 <= seat <= 3:
        raise ValueError(f"{where.value}: expected a seat 0..3, got {seat!r}")
    if where is Where.HAND:
        return seat
    return (_LAID if where is Where.LAID_ASIDE else _WON) + seat


_PLACES: tuple[Place, ...] = (
    *(Place(Where.HAND, s) for s in range(4)),
    Place(Where.STOCK),
    *(Place(Where.LAID_ASIDE, s) for s in range(4)),
    Place(Where.TRICK),
    *(Place(Where.WON, s) for s in range(4)),
)

#: The stock (monte).
STOCK: Place = _PLACES[_STOCK]
#: The trick on the table.
TRICK: Place = _PLACES[_TRICK]


def hand(seat: int) -> Place:
    """Return the place of ``seat``'s hand.

    Example:
        >>> from calabrasella import places
        >>> str(places.hand(2)), places.hand(2).code
        ('hand 2', 2)
    """
    return _PLACES[_code(Place(Where.HAND, seat))]


def laid_aside(seat: int) -> Place:
    """Return the place of the cards ``seat`` laid aside face down (its discards)."""
    return _PLACES[_code(Place(Where.LAID_ASIDE, seat))]


def won(seat: int) -> Place:
    """Return the place of the tricks ``seat`` has won."""
    return _PLACES[_code(Place(Where.WON, seat))]


def seats_of(mask: int) -> frozenset[int]:
    """Return the seats of a ``seen`` mask (bit ``s`` is seat ``s``)."""
    return frozenset(s for s in range(4) if mask >> s & 1)


#: A move as the engine records it (see :class:`Move`): ``(entry, forced, seat,
#: cards, source, target, seen, words)`` with the cards as a mask (in a view,
#: minus their number where the seat did not see them), the places as codes and
#: the seats that saw it as a mask.
MoveRecord = tuple[int, int, int, int, int, int, int, str]


class Move(NamedTuple):
    """Cards that went from one place to another, as one seat knows it (or as it was).

    A state's :attr:`~calabrasella.State.moves` have every card; a view's
    (:attr:`~calabrasella.View.moves`) have ``cards=None`` where the seat did
    not see them, and then only ``number`` and ``words`` tell what happened.
    A move whose source and target are the same place turns its cards face
    up (the stock shown to all).

    Attributes:
        cards: The cards moved, or ``None`` where this seat did not see them.
        number: How many cards moved.
        source: Where they were.
        target: Where they went.
        seat: The seat that moved them (the seat that drew, for chance).
        seen_by: The seats that saw the cards.
        words: What happened, in words, for a seat that did not see the cards.
        entry: The index of the history entry that made the move, or ``-1``
            when the engine moved the cards by itself.
        forced: The index of the forced move (:attr:`~calabrasella.State.forced_moves`)
            that made it, or ``-1``.
    """

    cards: Optional[CardSet]
    number: int
    source: Place
    target: Place
    seat: int
    seen_by: frozenset[int]
    words: str
    entry: int
    forced: int

    def __str__(self) -> str:
        """``seat 1: 4 cards from the stock to hand 1: took the monte``."""
        n = self.number
        what = f"{n} card{'' if n == 1 else 's'}" if self.cards is None else str(self.cards)
        shown = "" if self.cards is None else f" (seen by {_seats(self.seen_by)})"
        where = (
            f"turned face up in {self.source}"
            if self.source == self.target
            else f"from {self.source} to {self.target}"
        )
        return f"seat {self.seat}: {what} {where}{shown}: {self.words}"


def _seats(seats: frozenset[int]) -> str:
    if len(seats) >= 3:
        return "all"
    return " and ".join(f"seat {s}" for s in sorted(seats)) or "nobody"


def move_of(record: MoveRecord, viewer: Optional[int] = None, players: int = 3) -> Move:
    """Return a recorded move as ``viewer`` knows it (``None``: as it was)."""
    entry, forced, seat, cards, source, target, seen, words = record
    shown = cards >= 0 and (viewer is None or viewer == seat or seen >> viewer & 1)
    seen_by = frozenset(s for s in range(players) if seen >> s & 1 or s == seat)
    return Move(
        _cardset(cards) if shown else None,
        cards.bit_count() if cards >= 0 else -cards,
        _PLACES[source],
        _PLACES[target],
        seat,
        seen_by,
        words,
        entry,
        forced,
    )


def redact(records: tuple[MoveRecord, ...], viewer: int) -> tuple[MoveRecord, ...]:
    """Return move records as ``viewer`` may hold them: the cards it did not see left out
    (their number kept, negated)."""
    out = []
    for record in records:
        entry, forced, seat, cards, source, target, seen, words = record
        if seat != viewer and not seen >> viewer & 1 and cards > 0:
            record = (entry, forced, seat, -cards.bit_count(), source, target, seen, words)
        out.append(record)
    return tuple(out)


class Spot(NamedTuple):
    """What one place holds, as a picture or a table shows it to one seat (or to all).

    Attributes:
        place: The place.
        shown: The cards the onlooker may see there, face up to it.
        face_down: How many more cards lie there that the onlooker may not see.
        public: The cards there that every seat has seen (the stock turned face up).
    """

    place: Place
    shown: CardSet
    face_down: int
    public: CardSet


def layout(game: State | View) -> tuple[Spot, ...]:
    """Return every place that holds cards, with what is face up and what face down.

    For a :class:`~calabrasella.State` the onlooker sees every card (as a
    picture of the whole deal does); for a :class:`~calabrasella.View`, the
    cards that seat may see. Each seat's hand, the stock (its cards turned
    face up to all in ``public``), each seat's laid-aside cards (kept apart
    from the stock they count with), the trick. Empty places are left out.

    Example:
        >>> import calabrasella as cb
        >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> for text in ("bid stand", "call 3c", "give back 5c", "discard 6c"):
        ...     s = cb.apply(s, cb.parse_action(text))
        >>> for spot in layout(s.view(0)):
        ...     print(f"{spot.place}: {spot.shown} + {spot.face_down} face down")
        hand 0: 3d Qd 7d 6d 5d 2h 6h Ks 7s Ac Qc 4c + 0 face down
        hand 1:  + 11 face down
        hand 2:  + 12 face down
        the stock:  + 4 face down
        laid aside by 1:  + 1 face down
    """
    return _layout(game, game._ledger().viewer)


class Ledger(NamedTuple):
    """What a state or a view holds of its deal's moves (the engine's, for this module).

    Attributes:
        exchange: The exchange's move records (in a view, as its seat knows them).
        history: The history the play's moves are read from (a view's as its seat knows it).
        viewer: The seat that knows them (``None`` for a state: every card).
        players: Seats at the table.
    """

    exchange: tuple[MoveRecord, ...]
    history: tuple[tuple[int, object], ...]
    viewer: Optional[int]
    players: int


#: The words of the play's moves.
PLAYED = "played a card"
TRICK_WON = "won the trick"
OUT_OF_TURN = "played a card out of turn: it goes back to the hand"


def play_records(history: tuple[tuple[int, object], ...]) -> tuple[MoveRecord, ...]:
    """Return the play's moves of ``history``, in order: each card from its hand to the
    trick (a revoke's too), each complete trick to its winner's tricks, and a card
    played out of turn shown to all (it goes back to the hand).

    The play kernel (:mod:`calabrasella._tricks`) says who wins each trick;
    every move of the play is seen by all.
    """
    from ._tricks import winning_play  # (below places in the layers only through actions)
    from .actions import OutOfTurn, Play, Revoke

    out: list[MoveRecord] = []
    cards: list[int] = []
    seats: list[int] = []
    mask = 0
    for i, (seat, action) in enumerate(history):
        cls = action.__class__
        if cls is Play or cls is Revoke:
            card = action.card.index  # type: ignore[attr-defined]
            out.append((i, -1, seat, 1 << card, seat, _TRICK, EVERYONE, PLAYED))
            cards.append(card)
            seats.append(seat)
            mask |= 1 << card
            if len(cards) == 3:  # (three seats play: a fourth at the table sits out)
                w = seats[winning_play(cards)]
                out.append((i, -1, w, mask, _TRICK, _WON + w, EVERYONE, TRICK_WON))
                cards, seats, mask = [], [], 0
        elif cls is OutOfTurn:
            at: int = action.seat  # type: ignore[attr-defined]
            card = action.card.index  # type: ignore[attr-defined]
            out.append((i, -1, at, 1 << card, at, at, EVERYONE, OUT_OF_TURN))
    return tuple(out)


def records(game: State | View) -> tuple[MoveRecord, ...]:
    """Return every move of the deal so far as records (:data:`MoveRecord`), in order, as
    the onlooker knows them: the exchange's, then the play's.

    The fast form of :func:`moves`, for code that reads many of them: places as
    codes (:data:`STOCK_CODE` and the rest), cards as a mask, or, where a view's
    seat did not see them, their number negated.
    """
    ledger = game._ledger()
    plays = play_records(ledger.history)
    return ledger.exchange + plays if plays else ledger.exchange


def moves(game: State | View) -> tuple[Move, ...]:
    """Return every move of the deal so far, in order, as the onlooker saw it.

    For a :class:`~calabrasella.State`, every card of every move; for a
    :class:`~calabrasella.View`, ``cards=None`` where its seat did not see
    them. The exchange's moves come first (the call, the give-back, the
    discards, the stock shown, taken or drawn), then the play's: each card
    from a hand to the trick, each complete trick to its winner. Replaying
    them from the dealt hands and stock gives where every card is now.

    Example:
        >>> import calabrasella as cb
        >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> for text in ("bid stand", "call 3c", "give back 5c", "discard 6c", "done"):
        ...     s = cb.apply(s, cb.parse_action(text))
        >>> s = cb.apply(s, s.legal_actions()[0])  # the take, then the lead
        >>> s = cb.apply(s, s.legal_actions()[0])
        >>> for move in moves(s)[-2:]:
        ...     print(move)
        seat 1: Kd from the stock to hand 1 (seen by all): took a card from the stock
        seat 1: 2d from hand 1 to the trick (seen by all): played a card
    """
    ledger = game._ledger()
    viewer, players = ledger.viewer, ledger.players
    return tuple([move_of(r, viewer, players) for r in records(game)])


class Trick(NamedTuple):
    """One trick of the play, as the moves tell it.

    Attributes:
        plays: The cards played to it, as ``(seat, card)`` from the leader's.
        winner: The seat that won it, or ``None`` while it is being played.
    """

    plays: tuple[tuple[int, Card], ...]
    winner: Optional[int]

    @property
    def leader(self) -> int:
        """The seat that led it."""
        return self.plays[0][0]


def tricks(game: State | View) -> tuple[Trick, ...]:
    """Return the tricks played so far, the current one last (with ``winner=None``).

    Example:
        >>> import calabrasella as cb, random
        >>> rng, s = random.Random(3), cb.new_deal(cb.CALABRESELLA, seed=3)
        >>> while sum(s.tricks_won) < 2:
        ...     s = cb.apply(s, cb.sample_chance(s, rng) if s.is_chance
        ...                  else rng.choice(s.legal_actions()))
        >>> [(t.leader, t.winner, len(t.plays)) for t in tricks(s)]
        [(2, 1, 3), (1, 1, 3)]
    """
    out: list[Trick] = []
    plays: list[tuple[int, Card]] = []
    for record in play_records(game._ledger().history):
        cards, src, dst = record[3], record[4], record[5]
        if dst == _TRICK:
            plays.append((src, DECK[cards.bit_length() - 1]))
        elif src == _TRICK:
            out.append(Trick(tuple(plays), record[2]))
            plays = []
    if plays:
        out.append(Trick(tuple(plays), None))
    return tuple(out)


def _layout(game: State | View, viewer: int | None) -> tuple[Spot, ...]:
    empty = CardSet()
    state = viewer is None
    if state:
        hands = game.hand_masks  # type: ignore[union-attr]
        sizes = tuple(h.bit_count() for h in hands)
        trick = game.trick_cards  # type: ignore[union-attr]
    else:
        view: View = game  # type: ignore[assignment]
        sizes = view.hand_sizes
        hands = tuple(view.hand.mask if s == view.seat else 0 for s in range(len(sizes)))
        trick = tuple(card.index for _, card in view.trick)
    players = len(sizes)
    records = game._ledger().exchange
    # what the moves say: the cards laid aside by each seat, the stock shown to all
    laid = [0] * players
    laid_count = [0] * players
    public = 0
    for record in records:
        cards, src, dst, seen = record[3], record[4], record[5], record[6]
        n = cards.bit_count() if cards >= 0 else -cards
        known = max(cards, 0)
        if src == dst == _STOCK:
            if seen == EVERYONE:
                public |= known
            continue
        if src == _STOCK:
            public &= ~known
        if _LAID <= dst < _TRICK:
            laid[dst - _LAID] |= known
            laid_count[dst - _LAID] += n
        if _LAID <= src < _TRICK:
            laid[src - _LAID] &= ~known
            laid_count[src - _LAID] -= n
    if state:
        stock_mask = game.stock_mask  # type: ignore[union-attr]
        laid = [m & stock_mask for m in laid]
        laid_count = [m.bit_count() for m in laid]
        rest = stock_mask
        for m in laid:
            rest &= ~m
        stock_left, stock_shown = rest.bit_count(), rest
    else:
        stock_left = view.stock_size - sum(laid_count)
        stock_shown = public
    spots: list[Spot] = []
    for s in range(players):
        if sizes[s]:
            shown = _cardset(hands[s]) if viewer is None or viewer == s else empty
            spots.append(Spot(_PLACES[s], shown, sizes[s] - len(shown), empty))
    if stock_left > 0:
        shown = _cardset(stock_shown)
        spots.append(Spot(STOCK, shown, stock_left - len(shown), _cardset(public & stock_shown)))
    for s in range(players):
        if laid_count[s] > 0:
            shown = _cardset(laid[s]) if viewer is None or viewer == s else empty
            spots.append(Spot(_PLACES[_LAID + s], shown, laid_count[s] - len(shown), empty))
    if trick:
        cards = 0
        for c in trick:
            cards |= 1 << c
        spots.append(Spot(TRICK, _cardset(cards), 0, _cardset(cards)))
    return tuple(spots)
