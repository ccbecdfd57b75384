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

Each built-in kind declares itself once, and its text, JSON, pickle code,
action id, face-down kind, words and phase follow from that declaration; a
new kind of the same standing is declared the same way, with
`declare_action`:

| Action | Meaning |
| --- | --- |
| `ActionKind` | the declaration a built-in kind holds as its class attribute `declared` |
| `ActionField` | how one field of a declared kind is written, read and numbered |
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import ClassVar, TypeVar, Union

import attrs

from ._action_kinds import (
    ACTION_CLASSES,
    ActionField,
    ActionKind,
    CustomAction,
    JsonValue,
    action_kinds,
    declaration,
    declare_action,
    declared,
    declared_action,
    register_action,
    registered_action,
    unregister_action,
    withdraw_action,
)
from ._action_text import parse_action
from .cards import DECK, Card, CardSet, _cardset
from .errors import NotationError

__all__ = [
    "ACTION_TYPES",
    "BIDS",
    "CALLS",
    "CARDS_FIELD",
    "CARD_FIELD",
    "CONTRACT_FIELD",
    "DISCARDS",
    "DONE",
    "GIVE_BACKS",
    "IRREGULAR",
    "MODIFIER_FIELD",
    "PASS",
    "PLAYS",
    "RAISES",
    "REVOKES",
    "SEAT_FIELD",
    "TAKES",
    "Abandon",
    "Action",
    "ActionField",
    "ActionKind",
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
    "declare_action",
    "declared_action",
    "is_action",
    "parse_action",
    "register_action",
    "registered_action",
    "unregister_action",
    "withdraw_action",
]


_S = TypeVar("_S")


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


def _seat_of(text: str) -> int:
    return int(text) if len(text) < 3 else -1


def _cards_text(cards: CardSet) -> str:
    return str(cards) if cards else "nothing"


def _read_cards(text: str) -> CardSet:
    return CardSet() if text.lower() == "nothing" else CardSet.parse(text)


# How the fields of the built-in kinds are written, read and numbered (a new kind
# declared the built-in way uses them too).

#: A field that holds one card (``Card``): written as its code, read as
#: :meth:`Card.parse` reads, numbered by card index.
CARD_FIELD = ActionField(
    form="<card>", example="Ad", needs="a card", pattern=".+", read=Card.parse,
    values=DECK,
)  # fmt: skip
#: A field that holds a set of cards (``CardSet``), kept beside a pickle's codes as its mask.
CARDS_FIELD = ActionField(
    form="<cards>", example="7c 6c", needs="its cards", pattern=".+", read=_read_cards,
    write=_cards_text, pack=lambda cards: cards.mask, unpack=_cardset,
)  # fmt: skip
#: A field that holds a seat (0 to 3).
SEAT_FIELD = ActionField(
    form="<n>", example="2", needs="a seat number", pattern=r"\d+", read=_seat_of,
    values=(0, 1, 2, 3), keyword=True,
)  # fmt: skip
#: A field that holds a :class:`Contract`.
CONTRACT_FIELD = ActionField(
    form="<contract>", example="solo", needs="a contract", pattern=r"\S+", read=str,
    values=tuple(Contract), keyword=True,
)  # fmt: skip
#: A field that holds a :class:`Modifier`.
MODIFIER_FIELD = ActionField(
    form="<dividete|scegliete>", example="dividete", needs="dividete or scegliete", pattern=r"\S+", read=str,
    values=tuple(Modifier), keyword=True,
)  # fmt: skip


# Each built-in kind declares itself once (``declared``): its text, its words,
# its pickle codes and action ids and its phase; every format follows from it.


@declare_action
@attrs.frozen
class Pass:
    """Pass in the auction, or decline to raise after a solissimo."""

    declared: ClassVar[ActionKind] = ActionKind(
        "pass", "pass", "pass", code=0, action_id=0, phase="BIDDING"
    )


@declare_action
@attrs.frozen
class Done:
    """End a discard or a take whose number of cards is free."""

    declared: ClassVar[ActionKind] = ActionKind("done", "done", "stop", code=1, action_id=1)


@declare_action
@attrs.frozen
class Bid:
    """Bid a contract (``Contract.STAND`` is Cavendish's "I play").

    Example:
        >>> Bid(Contract.SOLO)
        Bid(contract=<Contract.SOLO: 'solo'>)
    """

    declared: ClassVar[ActionKind] = ActionKind(
        "bid", "bid {contract}", "bid", (CONTRACT_FIELD,), code=2, action_id=2, alone=True,
        phase="BIDDING",
    )  # fmt: skip
    contract: Contract = attrs.field(converter=_to_contract)


@declare_action
@attrs.frozen
class Raise:
    """Raise a solissimo with dividete or scegliete."""

    declared: ClassVar[ActionKind] = ActionKind(
        "raise", "raise {modifier}", "raise", (MODIFIER_FIELD,), code=6, action_id=6, alone=True,
        phase="RAISING",
    )  # fmt: skip
    modifier: Modifier = attrs.field(converter=_to_modifier)


@declare_action
@attrs.frozen
class Call:
    """Ask for a card (Cavendish: a 3, or a 2) or call one (chiamo)."""

    declared: ClassVar[ActionKind] = ActionKind(
        "call", "call {card}", "call a card", (CARD_FIELD,), code=8, action_id=8, phase="CALLING"
    )
    card: Card = attrs.field(converter=_to_card)


@declare_action
@attrs.frozen
class GiveBack:
    """Return one card to the seat that gave the called card."""

    declared: ClassVar[ActionKind] = ActionKind(
        "give_back", "give back {card}", "give back a card", (CARD_FIELD,), code=48, action_id=48,
        aliases=("giveback {card}", "give_back {card}"), phase="GIVING_BACK",
    )  # fmt: skip
    card: Card = attrs.field(converter=_to_card)


@declare_action
@attrs.frozen
class Discard:
    """Lay one card face down into the stock (monte)."""

    declared: ClassVar[ActionKind] = ActionKind(
        "discard", "discard {card}", "discard", (CARD_FIELD,), code=88, action_id=88,
        phase="DISCARDING",
    )  # fmt: skip
    card: Card = attrs.field(converter=_to_card)


@declare_action
@attrs.frozen
class Take:
    """Take one card from the exposed stock (monte)."""

    declared: ClassVar[ActionKind] = ActionKind(
        "take", "take {card}", "take a card", (CARD_FIELD,), code=128, action_id=128, phase="TAKING"
    )
    card: Card = attrs.field(converter=_to_card)


@declare_action
@attrs.frozen
class Play:
    """Play a card to the current trick.

    Example:
        >>> Play(Card.parse("Ad")) == Play("Ad")
        True
    """

    declared: ClassVar[ActionKind] = ActionKind(
        "play", "play {card}", "play a card", (CARD_FIELD,), code=168, action_id=168, phase="PLAYING"
    )
    card: Card = attrs.field(converter=_to_card)


@declare_action
@attrs.frozen
class Draw:
    """Chance: the cards an adversary draws unseen from the monte (dividete).

    ``cards`` is a :class:`CardSet`, notation text or an iterable of cards or
    codes; a card given twice raises :class:`~calabrasella.NotationError`.

    Example:
        >>> Draw("5d Jh")
        Draw(cards=CardSet.parse('5d Jh'))
    """

    declared: ClassVar[ActionKind] = ActionKind(
        "draw", "draw {cards}", "draw cards", (CARDS_FIELD,), code=413, phase="DRAWING", chance=True
    )
    cards: CardSet = attrs.field(converter=_to_cards)


def _to_seat(value: int) -> int:
    if type(value) is not int or not 0 <= value < 4:
        raise NotationError(f"not a seat: {value!r} (an int from 0 to 3)")
    return value


@declare_action
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

    declared: ClassVar[ActionKind] = ActionKind(
        "revoke", "revoke {card}", "revoke a card", (CARD_FIELD,), code=208, action_id=208,
        phase="PLAYING", table=True,
    )  # fmt: skip
    card: Card = attrs.field(converter=_to_card)


@declare_action
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

    declared: ClassVar[ActionKind] = ActionKind(
        "turn_stock", "seat {seat} turns the stock", "turn the stock", (SEAT_FIELD,), code=249,
        action_id=248, phase="DISCARDING", table=True,
    )  # fmt: skip
    seat: int = attrs.field(converter=_to_seat)


@declare_action
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

    declared: ClassVar[ActionKind] = ActionKind(
        "out_of_turn", "seat {seat} plays {card} out of turn", "play a card out of turn",
        (SEAT_FIELD, CARD_FIELD), code=253, action_id=253, phase="PLAYING", table=True,
    )  # fmt: skip
    seat: int = attrs.field(converter=_to_seat)
    card: Card = attrs.field(converter=_to_card)


@declare_action
@attrs.frozen
class Abandon:
    """Table mode: the single player abandons the hand right after an out-of-turn card.

    He claims the stock and the last trick; the adversaries count only the
    card units of the tricks they completed before the error.
    """

    declared: ClassVar[ActionKind] = ActionKind(
        "abandon", "abandon", "abandon the hand", code=248, action_id=252, phase="PLAYING",
        table=True,
    )  # fmt: skip


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
IRREGULAR = tuple(d.cls for d in declared() if d.kind.table)

# Shared instances: one action per card (indexed by card index), per bid and
# per raise: each kind's declared instances, in the order of their numbers.
# The engine returns these, so a bot loop allocates little; an exchange step
# lists its card actions from them with ``rulesets.steps.card_actions(table, mask)``.


def _shared(cls: type[_S]) -> tuple[_S, ...]:
    return declaration(cls).instances  # type: ignore[union-attr,return-value]


#: The shared ``Pass()``.
PASS = _shared(Pass)[0]
#: The shared ``Done()``.
DONE = _shared(Done)[0]
#: ``Play`` of each card, by card index (likewise the five tables below).
PLAYS: tuple[Play, ...] = _shared(Play)
REVOKES: tuple[Revoke, ...] = _shared(Revoke)
DISCARDS: tuple[Discard, ...] = _shared(Discard)
TAKES: tuple[Take, ...] = _shared(Take)
CALLS: tuple[Call, ...] = _shared(Call)
GIVE_BACKS: tuple[GiveBack, ...] = _shared(GiveBack)
BIDS: dict[Contract, Bid] = {b.contract: b for b in _shared(Bid)}
RAISES: dict[Modifier, Raise] = {r.modifier: r for r in _shared(Raise)}


def is_action(value: object) -> bool:
    """Return whether ``value`` is an action: of a declared kind (every built-in one
    among them), or of a variant's own kind (:class:`CustomAction`).

    Example:
        >>> is_action(PASS), is_action("pass")
        (True, False)
    """
    return value.__class__ in ACTION_CLASSES or isinstance(value, (*ACTION_TYPES, CustomAction))
