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
"""

from ._rollout import rollout
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
    NotationError,
    RecordError,
    RulesetError,
    RulesetOptionError,
    SeatError,
    SeedError,
    StateError,
)
from .match import Cut, Match, MatchError, Transfer, cut_for_seats
from .phases import Phase
from .records import Record, from_data, from_json, to_data, to_json
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

__version__ = "0.1.0"

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
