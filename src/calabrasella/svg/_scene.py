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

from .. import places
from ..actions import Action, Bid, Pass
from ..cards import DECK, Card, CardSet
from ..phases import Phase
from ..rulesets import CAVENDISH, Calabresella, Ruleset
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
    phase_name: str  # as the rules name it (a variant's step may name its own)
    to_move: Optional[int]
    hands: tuple[Union[CardSet, int], ...]  # the cards, or how many face down
    stock: tuple[Card, ...]  # stock cards the onlooker sees
    stock_hidden: int  # stock cards face down to the onlooker
    stock_public: bool  # the cards it sees there are face up to every seat
    known: tuple[tuple[str, Union[CardSet, int]], ...]  # beside the hands: laid aside, seen
    auction: Optional[str]  # the calls so far, while nobody has won the auction
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


def trick_winner(plays: Sequence[tuple[int, Card]], rules: Ruleset = CAVENDISH) -> int:
    """The seat that wins a complete trick, by the ruleset's own rule (``Ruleset.trick_winner``)."""
    order = tuple(seat for seat, _ in plays)
    return rules.trick_winner([card for _, card in plays], plays[0][0], order)


def trick_units(plays: Sequence[tuple[int, Card]], number: int, rules: Ruleset = CAVENDISH) -> int:
    """The units a trick counts: its cards', and the last trick's own (``Ruleset.last_trick_units``)."""
    units = sum(rules.card_units(card) for _, card in plays)
    return units + (rules.last_trick_units if number == 12 else 0)


def tricks_of(
    history: Iterable[tuple[int, Union[Action, Hidden]]], rules: Ruleset = CAVENDISH
) -> tuple[Trick, ...]:
    """The tricks of a history in order, the last one unfinished if the play is under way.

    Read from the play's moves (:func:`calabrasella.places.play_records`): each
    card to the trick (a revoke's too), each trick to the seat that won it.
    """
    out: list[Trick] = []
    current: list[tuple[int, Card]] = []
    for record in places.play_records(tuple(history)):
        cards, source, target = record[3], record[4], record[5]
        if target == places.TRICK_CODE:
            current.append((source, DECK[cards.bit_length() - 1]))
        elif source == places.TRICK_CODE:
            number = len(out) + 1
            out.append(Trick(tuple(current), number, record[2], trick_units(current, number, rules)))
            current = []
    if current or len(out) < 12:
        out.append(Trick(tuple(current), len(out) + 1, None, trick_units(current, 0, rules)))
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


def _legal(actions: Iterable[Action], hand: Union[CardSet, int]) -> CardSet:
    """The cards of the mover's hand that a legal action uses: to play, to discard, to give back."""
    if isinstance(hand, int):
        return CardSet()
    cards = (getattr(a, "card", None) for a in actions)
    return CardSet.of(c for c in cards if isinstance(c, Card) and c in hand)


def scene(source: Union[State, View]) -> Scene:
    """Read what the table picture shows from a state (all) or a view (what its seat may know)."""
    if isinstance(source, View):
        return _from_view(source)
    if isinstance(source, State):
        return _from_state(source)
    raise TypeError(f"expected a State or a View, got {type(source).__name__}")


def _stock_and_laid(
    source: Union[State, View], seat: Optional[int]
) -> tuple[tuple[Card, ...], int, bool, list[tuple[str, Union[CardSet, int]]]]:
    """The stock and each seat's laid-aside cards as the onlooker sees them (``places.layout``)."""
    stock: tuple[Card, ...] = ()
    hidden, public = 0, False
    laid: list[tuple[str, Union[CardSet, int]]] = []
    for spot in places.layout(source):
        where = spot.place.where
        if where is places.Where.STOCK:
            stock, hidden = tuple(spot.shown), spot.face_down
            public = bool(spot.shown) and spot.public == spot.shown
        elif where is places.Where.LAID_ASIDE:
            owner = spot.place.seat
            if spot.shown:  # the onlooker sees them: a state shows all, a seat its own
                label = "you laid these face down" if owner == seat else f"seat {owner} laid these face down"
                laid.append((label, spot.shown))
            else:
                laid.append((f"seat {owner}'s discards, face down", spot.face_down))
    return stock, hidden, public, laid


def _auction(history: Iterable[tuple[int, Union[Action, Hidden]]]) -> Optional[str]:
    calls = [
        f"seat {seat} {'pass' if isinstance(a, Pass) else a.contract.value}"
        for seat, a in history
        if isinstance(a, (Bid, Pass))
    ]
    return ", ".join(calls) or None


def _from_state(s: State) -> Scene:
    contract, stake = _contract(s.rules, s.contract, s.modifier)
    tricks = tricks_of(s.history, s.rules)
    known: list[tuple[str, Union[CardSet, int]]]
    if s.is_over and s.declarer is not None:
        stock, hidden, public, known = tuple(s.stock), 0, True, []  # the final stock, shown
    else:
        stock, hidden, public, known = _stock_and_laid(s, None)
    return Scene(
        rules=s.rules,
        players=s.players,
        dealer=s.dealer,
        seat=None,
        phase=s.phase,
        phase_name=s.phase_name,
        to_move=s.to_move,
        hands=s.hands,
        stock=stock,
        stock_hidden=hidden,
        stock_public=public,
        known=tuple(known),
        auction=_auction(s.history) if contract is None else None,
        trick=tricks[-1],
        tricks=tricks,
        declarer=s.declarer,
        contract=contract,
        called=_called(s.called, s.giver),
        stake=stake,
        tricks_won=s.tricks_won,
        units_won=s.card_units_won,
        legal=CardSet() if s.to_move is None else _legal(s.legal_actions(), s.hands[s.to_move]),
        result=s.result,
    )


def _from_view(v: View) -> Scene:
    contract, stake = _contract(v.rules, v.contract, v.modifier)
    tricks = tricks_of(v.history, v.rules)
    hands: list[Union[CardSet, int]] = list(v.hand_sizes)
    hands[v.seat] = v.hand
    known: list[tuple[str, Union[CardSet, int]]] = []
    if v.final_stock is not None:
        stock, hidden, public = tuple(v.final_stock), 0, True
    else:
        stock, hidden, public, known = _stock_and_laid(v, v.seat)
    for label, cards in (
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
        phase_name=v.phase_name,
        to_move=v.to_move,
        hands=tuple(hands),
        stock=stock,
        stock_hidden=hidden,
        stock_public=public,
        known=tuple(known),
        auction=_auction(v.history) if contract is None else None,
        trick=tricks[-1],
        tricks=tricks,
        declarer=v.declarer,
        contract=contract,
        called=_called(v.called, v.giver),
        stake=stake,
        tricks_won=v.tricks_won,
        units_won=v.card_units_won,
        legal=_legal(v.legal_actions, v.hand),
        result=v.result,
    )
