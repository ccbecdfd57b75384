"""Draw a deal trick by trick, as a notebook would show it, into one HTML page.

Three heuristic bots play a Calabresella deal; the page shows the table at
the start of the play as seat 0 sees it (its view: the others' hands face
down), each trick with its winner ringed, the table at the end, and the
whole deal on one page. In a Jupyter notebook, ``state`` or ``view`` alone
in a cell shows the same table (their ``_repr_svg_``).

usage: python examples/deal_in_pictures.py [OUTPUT.html]   (default: a temporary file)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import calabrasella as cb
from calabrasella import svg
from calabrasella.bots.heuristic import HeuristicBot


def play(seed: int) -> list[cb.State]:
    """Return every state of a Calabresella deal played by three heuristic bots from ``seed``."""
    bots = [HeuristicBot(seed * 3 + seat) for seat in range(3)]
    state = cb.new_deal(cb.CALABRESELLA, dealer=0, seed=seed)
    states = [state]
    while not state.is_over:
        if state.is_chance:  # dividete's unseen draw: chance, resolved from the seed
            state = cb.apply(state, cb.sample_chance(state, seed))
        else:
            seat = state.to_move
            assert seat is not None
            state = cb.apply(state, bots[seat].choose(state.view(seat)))
        states.append(state)
    return states


def page(states: list[cb.State]) -> str:
    """Return an HTML page of the deal's pictures."""
    end = states[-1]
    parts = [f"<h1>A Calabresella deal</h1><p>{end!r}</p>"]
    start = next((s for s in states if s.phase is cb.Phase.PLAYING), None)
    if start is None:
        parts.append("<p>Everybody passed: the deal is void.</p>")
    else:
        parts.append("<h2>The play begins: seat 0's view</h2>" + svg.table(start.view(0)))
        parts.append("<h2>The tricks</h2>")
        parts += [svg.trick(end, number) for number in range(1, 13)]
        parts.append("<h2>The end, every card face up</h2>" + svg.table(end))
    parts.append("<h2>The whole deal</h2>" + svg.record(end))
    head = (
        "<meta charset='utf-8'><meta name='viewport' content='width=device-width, initial-scale=1'>"
        # each picture keeps its shape and shrinks to a narrow screen
        "<style>svg { max-width: 100%; height: auto; }</style>"
    )
    return f"<!DOCTYPE html><html><head>{head}</head><body>" + "\n".join(parts) + "</body></html>"


def main(argv: list[str]) -> int:
    states = play(seed=5)
    target = Path(argv[0]) if argv else Path(tempfile.mkdtemp()) / "deal_in_pictures.html"
    target.write_text(page(states), encoding="utf-8")
    print(f"{len(states)} states; the pictures are in {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
