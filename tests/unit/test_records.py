"""Records and JSON: saving and loading deals, states, views, results and matches.

Known answers come from the golden vectors (an independent implementation of
RULES.md) and from tricks worked out by hand; every vector deal is also
written as JSON and as text and read back. The malformed and forged inputs
are in ``test_records_bad_input.py``; the mutation fuzzing in
``tests/property/test_record_fuzz.py``.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import pytest

import calabrasella as cb
from calabrasella import records

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "docs" / "record.schema.json"


def _golden() -> ModuleType:
    """The known-answer test module, whose ``_replay`` turns a vector into a final state."""
    path = ROOT / "tests" / "golden" / "test_vectors.py"
    spec = importlib.util.spec_from_file_location("golden_vectors_for_records", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


GOLDEN = _golden()
VECTORS: list[dict[str, Any]] = [
    vector
    for name in ("cavendish.json", "calabresella.json", "calabresella-readings.json")
    for vector in GOLDEN._load(name)
]


def _vector_state(vector: dict[str, Any]) -> cb.State:
    return cast(cb.State, GOLDEN._replay(vector))


def play(rules: cb.Ruleset, seed: int, *, steps: int | None = None, dealer: int = 0) -> cb.State:
    """A deal under ``rules`` with random legal actions (all of them, or the first ``steps``)."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=dealer, seed=seed)
    done = 0
    while not state.is_over and (steps is None or done < steps):
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        done += 1
    return state


RULESETS = [
    cb.CAVENDISH,
    cb.CALABRESELLA,
    cb.Cavendish(players=4, first_lead="after_declarer"),
    cb.Calabresella(auction="until_two_pass", give_back="face_down", players=4),
    cb.Cavendish(irregularities="record"),
]


# --- the record -------------------------------------------------------------------------


def test_record_from_state_holds_rules_deal_and_every_decision() -> None:
    """A record names the ruleset, its version and every option, the deal and the history's actions."""
    state = play(cb.CALABRESELLA, 11)
    record = cb.Record.from_state(state, tags={"event": "club night", "site": "Napoli"})
    assert record.ruleset == "calabresella"
    assert record.ruleset_version == 2
    assert dict(record.options) == cb.CALABRESELLA.options()
    assert record.rules == cb.CALABRESELLA
    assert record.deal == state.deal and record.dealer == 0
    assert record.actions == tuple(action for _, action in state.history)
    assert record.result == state.result is not None
    assert list(record.tags) == ["event", "site"]
    assert record.replay() == state and record.is_over


def test_forced_moves_are_not_actions_of_the_record() -> None:
    """A solo's take of the whole monte is the engine's: the record has the three calls only."""
    state = cb.new_deal(cb.CALABRESELLA, seed=0)
    for action in (cb.Bid("solo"), cb.Pass(), cb.Pass()):
        state = cb.apply(state, action)
    record = cb.Record.from_state(state)
    assert len(state.forced_moves) == 4
    assert [str(a) for a in record.actions] == ["bid solo", "pass", "pass"]
    assert record.replay() == state


def test_states_start_with_the_deal_and_follow_each_action() -> None:
    """states() yields the first state, then one state per action, ending at replay()."""
    state = play(cb.CAVENDISH, 3, steps=20)
    record = cb.Record.from_state(state)
    states = list(record.states())
    assert states[0] == cb.start(cb.CAVENDISH, state.deal)
    assert len(states) == len(record.actions) + 1 == 21
    for before, action, after in zip(states, record.actions, states[1:]):
        assert cb.apply(before, action) == after
    assert states[-1] == record.replay() == state


def test_record_built_by_hand_replays_and_compares_by_value() -> None:
    """Record(...) with options as a dict or pairs gives equal, hashable records."""
    deal = cb.shuffled_deal(cb.CAVENDISH, seed=7)
    one = cb.Record(ruleset="cavendish", ruleset_version=1, options={"first_lead": "eldest"},
                    deal=deal, actions=[cb.Pass(), cb.Bid("stand")])  # fmt: skip
    two = cb.Record(ruleset="cavendish", ruleset_version=1, options=[("first_lead", "eldest")],
                    deal=deal, actions=(cb.Pass(), cb.Bid("stand")))  # fmt: skip
    assert one == two and hash(one) == hash(two)
    assert one.replay().declarer == 2
    assert one.rules == cb.CAVENDISH
    assert one.options == {"first_lead": "eldest"}


def test_an_older_ruleset_version_is_read_when_its_play_replays() -> None:
    """A Calabresella version-1 record without scegliete replays under version 2."""
    state = play(cb.CALABRESELLA, 4)
    assert state.contract is cb.Contract.SOLO
    data = cb.to_data(cb.Record.from_state(state))
    data["rules"]["version"] = 1
    record = cb.from_data(data, cb.Record)
    assert record.ruleset_version == 1 and record.replay() == state


# --- JSON -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: f"{r.name}-{r.players}")
@pytest.mark.parametrize("steps", [0, 7, 30, None])
def test_record_and_state_round_trip_through_json(rules: cb.Ruleset, steps: int | None) -> None:
    """A record and a state, unfinished or over, load back equal from their JSON."""
    state = play(rules, 21, steps=steps, dealer=1)
    record = cb.Record.from_state(state, tags={"round": "3"})
    assert cb.from_json(cb.to_json(record), cb.Record) == record
    assert cb.from_json(cb.to_json(record, indent=2), cb.Record) == record
    assert cb.from_json(cb.to_json(state), cb.State) == state
    assert cb.from_json(cb.to_json(state).encode("utf-8"), cb.State) == state


def test_record_document_is_plain_data_with_type_and_format() -> None:
    """to_data writes type, format, tags, rules, deal (card codes), actions (notation) and result."""
    state = play(cb.CAVENDISH, 2)
    data = cb.to_data(cb.Record.from_state(state, tags={"event": "x"}))
    assert list(data) == ["type", "format", "tags", "rules", "deal", "actions", "result"]
    assert data["type"] == "record" and data["format"] == records.FORMAT == 1
    assert data["rules"]["name"] == "cavendish" and data["rules"]["version"] == 2
    assert data["deal"]["hands"][1] == [c.code for c in state.deal.hands[1]]
    assert data["actions"] == [str(a) for _, a in state.history]
    assert data["result"]["payments"] == list(state.result.payments)  # type: ignore[union-attr]
    assert json.loads(json.dumps(data)) == data


def test_state_document_is_its_record_without_tags() -> None:
    """A state is written as type 'state' with its rules, deal, actions and result."""
    state = play(cb.CALABRESELLA, 4, steps=5)
    data = cb.to_data(state)
    assert data["type"] == "state"
    assert set(data) == {"type", "format", "rules", "deal", "actions", "result"}
    assert data["result"] is None and len(data["actions"]) == 5


def test_a_chance_node_state_round_trips() -> None:
    """A state waiting for dividete's draw (chance to move) loads back equal."""
    state = cb.new_deal(cb.CALABRESELLA, seed=7)
    state = cb.apply(cb.apply(state, cb.Bid(cb.Contract.SOLISSIMO)), cb.Raise("dividete"))
    assert state.is_chance
    assert cb.from_json(cb.to_json(state), cb.State) == state


def test_view_json_holds_hidden_entries_and_loads_back_equal() -> None:
    """Another seat's discard is {"hidden": "discard", "words": ...}; the view loads back equal."""
    s = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    for action in (cb.Bid("stand"), cb.Call("3h"), cb.GiveBack("4h"), cb.Discard("5s")):
        s = cb.apply(s, action)
    view = s.view(0)
    data = cb.to_data(view)
    assert data["type"] == "view" and data["seat"] == 0
    assert data["history"] == [
        [1, "bid stand"], [1, "call 3h"],
        [1, {"hidden": "give_back", "words": "gave a card back face down"}],
        [1, {"hidden": "discard", "words": "discarded a card face down"}],
    ]  # fmt: skip
    assert data["hand"] == [c.code for c in s.hand(0)]
    assert data["rules"] == {"name": "cavendish", "version": 2, "options": cb.CAVENDISH.options()}
    assert cb.from_json(cb.to_json(view), cb.View) == view
    mine = s.view(1)
    assert cb.to_data(mine)["history"][3] == [1, "discard 5s"]
    assert cb.from_json(cb.to_json(mine), cb.View) == mine


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: f"{r.name}-{r.players}")
def test_every_seat_view_round_trips_along_a_deal(rules: cb.Ruleset) -> None:
    """Each seat's view after each action loads back equal from its JSON."""
    record = cb.Record.from_state(play(rules, 8))
    for state in record.states():
        for seat in range(rules.players):
            view = state.view(seat)
            assert cb.from_json(cb.to_json(view), cb.View) == view


def test_result_round_trips_played_and_void() -> None:
    """A played result and a void one load back equal."""
    result = play(cb.CALABRESELLA, 9).result
    assert result is not None
    assert cb.from_json(cb.to_json(result), cb.Result) == result
    void = cb.Result.void_deal(4)
    assert cb.from_json(cb.to_json(void), cb.Result) == void
    assert cb.to_data(void)["notes"] == ["everybody passed: the deal is void"]


def _played_match(rules: cb.Ruleset, deals: int, seed: int) -> cb.Match:
    rng = random.Random(seed)
    match = cb.Match.start(rules, seed=seed, deals=deals)
    while not match.is_over:
        state = match.next_deal(seed=rng)
        while not state.is_over:
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
            else:
                state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        match = match.record(state)
    return match


def test_match_round_trips_with_its_cut_and_ledger() -> None:
    """A match of three deals loads back equal: rules, seating, cut, each deal, totals."""
    match = _played_match(cb.CAVENDISH, 3, seed=6)
    data = cb.to_data(match)
    assert data["type"] == "match" and data["seating"] == [1, 0, 2]
    assert data["cut"]["rounds"][0] == [[0, "4c"], [1, "4h"], [2, "Kc"]]
    assert len(data["finished"]) == 3 and data["totals"] == list(match.totals)
    loaded = cb.from_json(cb.to_json(match), cb.Match)
    assert loaded == match and loaded.totals == match.totals and loaded.cut == match.cut


def test_match_without_cut_or_limit_round_trips() -> None:
    """A match built with a seating of its own and no agreed number of deals loads back equal."""
    match = cb.Match(rules=cb.Calabresella(players=4), seating=(3, 1, 0, 2), first_dealer=2)
    state = match.next_deal(seed=4)
    for _ in range(3):
        state = cb.apply(state, cb.Pass())
    match = match.record(state)
    assert cb.from_json(cb.to_json(match), cb.Match) == match


# --- known answers ---------------------------------------------------------------------


def _hand_built_vector_record() -> dict[str, Any]:
    """Cavendish vector 0 written as a record by hand from its script (not by the library)."""
    v = VECTORS[0]
    assert v["ruleset"] == "cavendish" and v["dealer"] == 0
    codes = [[cb.Card.parse(c).code for c in hand] for hand in v["hands"]]
    script = v["script"]
    actions = ["bid stand", "call 3d"]  # seat 1, the eldest, stands; 3d lies in the stock
    actions += [f"discard {cb.Card.parse(c).code}" for c in script["discard"]]
    # he discarded four: the engine takes the whole stock for him (forced moves)
    assert len(script["discard"]) == 4
    actions += [f"play {cb.Card.parse(c).code}" for c in script["plays"]]
    return {
        "type": "record",
        "format": 1,
        "tags": {"event": "vector 0"},
        "rules": {"name": "cavendish", "version": 2, "options": {"first_lead": "after_declarer"}},
        "deal": {"dealer": 0, "hands": codes, "stock": [cb.Card.parse(c).code for c in v["stock"]]},
        "actions": actions,
    }


def test_hand_written_record_of_a_vector_gives_its_known_result() -> None:
    """Cavendish vector 0 by hand: 20 units to 15, six tricks, payments -5 +10 -5."""
    record = cb.from_data(_hand_built_vector_record(), cb.Record)
    result = record.replay().result
    assert result is not None
    assert (result.declarer, result.declarer_units, result.adversary_units) == (1, 20, 15)
    assert result.declarer_tricks == 6 and result.payments == (-5, 10, -5)
    assert record.result is None  # not written, so not stored
    text = record.to_text()
    # worked out by hand: seat 2 (after the single player) leads Js; seat 0 7s; seat 1's As wins
    assert "  1. seat 2 leads: Js, 7s, As -> seat 1\n" in text
    # seat 1 leads 3d; seat 2 6d, seat 0 5d: the 3 wins
    assert "  2. seat 1 leads: 3d, 6d, 5d -> seat 1\n" in text
    with_result = cb.Record.from_text(text + "\nResult\n" + "\n".join(
        ["declarer seat 1, stand: 20 units to 15, tricks 6 to 6",
         "won by the declarer: 5 x 1 = 5",
         "payments: seat 0 -5, seat 1 +10, seat 2 -5",
         "note: single player 20, adversaries 15",
         "note: he wins 5 from each"]))  # fmt: skip
    assert with_result.result == result


def test_a_version_1_record_with_the_take_now_forced_is_refused_by_name() -> None:
    """Cavendish version 1 asked for the first take after four discards; version 2 makes
    the whole take forced, so an old record holding that take does not replay, and the
    error says which version the record is of."""
    data = _hand_built_vector_record()
    script = VECTORS[0]["script"]
    data["rules"]["version"] = 1
    data["actions"].insert(6, f"take {cb.Card.parse(script['take'][0]).code}")
    with pytest.raises(cb.RecordError) as caught:
        cb.from_data(data, cb.Record)
    assert caught.value.where == "actions[6]"
    assert "cavendish version 1" in caught.value.reason
    assert "version 2" in caught.value.reason


def test_a_stored_result_matching_the_vector_loads() -> None:
    """The vector's expected payments, written into the record's result, load."""
    data = _hand_built_vector_record()
    final = cb.from_data(data, cb.Record).replay()
    data["result"] = cb.to_data(final.result)  # type: ignore[arg-type]
    del data["result"]["type"], data["result"]["format"]
    assert data["result"]["payments"] == VECTORS[0]["expect"]["payments"]
    assert cb.from_data(data, cb.Record).result == final.result


@pytest.mark.parametrize("index", range(len(VECTORS)))
def test_every_vector_deal_round_trips_as_json_and_text(index: int) -> None:
    """Each of the 101 vector deals: record, JSON and text agree, with the vector's payments."""
    vector = VECTORS[index]
    record = cb.Record.from_state(_vector_state(vector), tags={"vector": str(index)})
    assert record.result is not None
    assert list(record.result.payments) == vector["expect"]["payments"]
    assert cb.from_json(cb.to_json(record), cb.Record) == record
    assert cb.Record.from_text(record.to_text()) == record


def test_vector_count() -> None:
    """The three vector files hold 101 deals."""
    assert len(VECTORS) == 101


# --- the text form ----------------------------------------------------------------------


def test_text_form_shows_tags_hands_auction_exchange_tricks_and_result() -> None:
    """The text of a solo: forced takes marked, tricks numbered with leader and winner."""
    state = cb.new_deal(cb.CALABRESELLA, seed=0)
    for action in (cb.Bid("solo"), cb.Pass(), cb.Pass()):
        state = cb.apply(state, action)
    text = cb.Record.from_state(state, tags={"event": 'the "big" game'}).to_text()
    lines = text.splitlines()
    assert lines[0] == '[Ruleset "calabresella"]'
    assert '[event "the \\"big\\" game"]' in lines
    assert "Hands" in lines and "Auction" in lines and "Exchange" in lines
    assert "  seat 1: bid solo" in lines
    assert "  (forced) seat 1: take Ad" in lines
    assert cb.Record.from_text(text).tags["event"] == 'the "big" game'


def test_text_form_is_read_with_free_spacing_case_and_comments() -> None:
    """Hand-typed text: other spacing, lower-case headings, comments, no Version tag."""
    state = play(cb.CAVENDISH, 12)
    record = cb.Record.from_state(state)
    typed = ["# typed at the table"]
    for line in record.to_text().splitlines():
        if line.startswith("[Version"):
            continue
        typed.append("   " + line.lower().replace(": ", ":   ") if not line.startswith("[") else line)
    assert cb.Record.from_text("\n".join(typed)) == record


def test_text_form_writes_table_mode_irregularities_in_the_tricks() -> None:
    """A revoke and an out-of-turn card appear in words among the trick's cards and read back."""
    rules = cb.Cavendish(irregularities="record")
    for seed in range(200):
        state = play(rules, seed)
        kinds = {type(a) for _, a in state.history}
        if cb.Revoke in kinds and cb.OutOfTurn in kinds:
            break
    else:  # pragma: no cover - random play revokes often
        pytest.fail("no deal with both irregularities")
    record = cb.Record.from_state(state)
    text = record.to_text()
    assert "revoke " in text and "out of turn" in text
    assert cb.Record.from_text(text) == record


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: f"{r.name}-{r.players}")
@pytest.mark.parametrize("seed", range(6))
def test_text_form_round_trips_finished_and_unfinished(rules: cb.Ruleset, seed: int) -> None:
    """Every kind of deal, stopped anywhere, reads back from its text equal."""
    state = play(rules, seed, steps=None if seed % 2 else 9 * seed + 3, dealer=seed % rules.players)
    record = cb.Record.from_state(state, tags={"players": "Ann, Bea, Cy"})
    assert cb.Record.from_text(record.to_text()) == record


# --- the schema and the layers -----------------------------------------------------------


def test_schema_requires_what_to_data_writes() -> None:
    """docs/record.schema.json requires the keys a record's to_data writes, and allows no others."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    data = cb.to_data(cb.Record.from_state(play(cb.CAVENDISH, 1)))
    assert set(schema["required"]) <= set(data) <= set(schema["properties"])
    assert schema["additionalProperties"] is False
    deal = schema["$defs"]["deal"]
    assert set(deal["required"]) == set(data["deal"])
    result = schema["$defs"]["result"]
    assert set(result["required"]) == set(data["result"])


def test_records_validate_against_the_schema() -> None:
    """Records of both games, finished and not, are valid under the JSON Schema (if jsonschema is here)."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    for rules in RULESETS:
        for steps in (0, 12, None):
            record = cb.Record.from_state(play(rules, 3, steps=steps), tags={"event": "x"})
            jsonschema.validate(cb.to_data(record), schema)


def test_nothing_below_records_imports_it() -> None:
    """Only the package's __init__, the CLI, the bots, the pictures (svg) and the data sets (a
    layer above records, as the CLI is) may import records and its helpers."""
    package = ROOT / "src" / "calabrasella"
    mine = {"records", "_codec", "_record_text", "_view_codec"}
    for path in package.rglob("*.py"):
        relative = path.relative_to(package)
        if relative.parts[0] in ("cli", "bots", "svg") or (relative.name == "__init__.py" and len(relative.parts) == 1):
            continue
        if path.stem in mine or relative == Path("datasets.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = {node.module or ""} | {alias.name for alias in node.names}
                assert not names & mine, f"{relative} imports {names & mine}"
