"""A view's moves as the observation vectors read them: the auction's calls in order, and
every move after the auction, each with its seat, its kind and the cards it showed.

Private: :mod:`calabrasella._encoding_observation` builds the vectors' auction
and move parts from it. Everything comes from the view: where the auction
ends is asked of the ruleset's own auction (the engine's positions, walked
with the view's calls), a move's kind is its action's class or the kind a
:class:`~calabrasella.Hidden` entry names, its cards the ones its action
shows, and the engine's forced moves (:attr:`View.forced_moves`) take their
places among the others. No rule of the game is worked out here again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._action_kinds import PLAY_CLASSES, WORDS, watch_kinds
from ._auction import root
from ._memo import keep
from .actions import CustomAction, Modifier, Raise
from .cards import Card, CardSet
from .deal import _geometry
from .errors import RulesetError
from .phases import OVER, PLAYING
from .rulesets.base import PLAY_TABLE

if TYPE_CHECKING:
    from .rulesets.base import Ruleset
    from .views import View

__all__ = ["BUILT_IN_KINDS", "Moves", "Vocabulary", "exchange_classes", "read", "vocabulary"]

#: The kinds of move every ruleset shares, in their order in the vectors (a variant's
#: own kinds follow, then ``"other"``).
BUILT_IN_KINDS = (
    "pass", "done", "dividete", "scegliete", "call", "give_back", "discard", "take", "draw",
    "play", "revoke", "turn_stock", "out_of_turn", "abandon",
)  # fmt: skip
PLAY, REVOKE = BUILT_IN_KINDS.index("play"), BUILT_IN_KINDS.index("revoke")
# The place of each declared kind whose word is one of those, by class (a raise is
# named by its modifier).
_BY_CLASS: dict[type, int] = {}


def _classes() -> None:
    _BY_CLASS.clear()
    _BY_CLASS.update({cls: BUILT_IN_KINDS.index(w) for cls, w in WORDS.items() if w in BUILT_IN_KINDS})


watch_kinds(_classes)
_RAISES = {Modifier.DIVIDETE: 2, Modifier.SCEGLIETE: 3}
#: The longest auction the vectors make room for (a ruleset whose auction may
#: last longer is refused with a RulesetError).
MOST_CALLS = 64
#: The room the information-state vector keeps for the moves between the auction and
#: the play (the built-in exchanges make at most 16 or so).
EXCHANGE_ROOM = 32
#: In table mode, room for this many irregular entries in the play.
TABLE_ROOM = 16


class Vocabulary:
    """What the vectors' move parts are made of under one ruleset.

    Attributes:
        rules: The ruleset.
        kinds: The kinds of move, in order: the built-in ones, the variant's
            own (by kind name, sorted), then ``"other"``.
        index: Each kind's place in :attr:`kinds`.
        calls: The most calls an auction may make.
        moves: The most moves after the auction the information state holds.
    """

    __slots__ = ("calls", "custom", "index", "kinds", "moves", "rules")

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        custom = sorted(
            {WORDS.get(cls) or str(getattr(cls, "kind", "")) for cls in exchange_classes(rules)}
            - set(BUILT_IN_KINDS)
        )
        self.kinds: tuple[str, ...] = (*BUILT_IN_KINDS, *custom, "other")
        self.index = {kind: i for i, kind in enumerate(self.kinds)}
        self.custom = {kind: self.index[kind] for kind in custom}
        self.calls = _longest_auction(rules)
        plays = 3 * max(rules.play_sizes(c, None)[0] for c in rules.contracts)
        table = TABLE_ROOM if rules._play == PLAY_TABLE else 0
        self.moves = EXCHANGE_ROOM + plays + table


def exchange_classes(rules: Ruleset) -> set[type]:
    """Return the action classes the steps of ``rules``' exchanges bring (``Step.actions``)."""
    plans = [rules.exchange_plan(c) for c in rules.contracts]
    plans += [rules.raise_plan(m) for m in Modifier]
    return {cls for plan in plans for step in plan for cls in step.actions}


def _longest_auction(rules: Ruleset) -> int:
    """Return the most calls an auction under ``rules`` may make (every dealer, every line)."""
    longest = 0
    for dealer in range(rules.players):
        order = _geometry(dealer, rules.players)[0]
        todo = [(root(rules, dealer, order), 0)]
        while todo:
            position, depth = todo.pop()
            if position.seat is None:
                longest = max(longest, depth)
                continue
            if depth >= MOST_CALLS:
                raise RulesetError(
                    f"{rules.name}: an auction may last more than {MOST_CALLS} calls; "
                    "the observation vectors have no room for it"
                )
            todo.extend((position.after(action), depth + 1) for action in position.legal)
    return longest


_VOCABULARIES: dict[int, Vocabulary] = {}


def vocabulary(rules: Ruleset) -> Vocabulary:
    """Return the move vocabulary of ``rules`` (worked out once per ruleset).

    Raises:
        RulesetError: The ruleset's auction may last more than :data:`MOST_CALLS` calls.
    """
    known = _VOCABULARIES.get(id(rules))
    if known is None or known.rules is not rules:
        known = keep(_VOCABULARIES, id(rules), Vocabulary(rules), 64)
    return known


#: A move: (seat, kind, the cards it showed as a mask, face down, forced).
Move = tuple[int, int, int, bool, bool]


class Moves:
    """A view's auction and its moves up to the play (see :func:`read`).

    Attributes:
        calls: The auction's calls in order, as ``(seat, contract or None)``.
        moves: The moves after the auction and before the play, forced ones
            in their places.
        cut: How many history entries come before the play.
    """

    __slots__ = ("cache", "calls", "cut", "moves")

    def __init__(self, calls: Any, moves: tuple[Move, ...], cut: int) -> None:
        self.calls = calls
        self.moves = moves
        self.cut = cut
        #: What an encoder makes of these moves, kept by it (they never change).
        self.cache: dict[Any, Any] = {}


def move_of(voc: Vocabulary, seat: int, action: Any, forced: bool) -> Move:
    """Return a history entry's action as a move."""
    cls = action.__class__
    kind = _BY_CLASS.get(cls)
    if kind is not None:
        return seat, kind, _shown(action), False, forced
    if cls is Raise:
        return seat, _RAISES[action.modifier], 0, False, forced
    word = WORDS.get(cls)
    if word is not None:  # a kind declared beside the built-in ones (or a bid: "other")
        return seat, voc.custom.get(word, len(voc.kinds) - 1), _shown(action), False, forced
    if isinstance(action, CustomAction):
        card = getattr(action, "card", None)
        cards = 1 << card.index if isinstance(card, Card) else 0
        return seat, voc.custom.get(cls.kind, len(voc.kinds) - 1), cards, False, forced
    kind_name = getattr(action, "kind", None)
    if isinstance(kind_name, str):  # a Hidden entry: a face-down move of that kind
        return seat, voc.index.get(kind_name, len(voc.kinds) - 1), 0, True, forced
    return seat, len(voc.kinds) - 1, 0, False, forced  # (a Bid after the auction: none is)


def _shown(action: Any) -> int:
    """Return the mask of the cards an action names (its ``card``, or its ``cards``)."""
    card = getattr(action, "card", None)
    if isinstance(card, Card):
        return 1 << card.index
    cards = getattr(action, "cards", None)
    return cards.mask if isinstance(cards, CardSet) else 0


_PLAY_KINDS = PLAY_CLASSES
# The latest reading per (seat, ruleset): a view whose entries before the play and forced
# moves are those read gets the same reading back (every view of a deal's play does).
_READS: dict[tuple[int, int], tuple[Any, tuple[Any, ...], Any, Moves]] = {}


def cut_of(view: View) -> int:
    """Return how many of the view's history entries come before the play."""
    history = view.history
    phase = view.phase
    if phase is not PLAYING and phase is not OVER:
        return len(history)
    if view.rules._play != PLAY_TABLE:
        return len(history) - 3 * sum(view.tricks_won) - len(view.trick)
    cut = len(history)
    while cut and history[cut - 1][1].__class__ in _PLAY_KINDS:
        cut -= 1
    return cut


def read(view: View) -> Moves:
    """Return the view's auction and its moves before the play."""
    rules = view.rules
    history = view.history
    forced = view.forced_moves
    cut = cut_of(view)
    key = (view.seat, id(rules))
    known = _READS.get(key)
    if known is not None and known[0] is rules:
        _, prefix, was_forced, moves = known
        if (
            len(prefix) == cut
            and (was_forced is forced or was_forced == forced)
            and history[:cut] == prefix
        ):
            return moves
    voc = vocabulary(rules)
    position = root(rules, view.dealer, _geometry(view.dealer, rules.players)[0])
    at = 0
    while position.seat is not None and at < cut:
        position = position.after(history[at][1])  # type: ignore[arg-type]
        at += 1
    out: list[Move] = []
    f = 0
    for i in range(at, cut + 1):
        while f < len(forced) and forced[f][0] <= i:
            out.append(move_of(voc, forced[f][1], forced[f][2], True))
            f += 1
        if i < cut:
            seat, action = history[i]
            out.append(move_of(voc, seat, action, False))
    moves = Moves(position.calls, tuple(out), cut)
    keep(_READS, key, (rules, history[:cut], forced, moves), 256)
    return moves
