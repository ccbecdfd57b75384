"""Replay every known-answer deal of ``tests/golden/vectors`` and compare its result.

The vectors come from a separate implementation of RULES.md; the script of
each deal is turned into this engine's one-card-at-a-time actions.

``tests/golden/vectors`` is a byte-for-byte copy of the project's shared
``../shared/vectors``, kept in the repository so that a fresh clone tests
itself; when the shared folder is beside the repository, a test checks that
the two copies are still the same.

``calabresella-readings.json`` holds deals where the options ``stramazzo``
and ``follow_suit`` change the result. In every file a scegliete's second
adversary is given the rest of the monte by the engine: his take is not
applied but checked against the engine's forced moves.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import calabrasella as cb

VECTORS = Path(__file__).resolve().parent / "vectors"
REPOSITORY = Path(__file__).resolve().parents[2]
SHARED_VECTORS = REPOSITORY.parent / "shared" / "vectors"
VECTOR_FILES = ("README.md", "cavendish.json", "calabresella.json", "calabresella-readings.json")


def _load(name: str) -> list[dict[str, Any]]:
    path = VECTORS / name
    if not path.exists():  # pragma: no cover - the copy is part of the repository
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
    if "takes" in script:  # scegliete: the first adversary chooses, the second gets the rest
        (first_key, first_cards), (second_key, second_cards) = script["takes"].items()
        assert state.phase is cb.Phase.TAKING and state.to_move == int(first_key)
        for text in first_cards:
            state = cb.apply(state, cb.Take(_card(text)))
        if state.phase is cb.Phase.TAKING and state.to_move == int(first_key):
            state = cb.apply(state, cb.Done())
        # the second adversary's take is forced: not applied, but checked
        rest = [action.card for seat, action in _forced(state, cb.Take) if seat == int(second_key)]
        assert sorted(rest) == sorted(map(_card, second_cards))
        assert not any(type(a) is cb.Take for s, a in state.history if s == int(second_key))
        assert state.stock == cb.CardSet()
    for seat_key, cards in script.get("adv_discards", {}).items():
        for text in cards:
            assert state.to_move == int(seat_key)
            state = cb.apply(state, cb.Discard(_card(text)))
    assert state.phase is cb.Phase.PLAYING
    for text in script["plays"]:
        state = cb.apply(state, cb.Play(_card(text)))
    return state


def _forced(state: cb.State, kind: type[Any]) -> list[tuple[int, Any]]:
    """The engine's forced moves of one kind, as ``(seat, action)``."""
    return [(seat, action) for _, seat, action in state.forced_moves if type(action) is kind]


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
    assert result.declarer == vector["script"]["declarer"]
    got: dict[str, Any] = {
        "void": result.void,
        "declarer_units": result.declarer_units,
        "adversary_units": result.adversary_units,
        "declarer_tricks": result.declarer_tricks,
        "payments": list(result.payments),
    }
    if "multiplier" in expect:  # Calabresella's vectors also give the multiplier and why
        got["multiplier"] = result.multiplier
        got["notes"] = [result.bonus.value] if result.bonus else []
    assert got == expect


def _id(ruleset: str, index: int, vector: dict[str, Any]) -> str:
    """``cavendish-07-dealer1-seat2`` or ``calabresella-12-solissimo-dividete``."""
    script = vector["script"]
    if script["declarer"] is None:
        what = "all-pass"
    elif ruleset == "cavendish":
        what = f"seat{script['declarer']}"
    else:
        what = "-".join(filter(None, (script["bid"], script["modifier"])))
    return f"{ruleset}-{index:02d}-dealer{vector['dealer']}-{what}"


def _params(name: str) -> list[Any]:
    ruleset = name.removesuffix(".json")
    return [pytest.param(v, id=_id(ruleset, i, v)) for i, v in enumerate(_load(name))]


CAVENDISH_VECTORS = _params("cavendish.json")
CALABRESELLA_VECTORS = _params("calabresella.json")
READINGS_VECTORS = _params("calabresella-readings.json")


@pytest.mark.parametrize("vector", CAVENDISH_VECTORS)
def test_cavendish_vector_replays_to_expected_result(vector: dict[str, Any]) -> None:
    """Each Cavendish known-answer deal gives the expected units, tricks and payments."""
    _check(vector)


@pytest.mark.parametrize("vector", CALABRESELLA_VECTORS)
def test_calabresella_vector_replays_to_expected_result(vector: dict[str, Any]) -> None:
    """Each Calabresella known-answer deal gives the expected units, multiplier and payments."""
    _check(vector)


@pytest.mark.parametrize("vector", READINGS_VECTORS)
def test_calabresella_readings_vector_replays_to_expected_result(vector: dict[str, Any]) -> None:
    """Each readings deal (options ``stramazzo``, ``follow_suit``) gives the expected result."""
    _check(vector)


def test_vectors_cover_what_they_claim() -> None:
    """The files hold 24 Cavendish, 40 Calabresella and 37 readings deals, as their README says."""
    assert len(CAVENDISH_VECTORS) == 24
    assert len(CALABRESELLA_VECTORS) == 40
    assert len(READINGS_VECTORS) == 37


def test_vectors_copy_holds_every_file() -> None:
    """The in-repository copy holds exactly the shared folder's files."""
    assert sorted(p.name for p in VECTORS.iterdir()) == sorted(VECTOR_FILES)


@pytest.mark.skipif(
    not SHARED_VECTORS.is_dir(),
    reason=f"no shared vectors beside the repository ({SHARED_VECTORS}): "
    "the in-repository copy is tested on its own",
)
def test_vectors_copy_is_byte_identical_to_shared() -> None:
    """Each file of ``tests/golden/vectors`` is byte-for-byte the one in ``../shared/vectors``."""
    shared = sorted(p.name for p in SHARED_VECTORS.iterdir() if not p.name.startswith("."))
    assert shared == sorted(VECTOR_FILES), "the shared folder's files changed: update the copy"
    for name in VECTOR_FILES:
        assert (VECTORS / name).read_bytes() == (SHARED_VECTORS / name).read_bytes(), (
            f"tests/golden/vectors/{name} differs from {SHARED_VECTORS / name}: copy it again"
        )
