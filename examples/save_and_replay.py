"""Play a deal, save it as JSON and as text, load both, replay them and check they agree.

A Calabresella deal is played by random choices (dividete's unseen draw
resolved from the same generator) and written down as a record, with a few
tags, into a temporary folder: ``deal.json`` and ``deal.txt``. Both files
are loaded back, each record is replayed step by step, and the program
checks that the loaded records equal the one saved and that their last
state is the deal that was played. It prints the text form and the result.

usage: python examples/save_and_replay.py [seed]
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import calabrasella as cb


def play(rules: cb.Ruleset, seed: int) -> cb.State:
    """Play one deal under ``rules`` with random legal choices.

    Args:
        rules: The ruleset.
        seed: Seeds the deal and the choices.

    Returns:
        The final state.
    """
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
    while not state.is_over:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    return state


def main(seed: int) -> None:
    """Save a deal as JSON and text, load both, and check the replays.

    Args:
        seed: Seeds the deal and the choices.
    """
    final = play(cb.Calabresella(auction="until_two_pass"), seed)
    record = cb.Record.from_state(final, tags={"event": "example", "round": str(seed)})
    with tempfile.TemporaryDirectory() as folder:
        as_json = Path(folder) / "deal.json"
        as_text = Path(folder) / "deal.txt"
        as_json.write_text(cb.to_json(record, indent=1), encoding="utf-8")
        as_text.write_text(record.to_text(), encoding="utf-8")
        from_json = cb.from_json(as_json.read_text(encoding="utf-8"), cb.Record)
        from_text = cb.Record.from_text(as_text.read_text(encoding="utf-8"))
    for loaded in (from_json, from_text):
        assert loaded == record, "a loaded record differs from the one saved"
        states = list(loaded.states())
        assert len(states) == len(loaded.actions) + 1
        assert states[-1] == final == loaded.replay(), "the replay does not end where the deal did"
    print(record.to_text())
    result = final.result
    assert result is not None
    print(f"saved, loaded and replayed {len(record.actions)} actions: payments {result.payments}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
