"""Records are untrusted input: every malformed or forged case raises RecordError saying where and why.

One test per kind of bad input the issue lists (bad JSON, absurd sizes,
wrong types, unknown ruleset, option or version, duplicate or missing cards,
an illegal action anywhere, a result the replay does not give, unknown keys)
for records, states, views, results and matches, and for the text form.
Each asserts the error class, the place (``where``) and words of the reason.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any, Callable

import pytest

import calabrasella as cb
from calabrasella import records


def _finished(rules: cb.Ruleset = cb.CAVENDISH, seed: int = 5) -> cb.State:
    rng = random.Random(seed)
    state = cb.new_deal(rules, seed=seed)
    while not state.is_over:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            legal = cb.legal_actions(state)
            bids = [a for a in legal if isinstance(a, cb.Bid)]
            state = cb.apply(state, bids[0] if bids else rng.choice(legal))
    return state


STATE = _finished()
RECORD = cb.Record.from_state(STATE, tags={"event": "test"})
DATA = cb.to_data(RECORD)
TEXT = RECORD.to_text()


def refused(data: object, where: str, *words: str, kind: Any = cb.Record, **limits: int) -> cb.RecordError:
    """Load ``data`` (JSON text, or plain data when not a str/bytes) and expect a RecordError."""
    load: Callable[[], object]
    if isinstance(data, (str, bytes)):
        load = lambda: cb.from_json(data, kind, **limits)  # noqa: E731
    else:
        load = lambda: cb.from_data(data, kind, **limits)  # noqa: E731
    with pytest.raises(cb.RecordError) as info:
        load()
    error = info.value
    assert isinstance(error, ValueError)
    assert error.where == where, (error.where, str(error))
    message = str(error)
    assert message.startswith(f"{where}: " if where else error.reason)
    for word in words:
        assert word in message, (word, message)
    return error


def mutated(change: Callable[[dict[str, Any]], object], base: dict[str, Any] | None = None) -> dict[str, Any]:
    data = copy.deepcopy(DATA if base is None else base)
    change(data)
    return data


def text_refused(text: str, line: int | None, *words: str, **limits: int) -> cb.RecordError:
    with pytest.raises(cb.RecordError) as info:
        cb.Record.from_text(text, **limits)
    error = info.value
    if line is not None:
        assert error.where == f"line {line}", (error.where, str(error))
    for word in words:
        assert word in str(error), (word, str(error))
    return error


def test_the_valid_document_loads() -> None:
    """The base every case below spoils loads, as JSON, plain data and text."""
    assert cb.from_data(DATA, cb.Record) == RECORD
    assert cb.Record.from_text(TEXT) == RECORD


# --- not JSON, or absurd ---------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "{", "[1, 2", "record", "{'type': 'record'}", "\ufeff{}"])
def test_text_that_is_not_json_is_refused(text: str) -> None:
    """Broken JSON raises RecordError 'not JSON', never json.JSONDecodeError."""
    refused(text, "", "not JSON")


@pytest.mark.parametrize("junk", [None, 5, ["a"], object()])
def test_input_that_is_not_text_is_refused(junk: object) -> None:
    """from_json of a non-string raises RecordError."""
    with pytest.raises(cb.RecordError, match="expected JSON text"):
        cb.from_json(junk, cb.Record)  # type: ignore[arg-type]


def test_input_over_max_bytes_is_refused_before_parsing() -> None:
    """A 10 MB string is refused by its length (not parsed: it is not even JSON)."""
    error = refused("x" * 10_000_000, "", "10000000 characters", "max_bytes=1000000")
    assert "not JSON" not in str(error)
    refused(b"y" * 20_000_001, "", "20000001 bytes", kind=cb.Match)
    refused(cb.to_json(RECORD), "", "max_bytes=100", max_bytes=100)


def test_bytes_that_are_not_utf8_are_refused() -> None:
    """Latin-1 bytes raise RecordError 'not UTF-8'."""
    refused('{"tags": {"e": "caf\xe9"}}'.encode("latin-1"), "", "not UTF-8")


def test_deep_nesting_is_refused() -> None:
    """100,000 nested lists raise RecordError, not RecursionError."""
    refused("[" * 100_000 + "]" * 100_000, "", "nested too deeply")
    refused('{"a":' * 50_000 + "1" + "}" * 50_000, "", "nested too deeply")


def test_an_int_of_thousands_of_digits_is_refused() -> None:
    """An int over Python's 4300-digit limit raises RecordError, not a bare ValueError."""
    text = cb.to_json(RECORD).replace('"dealer": 0', '"dealer": ' + "9" * 5000)
    refused(text, "", "not JSON")
    text = cb.to_json(RECORD).replace('"dealer": 0', '"dealer": ' + "9" * 4000)
    refused(text, "deal.dealer", "an int of")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused(constant: str) -> None:
    """JSON's forbidden constants, which Python's json accepts, raise RecordError."""
    text = cb.to_json(RECORD).replace('"dealer": 0', f'"dealer": {constant}')
    refused(text, "", constant.lstrip("-"))


def test_a_float_where_an_int_belongs_is_refused() -> None:
    """dealer 0.0 and 1e999 are not ints."""
    refused(cb.to_json(RECORD).replace('"dealer": 0', '"dealer": 0.0'), "deal.dealer", "expected an int")
    refused(cb.to_json(RECORD).replace('"dealer": 0', '"dealer": 1e999'), "deal.dealer", "inf")


def test_duplicate_keys_are_refused() -> None:
    """Two 'actions' keys in one object raise RecordError naming the key."""
    text = cb.to_json(RECORD).replace('"actions": [', '"actions": [], "actions": [', 1)
    refused(text, "", "'actions' appears twice")


def test_too_many_actions_are_refused_before_replaying() -> None:
    """A million actions, or 1,001, exceed max_actions and are refused by count."""
    refused(mutated(lambda d: d.update(actions=["pass"] * 1_000_000)), "actions", "1000000 entries", "at most 1000")
    refused(mutated(lambda d: d.update(actions=["pass"] * 1001)), "actions", "at most 1000")
    refused(DATA, "actions", "at most 10", max_actions=10)


def test_a_giant_string_is_refused_by_its_length() -> None:
    """A 10 MB tag value passes max_bytes=None only to be refused as too long a string."""
    refused(mutated(lambda d: d["tags"].update(event="x" * 10_000_000)), "tags.event", "at most 1000")


# --- the document ----------------------------------------------------------------------


def test_the_wrong_kind_of_document_is_refused() -> None:
    """A view's JSON loaded as a State, or a record's as a Match, names both kinds."""
    refused(cb.to_json(STATE.view(0)), "type", "expected 'state', got 'view'", kind=cb.State)
    refused(cb.to_json(RECORD), "type", "expected 'match', got 'record'", kind=cb.Match)
    refused(mutated(lambda d: d.pop("type")), "type", "got nothing")


@pytest.mark.parametrize("kind", [int, dict, "record", [cb.Record]])
def test_a_kind_that_is_not_loadable_is_refused(kind: Any) -> None:
    """The kind must be State, View, Result, Record or Match."""
    refused(DATA, "", "expected State, View, Result, Record or Match", kind=kind)


@pytest.mark.parametrize("version", [2, 0, "1", True, None, 1.0])
def test_another_format_version_is_refused(version: object) -> None:
    """Only format 1 is read (True and 1.0 are not 1)."""
    refused(mutated(lambda d: d.update(format=version)), "format", "reads format 1")


def test_an_unknown_key_is_refused_not_ignored() -> None:
    """A typo ('action') is named, with the keys expected."""
    refused(mutated(lambda d: d.update(action=[])), "action", "unknown key 'action'", "actions")
    refused(mutated(lambda d: d["deal"].update(monte=[])), "deal.monte", "unknown key")
    refused(mutated(lambda d: d["rules"].update(extra=1)), "rules.extra", "unknown key")


@pytest.mark.parametrize("key", ["rules", "deal", "actions"])
def test_a_missing_key_is_refused(key: str) -> None:
    """Each required key, when missing, is named."""
    refused(mutated(lambda d: d.pop(key)), key, "missing")


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (lambda d: d["deal"].update(dealer=True), "deal.dealer", "expected an int, got True"),
        (lambda d: d["deal"].update(dealer="0"), "deal.dealer", "expected an int, got '0'"),
        (lambda d: d["deal"].update(dealer=3), "deal.dealer", "not a seat"),
        (lambda d: d.update(actions="pass"), "actions", "expected a list"),
        (lambda d: d["actions"].__setitem__(0, 7), "actions[0]", "expected a string"),
        (lambda d: d["actions"].__setitem__(2, "jump"), "actions[2]", "not an action: 'jump'"),
        (lambda d: d["deal"].update(hands="3d 2d"), "deal.hands", "expected a list"),
        (lambda d: d["deal"]["hands"][1].__setitem__(0, "10h"), "deal.hands[1][0]", "not a card: '10h'"),
        (lambda d: d["deal"]["hands"][1].__setitem__(0, 3), "deal.hands[1][0]", "expected a string"),
        (lambda d: d["deal"].update(stock=None), "deal.stock", "expected a list"),
        (lambda d: d.update(rules=[]), "rules", "expected an object"),
        (lambda d: d.update(tags=["event"]), "tags", "expected a mapping"),
        (lambda d: d.update(result=[]), "result", "expected an object"),
        (lambda d: d["result"].update(void="no"), "result.void", "expected true or false"),
        (lambda d: d["result"].update(winner="nobody"), "result.winner", "'nobody' is not one of"),
        (lambda d: d["result"].update(payments=[0] * 5), "result.payments", "at most 4"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused(change: Callable[[dict[str, Any]], object], where: str, words: str) -> None:
    """Wrong types anywhere name the place and quote the value (bool is not int)."""
    refused(mutated(change), where, words)


# --- rules -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "where", "words"),
    [
        ({"name": "skat"}, "rules.name", "no ruleset named 'skat'"),
        ({"name": 5}, "rules.name", "expected a string"),
        ({"version": 99}, "rules.version", "newer than this library's version 2"),
        ({"version": 0}, "rules.version", "out of range"),
        ({"version": "1"}, "rules.version", "expected an int"),
        ({"options": {"auction": "single_round"}}, "rules.options.auction", "has no option 'auction'"),
        ({"options": {"first_lead": "left"}}, "rules.options", "first_lead='left'"),
        ({"options": {"players": "3"}}, "rules.options.players", "expected an int, got '3'"),
        ({"options": {"players": True}}, "rules.options.players", "expected an int, got True"),
        ({"options": {"players": 3.0}}, "rules.options.players", "expected a string, int"),
        ({"options": {"dealer_shares": 1}}, "rules.options.dealer_shares", "expected true or false"),
        ({"options": {"players": [3]}}, "rules.options.players", "expected a string, int"),
        ({"options": []}, "rules.options", "expected an object of options"),
    ],
)
def test_bad_rules_are_refused(rules: dict[str, Any], where: str, words: str) -> None:
    """Unknown ruleset, newer version, unknown option, bad option value or type."""
    refused(mutated(lambda d: d["rules"].update(rules)), where, words)


def test_a_deprecated_option_name_is_refused_in_a_record() -> None:
    """Records are written with today's option names: stramazzo_below is not one."""
    data = cb.to_data(cb.Record.from_state(cb.new_deal(cb.CALABRESELLA, seed=1)))
    data["rules"]["options"]["stramazzo_below"] = 3
    refused(data, "rules.options.stramazzo_below", "has no option")


def test_a_deal_for_another_table_is_refused() -> None:
    """Three hands under players=4 do not fit the ruleset's table."""
    refused(mutated(lambda d: d["rules"]["options"].update(players=4)), "deal.hands", "table of 4")


# --- the deal ----------------------------------------------------------------------------


def test_a_card_written_twice_in_one_hand_is_refused() -> None:
    """hands[1] with its first card again in place of another names the second place."""
    def change(d: dict[str, Any]) -> None:
        d["deal"]["hands"][1][5] = d["deal"]["hands"][1][0]

    refused(mutated(change), "deal.hands[1][5]", "written twice")


def test_a_card_dealt_to_two_hands_is_refused() -> None:
    """A card of hand 0 put in place of one in hand 2 is dealt twice (and one is missing)."""
    def change(d: dict[str, Any]) -> None:
        d["deal"]["hands"][2][0] = d["deal"]["hands"][0][0]

    refused(mutated(change), "deal.hands[2]", "dealt twice")


def test_a_missing_card_is_refused() -> None:
    """A hand of eleven cards is named with its count."""
    refused(mutated(lambda d: d["deal"]["hands"][0].pop()), "deal.hands[0]", "11 cards, not 12")
    refused(mutated(lambda d: d["deal"]["stock"].pop()), "deal.stock", "3 cards, not 4")
    refused(mutated(lambda d: d["deal"]["hands"].pop()), "deal.hands", "3 or 4 hands")


# --- the play ----------------------------------------------------------------------------


def test_an_illegal_action_names_its_index_and_the_engines_reason() -> None:
    """Action 12 replaced by a card its seat does not hold: actions[12] and why."""
    state = list(RECORD.states())[12]
    seat = state.to_move
    assert seat is not None and state.phase is cb.Phase.PLAYING
    foreign = next(c for c in cb.DECK if c not in state.hand(seat))
    error = refused(mutated(lambda d: d["actions"].__setitem__(12, f"play {foreign}")),
                    "actions[12]", f"'play {foreign}' is illegal", "does not hold")  # fmt: skip
    assert error.reason.startswith(f"'play {foreign}' is illegal")


def test_actions_after_the_end_and_truncated_actions() -> None:
    """An action after the deal is over is illegal; a cut-short list loads as an unfinished deal."""
    refused(mutated(lambda d: d["actions"].append("pass")), f"actions[{len(RECORD.actions)}]", "over")
    short = mutated(lambda d: (d["actions"].pop(), d.update(result=None)))
    assert not cb.from_data(short, cb.Record).is_over


def test_a_forced_move_written_as_an_action_is_refused() -> None:
    """The solo's take is the engine's: writing it as an action is illegal."""
    state = cb.new_deal(cb.CALABRESELLA, seed=0)
    for action in (cb.Bid("solo"), cb.Pass(), cb.Pass()):
        state = cb.apply(state, action)
    data = cb.to_data(cb.Record.from_state(state))
    data["actions"].append("take Ad")
    refused(data, "actions[3]", "'take Ad' is illegal")


def test_a_stored_result_that_is_not_the_replays_is_refused() -> None:
    """Payments or units changed in the stored result name the field and both values."""
    refused(mutated(lambda d: d["result"].update(payments=[1, -1, 0])), "result.payments", "the replay gives")
    refused(mutated(lambda d: d["result"].update(declarer_units=35)), "result.declarer_units", "35")
    refused(mutated(lambda d: d["result"]["notes"].append("forged")), "result.notes")


def test_a_result_for_an_unfinished_deal_is_refused() -> None:
    """A result with fewer actions than the deal needs: the deal is not over."""
    refused(mutated(lambda d: d["actions"].pop()), "result", "not over")


def test_a_bad_tag_is_refused() -> None:
    """Tag names are words, values one line; reserved names and too many tags are refused."""
    refused(mutated(lambda d: d["tags"].update(event=3)), "tags.event", "expected a string")
    refused(mutated(lambda d: d["tags"].update(event="a\nb")), "tags.event", "one line")
    refused(mutated(lambda d: d["tags"].update(event="a\u2028b")), "tags.event", "one line")
    refused(mutated(lambda d: d["tags"].update(Event="x")), "tags.Event", "given twice")
    refused(mutated(lambda d: d["tags"].update({"Dealer": "1"})), "tags.Dealer", "reserved")
    refused(mutated(lambda d: d["tags"].update({"two words": "x"})), "tags.two words", "tag name")
    refused(mutated(lambda d: d["tags"].update({"": "x"})), "tags.", "tag name")
    refused(mutated(lambda d: d.update(tags={f"t{i}": "x" for i in range(65)})), "tags", "65 tags")


def test_record_constructor_refuses_like_the_loader() -> None:
    """Record(...) by hand: unknown ruleset, not an action, not a deal; from_state of a view."""
    deal = cb.shuffled_deal(cb.CAVENDISH, seed=1)
    with pytest.raises(cb.RecordError, match=r"rules\.name"):
        cb.Record(ruleset="skat", ruleset_version=1, deal=deal)
    with pytest.raises(cb.RecordError, match=r"actions\[0\]: not an action"):
        cb.Record(ruleset="cavendish", ruleset_version=1, deal=deal, actions=["pass"])  # type: ignore[list-item]
    with pytest.raises(cb.RecordError, match="deal: expected a Deal"):
        cb.Record(ruleset="cavendish", ruleset_version=1, deal="3d")  # type: ignore[arg-type]
    with pytest.raises(cb.RecordError, match="expected a State"):
        cb.Record.from_state(STATE.view(0))  # type: ignore[arg-type]


def test_to_data_refuses_what_it_cannot_write() -> None:
    """to_data of something else, or of a state under an unregistered ruleset, raises RecordError."""
    import attrs

    with pytest.raises(cb.RecordError, match="cannot write"):
        cb.to_data("state")  # type: ignore[arg-type]

    @attrs.frozen(kw_only=True)
    class House(cb.Cavendish):
        name = "house"

    with pytest.raises(cb.RecordError, match="no ruleset named 'house'"):
        cb.to_data(cb.new_deal(House(), seed=1))
    with cb.registered_ruleset(House):
        state = cb.new_deal(House(), seed=1)
        assert cb.from_json(cb.to_json(state), cb.State) == state


# --- views, results, matches -----------------------------------------------------------------


VIEW = cb.to_data(STATE.view(1))


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (lambda d: d.update(seat=5), "seat", "out of range"),
        (lambda d: d.update(phase="dancing"), "phase", "not a phase"),
        (lambda d: d.update(hand_sizes=[12, 12]), "hand_sizes", "expected 3 entries"),
        (lambda d: d.update(hand=["Ad"]), "hand_sizes", "holds 1 cards"),
        (lambda d: d["history"].__setitem__(0, [1, {"hidden": "x y"}]), "history[0][1].hidden", "not a kind"),
        (lambda d: d["history"].__setitem__(0, [1, {"secret": "Ad"}]), "history[0][1].secret", "unknown key"),
        (lambda d: d["history"].__setitem__(0, [1]), "history[0]", "expected 2 entries"),
        (lambda d: d.update(legal_actions=["fly"]), "legal_actions[0]", "not an action"),
        (lambda d: d.update(extra=None), "extra", "unknown key"),
        (lambda d: d.pop("result"), "result", "missing"),
    ],
)
def test_a_bad_view_is_refused(change: Callable[[dict[str, Any]], object], where: str, words: str) -> None:
    """A view's document is checked field by field."""
    refused(mutated(change, VIEW), where, words, kind=cb.View)


def test_a_bad_result_is_refused() -> None:
    """A result's document: wrong enum, wrong count of payments, a bool for an int."""
    data = cb.to_data(STATE.result)  # type: ignore[arg-type]
    refused(mutated(lambda d: d.update(bonus="double"), data), "bonus", "not one of", kind=cb.Result)
    refused(mutated(lambda d: d.update(payments=[1, 2]), data), "payments", "3 or 4", kind=cb.Result)
    refused(mutated(lambda d: d.update(value=False), data), "value", "expected an int", kind=cb.Result)


def _match() -> cb.Match:
    rng = random.Random(2)
    match = cb.Match.start(cb.CAVENDISH, seed=6, deals=3)
    for _ in range(2):
        state = match.next_deal(seed=rng)
        while not state.is_over:
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        match = match.record(state)
    return match


MATCH = cb.to_data(_match())


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (lambda d: d.update(seating=[0, 0, 1]), "seating", "not a permutation"),
        (lambda d: d["cut"].update(order=[0, 1, 2]), "cut.order", "not the order these cards give"),
        (lambda d: d["cut"]["rounds"].pop(), "cut.rounds", "did not cut again"),
        (lambda d: d["cut"]["rounds"].append([[0, "3d"]]), "cut.rounds", "more than the ties"),
        (lambda d: d.update(totals=[0, 0, 0]), "totals", "the match's deals give"),
        (lambda d: d.update(deals=1), "finished", "2 deals played of 1 agreed"),
        (lambda d: d["finished"].reverse(), "finished[0].deal.dealer", "seat 0 deals deal 1"),
        (lambda d: d["finished"][1]["actions"].pop(), "finished[1].result", "not over"),
        (lambda d: d["finished"][0]["rules"]["options"].update(first_lead="after_declarer"),
         "finished[0].rules", "not the match's rules"),
        (lambda d: d["finished"][1]["actions"].__setitem__(0, "play Ad"), "finished[1].actions[0]", "illegal"),
        (lambda d: d["finished"][0].update(tags={}), "finished[0].tags", "unknown key"),
    ],
)
def test_a_bad_match_is_refused(change: Callable[[dict[str, Any]], object], where: str, words: str) -> None:
    """A match's seating, cut, ledger and each deal are checked."""
    refused(mutated(change, MATCH), where, words, kind=cb.Match)


def test_a_match_over_max_deals_is_refused_before_replaying() -> None:
    """max_deals bounds the deals read."""
    refused(MATCH, "finished", "at most 1", kind=cb.Match, max_deals=1)


def test_a_state_document_with_tags_is_refused() -> None:
    """A state has no tags: a record's keys do not pass as a state's."""
    data = mutated(lambda d: d.update(type="state"))
    refused(data, "tags", "unknown key", kind=cb.State)


# --- the text form ---------------------------------------------------------------------------


def _lines() -> list[str]:
    return TEXT.splitlines()


def _replace(old: str, new: str, count: int = 1) -> str:
    assert old in TEXT, old
    return TEXT.replace(old, new, count)


def _line_of(prefix: str) -> int:
    return next(i for i, line in enumerate(_lines(), 1) if line.strip().startswith(prefix))


def test_text_hand_diagram_that_disagrees_with_the_deal_is_refused() -> None:
    """Moving a card from one hand's diagram to another's breaks the deal's counts."""
    seat0, seat1 = (next(x for x in _lines() if x.strip().startswith(f"seat {s}")) for s in (0, 1))
    rank = seat1.split("d: ")[1].split()[0]
    bad = TEXT.replace(seat0, seat0.replace("d: ", f"d: {rank} ", 1))
    bad = bad.replace(seat1, seat1.replace(f"d: {rank} ", "d: ", 1).replace(f"d: {rank}  ", "d: -  ", 1))
    text_refused(bad, _line_of("seat 0"), "13 cards, not 12")


def test_text_card_written_twice_is_refused() -> None:
    """A card of seat 1's diagram written into seat 2's too is dealt twice."""
    seat1 = next(x for x in _lines() if x.strip().startswith("seat 1"))
    seat2 = next(x for x in _lines() if x.strip().startswith("seat 2"))
    suit, rank = next((s, r) for s, r in zip(seat1.split(), seat1.split()[1:]) if s.endswith(":") and r != "-")
    bad = TEXT.replace(seat2, seat2.replace(suit, f"{suit} {rank}", 1).replace(f"{rank} -", rank))
    text_refused(bad, _line_of("seat 2"), f"{rank}{suit[0]} dealt twice")


def test_text_dealer_mark_that_disagrees_with_the_tag_is_refused() -> None:
    """(dealer) on seat 1 while the tag says 0."""
    bad = _replace("seat 0 (dealer)", "seat 0        ").replace("  seat 1    ", "  seat 1 (dealer)", 1)
    text_refused(bad, _line_of("seat 1"), "marked (dealer)", "says seat 0")


def test_text_action_line_with_the_wrong_seat_is_refused() -> None:
    """'seat 2: bid stand' when seat 1 made that bid."""
    line = next(x for x in _lines() if x.strip().startswith("seat ") and ": bid" in x)
    seat = int(line.split()[1].rstrip(":"))
    other = (seat + 1) % 3
    bad = TEXT.replace(line, line.replace(f"seat {seat}:", f"seat {other}:"))
    text_refused(bad, _line_of(line.strip()), f"says seat {other}", f"seat {seat} makes")


def test_text_trick_with_a_wrong_winner_or_leader_is_refused() -> None:
    """The first trick's winner and leader are checked against the replay."""
    trick = next(x for x in _lines() if x.strip().startswith("1. seat"))
    winner = int(trick.rsplit("seat ", 1)[1])
    bad = TEXT.replace(trick, trick.rsplit("seat ", 1)[0] + f"seat {(winner + 1) % 3}")
    text_refused(bad, _line_of("1. seat"), "winner is")
    leader = int(trick.split()[2])
    bad = TEXT.replace(trick, trick.replace(f"seat {leader} leads", f"seat {(leader + 1) % 3} leads"))
    text_refused(bad, _line_of("1. seat"), "leader is")
    bad = TEXT.replace(trick, trick.replace("1. seat", "4. seat"))
    text_refused(bad, _line_of("1. seat"), "number is 1, not 4")


def test_text_trick_lines_that_split_the_cards_wrongly_are_refused() -> None:
    """Two tricks written on one line: not a trick of the play."""
    one = next(x for x in _lines() if x.strip().startswith("1. seat"))
    two = next(x for x in _lines() if x.strip().startswith("2. seat"))
    cards = two.split(": ", 1)[1].split(" ->")[0]
    merged = one.split(" ->")[0] + ", " + cards
    assert one + "\n" + two in TEXT
    bad = TEXT.replace(one + "\n" + two, merged)
    text_refused(bad, _line_of("1. seat"), "trick 1 holds 3 actions, not 6")


def test_text_result_that_is_not_the_replays_is_refused() -> None:
    """A payments line changed in the result section names its line."""
    line = next(x for x in _lines() if x.strip().startswith("payments:"))
    text_refused(TEXT.replace(line, line.replace("+", "-", 1)), _line_of("payments:"), "the replay gives")
    text_refused(TEXT + "  note: and a forged note\n", None, "more result lines")


def test_text_illegal_action_names_its_line() -> None:
    """An illegal bid line is reported by its line with the engine's reason."""
    line = next(x for x in _lines() if x.strip().startswith("seat ") and ": bid" in x)
    bad = TEXT.replace(line, line.replace("bid stand", "bid solo"))
    text_refused(bad, _line_of(line.strip()), "illegal")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "no [Ruleset"),
        ('[Ruleset "skat"]\n', "no ruleset named 'skat'"),
        ('[Ruleset "cavendish"]\n[Options "players"]\n', "name=value"),
        ('[Ruleset "cavendish"]\n[Options "players=three"]\n', "expected an int"),
        ('[Ruleset "cavendish"]\n[Dealer "²"]\nHands\n', "expected a seat number"),
        ('[Ruleset "cavendish"]\n[Version "x"]\n', "expected a version number"),
        ('[Ruleset "cavendish"]\n[Ruleset "calabresella"]\n', "given twice"),
        ("Hands\n  seat 0 d: 3 3\n", "written twice"),
        ("Hands\n  seat 0 3d\n", "before its suit"),
        ("Hands\n  seat 0 x: 3\n", "not a suit letter"),
        ("Hands\n  table 0\n", "expected 'seat N' or 'stock'"),
        ("Play\n  seat 1 plays\n", "expected a trick"),
        ("Play\n  1. seat 1 leads: Ad -> nobody\n", "-> seat N"),
        ("Play\n  1. seat 1 leads: Ad, , 3d\n", "empty item"),
        ("Auction\n  seat 1: fold\n", "not an action"),
        ("Auction\n  (forced) take\n", "(forced) seat N"),
        ("just words\n", "expected a tag line or a section heading"),
        ("Hands\n[Ruleset \"cavendish\"]\n", "tag lines come before"),
        ("[not a tag\n", "expected a tag line"),
        ("x" * 2000 + "\n", "too long"),
    ],
)
def test_malformed_text_is_refused(text: str, words: str) -> None:
    """Each malformed line raises RecordError naming the line."""
    error = text_refused(text, None, words)
    assert error.where.startswith("line ")


def test_text_limits() -> None:
    """max_bytes is checked before reading; max_actions while reading; a non-str is refused."""
    text_refused("#" * 2_000_000, None, "max_bytes")
    text_refused(TEXT, None, "max_actions=5", max_actions=5)
    with pytest.raises(cb.RecordError, match="expected text"):
        cb.Record.from_text(b"[Ruleset]")  # type: ignore[arg-type]


def test_text_of_an_unfinished_deal_with_a_result_section_is_refused() -> None:
    """A Result heading after a cut-short play: the deal is not over."""
    cut = TEXT.split("\nResult\n")[0]
    last_trick = cut.rstrip().splitlines()[-1]
    text_refused(cut.replace(last_trick, "") + "\nResult\n  void\n", None, "not over")


def test_record_error_keeps_where_and_reason_through_pickle() -> None:
    """RecordError(where=, reason=) pickles whole; RecordError(message) still works."""
    import pickle

    error = refused(mutated(lambda d: d["deal"].update(dealer=9)), "deal.dealer")
    again = pickle.loads(pickle.dumps(error))
    assert (again.where, again.reason, str(again)) == (error.where, error.reason, str(error))
    plain = cb.RecordError("cards dealt twice")
    assert (plain.where, plain.reason, str(plain)) == ("", "cards dealt twice", "cards dealt twice")


def test_the_limits_are_documented_constants() -> None:
    """The default limits are the module's constants."""
    assert records.MAX_BYTES == 1_000_000 and records.MAX_MATCH_BYTES == 20_000_000
    assert records.MAX_ACTIONS == 1_000 and records.MAX_DEALS == 10_000
    assert json.loads(cb.to_json(RECORD))["format"] == records.FORMAT
