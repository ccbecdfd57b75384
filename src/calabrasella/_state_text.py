"""``str(state)``: the whole table as text, every hand face up, as a chess library prints its board.

``print(state)`` shows who deals and who is to act, the contract, every
hand, the stock, the trick on the table, the tricks won and, at the end,
the result; ``repr(state)`` stays one short line. A state holds every
hidden card, and so does its text: hand a seat ``state.view(seat)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import Card, CardSet
from .phases import Phase
from .suits import Suit

if TYPE_CHECKING:
    from .state import State

__all__ = ["state_text"]


def _cards(cards: CardSet) -> str:
    """``d: 3 A 7  h: 2 Q  s: -  c: K`` (as a record's text writes a hand)."""
    return "  ".join(
        f"{suit.letter}: {' '.join(c.rank.char for c in cards.suit(suit)) or '-'}" for suit in Suit
    )


def _codes(cards: tuple[Card, ...] | CardSet) -> str:
    return " ".join(card.code for card in cards)


def state_text(state: State) -> str:
    """Return the table of ``state`` as lines of text (``str(state)``).

    Example:
        >>> import calabrasella as cb
        >>> print(cb.new_deal(cb.CAVENDISH, dealer=0, seed=7))
        Calabrasella (Cavendish), ruleset cavendish: bidding, seat 1 to act
          seat 0  dealer            d: 3 Q 7 6 5  h: 2 6  s: K 7  c: A Q 4
        > seat 1  eldest            d: 2 A J  h: A K Q 5 4  s: 5  c: J 6 5
          seat 2                    d: -  h: 3 J 7  s: 2 A Q 6 4  c: 3 2 K 7
          stock                     d: K 4  h: -  s: 3 J  c: -
        history: 0 actions
    """
    rules, terms, deal = state.rules, state.rules.terms, state.deal
    phase = state.phase
    if state.is_over:
        doing = ""
    elif state.to_move is None:
        doing = f", chance: a draw unseen from the {terms.stock}"
    else:
        doing = f", seat {state.to_move} to act"
    name = state.phase_name  # a variant's step may name its phase
    shown = phase.name.lower() if name == str(phase) else name
    lines = [f"{terms.title}, ruleset {rules.name}: {shown}{doing}"]
    if state.contract is not None and state.declarer is not None:
        words = " ".join(c.value for c in (state.contract, state.modifier) if c is not None)
        called = f"; called {state.called.code}" if state.called is not None else ""
        lines.append(f"contract: {words} by seat {state.declarer} ({terms.declarer}){called}")
    tricks = phase in (Phase.PLAYING, Phase.OVER)
    for seat in range(state.players):
        roles = []
        if seat == deal.dealer:
            roles.append("dealer, sits out" if state.players == 4 else "dealer")
        if seat == deal.eldest:
            roles.append("eldest")
        if seat == state.declarer:
            roles.append("declarer")
        mark = ">" if seat == state.to_move else " "
        hand = state.hand(seat)
        shown = _cards(hand) if hand or not (state.players == 4 and seat == deal.dealer) else "-"
        won = f"   tricks {state.tricks_won[seat]}" if tricks else ""
        lines.append(f"{mark} seat {seat}  {', '.join(roles):<16}  {shown}{won}")
    lines.append(f"  {terms.stock:<24}  {_cards(state.stock)}")
    if state.exposed:
        lines.append(f"face up: {_codes(state.exposed)}")
    if state.trick:
        order = list(deal.order)
        start = order.index(state.leader)
        seats = order[start:] + order[:start]
        played = ", ".join(f"seat {s} {c.code}" for s, c in zip(seats, state.trick))
        lines.append(f"trick: {played}")
    result = state.result
    if result is not None:
        paid = ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(result.payments))
        if result.void or result.declarer is None:
            lines.append(f"result: void deal; payments {paid}")
        else:
            side = terms.declarer if result.declarer_won else "adversaries"
            lines.append(f"result: the {side} won, {result.value} a head; payments {paid}")
    count = len(state.history)
    lines.append(f"history: {count} action{'' if count == 1 else 's'}")
    return "\n".join(lines)
