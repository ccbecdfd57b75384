"""Replay every known-answer deal of ``shared/vectors`` and compare its result.

The vectors come from a separate implementation of RULES.md; the script of
each deal is turned into this engine's one-card-at-a-time actions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import calabrasella as cb

VECTORS = Path(__file__).resolve().parents[3] / "shared" / "vectors"


def _load(name: str) -> list[dict[str, Any]]:
    path = VECTORS / name
    if not path.exists():  # pragma: no cover - CI always has shared/ beside the repo
        pytest.fail(f"known-answer vectors missing: {path}")
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _card(text: str) -> cb.Card:
    return cb.Card.parse(text)


def _play_script(state: cb.State, vector: dict[str, Any]) -> cb.State:
    """Drive ``state`` through the vector's script; every step is applied through the public API."""
    script = vector["script"]
    order = state.deal.order
    declarer = script["declarer"]
    bid = cb.Contract(script.get("bid") or "stand")
    # the auction: seats before the declarer pass; he bids; the rest pass
    while state.phase is cb.Phase.BIDDING:
        seat = state.to_move
        state = cb.apply(state, cb.Bid(bid) if seat == declarer else cb.Pass())
    if declarer is None:
        return state
    assert state.declarer == declarer
    if state.phase is cb.Phase.RAISING:
        modifier = script.get("modifier")
        state = cb.apply(state, cb.Raise(cb.Modifier(modifier)) if modifier else cb.Pass())
    if script.get("call") is not None:
        state = cb.apply(state, cb.Call(_card(script["call"])))
    if state.phase is cb.Phase.GIVING_BACK:
        state = cb.apply(state, cb.GiveBack(_card(script["give_back"])))
    if state.phase is cb.Phase.DISCARDING and state.to_move == declarer:
        for text in script["discard"]:
            state = cb.apply(state, cb.Discard(_card(text)))
        if state.phase is cb.Phase.DISCARDING:
            state = cb.apply(state, cb.Done())
    for text in script.get("take", []):
        if state.phase is cb.Phase.TAKING:  # the engine takes forced cards itself
            state = cb.apply(state, cb.Take(_card(text)))
    if "draws" in script:
        first = order[(order.index(declarer) + 1) % 3]
        state = cb.apply(state, cb.Draw(cb.CardSet.of(script["draws"][str(first)])))
    if "takes" in script:
        for seat_key, cards in script["takes"].items():
            assert state.phase is cb.Phase.TAKING and state.to_move == int(seat_key)
            for text in cards:
                state = cb.apply(state, cb.Take(_card(text)))
            if state.phase is cb.Phase.TAKING and state.to_move == int(seat_key):
                state = cb.apply(state, cb.Done())
    for seat_key, cards in script.get("adv_discards", {}).items():
        for text in cards:
            assert state.to_move == int(seat_key)
            state = cb.apply(state, cb.Discard(_card(text)))
    assert state.phase is cb.Phase.PLAYING
    for text in script["plays"]:
        state = cb.apply(state, cb.Play(_card(text)))
    return state


def _replay(vector: dict[str, Any]) -> cb.State:
    rules = cb.find_ruleset(vector["ruleset"], **vector["options"])
    hands = [cb.CardSet.of(h) for h in vector["hands"]]
    stock = vector.get("stock") or vector["monte"]
    state = cb.deal_from(rules, hands, cb.CardSet.of(stock), dealer=vector["dealer"])
    return _play_script(state, vector)


def _check(vector: dict[str, Any]) -> None:
    state = _replay(vector)
    expect = vector["expect"]
    result = state.result
    assert state.is_over and result is not None
    assert result.void == expect["void"]
    assert list(result.payments) == expect["payments"]
    if expect["void"]:
        return
    assert result.declarer_units == expect["declarer_units"]
    assert result.adversary_units == expect["adversary_units"]
    assert result.declarer_tricks == expect["declarer_tricks"]
    if "multiplier" in expect:
        assert result.multiplier == expect["multiplier"]
        bonus = [result.bonus.value] if result.bonus else []
        assert bonus == expect["notes"]


CAVENDISH_VECTORS = _load("cavendish.json")
CALABRESELLA_VECTORS = _load("calabresella.json")


@pytest.mark.parametrize("vector", CAVENDISH_VECTORS, ids=lambda v: f"dealer{v['dealer']}")
def test_cavendish_vector_replays_to_expected_result(vector: dict[str, Any]) -> None:
    """Each Cavendish known-answer deal gives the expected units, tricks and payments."""
    _check(vector)


@pytest.mark.parametrize(
    "vector",
    CALABRESELLA_VECTORS,
    ids=lambda v: f"{v['script']['bid']}-{v['script']['modifier']}",
)
def test_calabresella_vector_replays_to_expected_result(vector: dict[str, Any]) -> None:
    """Each Calabresella known-answer deal gives the expected units, multiplier and payments."""
    _check(vector)


def test_vectors_cover_what_they_claim() -> None:
    """The files hold 24 Cavendish and 40 Calabresella deals, as their README says."""
    assert len(CAVENDISH_VECTORS) == 24
    assert len(CALABRESELLA_VECTORS) == 40
