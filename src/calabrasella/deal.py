"""Dealing: the chance of a deal, resolved from a seed or from the cards you give.

:func:`new_deal` shuffles and deals from a seed; :func:`deal_from` takes the
hands and the stock; :func:`start` turns a :class:`Deal` into the first
state of its auction.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Optional, Union

import attrs

from . import _bits
from ._auction import root
from ._memo import keep
from .cards import CardLike, CardSet
from .errors import RecordError, RulesetError, SeatError, SeedError
from .phases import BIDDING
from .rulesets.base import Ruleset
from .state import State, make_state

__all__ = ["Deal", "deal_from", "new_deal", "shuffled_deal", "start"]


def _dealer_validator(instance: Any, attribute: Any, value: Any) -> None:
    if type(value) is not int:
        hands = instance.hands
        raise SeatError(value, len(hands) if isinstance(hands, tuple) else 3)


def _hands_validator(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, tuple) or not all(isinstance(h, CardSet) for h in value):
        raise RecordError(f"hands={value!r}: expected a tuple of CardSet")


def _stock_validator(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, CardSet):
        raise RecordError(f"stock={value!r}: expected a CardSet")


@attrs.frozen
class Deal:
    """The chance outcome of a deal: who dealt, every hand, and the stock.

    With four at the table the dealer's hand is empty. Use
    :func:`calabrasella.new_deal` or :func:`calabrasella.deal_from` rather
    than building one by hand; both validate it.

    Attributes:
        dealer: The dealer's seat.
        hands: Each seat's twelve cards, seat 0 first (the sitting-out
            dealer's hand is empty).
        stock: The four cards left over (Calabresella's monte).
        order: The three active seats in turn order from the eldest hand.
    """

    dealer: int = attrs.field(validator=_dealer_validator)
    hands: tuple[CardSet, ...] = attrs.field(validator=_hands_validator)
    stock: CardSet = attrs.field(validator=_stock_validator)
    order: tuple[int, int, int] = attrs.field(init=False, eq=False, repr=False)
    next_seat: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        n = len(self.hands)
        if n not in (3, 4):
            raise RecordError(f"a deal has 3 or 4 hands, not {n}")
        if not 0 <= self.dealer < n:
            raise SeatError(self.dealer, n)
        order, next_seat = _geometry(self.dealer, n)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "next_seat", next_seat)
        seen = self.stock.mask
        held, stock = _bits.DEALT
        if len(self.stock) != stock:
            raise RecordError(f"the stock has {len(self.stock)} cards, not {stock}")
        for seat, hand in enumerate(self.hands):
            want = 0 if n == 4 and seat == self.dealer else held
            if len(hand) != want:
                what = "the sitting-out dealer" if want == 0 else f"seat {seat}"
                raise RecordError(f"{what} holds {len(hand)} cards, not {want}")
            if hand.mask & seen:
                dup = CardSet(hand.mask & seen)
                raise RecordError(f"cards dealt twice: {dup}")
            seen |= hand.mask
        if seen != _bits.FULL:  # pragma: no cover - counts and disjointness imply it
            raise RecordError("the deal does not hold the 40 cards")

    @property
    def eldest(self) -> int:
        """The eldest hand: the first seat after the dealer in turn order."""
        return self.order[0]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the dealer and the masks of the hands and the stock."""
        return (_deal_from, (self.dealer, tuple([h.mask for h in self.hands]), self.stock.mask))


_new = object.__new__
_set = object.__setattr__


_GEOMETRY: dict[tuple[int, int], tuple[tuple[int, int, int], tuple[int, ...]]] = {}


def _geometry(dealer: int, players: int) -> tuple[tuple[int, int, int], tuple[int, ...]]:
    """Return the active seats from the eldest hand, and each seat's next active seat."""
    key = (dealer, players)
    known = _GEOMETRY.get(key)
    if known is None:
        order = ((dealer + 1) % players, (dealer + 2) % players, (dealer + 3) % players)
        next_seat = [0] * players
        for k in range(3):
            next_seat[order[k]] = order[(k + 1) % 3]
        if players == 4:
            next_seat[dealer] = order[0]
        known = _GEOMETRY[key] = (order, tuple(next_seat))
    return known


# The slots' own setters: a frozen class's fields set without the name lookup
# of object.__setattr__ (the engine deals often).
_SET_DEALER, _SET_HANDS, _SET_STOCK, _SET_ORDER, _SET_NEXT = (
    Deal.__dict__[name].__set__ for name in ("dealer", "hands", "stock", "order", "next_seat")
)
_SET_MASK = CardSet.__dict__["mask"].__set__


def _fast_cardset(mask: int) -> CardSet:
    cs = _new(CardSet)
    _SET_MASK(cs, mask)
    return cs


def _trusted_deal(dealer: int, hands: tuple[int, ...], stock: int) -> Deal:
    """Return a deal the engine made itself (no validation)."""
    deal = _new(Deal)
    order, next_seat = _geometry(dealer, len(hands))
    _SET_DEALER(deal, dealer)
    _SET_HANDS(deal, tuple([_fast_cardset(h) for h in hands]))
    _SET_STOCK(deal, _fast_cardset(stock))
    _SET_ORDER(deal, order)
    _SET_NEXT(deal, next_seat)
    return deal


# The deals loaded last, by their masks: the states of a deal share one Deal.
_LOADED: dict[tuple[int, tuple[int, ...], int], Deal] = {}


def _deal_from(dealer: int, hands: tuple[int, ...], stock: int) -> Deal:
    """Return the deal :meth:`Deal.__reduce__` pickled."""
    key = (dealer, hands, stock)
    deal = _LOADED.get(key)
    if deal is None:
        deal = keep(_LOADED, key, _trusted_deal(dealer, hands, stock), 256)
    return deal


_Random = random.Random
#: The ruleset classes seen so far (an ``isinstance`` test against the ABC is dear).
_RULESET_CLASSES: set[type] = set()


def _check_rules(rules: object) -> None:
    """Raise :class:`RulesetError` unless ``rules`` is a ruleset."""
    if rules.__class__ not in _RULESET_CLASSES:
        if not isinstance(rules, Ruleset):
            raise RulesetError(_not_a_ruleset(rules))
        _RULESET_CLASSES.add(rules.__class__)


def _not_a_ruleset(rules: object) -> str:
    """Say that ``rules`` is not a ruleset, and how to get one from a name."""
    if isinstance(rules, str):
        return f"not a ruleset: {rules!r} (a name: get the ruleset with cb.find_ruleset({rules!r}))"
    return f"not a ruleset: {rules!r} (cb.CAVENDISH, cb.CALABRESELLA, or a variant)"


def as_random(seed: Union[int, random.Random], name: str = "seed") -> random.Random:
    """Return ``seed`` if it is a ``random.Random``, else a new one seeded with the int.

    Raises:
        SeedError: ``seed`` is neither (a bool is not taken for an int); the
            message names the argument ``name``.
    """
    if isinstance(seed, random.Random):
        return seed
    if type(seed) is int:
        return random.Random(seed)
    raise SeedError(f"{name}={seed!r}: expected an int or a random.Random")


def shuffled_deal(
    rules: Ruleset, *, dealer: int = 0, seed: Union[int, random.Random]
) -> Deal:
    """Shuffle the pack with ``seed`` and deal it in packets (the chance of a deal).

    The pack in canonical order is shuffled with ``random.Random(seed)`` (or
    the ``random.Random`` given, which advances), then dealt in packets of
    ``rules.packet`` to the active seats in turn order from the eldest hand
    until each has twelve; the last four cards are the stock. The same seed
    gives the same deal on every machine.

    Raises:
        SeatError: ``dealer`` is not a seat at the table.
        SeedError: ``seed`` is neither an int nor a ``random.Random``.
        RulesetError: ``rules`` is not a ruleset.

    Example:
        >>> import calabrasella as cb
        >>> d = cb.shuffled_deal(cb.CAVENDISH, dealer=2, seed=1)
        >>> d.eldest, [len(h) for h in d.hands], len(d.stock)
        (0, [12, 12, 12], 4)
    """
    deal, _, _ = _shuffle_and_deal(rules, dealer, seed)
    return deal


def _shuffle_and_deal(
    rules: Ruleset, dealer: int, seed: Union[int, random.Random]
) -> tuple[Deal, tuple[int, ...], int]:
    """Return a shuffled deal, with its hands and its stock as masks (see :func:`shuffled_deal`)."""
    _check_rules(rules)
    rng = seed if seed.__class__ is _Random else as_random(seed, "seed")
    n = rules.players
    if type(dealer) is not int or not 0 <= dealer < n:
        raise SeatError(dealer, n)
    getters = _dealt(dealer, n, rules.packet)
    if rng.__class__ is _Random:  # random.Random.shuffle, inline: the same draws, the same order
        pack = _BITS[:]  # each card as its bit: a hand is the sum of its cards
        getrandbits = rng.getrandbits
        for i, k in _SHUFFLE_STEPS:
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            pack[i], pack[j] = pack[j], pack[i]
        hands = tuple([sum(get(pack)) if get else 0 for get in getters])
        stock = pack[36] | pack[37] | pack[38] | pack[39]
        return _trusted_deal(dealer, hands, stock), hands, stock
    pack = _PACK[:]  # a subclass, or another generator: its own shuffle of the cards
    rng.shuffle(pack)
    bit = _BIT.__getitem__
    hands = tuple([sum(map(bit, get(pack))) if get else 0 for get in getters])
    stock = bit(pack[36]) | bit(pack[37]) | bit(pack[38]) | bit(pack[39])
    return _trusted_deal(dealer, hands, stock), hands, stock


_PACK = list(range(40))
# random.Random.shuffle draws, for i from 39 down to 1, a j below i + 1 with
# _randbelow: getrandbits(k), k the bit length of i + 1, until it is not above i.
_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(39, 0, -1))
_DEALT: dict[tuple[int, int, int], tuple[Optional[Callable[[list[int]], Any]], ...]] = {}


def _dealt(dealer: int, players: int, packet: int) -> tuple[Optional[Callable[[list[int]], Any]], ...]:
    """Return, for each seat, what picks its cards from the shuffled pack (``None``: no cards)."""
    key = (dealer, players, packet)
    getters = _DEALT.get(key)
    if getters is None:
        getters = _DEALT[key] = tuple(
            operator.itemgetter(*places) if places else None
            for places in _deal_places(dealer, players, packet)
        )
    return getters


_BIT = tuple(1 << i for i in range(40))
_BITS = list(_BIT)
_PLACES: dict[tuple[int, int, int], tuple[tuple[int, ...], ...]] = {}


def _deal_places(dealer: int, players: int, packet: int) -> tuple[tuple[int, ...], ...]:
    """Return, for each seat, the positions of the shuffled pack dealt to it."""
    key = (dealer, players, packet)
    places = _PLACES.get(key)
    if places is None:
        order = [(dealer + k) % players for k in range(1, 4)]
        lists: list[list[int]] = [[] for _ in range(players)]
        pos = 0
        for _ in range(_bits.DEALT[0] // packet):
            for seat in order:
                lists[seat].extend(range(pos, pos + packet))
                pos += packet
        places = _PLACES[key] = tuple(tuple(p) for p in lists)
    return places


def new_deal(rules: Ruleset, *, dealer: int = 0, seed: Union[int, random.Random]) -> State:
    """Return the first state of a deal shuffled from ``seed`` (see :func:`shuffled_deal`).

    Raises:
        SeatError: ``dealer`` is not a seat at the table.
        SeedError: ``seed`` is neither an int nor a ``random.Random``.
        RulesetError: ``rules`` is not a ruleset.

    Example:
        >>> import calabrasella as cb
        >>> cb.new_deal(cb.CAVENDISH, dealer=0, seed=7) == cb.new_deal(cb.CAVENDISH, seed=7)
        True
    """
    deal, hands, stock = _shuffle_and_deal(rules, dealer, seed)
    return _first_state(rules, deal, hands, stock)


def deal_from(
    rules: Ruleset,
    hands: Sequence[Union[CardSet, str, Iterable[CardLike]]],
    stock: Union[CardSet, str, Iterable[CardLike]],
    *,
    dealer: int = 0,
) -> State:
    """Return the first state of a deal with the given hands and stock.

    ``hands`` has one entry per seat (``rules.players`` of them; the
    sitting-out dealer's is empty), each a :class:`CardSet`, a string of card
    codes or an iterable of cards.

    Raises:
        RecordError: The cards are not a deal: not 40 distinct cards, not
            twelve to each player and four to the stock, or the wrong number
            of hands for the table.
        NotationError: Some text names no card, or names one twice.
        RulesetError: ``rules`` is not a ruleset.

    Example:
        >>> import calabrasella as cb
        >>> d = cb.shuffled_deal(cb.CAVENDISH, seed=3)
        >>> cb.deal_from(cb.CAVENDISH, d.hands, d.stock) == cb.new_deal(cb.CAVENDISH, seed=3)
        True
    """
    if not isinstance(rules, Ruleset):
        raise RulesetError(_not_a_ruleset(rules))
    if isinstance(hands, (str, CardSet)) or not isinstance(hands, Sequence):
        raise RecordError(f"hands={hands!r}: expected one hand per seat")
    sets = tuple(_as_cardset(h) for h in hands)
    if len(sets) != rules.players:
        raise RecordError(f"{len(sets)} hands given for a table of {rules.players}")
    return start(rules, Deal(dealer, sets, _as_cardset(stock)))


def _as_cardset(cards: Union[CardSet, str, Iterable[CardLike]]) -> CardSet:
    if isinstance(cards, CardSet):
        return cards
    if isinstance(cards, str):
        return CardSet.parse(cards)
    try:
        items = list(cards)
    except TypeError:
        raise RecordError(f"not a collection of cards: {cards!r}") from None
    result = CardSet.of(items)
    if len(result) != len(items):
        raise RecordError(f"cards dealt twice in {[str(c) for c in items]}")
    return result


def start(rules: Ruleset, deal: Deal) -> State:
    """Return the first state (the auction) of ``deal`` under ``rules``.

    Raises:
        RulesetError: ``rules`` is not a ruleset, or it seats another number
            of players than the deal has hands.

    Example:
        >>> import calabrasella as cb
        >>> deal = cb.shuffled_deal(cb.CAVENDISH, seed=7)
        >>> cb.start(cb.CAVENDISH, deal) == cb.new_deal(cb.CAVENDISH, seed=7)
        True
    """
    _check_rules(rules)
    if not isinstance(deal, Deal):
        raise RecordError(f"not a deal: {deal!r}")
    n = len(deal.hands)
    if n != rules.players:
        raise RulesetError(f"the deal has {n} hands but {rules.name} seats {rules.players}")
    return _first_state(rules, deal, tuple([h.mask for h in deal.hands]), deal.stock.mask)


def _first_state(rules: Ruleset, deal: Deal, hands: tuple[int, ...], stock: int) -> State:
    opening = root(rules, deal.dealer, deal.order)
    if opening.seat is None:  # pragma: no cover - a ruleset must let someone speak
        raise RulesetError(f"{rules.name}: nobody may speak in the auction")
    zeros = _ZEROS[len(hands)]
    return make_state(
        rules=rules, deal=deal, phase=BIDDING, to_move=opening.seat, hand_masks=hands,
        stock_mask=stock, leader=opening.seat, card_units_won=zeros, tricks_won=zeros,
        history=(), auction=opening,
    )  # fmt: skip


_ZEROS = {3: (0, 0, 0), 4: (0, 0, 0, 0)}


