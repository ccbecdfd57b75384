"""Rulesets for tests that sweep the options: an option grid beyond the presets."""

from __future__ import annotations

import calabrasella as cb

#: The presets, then table mode, four seats, two-card packets, any card
#: allowed, the face-down give-back, every auction and first lead.
OPTION_GRID: tuple[cb.Ruleset, ...] = (
    cb.CAVENDISH,
    cb.CALABRESELLA,
    cb.Cavendish(irregularities="record"),
    cb.Cavendish(players=4, packet=2, first_lead="after_declarer", irregularities="record"),
    cb.Calabresella(players=4, give_back="face_down", auction="until_two_pass"),
    cb.Calabresella(follow_suit=False, callable="threes_then_twos", solo_monte_exposed=False),
    cb.Calabresella(first_lead="eldest_except_solissimo", stramazzo="no_points", dealer_shares=True),
)
