"""Show what each seat's view holds in the middle of a deal.

A Cavendish deal is played by random choices until two tricks are complete;
then each seat's :class:`calabrasella.View` is printed. The single player's
discards and the card he gave back travel face down: in the other seats'
histories they are :class:`calabrasella.Hidden` entries, and only the
single player and the seat that got the card back see which card it was.
A Calabresella solissimo with dividete shows the same for the unseen draws.

usage: python examples/inspect_view.py
"""

from __future__ import annotations

import random

import calabrasella as cb


def play_until(state: cb.State, rng: random.Random, tricks: int) -> cb.State:
    """Play random legal actions until ``tricks`` tricks are complete (or the deal ends).

    Args:
        state: Where to start.
        rng: The random number generator for the choices and chance.
        tricks: Stop once this many tricks are complete.

    Returns:
        The state reached.
    """
    while not state.is_over and state.tricks_played < tricks:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            state = cb.apply(state, rng.choice(state.legal_actions()))
    return state


def show_view(view: cb.View) -> None:
    """Print the fields of a view that tell what the seat knows.

    Args:
        view: The view to print.
    """
    hidden = sum(isinstance(action, cb.Hidden) for _, action in view.history)
    print(f"-- view of seat {view.seat} ({view.phase.name.lower()}, to move: {view.to_move})")
    print(f"   hand         {view.hand}")
    print(f"   hand sizes   {view.hand_sizes}, stock: {view.stock_size} cards")
    print(f"   declarer     seat {view.declarer} ({view.contract.value if view.contract else '-'})")
    if view.called is not None:
        giver = "still in the stock" if view.giver is None else f"given by seat {view.giver}"
        print(f"   called       {view.called} ({giver})")
    if view.giver is not None:
        seen = view.given_back if view.given_back is not None else "? (face down, not seen)"
        print(f"   given back   {seen}")
    print(f"   exposed      {view.exposed or '-'}")
    print(f"   my discards  {view.discards or '-'}")
    if view.drawn:
        print(f"   my draw      {view.drawn}")
    print(f"   trick        {' '.join(f'{seat}:{card}' for seat, card in view.trick) or '-'}")
    print(f"   tricks won   {view.tricks_won}, card units {view.card_units_won}")
    print(f"   legal        {', '.join(str(a) for a in view.legal_actions) or '-'}")
    print(f"   history      {len(view.history)} entries, {hidden} of them Hidden:")
    exchange = [
        (seat, action)
        for seat, action in view.history
        if not isinstance(action, (cb.Bid, cb.Pass, cb.Play))
    ]
    for seat, action in exchange:
        print(f"     seat {seat}: {action!r}")


def main() -> None:
    """Print every seat's view of a Cavendish and a Calabresella deal in progress."""
    rng = random.Random(11)
    state = play_until(cb.new_deal(cb.CAVENDISH, dealer=0, seed=11), rng, tricks=2)
    print(f"== {state.rules.name}, seed 11, after {state.tricks_played} tricks ==")
    print(f"the full state (never hand this out): hands {[str(h) for h in state.hands]}")
    print(f"stock {state.stock}")
    for seat in range(state.players):
        show_view(state.view(seat))
    print()

    # Calabresella: seat 1 bids solissimo and raises with dividete; the
    # adversaries draw monte cards unseen (a chance node), then discard.
    state = cb.new_deal(cb.CALABRESELLA, dealer=0, seed=11)
    state = cb.apply(state, cb.Bid(cb.Contract.SOLISSIMO))
    state = cb.apply(state, cb.Raise(cb.Modifier.DIVIDETE))
    assert state.is_chance, "dividete's draw is a chance node: nobody is to move"
    print(f"== {state.rules.name}, seed 11: solissimo dividete ==")
    print(f"chance node: {len(cb.chance_outcomes(state))} equally likely draws")
    state = play_until(state, random.Random(11), tricks=1)
    for seat in range(state.players):
        show_view(state.view(seat))


if __name__ == "__main__":
    main()
