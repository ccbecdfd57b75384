"""Compact pickles: actions as two-byte codes, rulesets by their registered name.

A state (and a view) pickles as plain ints, masks and bytes: every action
of its history as a small code (the shared action instances are looked up
by identity, others by value; a draw's cards, and the kind and JSON data of
an action of a variant's own kind, are kept beside the codes), the ruleset as its registered name and the
options that differ from the defaults (or, for a ruleset that is not
registered, as itself), and the exchange record field by field, its plan
as "what the ruleset's hooks give" when it is. Loading builds the same
values back: equal states, with equal hashes.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

import attrs

from ._action_kinds import registered_class
from ._memo import keep
from .actions import (
    BIDS,
    CALLS,
    DISCARDS,
    DONE,
    GIVE_BACKS,
    PASS,
    PLAYS,
    RAISES,
    REVOKES,
    TAKES,
    Abandon,
    Action,
    Bid,
    Call,
    Contract,
    CustomAction,
    Discard,
    Done,
    Draw,
    GiveBack,
    Modifier,
    OutOfTurn,
    Pass,
    Play,
    Raise,
    Revoke,
    Take,
    TurnStock,
)
from .cards import DECK
from .errors import RecordError, RulesetError
from .places import MoveRecord
from .rulesets import find_ruleset
from .rulesets import ruleset_class as registered_ruleset
from .rulesets.base import Ruleset
from .rulesets.steps import Exchange, draw_outcome, raised_plan

__all__ = [
    "CONTRACTS",
    "MODIFIERS",
    "decode_actions",
    "decode_exchange",
    "decode_history",
    "decode_rules",
    "encode_actions",
    "encode_exchange",
    "encode_history",
    "encode_rules",
]

CONTRACTS = tuple(Contract)
MODIFIERS = tuple(Modifier)

# --- actions ------------------------------------------------------------------------

_CARD_KINDS = (Call, GiveBack, Discard, Take, Play, Revoke)
_CARD_TABLES = (CALLS, GIVE_BACKS, DISCARDS, TAKES, PLAYS, REVOKES)
_CARD_BASE = {kind: 8 + 40 * k for k, kind in enumerate(_CARD_KINDS)}
_ABANDON_CODE = 8 + 40 * len(_CARD_KINDS)  # 248
_TURN_STOCK_CODE = _ABANDON_CODE + 1  # 249..252
_OUT_OF_TURN_CODE = _TURN_STOCK_CODE + 4  # 253..412, seat * 40 + card
#: The code of a draw, whose cards are kept beside the codes.
DRAW_CODE = _OUT_OF_TURN_CODE + 160
#: The code of an action of a variant's own kind (:class:`CustomAction`), whose
#: kind and data (or, for a kind not registered, the action itself) are kept
#: beside the codes, in order with the draws' cards.
CUSTOM_CODE = DRAW_CODE + 1


class _DrawMark:
    """Stands for a draw among decoded actions until its cards are put back."""

    __slots__ = ()


class _CustomMark:
    """Stands for an action of a custom kind among decoded actions until it is read back."""

    __slots__ = ()


_DRAW_MARK = _DrawMark()
_CUSTOM_MARK = _CustomMark()

# Every action with a code, by code; the shared instances where there are some.
_ACTIONS: list[Any] = [
    PASS,
    DONE,
    *(BIDS[c] for c in CONTRACTS),
    *(RAISES[m] for m in MODIFIERS),
    *(action for table in _CARD_TABLES for action in table),
    Abandon(),
    *(TurnStock(seat) for seat in range(4)),
    *(OutOfTurn(seat, card) for seat in range(4) for card in DECK),
    _DRAW_MARK,
    _CUSTOM_MARK,
]
assert len(_ACTIONS) == CUSTOM_CODE + 1 and len(CONTRACTS) <= 4 and len(MODIFIERS) <= 2
# The codes of the instances above, by identity (they live as long as the table).
_CODE_BY_ID = {id(action): code for code, action in enumerate(_ACTIONS[:DRAW_CODE])}
_id_code = _CODE_BY_ID.get
# Each code as two bytes, little-endian; and by the identity of the shared instances.
_CODE_BYTES = tuple(code.to_bytes(2, "little") for code in range(CUSTOM_CODE + 1))
_id_bytes = {key: _CODE_BYTES[code] for key, code in _CODE_BY_ID.items()}.get
_action_of = _ACTIONS.__getitem__
_first = itemgetter(0)
_second = itemgetter(1)
_SWAP = sys.byteorder == "big"


def _code_of(action: Action) -> int:
    """Return the code of an action that is not one of the shared instances."""
    cls = action.__class__
    if cls is Pass:
        return 0
    if cls is Done:
        return 1
    if cls is Bid:
        return 2 + CONTRACTS.index(action.contract)  # type: ignore[union-attr]
    if cls is Raise:
        return 6 + MODIFIERS.index(action.modifier)  # type: ignore[union-attr]
    base = _CARD_BASE.get(cls)
    if base is not None:
        return base + action.card.index  # type: ignore[union-attr]
    if cls is Abandon:
        return _ABANDON_CODE
    if cls is TurnStock:
        return _TURN_STOCK_CODE + action.seat  # type: ignore[union-attr]
    if cls is OutOfTurn:
        return _OUT_OF_TURN_CODE + 40 * action.seat + action.card.index  # type: ignore[union-attr]
    if cls is Draw:
        return DRAW_CODE
    if isinstance(action, CustomAction):
        return CUSTOM_CODE
    raise TypeError(f"not an action: {action!r}")


def _custom_data(action: CustomAction) -> Any:
    """Return what a pickle keeps of an action of a custom kind: ``(kind, JSON data)``,
    or the action itself when its class is not the one registered under its kind."""
    cls = action.__class__
    kind = cls.kind
    if registered_class(kind) is not cls:
        return action
    return (kind, action.to_json())


def _custom_action(data: Any) -> Action:
    """Return the action :func:`_custom_data` kept."""
    if data.__class__ is not tuple:  # an action pickled as itself
        return data  # type: ignore[no-any-return]
    kind, value = data
    cls = registered_class(kind)
    if cls is None:
        raise RecordError(
            where="",
            reason=f"cannot load an action of kind {kind!r}: no action kind of that name "
            "is registered in this process",
        )
    try:
        action = cls.from_json(value)
    except (ValueError, TypeError, KeyError, IndexError) as error:
        raise RecordError(where="", reason=f"cannot load an action of kind {kind!r}: {error}") from None
    return action


def encode_actions(actions: Sequence[Action]) -> tuple[bytes, tuple[Any, ...]]:
    """Return the codes of ``actions`` as bytes (two per action), and what is kept beside
    them: the masks of the draws and the data of the actions of custom kinds, in order."""
    try:  # the shared instances, by identity
        return b"".join(map(_id_bytes, map(id, actions))), ()  # type: ignore[arg-type]
    except TypeError:  # some are not
        pass
    codes: list[int] = []
    extras: list[Any] = []
    for action in actions:
        code = _id_code(id(action))
        if code is None:
            code = _code_of(action)
            if code == DRAW_CODE:
                extras.append(action.cards.mask)  # type: ignore[union-attr]
            elif code == CUSTOM_CODE:
                extras.append(_custom_data(action))  # type: ignore[arg-type]
        codes.append(code)
    return b"".join([_CODE_BYTES[code] for code in codes]), tuple(extras)


def decode_actions(data: bytes, extras: tuple[Any, ...]) -> list[Action]:
    """Return the actions :func:`encode_actions` encoded.

    Raises:
        RecordError: An action of a custom kind that is not registered in
            this process, or whose data its class does not read back.
    """
    codes = array("H")
    codes.frombytes(data)
    if _SWAP:  # pragma: no cover - a big-endian machine (the codes are little-endian)
        codes.byteswap()
    acts: list[Any] = list(map(_action_of, codes))
    if extras:
        kept = iter(extras)
        acts = [
            draw_outcome(next(kept)) if a is _DRAW_MARK else _custom_action(next(kept)) if a is _CUSTOM_MARK else a
            for a in acts
        ]
    return acts


def encode_history(history: tuple[tuple[int, Any], ...]) -> tuple[bytes, bytes, tuple[Any, ...]]:
    """Return a history as its seats (a byte each), its actions' codes, and what is kept
    beside them (see :func:`encode_actions`)."""
    codes, draws = encode_actions(tuple(map(_second, history)))
    return bytes(map(_first, history)), codes, draws


def decode_history(seats: bytes, codes: bytes, draws: tuple[Any, ...]) -> tuple[tuple[int, Any], ...]:
    """Return the history :func:`encode_history` encoded."""
    return tuple(zip(seats, decode_actions(codes, draws)))


# --- rulesets -----------------------------------------------------------------------

# The encoding of each ruleset met so far, by id (the ruleset is kept, so the
# id cannot be reused while cached), and each ruleset decoded, by encoding.
_ENCODED: dict[int, tuple[Ruleset, bool, Any]] = {}
_DECODED: dict[tuple[type, str, tuple[tuple[str, Any], ...]], Ruleset] = {}
_CACHE_SIZE = 64


def encode_rules(rules: Ruleset) -> Any:
    """Return ``(name, options that differ from the defaults)`` for a registered ruleset
    that its name and options build again, else the ruleset itself."""
    cls = rules.__class__
    name = cls.name.strip().lower() if isinstance(cls.name, str) else ""
    registered = registered_ruleset(name) is cls
    known = _ENCODED.get(id(rules))
    if known is None or known[0] is not rules or known[1] != registered:
        encoding = _encoding(rules, name) if registered else rules
        known = keep(_ENCODED, id(rules), (rules, registered, encoding), _CACHE_SIZE)
    return known[2]


def _encoding(rules: Ruleset, name: str) -> Any:
    cls = rules.__class__
    try:
        defaults = {f.name: f.default for f in attrs.fields(cls) if f.init}
        options = tuple(
            (key, value)
            for key, value in rules.options().items()
            if key not in defaults or defaults[key] != value
        )
        if find_ruleset(name, **dict(options)) != rules:
            return rules
        hash(options)
    except Exception:  # options that do not build it again, or are not hashable
        return rules
    return (name, options)


def decode_rules(encoded: Any) -> Ruleset:
    """Return the ruleset :func:`encode_rules` encoded."""
    if encoded.__class__ is not tuple:  # a ruleset pickled as itself
        return encoded  # type: ignore[no-any-return]
    name, options = encoded
    cls = registered_ruleset(name)
    if cls is None:
        raise RulesetError(f"cannot load a state of the ruleset {name!r}: it is not registered")
    key = (cls, name, options)
    rules = _DECODED.get(key)
    if rules is None:
        rules = keep(_DECODED, key, find_ruleset(name, **dict(options)), _CACHE_SIZE)
    return rules


# --- the exchange record -------------------------------------------------------------


def _plan_code(rules: Ruleset, ex: Exchange) -> Any:
    """Return how to find ``ex.plan`` again: 0 for the contract's plan, ``(1, at)`` for it
    with the raise's steps (``raise_plan``) inserted at ``at``, else the plan itself."""
    plan = ex.plan
    try:
        base = rules.exchange_plan(ex.contract)
        if plan == base:
            return 0
        if ex.modifier is not None:
            extra = rules.raise_plan(ex.modifier)
            at = 0
            while at < len(base) and plan[at] == base[at]:
                at += 1
            if plan == raised_plan(base, at, extra):
                return (1, at)
    except Exception:  # hooks that refuse: keep the plan itself
        pass
    return plan


def _plan_of(rules: Ruleset, contract: Contract, modifier: Modifier | None, code: Any) -> Any:
    """Return the plan :func:`_plan_code` encoded as ``code``."""
    if code == 0:
        return rules.exchange_plan(contract)
    if type(code) is tuple and len(code) == 2 and code[0] == 1 and type(code[1]) is int:
        base = rules.exchange_plan(contract)
        at = code[1]
        return raised_plan(base, at, rules.raise_plan(modifier))  # type: ignore[arg-type]
    return code


# The encoding of the last exchange records met, by id (each record kept), and the
# records decoded, by ruleset and encoding: every state of a deal's play shares
# one record, so a deal's states pickle and load it once.
_EXCHANGES: dict[int, tuple[Exchange, Ruleset, tuple[Any, ...]]] = {}
_RECORDS: dict[tuple[int, tuple[int, ...], tuple[Any, ...]], tuple[Ruleset, Exchange]] = {}
_RECORDS_SIZE = 256


def encode_exchange(ex: Exchange, rules: Ruleset, order: tuple[int, ...]) -> tuple[Any, ...]:
    """Return an exchange record as plain values (its plan by reference to the hooks if it can)."""
    known = _EXCHANGES.get(id(ex))
    if known is not None and known[0] is ex and known[1] is rules:
        return known[2]
    data = _encode_exchange(ex, rules, order)
    keep(_EXCHANGES, id(ex), (ex, rules, data), _RECORDS_SIZE)
    return data


def _encode_exchange(ex: Exchange, rules: Ruleset, order: tuple[int, ...]) -> tuple[Any, ...]:
    (
        declarer, contract, modifier, _, step, moved, starts, forced, ex_order, legal, data, moves,
    ) = ex  # fmt: skip
    plan_code = _plan_code(rules, ex)
    legal_codes, legal_draws = encode_actions(legal) if legal else (b"", ())
    forced_codes, forced_draws = encode_actions([entry[3] for entry in forced]) if forced else (b"", ())
    return (
        declarer,
        CONTRACTS.index(contract),
        -1 if modifier is None else MODIFIERS.index(modifier),
        plan_code,
        step,
        moved,
        starts,
        tuple([n for entry in forced for n in entry[:3]]),
        forced_codes,
        forced_draws,
        None if ex_order == order else ex_order,
        legal_codes,
        legal_draws,
        data,
        *encode_moves(moves),
    )


def encode_moves(moves: tuple[MoveRecord, ...]) -> tuple[bytes, tuple[str, ...]]:
    """Return an exchange's move records as 13 bytes a move and their words, each once.

    A move is its entry + 1, its forced move + 1, its seat, its source, its
    target, the seats that saw it, its words' place, then its cards' mask (a
    count, negated, where a view did not see them) as six little-endian bytes,
    signed: the low four, then the high two.
    """
    if not moves:
        return b"", ()
    words: dict[str, int] = {}
    pack = _MOVE.pack
    out = []
    for entry, forced, seat, mask, src, dst, seen, said in moves:
        w = words.get(said)
        if w is None:
            w = words[said] = len(words)
        out.append(pack(entry + 1, forced + 1, seat, src, dst, seen, w, mask & 0xFFFFFFFF, mask >> 32))
    return b"".join(out), tuple(words)


def decode_moves(data: bytes, words: tuple[str, ...]) -> tuple[MoveRecord, ...]:
    """Return the move records :func:`encode_moves` encoded."""
    return tuple(
        [
            (entry - 1, forced - 1, seat, low | high << 32, src, dst, seen, words[w])
            for entry, forced, seat, src, dst, seen, w, low, high in _MOVE.iter_unpack(data)
        ]
    )


# One move of encode_moves: seven bytes, then the mask's low four bytes and its high two.
_MOVE = struct.Struct("<7BIh")


_tuple_new = tuple.__new__


def decode_exchange(data: tuple[Any, ...], rules: Ruleset, order: tuple[int, ...]) -> Exchange:
    """Return the exchange record :func:`encode_exchange` encoded."""
    key = (id(rules), order, data)
    try:
        known = _RECORDS.get(key)
    except TypeError:  # a plan of steps that do not hash
        return _decode_exchange(data, rules, order)
    if known is not None and known[0] is rules:
        return known[1]
    ex = _decode_exchange(data, rules, order)
    keep(_RECORDS, key, (rules, ex), _RECORDS_SIZE)
    return ex


def _decode_exchange(data: tuple[Any, ...], rules: Ruleset, order: tuple[int, ...]) -> Exchange:
    if len(data) == 23:  # a pickle that also kept what the moves add up to: worked out now
        data = data[:6] + data[13:]
    (
        declarer, contract_code, modifier_code, plan_code, step, moved, starts, forced_ints,
        forced_codes, forced_draws, ex_order, legal_codes, legal_draws, step_data, move_bytes,
        move_words,
    ) = data  # fmt: skip
    contract = CONTRACTS[contract_code]
    modifier = None if modifier_code < 0 else MODIFIERS[modifier_code]
    plan = _plan_of(rules, contract, modifier, plan_code)
    forced_actions = decode_actions(forced_codes, forced_draws) if forced_codes else []
    forced = tuple(
        (forced_ints[3 * i], forced_ints[3 * i + 1], forced_ints[3 * i + 2], action)
        for i, action in enumerate(forced_actions)
    )
    legal = tuple(decode_actions(legal_codes, legal_draws)) if legal_codes else ()
    return _tuple_new(
        Exchange,
        (
            declarer, contract, modifier, plan, step, moved, starts, forced,
            order if ex_order is None else ex_order, legal, step_data, decode_moves(move_bytes, move_words) if move_bytes else (),
        ),
    )  # fmt: skip
