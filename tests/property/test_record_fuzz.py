"""Fuzzing the loaders: mutated records load consistently or raise RecordError, never anything else.

Valid documents (records, states, views, results, matches of either game,
finished and cut short) are mutated: keys deleted, replaced, added or
duplicated, values of other types, cards swapped or changed, action lists
truncated, shuffled or given random actions, then the JSON text itself cut,
sprinkled with random characters, nested deep, given huge numbers, NaN or
giant strings. Loading must either give a value that is consistent (it
replays, and writes and reads back equal) or raise
:class:`~calabrasella.RecordError`: any other exception fails the test, and
the limits keep every load bounded. The text form is fuzzed the same way,
line by line.

The ``ci`` profile runs 50 examples a test; the ``fuzz`` profile
(``HYPOTHESIS_PROFILE=fuzz python -m pytest tests/property/test_record_fuzz.py``)
runs 100,000.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Callable

from hypothesis import given
from hypothesis import strategies as st
from strategies import actions

import calabrasella as cb

Doc = Any
Draw = st.DrawFn


def _play(rules: cb.Ruleset, seed: int, steps: int | None) -> cb.State:
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
    done = 0
    while not state.is_over and (steps is None or done < steps):
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        done += 1
    return state


def _match(rules: cb.Ruleset, seed: int) -> cb.Match:
    rng = random.Random(seed)
    match = cb.Match.start(rules, seed=seed, deals=3)
    for _ in range(2):
        state = match.next_deal(seed=rng)
        while not state.is_over:
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
            else:
                state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        match = match.record(state)
    return match


_RULESETS = (
    cb.CAVENDISH,
    cb.CALABRESELLA,
    cb.Cavendish(players=4, irregularities="record"),
    cb.Calabresella(auction="until_two_pass", callable="threes_then_twos", follow_suit=False),
    cb.Calabresella(players=4, give_back="face_down", stramazzo="no_points"),
)
_STATES = [
    _play(rules, seed, steps)
    for rules in _RULESETS
    for seed, steps in ((1, None), (2, None), (3, 9), (4, 25))
]
_TAGS = {"event": "fuzz", "players": "Ann, Bea, Cy", "date": "2024-05-01"}
POOL: dict[type, list[dict[str, Any]]] = {
    cb.Record: [cb.to_data(cb.Record.from_state(s, tags=_TAGS)) for s in _STATES],
    cb.State: [cb.to_data(s) for s in _STATES[::2]],
    cb.View: [cb.to_data(s.view(i % s.players)) for i, s in enumerate(_STATES)],
    cb.Result: [cb.to_data(s.result) for s in _STATES if s.result is not None][:6],
    cb.Match: [cb.to_data(_match(rules, 7)) for rules in _RULESETS[:2]],
}
TEXTS = [cb.Record.from_state(s, tags=_TAGS).to_text() for s in _STATES]
_CODES = [card.code for card in cb.DECK]


# --- mutating plain data -----------------------------------------------------------------


def _places(doc: Doc) -> list[tuple[Any, Any]]:
    """Every (container, key or index) of the document, the root's children first."""
    places: list[tuple[Any, Any]] = []
    todo = [doc]
    while todo:
        node = todo.pop(0)
        if isinstance(node, dict):
            places.extend((node, key) for key in node)
            todo.extend(node.values())
        elif isinstance(node, list):
            places.extend((node, i) for i in range(len(node)))
            todo.extend(node)
    return places


_WORDS = ["pass", "done", "bid stand", "bid solo", "play Ad", "take 3c", "draw 4d 5d",
          "cavendish", "calabresella", "record", "state", "view", "match", "bidding",
          "declarer", "cappotto", "hidden", "discard"]  # fmt: skip


def _junk() -> st.SearchStrategy[Any]:
    """A value of any JSON type, or one a record holds in the wrong place."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from([0, 1, 3, 4, 12, 36, -1, 1.0, 0.5, 1e300]),
        st.text(max_size=12),
        st.sampled_from(_CODES),
        st.sampled_from(_WORDS),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=8,
    )


def _pick(draw: Draw, places: list[tuple[Any, Any]]) -> tuple[Any, Any]:
    return places[draw(st.integers(min_value=0, max_value=len(places) - 1))]


def _delete(draw: Draw, doc: Doc) -> None:
    places = _places(doc)
    if places:
        container, key = _pick(draw, places)
        del container[key]


def _replace(draw: Draw, doc: Doc) -> None:
    places = _places(doc)
    if places:
        container, key = _pick(draw, places)
        container[key] = draw(_junk())


def _add(draw: Draw, doc: Doc) -> None:
    containers = [doc] + [c for c, k in _places(doc) if isinstance(c[k], (dict, list))]
    target = containers[draw(st.integers(min_value=0, max_value=len(containers) - 1))]
    if isinstance(target, dict):
        target[draw(st.sampled_from(["extra", "action", "type", "tags", "result", "hidden", "x"]))] = draw(_junk())
    else:
        target.insert(draw(st.integers(min_value=0, max_value=len(target))), draw(_junk()))


def _duplicate(draw: Draw, doc: Doc) -> None:
    lists = [c[k] for c, k in _places(doc) if isinstance(c[k], list) and c[k]]
    if lists:
        target = lists[draw(st.integers(min_value=0, max_value=len(lists) - 1))]
        i = draw(st.integers(min_value=0, max_value=len(target) - 1))
        target.insert(i, copy.deepcopy(target[i]))


def _card_places(doc: Doc) -> list[tuple[Any, Any]]:
    return [(c, k) for c, k in _places(doc) if isinstance(c[k], str) and c[k] in _CODES]


def _swap_cards(draw: Draw, doc: Doc) -> None:
    places = _card_places(doc)
    if len(places) >= 2:
        (c1, k1), (c2, k2) = _pick(draw, places), _pick(draw, places)
        c1[k1], c2[k2] = c2[k2], c1[k1]


def _change_card(draw: Draw, doc: Doc) -> None:
    places = _card_places(doc)
    if places:
        container, key = _pick(draw, places)
        container[key] = draw(st.sampled_from(_CODES))


def _action_list(doc: Doc) -> list[Any] | None:
    if isinstance(doc, dict) and isinstance(doc.get("actions"), list):
        return doc["actions"]  # type: ignore[no-any-return]
    if isinstance(doc, dict) and isinstance(doc.get("finished"), list) and doc["finished"]:
        deal = doc["finished"][0]
        if isinstance(deal, dict) and isinstance(deal.get("actions"), list):
            return deal["actions"]  # type: ignore[no-any-return]
    return None


def _truncate_actions(draw: Draw, doc: Doc) -> None:
    listed = _action_list(doc)
    if listed:
        del listed[draw(st.integers(min_value=0, max_value=len(listed) - 1)) :]


def _insert_action(draw: Draw, doc: Doc) -> None:
    listed = _action_list(doc)
    if listed is not None:
        listed.insert(draw(st.integers(min_value=0, max_value=len(listed))), str(draw(actions())))


def _swap_actions(draw: Draw, doc: Doc) -> None:
    listed = _action_list(doc)
    if listed and len(listed) >= 2:
        i, j = (draw(st.integers(min_value=0, max_value=len(listed) - 1)) for _ in range(2))
        listed[i], listed[j] = listed[j], listed[i]


def _change_option(draw: Draw, doc: Doc) -> None:
    rules = doc.get("rules") if isinstance(doc, dict) else None
    if isinstance(rules, dict) and isinstance(rules.get("options"), dict):
        options = rules["options"]
        key = draw(st.sampled_from([*options, "stramazzo_below", "auction", "nonsense"]))
        options[key] = draw(st.one_of(_junk(), st.sampled_from(["eldest", "after_declarer", "record",
                                                                "until_two_pass", "no_points"])))  # fmt: skip


_DATA_OPS: tuple[Callable[[Draw, Doc], None], ...] = (
    _delete, _replace, _add, _duplicate, _swap_cards, _change_card,
    _truncate_actions, _insert_action, _swap_actions, _change_option,
)  # fmt: skip


# --- mutating the text ----------------------------------------------------------------


def _text_op(draw: Draw, text: str) -> str:
    op = draw(st.integers(min_value=0, max_value=7))
    at = draw(st.integers(min_value=0, max_value=len(text)))
    if op == 0:  # cut short
        return text[:at]
    if op == 1:  # random characters in the middle
        return text[:at] + draw(st.text(max_size=6)) + text[at:]
    if op == 2:  # a duplicate key
        return text.replace('"actions": ', '"actions": [], "actions": ', 1)
    if op == 3:  # deep nesting
        depth = draw(st.sampled_from([10, 1_000, 100_000]))
        return "[" * depth + text + "]" * depth
    if op == 4:  # a number of thousands of digits
        return text.replace(": 0", ": " + "9" * draw(st.sampled_from([20, 4_000, 5_000])), 1)
    if op == 5:
        return text.replace(": 0", ": " + draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999"])), 1)
    if op == 6:  # a giant string
        return text.replace('"fuzz"', '"' + "x" * draw(st.sampled_from([2_000, 2_000_000])) + '"', 1)
    return text[:at] + draw(st.sampled_from(["{", "}", "[", "]", ",", '"', ":", "\\"])) + text[at:]


@st.composite
def mutated_json(draw: Draw, kind: type) -> str | bytes:
    """The JSON text of a valid document of ``kind``, mutated one to three times.

    One time in four the text is mutated too; one time in eight it is given
    as UTF-8 bytes with random bytes put in.
    """
    doc = copy.deepcopy(draw(st.sampled_from(POOL[kind])))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        draw(st.sampled_from(_DATA_OPS))(draw, doc)
    text = json.dumps(doc)
    if draw(st.integers(min_value=0, max_value=3)) == 0:
        text = _text_op(draw, text)
    if draw(st.integers(min_value=0, max_value=7)) == 0:
        raw = text.encode("utf-8")
        at = draw(st.integers(min_value=0, max_value=len(raw)))
        return raw[:at] + draw(st.binary(min_size=1, max_size=4)) + raw[at:]
    return text


# --- the checks --------------------------------------------------------------------------


def _consistent(value: object) -> None:
    """A value that loaded replays, and writes and reads back equal."""
    if isinstance(value, cb.Record):
        states = list(value.states())
        assert len(states) == len(value.actions) + 1 and states[-1] == value.replay()
        assert value.result is None or value.result == value.replay().result
        assert cb.from_json(cb.to_json(value), cb.Record) == value
        assert cb.Record.from_text(value.to_text()) == value
    elif isinstance(value, cb.State):
        assert cb.from_json(cb.to_json(value), cb.State) == value
    elif isinstance(value, cb.View):
        assert cb.from_json(cb.to_json(value), cb.View) == value
    elif isinstance(value, cb.Result):
        assert cb.from_json(cb.to_json(value), cb.Result) == value
    else:
        assert isinstance(value, cb.Match)
        assert sum(value.totals) == 0
        assert cb.from_json(cb.to_json(value), cb.Match) == value


def _load_or_refuse(load: Callable[[], object]) -> None:
    """Load; a RecordError (with a message) is a fine answer, a value must be consistent."""
    try:
        value = load()
    except cb.RecordError as error:
        message = str(error)
    else:
        _consistent(value)
        return
    assert message


@given(mutated_json(cb.Record))
def test_mutated_record_json_loads_consistently_or_raises_record_error(text: str | bytes) -> None:
    """A mutated record: a consistent Record, or RecordError; never another exception."""
    _load_or_refuse(lambda: cb.from_json(text, cb.Record))


@given(st.sampled_from([cb.State, cb.View, cb.Result, cb.Match]).flatmap(
    lambda kind: st.tuples(st.just(kind), mutated_json(kind))))  # fmt: skip
def test_mutated_state_view_result_or_match_json_loads_or_raises_record_error(
    case: tuple[type, str | bytes],
) -> None:
    """Mutated states, views, results and matches: a consistent value, or RecordError."""
    kind, text = case
    _load_or_refuse(lambda: cb.from_json(text, kind))


@given(st.sampled_from(list(POOL)), st.sampled_from(list(POOL)), st.data())
def test_a_document_read_as_another_kind_raises_record_error(
    written: type, read: type, data: st.DataObject
) -> None:
    """Any document read as any kind: the right kind loads, another raises RecordError."""
    text = json.dumps(data.draw(st.sampled_from(POOL[written])))
    if written is read:
        _consistent(cb.from_json(text, read))
    else:
        _load_or_refuse(lambda: cb.from_json(text, read))


@st.composite
def mutated_text(draw: Draw) -> str:
    """A record's text form with lines deleted, repeated, swapped or changed."""
    lines = draw(st.sampled_from(TEXTS)).splitlines()
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        op = draw(st.integers(min_value=0, max_value=5))
        i = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            j = draw(st.integers(min_value=0, max_value=len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:
            at = draw(st.integers(min_value=0, max_value=len(lines[i])))
            lines[i] = lines[i][:at] + draw(st.text(max_size=5)) + lines[i][at + 1 :]
        elif op == 4:  # a card code, or a rank in a diagram, for another
            words = lines[i].split(" ")
            k = draw(st.integers(min_value=0, max_value=len(words) - 1))
            words[k] = draw(st.sampled_from([*_CODES, "3", "A", "K", "4", "-", "seat", "2,"]))
            lines[i] = " ".join(words)
        else:
            lines.insert(i, draw(st.sampled_from(["Play", "Result", "Hands", "# note", "[x \"y\"]",
                                                  "  seat 1: pass", "  (forced) seat 2: take Ad"])))  # fmt: skip
        if not lines:
            break
    return "\n".join(lines)


@given(mutated_text())
def test_mutated_text_record_loads_consistently_or_raises_record_error(text: str) -> None:
    """A hand-edited (mutated) text record: a consistent Record, or RecordError."""
    _load_or_refuse(lambda: cb.Record.from_text(text))
