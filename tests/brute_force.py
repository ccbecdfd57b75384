"""A plain minimax over the public engine, the reference the solver's tests check it against.

It knows nothing of the solver: it tries every regular play with
``cb.legal_actions`` and ``cb.apply`` and scores each end with the engine's
own ``Result.declarer_units``; the declarer maximises, the adversaries
minimise. Only for small endings (a few tricks left). Shared by
tests/unit/test_solver.py and tests/property/test_solver_property.py.
"""

from __future__ import annotations

import calabrasella as cb


def brute_values(state: cb.State) -> dict[cb.Play, int]:
    """The declarer's final units after each play of the mover, every hand open."""
    memo: dict[tuple[object, ...], int] = {}

    def value(s: cb.State) -> int:
        if s.is_over:
            assert s.result is not None
            return s.result.declarer_units
        key = (s.hand_masks, s.trick_cards, s.to_move, s.card_units_won)
        if key not in memo:
            outcomes = [
                value(cb.apply(s, a)) for a in cb.legal_actions(s) if isinstance(a, cb.Play)
            ]
            memo[key] = max(outcomes) if s.to_move == s.declarer else min(outcomes)
        return memo[key]

    return {a: value(cb.apply(state, a)) for a in cb.legal_actions(state) if isinstance(a, cb.Play)}
