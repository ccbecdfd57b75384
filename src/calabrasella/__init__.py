"""Rules engine for the Italian three-player card games Calabrasella and Calabresella.

An immutable, functional core: ``apply(state, action)`` returns a new state,
chance is explicit and seedable, rulesets are values, and each seat gets a
view that never shows it a card it may not know.

Example:
    >>> import random
    >>> import calabrasella as cb
    >>> rng = random.Random(1)
    >>> state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    >>> while not state.is_over:
    ...     view = state.view(state.to_move)
    ...     state = cb.apply(state, rng.choice(view.legal_actions))
    >>> sum(state.result.payments)
    0

Records, their text format, the JSON codecs, matches and ``rollout`` load on
first use of their names (``cb.Record``, ``cb.to_json``, ``cb.Match``,
``cb.rollout``...), so a program that only plays does not pay for them at
import.

``cb.deal`` and ``cb.state`` are the modules that define the deals and the
states, not functions: deal with ``cb.new_deal`` (or ``cb.deal_from``), move
on with ``cb.apply``, list the moves with ``cb.legal_actions``;
``cb.view(state, seat)`` is a function, the
same as ``state.view(seat)``. Calling one of those modules raises a
``TypeError`` that names the function to call:

    >>> cb.deal(cb.CAVENDISH, seed=7)
    Traceback (most recent call last):
    ...
    TypeError: calabrasella.deal is a module, not a function: to deal, call cb.new_deal(rules, seed=...), or cb.deal_from(rules, hands, stock) for hands of your choosing
"""

from typing import TYPE_CHECKING

from .actions import (
    Abandon,
    Action,
    Bid,
    Call,
    Contract,
    CustomAction,
    Discard,
    Done,
    Draw,
    GiveBack,
    Modifier,
    OutOfTurn,
    Pass,
    Play,
    Raise,
    Revoke,
    Take,
    TurnStock,
    action_kinds,
    parse_action,
    register_action,
    registered_action,
    unregister_action,
)
from .cards import DECK, Card, CardSet, Rank, Suit
from .deal import Deal, deal_from, new_deal, shuffled_deal, start
from .engine import (
    apply,
    chance_outcomes,
    check,
    is_legal,
    legal_actions,
    sample_chance,
    view,
)
from .errors import (
    CalabrasellaError,
    IllegalActionError,
    MatchError,
    NotAnActionError,
    NotationError,
    RecordError,
    RulesetError,
    RulesetOptionError,
    SeatError,
    SeedError,
    StateError,
)
from .phases import Phase
from .rulesets import (
    CALABRESELLA,
    CAVENDISH,
    Calabresella,
    Cavendish,
    Ruleset,
    find_ruleset,
    register_ruleset,
    registered_ruleset,
    ruleset_names,
    unregister_ruleset,
)
from .scoring import Bonus, Result, Side, Tally, result_of, settle
from .state import State
from .views import Hidden, View

if TYPE_CHECKING:
    from ._rollout import rollout
    from .match import Cut, Match, Transfer, cut_for_seats
    from .records import Record, from_data, from_json, to_data, to_json

__version__ = "0.1.0"

# cb.deal and cb.state are submodules beside functions of similar names: called by
# mistake, each says which function was meant (the package docstring)
from . import _public, deal, state

_public.explain_calls(
    deal,
    "to deal, call cb.new_deal(rules, seed=...), or cb.deal_from(rules, hands, stock) "
    "for hands of your choosing",
)
_public.explain_calls(
    state,
    "a State comes from cb.new_deal(rules, seed=...) and moves on with cb.apply(state, action)",
)
del _public

# The names that load their module on first use, and the module each comes from.
_LAZY = {
    "Cut": "match",
    "Match": "match",
    "Transfer": "match",
    "cut_for_seats": "match",
    "Record": "records",
    "from_data": "records",
    "from_json": "records",
    "to_data": "records",
    "to_json": "records",
    "rollout": "_rollout",
}

__all__ = [
    "CALABRESELLA",
    "CAVENDISH",
    "DECK",
    "Abandon",
    "Action",
    "Bid",
    "Bonus",
    "CalabrasellaError",
    "Calabresella",
    "Call",
    "Card",
    "CardSet",
    "Cavendish",
    "Contract",
    "CustomAction",
    "Cut",
    "Deal",
    "Discard",
    "Done",
    "Draw",
    "GiveBack",
    "Hidden",
    "IllegalActionError",
    "Match",
    "MatchError",
    "Modifier",
    "NotAnActionError",
    "NotationError",
    "OutOfTurn",
    "Pass",
    "Phase",
    "Play",
    "Raise",
    "Rank",
    "Record",
    "RecordError",
    "Result",
    "Revoke",
    "Ruleset",
    "RulesetError",
    "RulesetOptionError",
    "SeatError",
    "SeedError",
    "Side",
    "State",
    "StateError",
    "Suit",
    "Take",
    "Tally",
    "Transfer",
    "TurnStock",
    "View",
    "action_kinds",
    "apply",
    "chance_outcomes",
    "check",
    "cut_for_seats",
    "deal_from",
    "find_ruleset",
    "from_data",
    "from_json",
    "is_legal",
    "legal_actions",
    "new_deal",
    "parse_action",
    "register_action",
    "register_ruleset",
    "registered_action",
    "registered_ruleset",
    "result_of",
    "rollout",
    "ruleset_names",
    "sample_chance",
    "settle",
    "shuffled_deal",
    "start",
    "to_data",
    "to_json",
    "unregister_action",
    "unregister_ruleset",
    "view",
]


def _load(name: str) -> object:
    """Import the module that defines ``name`` (one of ``_LAZY``) and keep the name here."""
    where = _LAZY.get(name)
    if where == "match":
        from . import match

        value: object = getattr(match, name)
    elif where == "records":
        from . import records

        value = getattr(records, name)
    elif where == "_rollout":
        from . import _rollout

        value = _rollout.rollout
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if not TYPE_CHECKING:  # a module __getattr__ would make mypy accept any name
    __getattr__ = _load

del TYPE_CHECKING  # not a public name
