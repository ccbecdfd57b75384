"""Encodings: action ids round-trip over random deals of every ruleset and option, and an
observation is the same in every world its seat cannot tell apart."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path
from typing import ClassVar

import attrs
import pytest
from hypothesis import given
from strategies import Playout, playouts

import calabrasella as cb
from calabrasella import encoding as enc
from calabrasella.actions import JsonValue
from calabrasella.bots.sampling import Sampler
from grids import OPTION_GRID


def _check_ids(state: cb.State) -> None:
    legal = state.legal_actions()
    ids = [enc.action_id(a) for a in legal]
    size = enc.num_actions(state.rules)
    assert len(set(ids)) == len(ids)
    assert all(0 <= i < size for i in ids)
    for a, i in zip(legal, ids):
        assert enc.action_of(i, state) == a
    mask = enc.legal_mask(state)
    assert len(mask) == size
    assert [i for i, bit in enumerate(mask) if bit] == sorted(ids)
    for seat in range(state.players):
        view = state.view(seat)
        vmask = enc.legal_mask(view)
        assert sum(vmask) == len(view.legal_actions)
        for a in view.legal_actions:
            assert vmask[enc.action_id(a)] == 1
            assert enc.action_of(enc.action_id(a), view) == a


@given(playouts())
def test_ids_round_trip_over_random_deals_of_any_ruleset(playout: Playout) -> None:
    """Every legal action of every state (and every seat's view) has a distinct id that decodes back to it."""
    for state in playout.states:
        if not state.is_chance and not state.is_over:
            _check_ids(state)


def test_ids_round_trip_over_the_option_grid() -> None:
    """The same over fixed deals of an option grid that holds table mode and four seats."""
    checked = 0
    table_ids: set[int] = set()
    for rules, seed in itertools.product(OPTION_GRID, range(6)):
        rng = random.Random(seed)
        state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
        while not state.is_over:
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
                continue
            _check_ids(state)
            table_ids.update(i for i in enc.legal_ids(state) if i >= enc.NUM_REGULAR_ACTIONS)
            checked += 1
            state = cb.apply(state, rng.choice(state.legal_actions()))
    assert checked > 500
    assert table_ids  # table mode's irregular actions were numbered too


def _observation_worlds(rules: cb.Ruleset, seeds: range, worlds: int) -> tuple[int, int]:
    """For every seat at every decision of each deal, sample ``worlds`` worlds the seat
    cannot tell apart; return how many views were compared and in how many worlds
    another seat's hand differed from the true one."""
    compared = differed = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
        while not state.is_over:
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
                continue
            for seat in range(rules.players):
                view = state.view(seat)
                obs = enc.observation(view)
                sampler = Sampler(view)
                for _ in range(worlds):
                    world = sampler.sample(rng)
                    assert enc.observation(world.view(seat)) == obs
                    compared += 1
                    differed += world.hands != state.hands
            state = cb.apply(state, rng.choice(state.legal_actions()))
    return compared, differed


def test_observations_are_equal_in_worlds_the_seat_cannot_tell_apart() -> None:
    """Thousands of views over the option grid: each sampled world gives the seat the same vector."""
    compared = differed = 0
    for rules in OPTION_GRID:
        c, d = _observation_worlds(rules, range(3), 2)
        compared += c
        differed += d
    assert compared > 3000
    assert differed > compared // 2  # the worlds really hide other cards


@pytest.mark.parametrize("rules", OPTION_GRID, ids=lambda r: repr(r)[:50])
@pytest.mark.parametrize("recall", [False, True])
def test_observation_layout_covers_the_vector_once(rules: cb.Ruleset, recall: bool) -> None:
    """Each ruleset's layout begins with the common parts; its slices tile the vector, in
    order, without a gap."""
    parts = enc.observation_parts(rules, recall)
    assert parts[: len(enc.OBSERVATION_LAYOUT)] == enc.OBSERVATION_LAYOUT
    layout = enc.observation_layout(rules, recall)
    at = 0
    for name, size, _ in parts:
        assert layout[name] == slice(at, at + size)
        at += size
    assert at == enc.observation_size(rules, recall)
    view = cb.new_deal(rules, seed=1).view(0)
    assert len(enc.observation(view, recall=recall)) == at


def _true_trick_winner(trick: tuple[tuple[int, cb.Card], ...]) -> int:
    suit = trick[0][1].suit
    return min((card.index, seat) for seat, card in trick if card.suit == suit)[1]


@given(playouts())
def test_view_helpers_agree_with_the_state(playout: Playout) -> None:
    """Known voids are true voids, unseen cards lie in other hands or the stock, the winning
    seat of a complete trick is the one that takes it, the played cards are those of the tricks,
    partners are the two adversaries, and the tricks left count down to none."""
    rules = playout.rules
    states = playout.states
    for before, after in itertools.pairwise(states):
        for seat in range(rules.players):
            view = before.view(seat)
            for s, suits in enumerate(enc.known_voids(view)):
                for suit in suits:
                    assert not before.hand(s).suit(suit)
            unseen = enc.unseen_cards(view)
            assert not unseen & view.hand
            elsewhere = cb.CardSet(before.stock_mask)
            for s in range(rules.players):
                if s != seat:
                    elsewhere |= before.hand(s)
            assert unseen <= elsewhere
            mate = enc.partner(view)
            if mate is not None:
                assert view.declarer is not None
                assert enc.partner(view, mate) == seat
                assert len({seat, mate, view.declarer}) == 3
            assert enc.tricks_left(view) >= enc.tricks_left(after.view(seat))
            _check_parts(view)
    final = states[-1].view(0)
    assert enc.tricks_left(final) == 0
    played = enc.cards_played(final)
    assert sum(len(p) for p in played) == sum(
        1 for _, a in states[-1].history if isinstance(a, (cb.Play, cb.Revoke))
    )


def _bits(values: list[float]) -> int:
    return sum(1 << i for i, v in enumerate(values) if v)


def _check_parts(view: cb.View) -> None:
    """The observation's parts say what the helpers and the view say."""
    obs = enc.observation(view)
    part = enc.observation_layout(view.rules)
    assert _bits(obs[part["unseen"]]) == enc.unseen_cards(view).mask
    assert _bits(obs[part["hand"]]) == view.hand.mask
    played = obs[part["played"]]
    for seat, cards in enumerate(enc.cards_played(view)):
        assert _bits(played[40 * seat : 40 * seat + 40]) == cards.mask
    voids = obs[part["voids"]]
    for seat, suits in enumerate(enc.known_voids(view)):
        assert {cb.Suit(i) for i in range(4) if voids[4 * seat + i]} == suits
    winning = enc.winning_seat(view)
    assert _bits(obs[part["winning"]]) == (0 if winning is None else 1 << winning)
    assert obs[part["tricks_left"]] == [enc.tricks_left(view)]
    assert obs[part["tricks_won"]][: len(view.tricks_won)] == list(view.tricks_won)
    assert sum(obs[part["phase"]]) == 1


def test_the_winning_seat_is_the_highest_card_of_the_suit_led() -> None:
    """Over the play of a few deals, the winning seat holds the trick's highest card of the suit led."""
    seen = 0
    for seed in range(5):
        rng = random.Random(seed)
        state = cb.new_deal(cb.CALABRESELLA, seed=seed)
        while not state.is_over:
            view = state.view(0)
            if view.trick:
                assert enc.winning_seat(view) == _true_trick_winner(view.trick)
                seen += 1
            state = cb.apply(state, rng.choice(state.legal_actions()))
    assert seen > 20


@attrs.frozen
class _Knock(cb.CustomAction):
    """A variant's own kind of action (unregistered: the encoding needs no registry)."""

    kind: ClassVar[str] = "knock"

    def __str__(self) -> str:
        return "knock"

    @classmethod
    def parse(cls, argument: str) -> _Knock:
        return cls()

    def to_json(self) -> JsonValue:
        return None

    @classmethod
    def from_json(cls, data: JsonValue) -> _Knock:
        return cls()


def test_actions_without_an_id_are_refused() -> None:
    """A chance outcome, a custom action, junk and out-of-range or illegal ids raise IllegalActionError."""
    with pytest.raises(cb.IllegalActionError, match="chance outcome"):
        enc.action_id(cb.Draw("5d Jh"))
    with pytest.raises(cb.IllegalActionError, match="variant's own kind"):
        enc.action_id(_Knock())
    with pytest.raises(cb.IllegalActionError, match="not an action"):
        enc.action_id("play Ad")  # type: ignore[arg-type]
    view = cb.new_deal(cb.CAVENDISH, seed=7).view(1)
    with pytest.raises(cb.IllegalActionError, match="not an action id of this ruleset"):
        enc.action_of(enc.NUM_REGULAR_ACTIONS, view)
    with pytest.raises(cb.IllegalActionError, match="not legal here"):
        enc.action_of(enc.action_id(cb.Play("Ad")), view)
    table = attrs.evolve(cb.CAVENDISH, irregularities="record")
    assert enc.num_actions(table) == enc.NUM_TABLE_ACTIONS


def test_the_docs_table_is_the_layout() -> None:
    """docs/research.md's layout table lists each part in order: the common parts with their
    slice and size, then the parts sized from the ruleset with their size in Cavendish and in
    Calabresella, the two auctions of Calabresella, and the information state's sizes."""
    page = (Path(__file__).parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\d+):(\d+) \| (\d+) \|", page, flags=re.MULTILINE)
    layout = enc.observation_layout(cb.CAVENDISH)
    assert [name for name, *_ in rows] == [name for name, _, _ in enc.OBSERVATION_LAYOUT]
    for name, start, stop, size in rows:
        assert layout[name] == slice(int(start), int(stop))
        assert int(stop) - int(start) == int(size)
    sized = re.findall(
        r"^\| `(\w+)` \| (from \d+|after it) \| (\d+) / (\d+) / (\d+) \|", page, flags=re.MULTILINE
    )
    games = (cb.CAVENDISH, cb.CALABRESELLA, cb.Calabresella(auction="until_two_pass"))
    names = [name for name, _, _ in enc.observation_parts(cb.CAVENDISH, recall=True)]
    assert [name for name, *_ in sized] == names[len(rows) :]
    for name, start, *sizes in sized:
        for rules, size in zip(games, sizes):
            part = enc.observation_layout(rules, recall=True)[name]
            assert part.stop - part.start == int(size)
        # the first starts where the common parts end, in every ruleset; the others follow
        assert start == ("from 719" if name == "high_bid" else "after it")
    assert enc.observation_layout(cb.CALABRESELLA)["high_bid"].start == 719
    totals = re.findall(r"^\| (observation|information state) \| (\d+) / (\d+) / (\d+) \|", page, flags=re.MULTILINE)
    assert [kind for kind, *_ in totals] == ["observation", "information state"]
    for kind, *sizes in totals:
        for rules, size in zip(games, sizes):
            assert enc.observation_size(rules, recall=kind != "observation") == int(size)
    docs = Path(__file__).parents[2] / "docs"
    cavendish, calabresella = enc.observation_size(cb.CAVENDISH), enc.observation_size(cb.CALABRESELLA)
    recall = enc.observation_size(cb.CALABRESELLA, recall=True)
    pettingzoo = (docs / "pettingzoo.md").read_text(encoding="utf-8")
    assert f"({cavendish} entries for Cavendish, {calabresella} for Calabresella)" in pettingzoo
    openspiel = (docs / "openspiel.md").read_text(encoding="utf-8")
    assert f"{recall} and {calabresella} for Calabresella" in openspiel


def test_the_docs_action_table_is_the_action_space() -> None:
    """Each row of docs/research.md's action table names the class of its first and last id,
    and the rows cover the 413 ids in order."""
    page = (Path(__file__).parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+)(?:-(\d+))? \| `(\w+)\(", page, flags=re.MULTILINE)
    expected_next = 0
    for first, last, name in rows:
        low, high = int(first), int(last or first)
        assert low == expected_next
        assert type(enc.action_at(low)).__name__ == name
        assert type(enc.action_at(high)).__name__ == name
        assert enc.action_id(enc.action_at(high)) == high
        expected_next = high + 1
    assert expected_next == enc.NUM_TABLE_ACTIONS
    with pytest.raises(cb.IllegalActionError):
        enc.action_at(enc.NUM_TABLE_ACTIONS)
