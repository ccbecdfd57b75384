"""What a view tells beyond its fields: cards played, known voids, unseen cards, the
trick's winner, partners and tricks left.

Private: :mod:`calabrasella.encoding` publishes these functions and
:class:`~calabrasella.View` offers them as properties; the observation
vectors and the bots' sampler read the same history scan (:func:`scan`), so
each fact is worked out in one place. The module sits below
:mod:`calabrasella.views` (it names ``View`` for type checking only).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._tricks import legal_plays, winning_play
from .actions import Call, Draw, Play, Revoke
from .cards import Card, CardSet, _cardset
from .errors import SeatError
from .phases import OVER, PLAYING
from .suits import Suit

if TYPE_CHECKING:
    from .views import View

__all__ = [
    "cards_played",
    "known_voids",
    "partner",
    "scan",
    "tricks_left",
    "unseen_cards",
    "winning_seat",
]

ALL = (1 << 40) - 1

# A scan of a history: (the history, played, voids, seen, cards played so far, suit led).
_Scan = tuple[tuple[Any, ...], int, int, int, int, int]
#: The latest scans, a few per (seat, follow_suit): a history that extends one of
#: them is scanned from where that one stopped (an environment's next view of a
#: deal, say), any other from the start.
_SCANS: dict[tuple[int, bool], tuple[_Scan, ...]] = {}
_KEEP = 4
_NOTHING: _Scan = ((), 0, 0, 0, 0, -1)
_SUITS = tuple(Suit)


def scan(view: View) -> tuple[int, int, int]:
    """Read the view's history once: the cards each seat played, the known voids, the cards seen.

    Returns ``(played, voids, seen)``: ``played`` has bit ``40 * seat +
    card.index`` for each card a seat played to a trick (a :class:`Play` or
    a :class:`Revoke`); ``voids`` has bit ``4 * seat + suit`` for each suit a
    seat showed out of (a ``Play``, not a revoke, off the suit led, that the
    play's legal-play kernel refuses to a hand holding the suit led, as it
    does where ``rules.follow_suit`` makes a seat follow); ``seen`` has bit ``card.index`` for
    each card named face up by an entry of the history (plays included; a
    :class:`Call` names a card without showing it, and a face-down entry
    names none).

    The result depends on the history and ``follow_suit`` alone. A history
    that extends one scanned lately (compared entry by entry) is read from
    where that scan stopped.

    Example:
        >>> import calabrasella as cb
        >>> scan(cb.new_deal(cb.CAVENDISH, seed=7).view(0))
        (0, 0, 0)
    """
    history = view.history
    size = len(history)
    if not size:
        return 0, 0, 0
    follow = bool(view.rules.follow_suit)
    key = (view.seat, follow)
    bucket = _SCANS.get(key, ())
    at = 0
    for found in bucket:
        n = len(found[0])
        if n <= size and history[:n] == found[0]:
            if n == size:
                return found[1], found[2], found[3]
            rest = history[n:]
            break
        at += 1
    else:
        found = _NOTHING
        rest = history
        at = _KEEP - 1  # (the oldest goes)
    _, played, voids, seen, count, led = found
    for seat, action in rest:
        cls = action.__class__
        if cls is Play or cls is Revoke:
            card = action.card.index  # type: ignore[union-attr]
            played |= 1 << (40 * seat + card)
            seen |= 1 << card
            if count % 3 == 0:
                led = card // 10
            elif cls is Play and card // 10 != led and _shows_void(follow, led, card // 10):
                voids |= 1 << (4 * seat + led)
            count += 1
        elif cls is Draw:
            seen |= action.cards.mask  # type: ignore[union-attr]
        elif cls is not Call:  # (a face-down entry has no card)
            named = getattr(action, "card", None)
            if named is not None and named.__class__ is Card:
                seen |= 1 << named.index
    # the new scan first; the one it extends (or the oldest) goes
    _SCANS[key] = ((history, played, voids, seen, count, led), *bucket[:at], *bucket[at + 1 : _KEEP])
    return played, voids, seen


_VOID: dict[tuple[bool, int, int], bool] = {}


def _shows_void(follow: bool, led: int, suit: int) -> bool:
    """Whether playing a card of ``suit`` to a trick led in suit ``led`` shows a void in
    ``led``: asked of the play's kernel (:func:`calabrasella._tricks.legal_plays`), is
    that card refused to a hand that also holds a card of the suit led?"""
    known = _VOID.get((follow, led, suit))
    if known is None:
        lead, held, card = 10 * led, 10 * led + 1, 10 * suit
        legal = legal_plays(1 << held | 1 << card, (lead,), follow)
        known = _VOID[(follow, led, suit)] = all(p.card.index != card for p in legal)
    return known


def cards_played(view: View) -> tuple[CardSet, ...]:
    """Return the cards each seat played to tricks so far, the current trick included.

    Example:
        >>> import calabrasella as cb
        >>> cards_played(cb.new_deal(cb.CAVENDISH, seed=7).view(0))
        (CardSet.parse(''), CardSet.parse(''), CardSet.parse(''))
    """
    played = scan(view)[0]
    return tuple([_cardset(played >> (40 * s) & ALL) for s in range(view.rules.players)])


def known_voids(view: View) -> tuple[frozenset[Suit], ...]:
    """Return, for each seat, the suits it is known to lack.

    A seat that played off the suit led (a :class:`Play`, not a recorded
    revoke) where the rules make it follow suit holds no card of that suit.
    Under ``follow_suit=False`` nothing is known this way: every set is empty.

    Example:
        >>> import calabrasella as cb
        >>> known_voids(cb.new_deal(cb.CALABRESELLA, seed=7).view(0))
        (frozenset(), frozenset(), frozenset())
    """
    voids = scan(view)[1]
    return tuple(
        [
            frozenset([_SUITS[x] for x in range(4) if voids >> (4 * s + x) & 1])
            for s in range(view.rules.players)
        ]
    )


def unseen_cards(view: View) -> CardSet:
    """Return the cards this seat has not seen: every card it never held or saw face up.

    Seen are its hand, the cards played, the stock cards shown to all (and
    the final stock), its own discards and draws, the card given back if it
    saw it, and every card named by a face-up action in its history except a
    call (a call names a card without showing it).

    Example:
        >>> import calabrasella as cb
        >>> len(unseen_cards(cb.new_deal(cb.CAVENDISH, seed=7).view(0)))
        28
    """
    seen = scan(view)[2] | view.hand.mask | view.exposed.mask | view.discards.mask
    seen |= view.drawn.mask
    if view.given_back is not None:
        seen |= 1 << view.given_back.index
    if view.final_stock is not None:
        seen |= view.final_stock.mask
    return _cardset(ALL & ~seen)


def winning_seat(view: View) -> int | None:
    """Return the seat whose card is winning the current trick (``None`` with no card in it).

    Example:
        >>> import calabrasella as cb
        >>> state = cb.new_deal(cb.CALABRESELLA, seed=7)
        >>> winning_seat(state.view(0)) is None
        True
    """
    trick = view.trick
    if not trick:
        return None
    return trick[winning_play([card.index for _, card in trick])][0]


def partner(view: View, seat: int | None = None) -> int | None:
    """Return the partner of ``seat`` (the view's own seat by default).

    The two adversaries of the declarer play together: each one's partner is
    the other. The declarer, a seat sitting out (a four-seat table's dealer),
    and everyone before the declarer is known, have none (``None``).

    Raises:
        SeatError: ``seat`` is not a seat at this table.

    Example:
        >>> import calabrasella as cb
        >>> view = cb.new_deal(cb.CALABRESELLA, seed=7).view(0)
        >>> partner(view) is None  # no declarer yet
        True
    """
    players = view.rules.players
    if seat is None:
        seat = view.seat
    elif type(seat) is not int or not 0 <= seat < players:
        raise SeatError(seat, players)
    declarer = view.declarer
    if declarer is None or seat == declarer:
        return None
    if players == 3:  # the seats are 0, 1 and 2
        return 3 - seat - declarer
    dealer = view.dealer  # four seats, 0 to 3, the dealer sitting out
    return None if seat == dealer else 6 - dealer - seat - declarer


def tricks_left(view: View) -> int:
    """Return how many tricks are still to complete (the current one included).

    Before the play, all of them: the cards each seat will hold when it
    begins (``rules.play_sizes``); none once the deal is over.

    Example:
        >>> import calabrasella as cb
        >>> tricks_left(cb.new_deal(cb.CALABRESELLA, seed=7).view(0))
        12
    """
    phase = view.phase
    if phase is OVER:
        return 0
    if phase is PLAYING:
        sizes = view.hand_sizes
        if len(sizes) == 3:
            return max(sizes)
        dealer = view.dealer  # (sitting out)
        return max([n for s, n in enumerate(sizes) if s != dealer])
    rules = view.rules
    contract = view.contract if view.contract is not None else rules.contracts[0]
    return rules.play_sizes(contract, view.modifier)[0]
