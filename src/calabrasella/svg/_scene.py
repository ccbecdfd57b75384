"""What a picture shows, read from a State or from a View (and nothing else for a View).

:func:`scene` is the one place that reads a state or a view for the table
picture. For a :class:`~calabrasella.View` it reads only the view's fields:
its own hand, every hand's size, the cards shown to all, its own discards,
the public history. So the picture of a view is the same in every world the
seat cannot tell apart (``tests/unit/test_svg_leaks.py`` holds it to that).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Optional, Union

import attrs

from .._tricks import winning_play
from ..actions import Action, Play
from ..cards import Card, CardSet
from ..phases import Phase
from ..rulesets import Calabresella, Ruleset
from ..scoring import Result
from ..state import State
from ..views import Hidden, View

__all__ = ["Scene", "Trick", "direction_of", "scene", "trick_winner", "tricks_of"]


@attrs.frozen
class Trick:
    """A trick as drawn: its plays from the leader's, its number (1..12), its winner if complete."""

    plays: tuple[tuple[int, Card], ...]
    number: int
    winner: Optional[int]
    units: int


@attrs.frozen(kw_only=True)
class Scene:
    """Everything the table picture draws."""

    rules: Ruleset
    players: int
    dealer: int
    seat: Optional[int]  # the view's seat; None for a state (everything face up)
    phase: Phase
    to_move: Optional[int]
    hands: tuple[Union[CardSet, int], ...]  # the cards, or how many face down
    stock: tuple[Card, ...]  # stock cards face up
    stock_hidden: int  # stock cards face down
    known: tuple[tuple[str, CardSet], ...]  # what the seat knows beside its hand
    trick: Trick
    tricks: tuple[Trick, ...]
    declarer: Optional[int]
    contract: Optional[str]
    called: Optional[str]  # "called 3h, given by seat 2"
    stake: Optional[int]
    tricks_won: tuple[int, ...]
    units_won: tuple[int, ...]
    legal: CardSet
    result: Optional[Result]


def direction_of(rules: Ruleset) -> str:
    """``"right"`` for Calabresella (play passes to the right), else ``"left"`` (Cavendish)."""
    return "right" if isinstance(rules, Calabresella) else "left"


def trick_winner(plays: Sequence[tuple[int, Card]]) -> int:
    """The seat of the highest card of the suit led (the play rule's own :func:`winning_play`)."""
    return plays[winning_play([card.index for _, card in plays])][0]


def tricks_of(history: Iterable[tuple[int, Union[Action, Hidden]]]) -> tuple[Trick, ...]:
    """The tricks of a history in order, the last one unfinished if the play is under way."""
    out: list[Trick] = []
    current: list[tuple[int, Card]] = []
    for seat, action in history:
        if isinstance(action, Play):
            current.append((seat, action.card))
            if len(current) == 3:
                units = sum(c.units for _, c in current) + (3 if len(out) == 11 else 0)
                out.append(Trick(tuple(current), len(out) + 1, trick_winner(current), units))
                current = []
    if current or len(out) < 12:
        out.append(Trick(tuple(current), len(out) + 1, None, sum(c.units for _, c in current)))
    return tuple(out)


def _contract(
    rules: Ruleset, contract: object, modifier: object
) -> tuple[Optional[str], Optional[int]]:
    if contract is None:
        return None, None
    words = " ".join(str(getattr(c, "value", c)) for c in (contract, modifier) if c is not None)
    stake = getattr(rules, "stake", None)
    return words, (stake(contract, modifier) if callable(stake) else None)


def _called(card: Optional[Card], giver: Optional[int]) -> Optional[str]:
    if card is None:
        return None
    return f"called {card.code}" + ("" if giver is None else f", given by seat {giver}")


def _legal(actions: Iterable[Action]) -> CardSet:
    return CardSet.of(a.card for a in actions if isinstance(a, Play))


def scene(source: Union[State, View]) -> Scene:
    """Read what the table picture shows from a state (all) or a view (what its seat may know)."""
    if isinstance(source, View):
        return _from_view(source)
    if isinstance(source, State):
        return _from_state(source)
    raise TypeError(f"expected a State or a View, got {type(source).__name__}")


def _from_state(s: State) -> Scene:
    contract, stake = _contract(s.rules, s.contract, s.modifier)
    tricks = tricks_of(s.history)
    playing = s.phase is Phase.PLAYING
    return Scene(
        rules=s.rules,
        players=s.players,
        dealer=s.dealer,
        seat=None,
        phase=s.phase,
        to_move=s.to_move,
        hands=s.hands,
        stock=tuple(s.stock),
        stock_hidden=0,
        known=(),
        trick=tricks[-1],
        tricks=tricks,
        declarer=s.declarer,
        contract=contract,
        called=_called(s.called, s.giver),
        stake=stake,
        tricks_won=s.tricks_won,
        units_won=s.card_units_won,
        legal=_legal(s.legal_actions()) if playing else CardSet(),
        result=s.result,
    )


def _from_view(v: View) -> Scene:
    contract, stake = _contract(v.rules, v.contract, v.modifier)
    tricks = tricks_of(v.history)
    hands: list[Union[CardSet, int]] = list(v.hand_sizes)
    hands[v.seat] = v.hand
    known = []
    if v.final_stock is not None:
        stock, hidden = tuple(v.final_stock), 0
    else:
        stock, hidden = (), v.stock_size
    for label, cards in (
        ("shown to all", v.exposed),
        ("your discards", v.discards),
        ("you drew", v.drawn),
        (
            "given back to you" if v.giver == v.seat else "given back",
            CardSet() if v.given_back is None else CardSet.of([v.given_back]),
        ),
    ):
        if cards:
            known.append((label, cards))
    return Scene(
        rules=v.rules,
        players=len(v.hand_sizes),
        dealer=v.dealer,
        seat=v.seat,
        phase=v.phase,
        to_move=v.to_move,
        hands=tuple(hands),
        stock=stock,
        stock_hidden=hidden,
        known=tuple(known),
        trick=tricks[-1],
        tricks=tricks,
        declarer=v.declarer,
        contract=contract,
        called=_called(v.called, v.giver),
        stake=stake,
        tricks_won=v.tricks_won,
        units_won=v.card_units_won,
        legal=_legal(v.legal_actions),
        result=v.result,
    )
