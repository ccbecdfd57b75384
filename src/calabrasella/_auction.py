"""The auction as a tree of positions, each worked out once per ruleset and dealer.

An auction position is fixed by the ruleset, the seats in turn order and
the calls so far, and a ruleset is a frozen value whose hooks are functions
of what they are given. So each position asks the ruleset's hooks once:
who speaks and what he may bid (:meth:`~calabrasella.Ruleset.bidding_turn`),
or, once the auction is over, who won it (with the exchange plan of his
contract) or what a deal nobody won is worth. A state of the auction
carries its position, so listing the legal bids and applying one is a
lookup, with no rescan of the history; a state that has none (one rebuilt
from a pickle) finds it again by walking its history from the root.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ._memo import keep
from .actions import BIDS, PASS, Action, Bid, Contract
from .rulesets.base import Calls, Ruleset
from .rulesets.steps import Step
from .scoring import Result

if TYPE_CHECKING:
    from .state import State

__all__ = ["Position", "position_of", "root"]

_PASS_KEY = 0


class Position:
    """One position of an auction: who speaks and what he may bid, or how it ended.

    Attributes:
        rules: The ruleset.
        order: The active seats from the eldest hand.
        dealer: The dealer's seat.
        calls: The auction so far, as the hooks see it.
        seat: The seat to speak; ``None`` once the auction is over.
        allowed: The contracts he may bid, lowest first.
        legal: His legal actions: ``Pass()``, then a ``Bid`` per contract allowed.
        won: Once over, the declarer and his contract, or ``None`` when nobody bid.
        plan: The exchange plan of the contract won.
        void: The result of a deal nobody won.
    """

    __slots__ = (
        "allowed",
        "calls",
        "children",
        "dealer",
        "legal",
        "order",
        "plan",
        "rules",
        "seat",
        "void",
        "won",
    )

    def __init__(self, rules: Ruleset, order: tuple[int, ...], dealer: int, calls: Calls) -> None:
        self.rules = rules
        self.order = order
        self.dealer = dealer
        self.calls = calls
        self.children: dict[int, Position] = {}
        self.won: Optional[tuple[int, Contract]] = None
        self.plan: tuple[Step, ...] = ()
        self.void: Optional[Result] = None
        turn = rules.bidding_turn(order, calls)
        if turn is not None:
            self.seat: Optional[int] = turn[0]
            self.allowed: tuple[Contract, ...] = tuple(turn[1])
            self.legal: tuple[Action, ...] = (PASS, *[BIDS[c] for c in self.allowed])
            return
        self.seat, self.allowed, self.legal = None, (), ()
        self.won = rules.auction_winner(calls)
        if self.won is None:
            self.void = rules.void_result(players=rules.players, dealer=dealer, calls=calls)
        else:
            self.plan = rules.exchange_plan(self.won[1])

    def after(self, action: Action) -> Position:
        """Return the position after ``action``: a ``Pass`` or an allowed ``Bid`` (unchecked)."""
        contract: Optional[Contract] = action.contract if action.__class__ is Bid else None
        key = _PASS_KEY if contract is None else id(contract)
        child = self.children.get(key)
        if child is None:
            calls = (*self.calls, (self.seat, contract))
            child = self.children[key] = Position(self.rules, self.order, self.dealer, calls)  # type: ignore[arg-type]
        return child


# One entry per ruleset: the ruleset itself (kept so that its id is not reused
# while it is cached) and its roots by (dealer, order); oldest dropped first.
_ROOTS: dict[int, tuple[Ruleset, dict[tuple[int, tuple[int, ...]], Position]]] = {}
_ROOTS_SIZE = 64


def root(rules: Ruleset, dealer: int, order: tuple[int, ...]) -> Position:
    """Return the opening position of an auction under ``rules``."""
    entry = _ROOTS.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = keep(_ROOTS, id(rules), (rules, {}), _ROOTS_SIZE)
    key = (dealer, order)
    start = entry[1].get(key)
    if start is None:
        start = entry[1][key] = Position(rules, order, dealer, ())
    return start


def position_of(state: State) -> Position:
    """Return the auction position of ``state`` (a state of the auction)."""
    here = state._auction
    if here is None:  # not carried (a state rebuilt from a pickle): walk to it, once
        deal = state._deal
        here = root(state._rules, deal.dealer, deal.order)
        for _, action in state._history:
            here = here.after(action)
        state._auction = here  # not part of the state's value
    return here
