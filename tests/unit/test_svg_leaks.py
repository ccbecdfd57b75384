"""Hidden cards stay hidden: a view's pictures are the same in every world its seat cannot tell apart.

The worlds come from the library's own sampler (:class:`calabrasella.bots.sampling.Sampler`),
which draws, uniformly, whole deals whose view for the seat is the view given:
other hands, the unseen stock, face-down discards and give-backs, unseen draws.
For each moment the table and trick pictures of every sampled world's view must
be byte-identical to the view's own, while the pictures of the worlds' *states*
(which show every card) differ: the check would catch a picture that drew a
hidden card. About 2,700 worlds by default (some 10 s); set
``SVG_LEAK_WORLDS`` for more per moment.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

import calabrasella as cb
from calabrasella import svg
from calabrasella.bots.sampling import Sampler

WORLDS = int(os.environ.get("SVG_LEAK_WORLDS", "80"))
RULESETS = (
    cb.CAVENDISH,
    cb.CALABRESELLA,
    cb.Calabresella(give_back="face_down", solo_monte_exposed=False),
    cb.Cavendish(players=4),
)


def moments() -> list[tuple[cb.State, int]]:
    """States at the auction, in each exchange phase reached, in the play and at the end, with a seat."""
    out: list[tuple[cb.State, int]] = []
    for rules in RULESETS:
        phases: Counter[cb.Phase] = Counter()
        for seed in range(40):
            rng = random.Random(seed)
            state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
            while True:
                wanted = phases[state.phase] < (2 if state.phase is cb.Phase.PLAYING else 1)
                if (
                    wanted
                    and not state.is_chance
                    and (state.phase is not cb.Phase.PLAYING or rng.random() < 0.1)
                ):
                    phases[state.phase] += 1
                    out.append((state, (seed + len(out)) % rules.players))
                if state.is_over:
                    break
                state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    return out


MOMENTS = moments()


def test_the_moments_cover_every_phase_of_both_games() -> None:
    """The check runs over the auction, every exchange phase, the play and the end."""
    # a chance node has no seat to move; only a variant's own step waits in EXCHANGING
    # (the swap variant's pictures have a check of their own)
    assert {s.phase for s, _ in MOMENTS} >= set(cb.Phase) - {
        cb.Phase.DRAWING,
        cb.Phase.EXCHANGING,
    }
    assert len(MOMENTS) >= 24


def pictures(view: cb.View, every_option: bool = False) -> str:
    """The view's table and its last trick played; with ``every_option`` also another bottom seat and suits."""
    done = [t.number for t in svg._scene.tricks_of(view.history) if t.winner is not None]
    more = svg.table(view, suits="french", bottom=0, theme="dark") if every_option else ""
    return svg.table(view) + more + "".join(svg.trick(view, n) for n in done[-1:])


@pytest.mark.parametrize(
    ("state", "seat"),
    MOMENTS,
    ids=[f"{s.rules.name}-{s.phase.name}-{k}" for k, (s, _) in enumerate(MOMENTS)],
)
@pytest.mark.slow
def test_a_views_pictures_are_the_same_in_every_world_it_cannot_tell_apart(
    state: cb.State, seat: int
) -> None:
    """Every sampled world's view draws the same bytes as the view; the worlds' states do not."""
    view = state.view(seat)
    sampler = Sampler(view)
    mine, every = pictures(view), pictures(view, every_option=True)
    states = set()
    for k in range(WORLDS):
        world = sampler.sample(random.Random(k))
        assert pictures(world.view(seat)) == mine
        if k < 10:  # the other options and the states' pictures: a few worlds are enough
            assert pictures(world.view(seat), every_option=True) == every
            states.add(svg.table(world))
    if sampler.count > 10**6 and state.phase is not cb.Phase.OVER:
        assert len(states) > 1  # the state pictures show the hidden cards: the check has teeth
