"""Actions: the small frozen values a player (or chance) hands to :func:`apply`.

Every decision is one action, and a choice of several cards is made one card
at a time (a discard of three is three :class:`Discard` actions), so the list
of legal actions stays short. Where the number of cards is free, :class:`Done`
ends the choice.

Actions compare by value; the engine reuses one instance of each card action,
so a bot loop allocates little. Their constructors also take notation:
``Play("Ad")``, ``Bid("solo")``, ``Raise("scegliete")``, ``Draw("5d Jh")``;
anything else, or a card written twice in a ``Draw``, raises
:class:`~calabrasella.NotationError`.

| Action | Meaning |
| --- | --- |
| `Pass()` | pass in the auction; decline to raise a solissimo |
| `Bid(contract)` | stand (Cavendish) or bid chiamo / solo / solissimo |
| `Call(card)` | ask for (Cavendish) or call (chiamo) a card |
| `GiveBack(card)` | the card the declarer returns to the seat that gave |
| `Discard(card)` | lay one card face down into the stock |
| `Take(card)` | take one card from the exposed stock or monte |
| `Done()` | stop discarding or taking where the number is free |
| `Raise(modifier)` | solissimo's dividete or scegliete |
| `Draw(cards)` | chance: the monte cards an adversary draws unseen |
| `Play(card)` | play a card to the trick |

Table mode only (a ruleset set to record irregularities, see the rules page):

| Action | Meaning |
| --- | --- |
| `Revoke(card)` | play a card off the suit led while holding that suit |
| `TurnStock(seat)` | ``seat`` turns the stock face up before the single player's discard |
| `OutOfTurn(seat, card)` | an adversary not to move plays ``card`` out of turn |
| `Abandon()` | the single player abandons the hand after an out-of-turn card |

A variant's own exchange step may bring actions of its own:

| Action | Meaning |
| --- | --- |
| `CustomAction` | the base of a variant's own kind of action, registered with `register_action` |
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from typing import Union

import attrs

from ._action_kinds import (
    CustomAction,
    JsonValue,
    action_kinds,
    register_action,
    registered_action,
    registered_class,
    unregister_action,
)
from .cards import DECK, Card, CardSet
from .errors import NotationError, RulesetError

__all__ = [
    "ACTION_TYPES",
    "BIDS",
    "CALLS",
    "DISCARDS",
    "DONE",
    "GIVE_BACKS",
    "IRREGULAR",
    "PASS",
    "PLAYS",
    "RAISES",
    "REVOKES",
    "TAKES",
    "Abandon",
    "Action",
    "Bid",
    "Call",
    "Contract",
    "CustomAction",
    "Discard",
    "Done",
    "Draw",
    "GiveBack",
    "JsonValue",
    "Modifier",
    "OutOfTurn",
    "Pass",
    "Play",
    "Raise",
    "Revoke",
    "Take",
    "TurnStock",
    "action_kinds",
    "parse_action",
    "register_action",
    "registered_action",
    "unregister_action",
]


class Contract(enum.Enum):
    """What the declarer undertakes: the bids of both games.

    Cavendish's Calabrasella has one bid, ``STAND`` ("I play"). Calabresella
    has ``CHIAMO`` < ``SOLO`` < ``SOLISSIMO``.
    """

    STAND = "stand"
    CHIAMO = "chiamo"
    SOLO = "solo"
    SOLISSIMO = "solissimo"

    def __str__(self) -> str:
        return self.value

    @property
    def level(self) -> int:
        """The bid's height: a bid must be higher than every earlier one."""
        return _LEVELS[self]


_LEVELS = {Contract.STAND: 1, Contract.CHIAMO: 1, Contract.SOLO: 2, Contract.SOLISSIMO: 3}


class Modifier(enum.Enum):
    """A solissimo declarer's raise: ``DIVIDETE`` (x8 stake) or ``SCEGLIETE`` (x16)."""

    DIVIDETE = "dividete"
    SCEGLIETE = "scegliete"

    def __str__(self) -> str:
        return self.value


def _to_card(value: Card | str) -> Card:
    if value.__class__ is Card:
        return value
    if isinstance(value, str):
        return Card.parse(value)
    raise NotationError(f"not a card: {value!r} (a Card, or a code such as 'Ad')")


def _to_cards(value: CardSet | str | Iterable[Card | str]) -> CardSet:
    if isinstance(value, CardSet):
        return value
    if isinstance(value, str):
        return CardSet.parse(value)  # rejects a card written twice
    try:
        items = list(value)
    except TypeError:
        raise NotationError(f"not a collection of cards: {value!r}") from None
    seen: set[Card] = set()
    for item in items:
        card = _to_card(item)
        if card in seen:
            raise NotationError(f"{card} is listed twice in {items!r}")
        seen.add(card)
    return CardSet.of(seen)


def _to_contract(value: Contract | str) -> Contract:
    if isinstance(value, Contract):
        return value
    try:
        return Contract(value.lower() if isinstance(value, str) else value)
    except ValueError:
        names = ", ".join(c.value for c in Contract)
        raise NotationError(f"not a contract: {value!r} (one of {names})") from None


def _to_modifier(value: Modifier | str) -> Modifier:
    if isinstance(value, Modifier):
        return value
    try:
        return Modifier(value.lower() if isinstance(value, str) else value)
    except ValueError:
        raise NotationError(f"not a raise: {value!r} (dividete or scegliete)") from None


@attrs.frozen
class Pass:
    """Pass in the auction, or decline to raise after a solissimo."""

    def __str__(self) -> str:
        return "pass"


@attrs.frozen
class Done:
    """End a discard or a take whose number of cards is free."""

    def __str__(self) -> str:
        return "done"


@attrs.frozen
class Bid:
    """Bid a contract (``Contract.STAND`` is Cavendish's "I play").

    Example:
        >>> Bid(Contract.SOLO)
        Bid(contract=<Contract.SOLO: 'solo'>)
    """

    contract: Contract = attrs.field(converter=_to_contract)

    def __str__(self) -> str:
        return f"bid {self.contract.value}"


@attrs.frozen
class Raise:
    """Raise a solissimo with dividete or scegliete."""

    modifier: Modifier = attrs.field(converter=_to_modifier)

    def __str__(self) -> str:
        return f"raise {self.modifier.value}"


@attrs.frozen
class Call:
    """Ask for a card (Cavendish: a 3, or a 2) or call one (chiamo)."""

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return f"call {self.card}"


@attrs.frozen
class GiveBack:
    """Return one card to the seat that gave the called card."""

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return f"give back {self.card}"


@attrs.frozen
class Discard:
    """Lay one card face down into the stock (monte)."""

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return f"discard {self.card}"


@attrs.frozen
class Take:
    """Take one card from the exposed stock (monte)."""

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return f"take {self.card}"


@attrs.frozen
class Play:
    """Play a card to the current trick.

    Example:
        >>> Play(Card.parse("Ad")) == Play("Ad")
        True
    """

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return f"play {self.card}"


@attrs.frozen
class Draw:
    """Chance: the cards an adversary draws unseen from the monte (dividete).

    ``cards`` is a :class:`CardSet`, notation text or an iterable of cards or
    codes; a card given twice raises :class:`~calabrasella.NotationError`.

    Example:
        >>> Draw("5d Jh")
        Draw(cards=CardSet.parse('5d Jh'))
    """

    cards: CardSet = attrs.field(converter=_to_cards)

    def __str__(self) -> str:
        return f"draw {self.cards}" if self.cards else "draw nothing"


def _to_seat(value: int) -> int:
    if type(value) is not int or not 0 <= value < 4:
        raise NotationError(f"not a seat: {value!r} (an int from 0 to 3)")
    return value


@attrs.frozen
class Revoke:
    """Table mode: play ``card`` off the suit led while holding that suit (a revoke).

    The card goes to the trick like a :class:`Play` and the trick is won as
    usual; at the end of the hand 9 units move from the offending side to
    the other, per revoke.

    Example:
        >>> str(Revoke("Ad"))
        'revoke Ad'
    """

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return f"revoke {self.card}"


@attrs.frozen
class TurnStock:
    """Table mode: ``seat`` turns the stock face up before the single player has discarded.

    By the single player, he loses 35 to each adversary and the deal is
    void; by an adversary, no penalty: the stock is face up for everyone and
    the exchange goes on.

    Example:
        >>> str(TurnStock(2))
        'seat 2 turns the stock'
    """

    seat: int = attrs.field(converter=_to_seat)

    def __str__(self) -> str:
        return f"seat {self.seat} turns the stock"


@attrs.frozen
class OutOfTurn:
    """Table mode: adversary ``seat``, not to move, leads or plays ``card`` out of turn.

    The card goes back to his hand and the play stays where it was; right
    after it the single player may :class:`Abandon` the hand, or decline by
    going on with the play.

    Example:
        >>> str(OutOfTurn(1, "Ad"))
        'seat 1 plays Ad out of turn'
    """

    seat: int = attrs.field(converter=_to_seat)
    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return f"seat {self.seat} plays {self.card} out of turn"


@attrs.frozen
class Abandon:
    """Table mode: the single player abandons the hand right after an out-of-turn card.

    He claims the stock and the last trick; the adversaries count only the
    card units of the tricks they completed before the error.
    """

    def __str__(self) -> str:
        return "abandon"


Action = Union[
    Pass, Done, Bid, Raise, Call, GiveBack, Discard, Take, Play, Draw,
    Revoke, OutOfTurn, Abandon, TurnStock, CustomAction,
]  # fmt: skip
"""Any action: a built-in one, or one of a variant's own kinds (:class:`CustomAction`)."""

#: Every action class the engine knows, a variant's own kinds included (their base).
ACTION_TYPES = (
    Pass, Done, Bid, Raise, Call, GiveBack, Discard, Take, Play, Draw,
    Revoke, OutOfTurn, Abandon, TurnStock, CustomAction,
)  # fmt: skip

#: Table mode's irregular actions, by class (see the rules page): every other
#: action is a regular one.
IRREGULAR = (Revoke, OutOfTurn, Abandon, TurnStock)

# Shared instances: one action per card (indexed by card index), per bid and
# per raise. The engine returns these, so a bot loop allocates little; an
# exchange step lists its card actions from them with
# ``rulesets.steps.card_actions(table, mask)``.

#: The shared ``Pass()``.
PASS = Pass()
#: The shared ``Done()``.
DONE = Done()
#: ``Play`` of each card, by card index (likewise the four tables below).
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in DECK)
REVOKES: tuple[Revoke, ...] = tuple(Revoke(c) for c in DECK)
DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in DECK)
TAKES: tuple[Take, ...] = tuple(Take(c) for c in DECK)
CALLS: tuple[Call, ...] = tuple(Call(c) for c in DECK)
GIVE_BACKS: tuple[GiveBack, ...] = tuple(GiveBack(c) for c in DECK)
BIDS: dict[Contract, Bid] = {c: Bid(c) for c in Contract}
RAISES: dict[Modifier, Raise] = {m: Raise(m) for m in Modifier}


# --- notation ------------------------------------------------------------------

_NO_ARGUMENT: dict[str, Action] = {"pass": PASS, "done": DONE, "abandon": Abandon()}
_ONE_CARD: dict[str, type[Call | GiveBack | Discard | Take | Play | Revoke]] = {
    "call": Call,
    "give back": GiveBack,
    "giveback": GiveBack,
    "give_back": GiveBack,
    "discard": Discard,
    "take": Take,
    "play": Play,
    "revoke": Revoke,
}
_SEAT_ACTION = re.compile(r"seat (\d+) (?:turns the stock|plays (.+) out of turn)")
_FORMS = (
    "pass, done, abandon, bid <contract>, raise <dividete|scegliete>, "
    "call/give back/discard/take/play/revoke <card>, draw <cards>, "
    "seat <n> turns the stock, seat <n> plays <card> out of turn"
)
#: The longest action text :func:`parse_action` reads (a draw of a whole
#: pack spelled out in words is well under it).
MAX_ACTION_TEXT = 1000


def parse_action(text: str) -> Action:
    """Read an action from its text form, the inverse of ``str(action)``.

    The forms are ``str()`` of each action: ``"pass"``, ``"done"``,
    ``"bid solo"``, ``"raise scegliete"``, ``"call 3c"``,
    ``"give back 4d"``, ``"discard 4c"``, ``"take 7h"``, ``"play Ad"``,
    ``"draw 7c 6c"``, and in table mode ``"revoke Ad"``,
    ``"seat 2 turns the stock"``, ``"seat 1 plays Ad out of turn"`` and
    ``"abandon"``. Case and spacing do not matter, a bid or a raise may be
    written alone (``"solo"``, ``"dividete"``), and a card may be written
    any way :meth:`Card.parse` reads (``"play ace of coins"``). A text whose
    first word is a registered kind (:func:`register_action`) is read by
    that kind's :meth:`CustomAction.parse`.

    Raises:
        NotationError: ``text`` is not an action; the message quotes it and
            lists the forms and the registered kinds.
        RulesetError: A registered kind's parser returned something else
            than an action of its kind.

    Example:
        >>> parse_action("play Ad"), parse_action("  Bid  SOLO ")
        (Play(card=Card.parse('Ad')), Bid(contract=<Contract.SOLO: 'solo'>))
        >>> str(parse_action("give back asso di denari"))
        'give back Ad'
        >>> parse_action("play")
        Traceback (most recent call last):
        ...
        calabrasella.errors.NotationError: not an action: 'play' (play needs a card, e.g. 'play Ad')
    """
    if not isinstance(text, str):
        raise NotationError(f"not an action: {text!r} (expected a string such as 'play Ad')")
    if len(text) > MAX_ACTION_TEXT:
        raise NotationError(
            f"not an action: a text of {len(text)} characters (at most {MAX_ACTION_TEXT})"
        )
    spaced = " ".join(text.split())
    words = spaced.lower()
    known = _NO_ARGUMENT.get(words)
    if known is not None:
        return known
    for contract in Contract:
        if words == contract.value or words == f"bid {contract.value}":
            return BIDS[contract]
    for modifier in Modifier:
        if words == modifier.value or words == f"raise {modifier.value}":
            return RAISES[modifier]
    head, _, argument = spaced.partition(" ")
    custom = registered_class(head.lower())
    if custom is not None:
        return _parse_custom(custom, argument, text)
    try:
        return _parse_with_argument(spaced, words)
    except NotationError as error:
        raise NotationError(f"not an action: {text!r} ({error})") from None


def _parse_with_argument(spaced: str, words: str) -> Action:
    for verb, kind in _ONE_CARD.items():
        if words == verb:
            raise NotationError(f"{verb} needs a card, e.g. '{verb} Ad'")
        if words.startswith(verb + " "):
            return kind(Card.parse(spaced[len(verb) + 1 :]))
    if words == "draw":
        raise NotationError("draw needs its cards, e.g. 'draw 7c 6c'")
    if words == "draw nothing":
        return Draw(CardSet())
    if words.startswith("draw "):
        return Draw(CardSet.parse(spaced[5:]))
    if words.startswith("bid "):
        return Bid(words[4:])
    if words.startswith("raise "):
        return Raise(words[6:])
    seat_action = _SEAT_ACTION.fullmatch(words)
    if seat_action is not None:
        seat = int(seat_action.group(1)) if len(seat_action.group(1)) < 3 else -1
        if seat_action.group(2) is None:
            return TurnStock(seat)
        return OutOfTurn(seat, Card.parse(seat_action.group(2)))
    kinds = ", ".join(action_kinds()) or "none is registered"
    head = words.split(" ", 1)[0]
    raise NotationError(
        f"expected one of: {_FORMS}; or an action of a registered kind ({kinds}): "
        f"{head!r} is no action kind"
    )


def _parse_custom(cls: type[CustomAction], argument: str, text: str) -> Action:
    """Read ``argument`` (the text after the kind) with the kind's own parser."""
    try:
        action = cls.parse(argument)
    except (ValueError, TypeError, KeyError, IndexError) as error:  # NotationError is a ValueError
        raise NotationError(f"not an action: {text!r} ({cls.kind}: {error})") from None
    if not isinstance(action, cls):
        raise RulesetError(
            f"{cls.__qualname__}.parse returned {action!r}, not a {cls.__qualname__}"
        )
    return action
