"""The plain-data codec of a :class:`~calabrasella.View`: only what the view holds.

Cards are written as codes, another seat's face-down move as
``{"hidden": kind, "words": ...}``, the rules as name, version and options. Reading checks
every type and bound (see :mod:`calabrasella._codec`).
"""

from __future__ import annotations

from typing import Any

from ._action_json import action_data
from ._bits import DEALT
from ._codec import (
    MAX_ITEMS,
    action,
    card,
    cards,
    codes,
    fail,
    integer,
    ints,
    items,
    join,
    maybe_card,
    maybe_int,
    maybe_member,
    obj,
    quote,
    read_result,
    read_rules,
    result_data,
    rules_data,
    text,
)
from .actions import Action, Contract, Modifier
from .cards import CardSet
from .phases import Phase
from .places import CODE_COUNT, EVERYONE, MoveRecord
from .views import Hidden, View

VIEW_KEYS = ("rules", "seat", "dealer", "phase", "to_move", "hand", "hand_sizes", "stock_size",
             "declarer", "contract", "modifier", "called", "giver", "given_back", "exposed",
             "discards", "drawn", "trick", "leader", "tricks_won", "card_units_won", "history",
             "forced_moves", "legal_actions", "final_stock", "result")  # fmt: skip


def entry_data(entry: Action | Hidden, where: str) -> str | dict[str, Any]:
    """Return a history entry's action as its JSON (:func:`action_data`), or
    ``{"hidden": kind, "words": words}`` (no ``words`` when there are none)."""
    if isinstance(entry, Hidden):
        return {"hidden": entry.kind, "words": entry.words} if entry.words else {"hidden": entry.kind}
    return action_data(entry, where)


def read_entry(value: object, where: str) -> Action | Hidden:
    """Read an action's JSON (:func:`action`) or ``{"hidden": kind, "words": words}``."""
    if type(value) is dict and "kind" not in value:
        data = obj(value, where, ("hidden",), ("words",))
        kind = text(data["hidden"], join(where, "hidden"), 40)
        if not kind.replace("_", "").isalnum() or not kind.isascii():
            fail(join(where, "hidden"), f"{quote(kind)} is not a kind of move")
        words = text(data.get("words", ""), join(where, "words"), 200)
        return Hidden(kind, words)
    return action(value, where)


def view_data(view: View) -> dict[str, Any]:
    """Return ``view`` as plain data: only what the view holds."""
    return {
        "rules": rules_data(view.rules),
        "seat": view.seat,
        "dealer": view.dealer,
        "phase": view.phase.name.lower(),
        "phase_name": view.phase_name,
        "to_move": view.to_move,
        "hand": codes(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "stock_size": view.stock_size,
        "declarer": view.declarer,
        "contract": None if view.contract is None else view.contract.value,
        "modifier": None if view.modifier is None else view.modifier.value,
        "called": None if view.called is None else view.called.code,
        "giver": view.giver,
        "given_back": None if view.given_back is None else view.given_back.code,
        "exposed": codes(view.exposed),
        "discards": codes(view.discards),
        "drawn": codes(view.drawn),
        "trick": [[seat, c.code] for seat, c in view.trick],
        "leader": view.leader,
        "tricks_won": list(view.tricks_won),
        "card_units_won": list(view.card_units_won),
        "history": [[seat, entry_data(a, f"history[{i}]")] for i, (seat, a) in enumerate(view.history)],
        "forced_moves": [
            [at, seat, entry_data(a, f"forced_moves[{i}]")]
            for i, (at, seat, a) in enumerate(view.forced_moves)
        ],
        "legal_actions": [
            action_data(a, f"legal_actions[{i}]") for i, a in enumerate(view.legal_actions)
        ],
        "final_stock": None if view.final_stock is None else codes(view.final_stock),
        "result": None if view.result is None else result_data(view.result),
        "moves": [_move_data(record) for record in view._moves],
    }


def _move_data(record: MoveRecord) -> dict[str, Any]:
    """One exchange move as the view holds it: its cards, or their number where unseen."""
    entry, forced, seat, mask, source, target, seen, words = record
    return {
        "entry": entry,
        "forced": forced,
        "seat": seat,
        "cards": codes(CardSet(mask)) if mask >= 0 else None,
        "number": mask.bit_count() if mask >= 0 else -mask,
        "source": source,
        "target": target,
        "seen": seen,
        "words": words,
    }


_MOVE_KEYS = ("entry", "forced", "seat", "cards", "number", "source", "target", "seen", "words")


def _read_moves(value: object, where: str, top: int, max_actions: int) -> tuple[MoveRecord, ...]:
    """Read a view's exchange moves (:func:`_move_data`), each checked."""
    out: list[MoveRecord] = []
    for i, item in enumerate(items(value, where, MAX_ITEMS)):
        here = f"{where}[{i}]"
        d = obj(item, here, _MOVE_KEYS)
        number = integer(d["number"], join(here, "number"), 1, 40)
        if d["cards"] is None:
            mask = -number
        else:
            mask = cards(d["cards"], join(here, "cards")).mask
            if mask.bit_count() != number:
                fail(join(here, "number"), f"{number} is not the number of its cards")
        last = CODE_COUNT - 1
        out.append((
            integer(d["entry"], join(here, "entry"), -1, max_actions),
            integer(d["forced"], join(here, "forced"), -1, 64),
            integer(d["seat"], join(here, "seat"), 0, top),
            mask,
            integer(d["source"], join(here, "source"), 0, last),
            integer(d["target"], join(here, "target"), 0, last),
            integer(d["seen"], join(here, "seen"), 0, EVERYONE),
            text(d["words"], join(here, "words"), 200),
        ))  # fmt: skip
    return tuple(out)


def _phase(value: object, where: str) -> Phase:
    word = text(value, where, 20)
    for phase in Phase:
        if phase.name.lower() == word:
            return phase
    fail(where, f"{quote(value)} is not a phase ({', '.join(p.name.lower() for p in Phase)})")


def _pairs_of(value: object, where: str, limit: int, size: int) -> list[list[Any]]:
    out = []
    for i, pair in enumerate(items(value, where, limit)):
        entry = items(pair, f"{where}[{i}]", size)
        if len(entry) != size:
            fail(f"{where}[{i}]", f"expected {size} entries, got {len(entry)}")
        out.append(entry)
    return out


def read_view(value: object, where: str, max_actions: int) -> View:
    """Read a view's plain data back into an equal :class:`~calabrasella.View`."""
    d = obj(value, where, VIEW_KEYS, ("phase_name", "moves"))

    def at(key: str) -> str:
        return join(where, key)

    rules = read_rules(d["rules"], at("rules"))
    n = rules.players
    top = n - 1
    held, most, tricks = sum(DEALT), rules.deal_units, DEALT[0]  # a hand and the stock; a deal
    seat = integer(d["seat"], at("seat"), 0, top)
    hand = cards(d["hand"], at("hand"))
    sizes = ints(d["hand_sizes"], at("hand_sizes"), n, 0, held)
    if sizes[seat] != len(hand):
        fail(at("hand_sizes"), f"seat {seat} holds {len(hand)} cards, not {sizes[seat]}")
    trick = _pairs_of(d["trick"], at("trick"), 3, 2)
    history = _pairs_of(d["history"], at("history"), max_actions, 2)
    forced = _pairs_of(d["forced_moves"], at("forced_moves"), 64, 3)
    legal = items(d["legal_actions"], at("legal_actions"), MAX_ITEMS)
    result = None if d["result"] is None else read_result(d["result"], at("result"))
    stock = None if d["final_stock"] is None else cards(d["final_stock"], at("final_stock"))
    view = View(
        rules=rules,
        seat=seat,
        dealer=integer(d["dealer"], at("dealer"), 0, top),
        phase=_phase(d["phase"], at("phase")),
        to_move=maybe_int(d["to_move"], at("to_move"), 0, top),
        hand=hand,
        hand_sizes=sizes,
        stock_size=integer(d["stock_size"], at("stock_size"), 0, held),
        declarer=maybe_int(d["declarer"], at("declarer"), 0, top),
        contract=maybe_member(d["contract"], at("contract"), Contract),
        modifier=maybe_member(d["modifier"], at("modifier"), Modifier),
        called=maybe_card(d["called"], at("called")),
        giver=maybe_int(d["giver"], at("giver"), 0, top),
        given_back=maybe_card(d["given_back"], at("given_back")),
        exposed=cards(d["exposed"], at("exposed")),
        discards=cards(d["discards"], at("discards")),
        drawn=cards(d["drawn"], at("drawn")),
        trick=tuple(
            (integer(s, f"{join(where, 'trick')}[{i}][0]", 0, top), card(c, f"{join(where, 'trick')}[{i}][1]"))
            for i, (s, c) in enumerate(trick)
        ),
        leader=integer(d["leader"], at("leader"), 0, top),
        tricks_won=ints(d["tricks_won"], at("tricks_won"), n, 0, tricks),
        card_units_won=ints(d["card_units_won"], at("card_units_won"), n, 0, most),
        history=tuple(
            (integer(s, f"{join(where, 'history')}[{i}][0]", 0, top), read_entry(a, f"{join(where, 'history')}[{i}][1]"))
            for i, (s, a) in enumerate(history)
        ),
        forced_moves=tuple(
            (
                integer(k, f"{join(where, 'forced_moves')}[{i}][0]", 0, max_actions),
                integer(s, f"{join(where, 'forced_moves')}[{i}][1]", 0, top),
                read_entry(a, f"{join(where, 'forced_moves')}[{i}][2]"),
            )
            for i, (k, s, a) in enumerate(forced)
        ),
        legal_actions=tuple(action(a, f"{join(where, 'legal_actions')}[{i}]") for i, a in enumerate(legal)),
        final_stock=stock,
        result=result,
        moves=_read_moves(d.get("moves", []), at("moves"), top, max_actions),
    )
    name = text(d.get("phase_name", ""), at("phase_name"), 40) or str(view.phase)
    if name != str(view.phase):  # a variant's step named its phase
        view.__dict__["_phase_name"] = name
    return view
