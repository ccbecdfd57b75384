"""The plain-data codec under :mod:`calabrasella.records`: reading untrusted values.

Every reader takes a value of parsed JSON and the path where it was found
(``"deal.hands[1]"``), and returns a library value or raises
:class:`~calabrasella.RecordError` naming that path and the reason, quoting
the bad value shortened. Nothing here trusts its input: types are checked
exactly (``True`` is not an int), sizes are bounded, and no reader recurses
into data of unknown shape.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NoReturn, TypeVar, Union

import attrs

from ._action_json import custom_action
from ._action_kinds import declared, watch_kinds
from .actions import Action, Contract, Modifier, parse_action
from .cards import DECK, Card, CardSet
from .deal import Deal
from .errors import NotationError, RecordError, RulesetError, SeatError
from .match import Cut
from .rulesets import ruleset_class as registered_ruleset
from .rulesets import ruleset_names
from .rulesets.base import Ruleset
from .scoring import Bonus, Result, Side

#: The version of the JSON documents this library writes and reads.
FORMAT = 1
#: The longest card text read (a card's name in words is well under it).
MAX_CARD_TEXT = 40
#: The longest free text read: a tag value, a note of a result.
MAX_TEXT = 1000
#: The most entries of a list that is not an action list (notes, tags, a view's legal actions).
MAX_ITEMS = 256

#: A ruleset option's value in a record: a JSON scalar.
OptionValue = Union[str, int, bool, None]
_SCALARS = (str, int, bool, type(None))
_CODES: dict[str, Card] = {card.code: card for card in DECK}
# Every shared action of the declared kinds by its text, as str() writes it (a JSON
# document writes a built-in action as its text).
_ACTIONS: dict[str, Action] = {}


def _texts() -> None:
    _ACTIONS.clear()
    _ACTIONS.update({str(a): a for d in declared() for a in d.instances or ()})


watch_kinds(_texts)
_E = TypeVar("_E", bound=enum.Enum)


def fail(where: str, reason: str) -> NoReturn:
    """Raise :class:`RecordError` for ``where`` (a path) and ``reason``."""
    raise RecordError(where=where, reason=reason)


def join(where: str, key: str) -> str:
    """Return the path of ``key`` inside ``where``."""
    return f"{where}.{key}" if where else key


def prefixed(error: RecordError, where: str) -> RecordError:
    """Return ``error`` (of the same class) with ``where`` put before its path."""
    inner = error.where
    path = where if not inner else f"{where}{inner}" if inner.startswith("[") else f"{where}.{inner}"
    return type(error)(where=path, reason=error.reason)


def quote(value: object) -> str:
    """Describe ``value`` in a few words, never a long or deep repr."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else f"{value[:37]!r}... ({len(value)} characters)"
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return repr(value) if -(10**15) < value < 10**15 else f"an int of {value.bit_length()} bits"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"an object with {len(value)} keys"
    if isinstance(value, type):
        return f"the type {value.__name__}"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


# --- parsing JSON ------------------------------------------------------------------


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            fail("", f"the key {quote(key)} appears twice in one object")
        out[key] = value
    return out


def _constant(name: str) -> NoReturn:
    fail("", f"{name} is not a number JSON allows")


def parse_json(text: object, max_bytes: int) -> Any:
    """Parse JSON text (``str`` or UTF-8 ``bytes``) of at most ``max_bytes``.

    Refuses, before parsing, a longer input (a ``str`` is measured in
    characters); then duplicate keys, ``NaN`` and ``Infinity``, nesting
    deeper than Python's recursion limit and ints of more than 4300 digits.
    """
    if isinstance(text, (bytes, bytearray)):
        if len(text) > max_bytes:
            fail("", f"the input is {len(text)} bytes, more than max_bytes={max_bytes}")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            fail("", f"not UTF-8 text ({error.reason} at byte {error.start})")
    elif not isinstance(text, str):
        fail("", f"expected JSON text (str or bytes), got {quote(text)}")
    if len(text) > max_bytes:
        fail("", f"the input is {len(text)} characters, more than max_bytes={max_bytes}")
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except RecursionError:
        fail("", "not JSON this library reads: nested too deeply")
    except RecordError:
        raise
    except ValueError as error:  # JSONDecodeError, and ints over 4300 digits
        fail("", f"not JSON: {str(error)[:120]}")


# --- reading plain values ------------------------------------------------------------


def obj(value: object, where: str, required: Iterable[str], optional: Iterable[str] = ()) -> dict[str, Any]:
    """Return ``value`` as an object with every ``required`` key and no unknown key."""
    if type(value) is not dict:
        fail(where, f"expected an object, got {quote(value)}")
    needed = tuple(required)
    allowed = set(needed) | set(optional)
    for key in value:
        if key not in allowed:
            names = ", ".join(sorted(allowed))
            fail(join(where, str(key)), f"unknown key {quote(key)} (expected: {names})")
    for key in needed:
        if key not in value:
            fail(join(where, key), "missing")
    return value


def integer(value: object, where: str, low: int, high: int) -> int:
    """Return ``value`` if it is an int (not a bool) from ``low`` to ``high``."""
    if type(value) is not int:
        fail(where, f"expected an int, got {quote(value)}")
    if not low <= value <= high:
        fail(where, f"{quote(value)} is out of range ({low}..{high})")
    return value


def maybe_int(value: object, where: str, low: int, high: int) -> int | None:
    """Return ``value`` if it is ``None`` or an int from ``low`` to ``high``."""
    return None if value is None else integer(value, where, low, high)


def boolean(value: object, where: str) -> bool:
    """Return ``value`` if it is ``True`` or ``False``."""
    if type(value) is not bool:
        fail(where, f"expected true or false, got {quote(value)}")
    return value


def text(value: object, where: str, limit: int = MAX_TEXT) -> str:
    """Return ``value`` if it is a string of at most ``limit`` characters."""
    if type(value) is not str:
        fail(where, f"expected a string, got {quote(value)}")
    if len(value) > limit:
        fail(where, f"a string of {len(value)} characters is too long (at most {limit})")
    return value


def items(value: object, where: str, limit: int) -> list[Any]:
    """Return ``value`` if it is a list (or tuple) of at most ``limit`` entries."""
    if not isinstance(value, (list, tuple)):
        fail(where, f"expected a list, got {quote(value)}")
    if len(value) > limit:
        fail(where, f"a list of {len(value)} entries is too long (at most {limit})")
    return list(value)


def ints(value: object, where: str, count: int, low: int, high: int) -> tuple[int, ...]:
    """Return ``value`` as a tuple of exactly ``count`` ints in range."""
    entries = items(value, where, count)
    if len(entries) != count:
        fail(where, f"expected {count} entries, got {len(entries)}")
    return tuple(integer(v, f"{where}[{i}]", low, high) for i, v in enumerate(entries))


def member(value: object, where: str, kind: type[_E]) -> _E:
    """Return the member of enum ``kind`` whose value is the string ``value``."""
    word = text(value, where, 40)
    for candidate in kind:
        if candidate.value == word:
            return candidate
    names = ", ".join(repr(m.value) for m in kind)
    fail(where, f"{quote(value)} is not one of {names}")


def maybe_member(value: object, where: str, kind: type[_E]) -> _E | None:
    """Return ``None`` for ``None``, else :func:`member`."""
    return None if value is None else member(value, where, kind)


def card(value: object, where: str) -> Card:
    """Return the card a string names (its code, ``"Ad"``, or any spelling Card.parse reads)."""
    known = _CODES.get(value) if type(value) is str else None
    if known is not None:
        return known
    try:
        return Card.parse(text(value, where, MAX_CARD_TEXT))
    except NotationError:
        fail(where, f"not a card: {quote(value)}")


def maybe_card(value: object, where: str) -> Card | None:
    """Return ``None`` for ``None``, else :func:`card`."""
    return None if value is None else card(value, where)


def cards(value: object, where: str) -> CardSet:
    """Return a list of distinct cards as a :class:`CardSet`."""
    mask = 0
    for i, entry in enumerate(items(value, where, 40)):
        bit = 1 << card(entry, f"{where}[{i}]").index
        if mask & bit:
            fail(f"{where}[{i}]", f"{quote(entry)} is written twice")
        mask |= bit
    return CardSet(mask)


def codes(cardset: CardSet) -> list[str]:
    """Return the card codes of ``cardset`` in canonical order."""
    return [c.code for c in cardset]


def action(value: object, where: str) -> Action:
    """Return the action a string writes (``"play Ad"``, see :func:`calabrasella.parse_action`),
    or an action of a custom kind, ``{"kind": ..., "data": ...}``."""
    known = _ACTIONS.get(value) if type(value) is str else None
    if known is not None:
        return known
    if type(value) is dict:
        return custom_action(value, where)  # a custom kind's {"kind": ..., "data": ...}
    try:
        return parse_action(text(value, where))
    except (NotationError, RulesetError) as error:
        fail(where, str(error))


# --- mappings ------------------------------------------------------------------------


class FrozenMap(Mapping[str, Any]):
    """An immutable, hashable mapping that keeps its order (a record's options and tags)."""

    __slots__ = ("_data", "_hash")

    def __init__(self, pairs: Iterable[tuple[str, Any]] = ()) -> None:
        self._data = dict(pairs)
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._data) == dict(other.items())
        return NotImplemented

    def __repr__(self) -> str:
        return repr(self._data)

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (tuple(self._data.items()),))


# --- rulesets ------------------------------------------------------------------------


def ruleset_class(name: object, where: str) -> type[Ruleset]:
    """Return the registered ruleset class called ``name``."""
    key = text(name, where, 64).strip().lower()
    cls = registered_ruleset(key)
    if cls is None:
        known = ", ".join(ruleset_names())
        fail(where, f"no ruleset named {quote(name)} is registered (known: {known})")
    return cls


def option_defaults(cls: type[Ruleset]) -> dict[str, object]:
    """Return each option of ``cls`` and its default (``attrs.NOTHING`` when it has none)."""
    return {f.alias: f.default for f in attrs.fields(cls) if f.init}


def build_rules(name: object, version: object, options: object, where: str) -> Ruleset:
    """Return the ruleset a record names, checking the version and every option.

    A record of a newer version of the rules than this library's is refused;
    an older one is read with the current rules (its replay then says
    whether they can read it).
    """
    cls = ruleset_class(name, join(where, "name"))
    number = integer(version, join(where, "version"), 1, 10**6)
    if number > cls.version:
        fail(
            join(where, "version"),
            f"the record is of {cls.name} version {number}, newer than this library's "
            f"version {cls.version}: upgrade calabrasella to read it",
        )
    at = join(where, "options")
    if not isinstance(options, Mapping):
        fail(at, f"expected an object of options, got {quote(options)}")
    defaults = option_defaults(cls)
    for key, value in options.items():
        check_option(cls, defaults, key, value, join(at, str(key)))
    try:
        return cls(**dict(options))
    except (RulesetError, TypeError, ValueError) as error:
        fail(at, str(error)[:200])


def check_option(
    cls: type[Ruleset], defaults: Mapping[str, object], key: object, value: object, where: str
) -> None:
    """Refuse an option ``cls`` does not have, or a value of another type than its default's."""
    if type(key) is not str or key not in defaults:
        listed = ", ".join(defaults)
        fail(where, f"{cls.name} has no option {quote(key)} (its options: {listed})")
    default = defaults[key]
    if type(value) not in _SCALARS:
        fail(where, f"expected a string, int, true/false or null, got {quote(value)}")
    if default is not attrs.NOTHING and type(default) in _SCALARS and type(value) is not type(default):
        kind = {str: "a string", int: "an int", bool: "true or false"}.get(type(default), "null")
        fail(where, f"expected {kind}, got {quote(value)}")


def options_of(rules: Ruleset) -> dict[str, OptionValue]:
    """Return the options of ``rules`` sorted by name, refusing values JSON cannot hold."""
    out: dict[str, OptionValue] = {}
    for key, value in sorted(rules.options().items()):
        if type(value) not in _SCALARS:
            fail(f"rules.options.{key}", f"{quote(value)} cannot be written in a record")
        out[key] = value
    return out


def rules_data(rules: Ruleset) -> dict[str, Any]:
    """Return ``rules`` as ``{"name", "version", "options"}``."""
    return {"name": rules.name.strip().lower(), "version": rules.version, "options": options_of(rules)}


def read_rules(value: object, where: str) -> Ruleset:
    """Read ``{"name", "version", "options"}`` back into a ruleset."""
    data = obj(value, where, ("name", "version", "options"))
    return build_rules(data["name"], data["version"], data["options"], where)


# --- deals ---------------------------------------------------------------------------


def deal_data(deal: Deal) -> dict[str, Any]:
    """Return ``deal`` as ``{"dealer", "hands", "stock"}`` with card codes."""
    return {"dealer": deal.dealer, "hands": [codes(h) for h in deal.hands], "stock": codes(deal.stock)}


def make_deal(dealer: int, hands: list[CardSet], stock: CardSet, where: str, hand_paths: list[str], stock_path: str) -> Deal:
    """Return the deal, refusing a card dealt twice, a missing card or a wrong count."""
    players = len(hands)
    if players not in (3, 4):
        fail(join(where, "hands"), f"a deal has 3 or 4 hands, not {players}")
    if not 0 <= dealer < players:
        fail(join(where, "dealer"), f"seat {dealer} is not a seat at a table of {players}")
    seen = 0
    for seat, (hand, path) in enumerate(zip([*hands, stock], [*hand_paths, stock_path])):
        twice = seen & hand.mask
        if twice:
            fail(path, f"{CardSet(twice)} dealt twice")
        seen |= hand.mask
        want = 4 if seat == players else 0 if players == 4 and seat == dealer else 12
        if len(hand) != want:
            fail(path, f"{len(hand)} cards, not {want}")
    try:
        return Deal(dealer, tuple(hands), stock)
    except (RecordError, SeatError) as error:  # pragma: no cover - the checks above are stricter
        fail(where, str(error))


def read_deal(value: object, where: str) -> Deal:
    """Read ``{"dealer", "hands", "stock"}`` back into a :class:`~calabrasella.Deal`."""
    data = obj(value, where, ("dealer", "hands", "stock"))
    dealer = integer(data["dealer"], join(where, "dealer"), 0, 3)
    at = join(where, "hands")
    hands = [cards(h, f"{at}[{i}]") for i, h in enumerate(items(data["hands"], at, 4))]
    stock = cards(data["stock"], join(where, "stock"))
    paths = [f"{at}[{i}]" for i in range(len(hands))]
    return make_deal(dealer, hands, stock, where, paths, join(where, "stock"))


# --- results -------------------------------------------------------------------------

_RESULT_INTS = (
    "declarer_units",
    "adversary_units",
    "declarer_tricks",
    "adversary_tricks",
    "base",
    "multiplier",
    "value",
)
RESULT_KEYS = ("void", "declarer", "contract", "modifier", *_RESULT_INTS[:4], "winner",
               "base", "multiplier", "bonus", "value", "payments", "notes")  # fmt: skip
_BIG = 10**9


def result_data(result: Result) -> dict[str, Any]:
    """Return ``result`` as plain data: enums by value, tuples as lists."""
    return {
        "void": result.void,
        "declarer": result.declarer,
        "contract": None if result.contract is None else result.contract.value,
        "modifier": None if result.modifier is None else result.modifier.value,
        "declarer_units": result.declarer_units,
        "adversary_units": result.adversary_units,
        "declarer_tricks": result.declarer_tricks,
        "adversary_tricks": result.adversary_tricks,
        "winner": None if result.winner is None else result.winner.value,
        "base": result.base,
        "multiplier": result.multiplier,
        "bonus": None if result.bonus is None else result.bonus.value,
        "value": result.value,
        "payments": list(result.payments),
        "notes": list(result.notes),
    }


def read_result(value: object, where: str) -> Result:
    """Read a result's plain data back into an equal :class:`~calabrasella.Result`."""
    data = obj(value, where, RESULT_KEYS)
    payments = items(data["payments"], join(where, "payments"), 4)
    if len(payments) not in (3, 4):
        fail(join(where, "payments"), f"expected 3 or 4 payments, got {len(payments)}")
    notes = items(data["notes"], join(where, "notes"), 32)
    return Result(
        void=boolean(data["void"], join(where, "void")),
        declarer=maybe_int(data["declarer"], join(where, "declarer"), 0, len(payments) - 1),
        contract=maybe_member(data["contract"], join(where, "contract"), Contract),
        modifier=maybe_member(data["modifier"], join(where, "modifier"), Modifier),
        winner=maybe_member(data["winner"], join(where, "winner"), Side),
        bonus=maybe_member(data["bonus"], join(where, "bonus"), Bonus),
        payments=tuple(integer(p, f"{join(where, 'payments')}[{i}]", -_BIG, _BIG) for i, p in enumerate(payments)),
        notes=tuple(text(n, f"{join(where, 'notes')}[{i}]") for i, n in enumerate(notes)),
        **{key: integer(data[key], join(where, key), 0, _BIG) for key in _RESULT_INTS},
    )


# --- the cut for seats ---------------------------------------------------------------


def cut_data(cut: Cut) -> dict[str, Any]:
    return {
        "rounds": [[[player, c.code] for player, c in cut_round] for cut_round in cut.rounds],
        "order": list(cut.order),
    }


def read_cut(value: object, where: str, players: int) -> Cut:
    data = obj(value, where, ("rounds", "order"))
    rounds = []
    for i, entry in enumerate(items(data["rounds"], join(where, "rounds"), 64)):
        at = f"{join(where, 'rounds')}[{i}]"
        pairs = []
        for j, pair in enumerate(items(entry, at, players)):
            p = items(pair, f"{at}[{j}]", 2)
            if len(p) != 2:
                fail(f"{at}[{j}]", "expected [player, card]")
            pairs.append(
                (integer(p[0], f"{at}[{j}][0]", 0, players - 1), card(p[1], f"{at}[{j}][1]"))
            )
        rounds.append(tuple(pairs))
    order = ints(data["order"], join(where, "order"), players, 0, players - 1)
    cut = Cut(tuple(rounds), order)
    if cut_order(cut.rounds, players, where) != order:
        fail(join(where, "order"), f"{list(order)} is not the order these cards give")
    return cut


def cut_order(rounds: tuple[tuple[tuple[int, Any], ...], ...], players: int, where: str) -> tuple[int, ...]:
    """Work out the seating order from the cards cut, as :func:`~calabrasella.cut_for_seats` does."""
    queue = list(rounds)

    def place(group: tuple[int, ...]) -> list[int]:
        if not queue:
            fail(join(where, "rounds"), f"players {list(group)} tied and did not cut again")
        cut_round = queue.pop(0)
        if tuple(p for p, _ in cut_round) != group or len({c for _, c in cut_round}) != len(group):
            fail(join(where, "rounds"), f"expected a cut of players {list(group)}, each a different card")
        order: list[int] = []
        for rank in sorted({c.rank for _, c in cut_round}):
            tied = tuple(p for p, c in cut_round if c.rank == rank)
            order.extend(tied if len(tied) == 1 else place(tied))
        return order

    order = tuple(place(tuple(range(players))))
    if queue:
        fail(join(where, "rounds"), f"{len(queue)} cuts more than the ties call for")
    return order
