"""Shared hypothesis strategies: rulesets, seeds, actions and random legal playouts; and
the engine's general exchange path, which the fast-path tests hold its shortcuts to."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Optional

from hypothesis import strategies as st

import calabrasella as cb

#: The presets every property runs against.
PRESETS: tuple[cb.Ruleset, ...] = (cb.CAVENDISH, cb.CALABRESELLA)

_TABLES = st.sampled_from((3, 4))
_PACKETS = st.sampled_from((2, 4))


def cavendish_rulesets() -> st.SearchStrategy[cb.Ruleset]:
    """Cavendish with any combination of its options."""
    return st.builds(
        cb.Cavendish,
        first_lead=st.sampled_from(("eldest", "after_declarer")),
        players=_TABLES,
        packet=_PACKETS,
        dealer_shares=st.booleans(),
        irregularities=st.sampled_from(("forbid", "record")),
    )


def calabresella_rulesets() -> st.SearchStrategy[cb.Ruleset]:
    """Calabresella with any combination of its options."""
    return st.builds(
        cb.Calabresella,
        auction=st.sampled_from(("single_round", "until_two_pass")),
        callable=st.sampled_from(("any_unheld", "threes_then_twos")),
        give_back=st.sampled_from(("face_up", "face_down")),
        solo_monte_exposed=st.booleans(),
        first_lead=st.sampled_from(("declarer", "eldest_except_solissimo")),
        stramazzo=st.sampled_from(("under_a_point", "no_card_points", "no_points")),
        follow_suit=st.booleans(),
        players=_TABLES,
        packet=_PACKETS,
        dealer_shares=st.booleans(),
    )


def rulesets() -> st.SearchStrategy[cb.Ruleset]:
    """A preset, or either ruleset with randomly drawn options."""
    return st.one_of(st.sampled_from(PRESETS), cavendish_rulesets(), calabresella_rulesets())


def swap_variant() -> ModuleType:
    """``examples/swap_variant.py``, loaded from its file once (as ``support.load_example`` does)."""
    module = sys.modules.get("swap_variant")
    if module is None:
        path = Path(__file__).resolve().parents[2] / "examples" / "swap_variant.py"
        spec = importlib.util.spec_from_file_location("swap_variant", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["swap_variant"] = module
        spec.loader.exec_module(module)
    return module


def swap_rulesets() -> st.SearchStrategy[cb.Ruleset]:
    """The swap variant of the examples (an exchange step of its own), with Cavendish's options."""
    return st.builds(
        swap_variant().SwapCavendish,
        first_lead=st.sampled_from(("eldest", "after_declarer")),
        players=_TABLES,
        packet=_PACKETS,
        dealer_shares=st.booleans(),
        irregularities=st.sampled_from(("forbid", "record")),
    )


def rulesets_and_variants() -> st.SearchStrategy[cb.Ruleset]:
    """What :func:`rulesets` draws, and as often the swap variant, a ruleset with its own step."""
    return st.one_of(
        st.sampled_from(PRESETS), cavendish_rulesets(), calabresella_rulesets(), swap_rulesets()
    )


def seeds() -> st.SearchStrategy[int]:
    """A deal seed."""
    return st.integers(min_value=0, max_value=2**32 - 1)


def cards() -> st.SearchStrategy[cb.Card]:
    """Any card of the 40."""
    return st.sampled_from(cb.DECK)


def actions() -> st.SearchStrategy[cb.Action]:
    """Any action, legal somewhere or not: every kind, every card, any draw."""
    kinds = (cb.Play, cb.Revoke, cb.Discard, cb.Take, cb.Call)
    card_actions = [st.builds(kind, cards()) for kind in kinds]
    return st.one_of(
        st.just(cb.Pass()),
        st.just(cb.Done()),
        st.builds(cb.Bid, st.sampled_from(list(cb.Contract))),
        st.builds(cb.Raise, st.sampled_from(list(cb.Modifier))),
        *card_actions,
        st.builds(cb.GiveBack, cards()),
        st.builds(cb.OutOfTurn, st.integers(min_value=0, max_value=3), cards()),
        st.just(cb.Abandon()),
        st.builds(cb.TurnStock, st.integers(min_value=0, max_value=3)),
        st.builds(cb.Draw, st.lists(cards(), max_size=4).map(cb.CardSet.of)),
    )


def junk() -> st.SearchStrategy[object]:
    """Things that are not actions at all."""
    return st.one_of(
        st.text(max_size=4), st.none(), st.integers(), cards(), st.just(cb.Pass), st.just(())
    )


class Playout:
    """A deal played out with random legal actions.

    ``states[i + 1] == cb.apply(states[i], actions[i])``; ``states[-1]`` is over.
    Its repr is short (the ruleset, the seed, the dealer and the actions): a
    failing example prints in a few lines and replays from them.
    """

    __slots__ = ("actions", "dealer", "rules", "seed", "states")

    def __init__(
        self,
        rules: cb.Ruleset,
        seed: int,
        dealer: int,
        states: tuple[cb.State, ...],
        actions: tuple[cb.Action, ...],
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.states = states
        self.actions = actions

    def __repr__(self) -> str:
        moves = ", ".join(str(a) for a in self.actions)
        return f"<Playout {self.rules!r} seed={self.seed} dealer={self.dealer}: {moves}>"

    @property
    def final(self) -> cb.State:
        """The state at the end of the deal."""
        return self.states[-1]

    def steps(self) -> Iterator[tuple[cb.State, cb.Action]]:
        """Each state before an action, and the action applied to it."""
        return zip(self.states, self.actions, strict=False)


@st.composite
def playouts(draw: st.DrawFn, rules: Optional[st.SearchStrategy[cb.Ruleset]] = None) -> Playout:
    """A random deal under a random ruleset, played to the end with random legal actions.

    The dealer is any seat; seats choose uniformly among their legal actions,
    and chance nodes are resolved with ``cb.sample_chance`` and a
    hypothesis-controlled ``random.Random``.
    """
    ruleset = draw(rules if rules is not None else rulesets())
    seed = draw(seeds())
    dealer = draw(st.integers(min_value=0, max_value=ruleset.players - 1))
    chance = draw(st.randoms(use_true_random=False))
    state = cb.new_deal(ruleset, dealer=dealer, seed=seed)
    states = [state]
    played: list[cb.Action] = []
    while not state.is_over:
        if state.is_chance:
            action: cb.Action = cb.sample_chance(state, chance)
        else:
            legal = cb.legal_actions(state)
            action = legal[draw(st.integers(min_value=0, max_value=len(legal) - 1))]
        state = cb.apply(state, action)
        states.append(state)
        played.append(action)
    return Playout(ruleset, seed, dealer, tuple(states), tuple(played))
