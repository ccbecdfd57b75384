"""Property: the bots only ever choose one of their view's regular legal actions.

Every ruleset and option (the shared ``rulesets()`` strategy, table mode
included), any seed and dealer, heuristic and random bots mixed at the table.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from strategies import rulesets, seeds

import calabrasella as cb
from calabrasella.bots.base import IRREGULAR, Bot, RandomBot
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.play import play_deal


class Checked:
    """Defers to a bot and checks each answer against the view it was handed."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner

    def choose(self, view: cb.View) -> cb.Action:
        assert isinstance(view, cb.View)
        action = self.inner.choose(view)
        assert action in view.legal_actions, (action, view.legal_actions)
        assert not isinstance(action, IRREGULAR), action
        return action


@given(rulesets(), seeds(), st.integers(min_value=0, max_value=3), st.integers(0, 7))
def test_bots_choose_only_regular_legal_actions(
    rules: cb.Ruleset, seed: int, dealer: int, mix: int
) -> None:
    """Whatever the ruleset, each bot's every answer is one of its view's regular legal actions."""
    bots: list[Bot] = [
        Checked(HeuristicBot(seed + s) if mix >> s & 1 else RandomBot(seed + s))
        for s in range(rules.players)
    ]
    final = play_deal(rules, bots, seed, dealer=dealer % rules.players)
    assert final.is_over and final.result is not None
    assert sum(final.result.payments) == 0
