"""The exchange-step protocol: :class:`Step`, the :class:`Work` it acts on, and the
:class:`Exchange` record a state keeps.

Import these from :mod:`calabrasella.rulesets.steps`, which also holds the
built-in step kinds.
"""

from __future__ import annotations

import abc
import enum
import warnings
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar, Literal, NamedTuple, Optional

from .._action_kinds import DESCRIPTIONS
from ..actions import Action, Contract, CustomAction, Modifier
from ..cards import Card, CardSet, _cardset
from ..errors import IllegalActionError, RulesetError
from ..phases import Phase
from ..places import _LAID, _STOCK, _TRICK, EVERYONE, MoveRecord, Place
from ._books import Books, _Tally, books, called_card
from ._card_actions import card_actions

if TYPE_CHECKING:
    from .base import Ruleset, Terms

__all__ = [
    "Exchange",
    "ForcedEntry",
    "Role",
    "Step",
    "Work",
    "card_actions",
    "describe",
    "put",
    "wrong_kind",
]


class Role(enum.Enum):
    """A seat named by its part in the deal."""

    DECLARER = "declarer"
    #: The adversary next after the declarer in turn order.
    FIRST = "first"
    #: The other adversary.
    SECOND = "second"


_DECLARER = Role.DECLARER


def role_words(role: Role, terms: Terms) -> str:
    """A role in words: the ruleset's word for the declarer, "1st adversary", "2nd adversary"."""
    return terms.declarer if role is _DECLARER else f"{'1st' if role is Role.FIRST else '2nd'} adversary"

#: A move the engine made by itself: (history length when it was made,
#: index of the step that made it, seat, action).
ForcedEntry = tuple[int, int, int, Action]


def role_seat(role: Role, order: tuple[int, ...], declarer: int) -> int:
    """Return the seat playing ``role``, given the active seats from the eldest hand."""
    if role is Role.DECLARER:
        return declarer
    i = order.index(declarer)
    return order[(i + 1) % 3] if role is Role.FIRST else order[(i + 2) % 3]


_tuple_new = tuple.__new__
_new = object.__new__


class Exchange(NamedTuple):
    """What the auction decided and what the exchange has done (a read-only record).

    Card fields are int masks (bit ``i`` is card ``i``) or card indices (-1
    for none); per-seat fields have one entry per seat. The public way to
    read them is through :class:`calabrasella.State` and
    :class:`calabrasella.View`; step authors read them in
    :meth:`Step.hidden_from`. The engine makes one with :meth:`begin` when
    the auction is won and each next one from its :class:`Work`
    (:meth:`Work.exchange`); change one by name with ``_replace``.

    Attributes:
        declarer: The declarer's seat.
        contract: The winning bid.
        modifier: Solissimo's raise, once made.
        plan: The exchange steps (a raise inserts its own after it).
        step: The index in ``plan`` of the step now running.
        moved: Cards moved so far by the running step.
        starts: The history length when each step of ``plan`` started.
        forced: The moves the engine made by itself (see
            :attr:`calabrasella.State.forced_moves`), with the step that made each.
        order: The three active seats from the eldest hand.
        legal: The legal actions while a step waits (empty once the play
            begins): the running step lists them once, when the engine
            builds the state, while its working copy is at hand.
        data: What steps keep of their own, as sorted ``(key, value)``
            pairs (see :meth:`Work.set`); the built-in steps keep nothing here.
        moves: Every move of cards the exchange made (:meth:`Work.move`), in
            order, as :data:`calabrasella.places.MoveRecord` tuples; read them
            as :class:`calabrasella.places.Move` through
            :attr:`calabrasella.State.moves`. What they add up to (the card
            given back, each seat's discards, the stock shown...) is worked out
            from them, never kept beside them (:func:`books`).
    """

    declarer: int
    contract: Contract
    modifier: Optional[Modifier]
    plan: tuple[Step, ...]
    step: int
    moved: int
    starts: tuple[int, ...]
    forced: tuple[ForcedEntry, ...]
    order: tuple[int, ...]
    legal: tuple[Action, ...]
    data: tuple[tuple[str, Hashable], ...] = ()
    moves: tuple[MoveRecord, ...] = ()

    @classmethod
    def begin(
        cls,
        declarer: int,
        contract: Contract,
        plan: tuple[Step, ...],
        order: tuple[int, ...],
        players: int,
    ) -> Exchange:
        """Return the record of an exchange that has not begun: nothing called, moved or seen."""
        # By position, in the order of the fields (a NamedTuple's keywords are dear):
        # declarer, contract, modifier, plan, step, moved, starts, forced, order, legal,
        # data, moves.
        return _tuple_new(cls, (declarer, contract, None, plan, 0, 0, (), (), order, (), (), ()))

    def seat(self, role: Role) -> int:
        """Return the seat playing ``role`` (for :meth:`Step.hidden_from`)."""
        return role_seat(role, self.order, self.declarer)

    def get(self, key: str, default: Hashable = None) -> Hashable:
        """Return what a step kept under ``key`` (see :meth:`Work.set`), or ``default``."""
        return _kept(self.data, key, default)

    def books(self, history: Sequence[tuple[int, object]], players: int) -> Books:
        """Return what the moves add up to (see :func:`books`), ``history`` being the
        deal's history (the entries the moves name)."""
        forced = self.forced

        def action_of(record: MoveRecord) -> object:
            f, entry = record[1], record[0]
            if f >= 0:
                return forced[f][3]
            return history[entry][1] if 0 <= entry < len(history) else None

        return books(self.moves, action_of, players)

    def step_of(self, entry: int) -> int:
        """Return the index in ``plan`` of the step during which history entry ``entry`` was made.

        -1 for an entry made before the exchange (the auction).
        """
        starts = self.starts
        k = len(starts) - 1
        while k >= 0 and starts[k] > entry:
            k -= 1
        return k

    def told(self, entry: int, forced: int, who: int, viewer: int, action: Action) -> str | None:
        """Return what ``viewer`` is told of history entry ``entry`` (or, with ``entry``
        -1, of forced move ``forced``), made by ``who``: ``None`` when it sees its cards.

        The move the entry made says it (:meth:`Work.move`); a step that
        overrides :meth:`Step.hidden_from` is asked too (told ``""``).
        """
        if who == viewer:
            return None
        by_entry, by_forced = self.unseen(viewer)
        if forced >= 0:
            words = by_forced.get(forced)
            k = self.forced[forced][1]
        else:
            words = by_entry.get(entry)
            k = self.step_of(entry)
        if words is None and k >= 0 and step_hides(self.plan[k], who, viewer, action, self):
            words = ""
        return words

    def unseen(self, viewer: int) -> tuple[dict[int, str], dict[int, str]]:
        """Return the words ``viewer`` is told of each move it did not see, by the history
        entry that made it and by the forced move that made it (one pass over the moves)."""
        by_entry: dict[int, str] = {}
        by_forced: dict[int, str] = {}
        for entry, forced, seat, _, _, _, seen, words in self.moves:
            if seat != viewer and not seen >> viewer & 1:
                if forced >= 0:
                    by_forced[forced] = words
                elif entry >= 0:
                    by_entry[entry] = words
        return by_entry, by_forced


def _first(pair: tuple[str, Hashable]) -> str:
    return pair[0]


def _kept(data: tuple[tuple[str, Hashable], ...], key: str, default: Hashable) -> Hashable:
    """Return the value under ``key`` in a record's step data, or ``default``."""
    for k, value in data:
        if k == key:
            return value
    return default


class Work:
    """A mutable working copy of a deal while the engine applies one action.

    The engine copies a state into a :class:`Work`, lets the exchange steps
    change it, and builds the next state from it; the state it came from is
    never touched. Steps read and change its fields directly, and move cards
    only with :meth:`move`; what the moves add up to (the called card's
    giver, each seat's discards, the stock shown...) is read from them
    (:meth:`books` and the properties that name it).

    Attributes:
        rules: The ruleset.
        order: The three active seats from the eldest hand.
        hands: Each seat's hand as a card mask.
        stock: The stock (monte) as a card mask (the laid-aside cards included).
        phase: The phase to wait in once a step asks for a decision.
        to_move: The seat asked to act (``None`` for chance).
        history_length: The length of the history, this action's entry included.
        history: The history before this action.
        entries: The history entries this action adds: ``(seat, action)``.
        declarer: As in :class:`Exchange`, and likewise ``contract``,
            ``modifier``, ``plan``, ``step``, ``moved``, ``starts``,
            ``forced``, ``moves`` and ``data`` (change it with :meth:`set`).
    """

    __slots__ = (
        "_own",
        "_tally",
        "contract",
        "data",
        "deciding",
        "declarer",
        "entries",
        "forced",
        "hands",
        "history",
        "history_length",
        "modifier",
        "moved",
        "moves",
        "order",
        "phase",
        "plan",
        "rules",
        "starts",
        "step",
        "stock",
        "to_move",
    )

    def __init__(
        self,
        rules: Ruleset,
        hands: list[int],
        stock: int,
        exchange: Exchange,
        history_length: int,
        phase: Phase = Phase.PLAYING,
        to_move: int | None = None,
        history: Sequence[tuple[int, Action]] = (),
    ) -> None:
        self.rules = rules
        self.hands = hands
        self.stock = stock
        self.phase = phase
        self.to_move = to_move
        self.history_length = history_length
        self.history = history
        self.entries: list[tuple[int, Action]] = []
        #: Whether a step is applying a decision (its moves belong to that entry),
        #: not starting (its moves then belong to no entry).
        self.deciding = True
        #: The tally of the moves: the work before's (its state's, shared, not to be
        #: changed: ``_own`` is false), or this work's own, or ``None`` until read.
        self._tally: _Tally | None = None
        self._own = False
        (
            self.declarer,
            self.contract,
            self.modifier,
            self.plan,
            self.step,
            self.moved,
            self.starts,
            self.forced,
            self.order,
            _,
            self.data,
            self.moves,
        ) = exchange

    def exchange(self, legal: tuple[Action, ...] = ()) -> Exchange:
        """Return the exchange record of the work as it is now, with ``legal`` for its
        :attr:`Exchange.legal` (the one place a record is made from a work)."""
        return _tuple_new(
            Exchange,
            (
                self.declarer,
                self.contract,
                self.modifier,
                self.plan,
                self.step,
                self.moved,
                self.starts,
                self.forced,
                self.order,
                legal,
                self.data,
                self.moves,
            ),
        )

    # --- what the moves add up to -------------------------------------------------

    def action_of(self, record: MoveRecord) -> Action | None:
        """Return the action that made a move (``None`` for a move of a step's start)."""
        entry, forced = record[0], record[1]
        if forced >= 0:
            return self.forced[forced][3]
        if entry < 0:
            return None
        history = self.history
        if entry < len(history):
            return history[entry][1]
        entries = self.entries
        k = entry - len(history)
        return entries[k][1] if k < len(entries) else None

    def books(self) -> Books:
        """Return what the moves so far add up to (see :func:`books`)."""
        return self._tallied().books()

    def _tallied(self) -> _Tally:
        """The tally of the moves so far, to read: the work before's, or made now, with
        the moves since counted when first read after them (each move counted once, as
        :func:`books` counts it; a copy is made before counting on another's)."""
        tally = self._tally
        if tally is None:
            tally = self._tally = _Tally(len(self.hands))
            self._own = True
        moves = self.moves
        if tally.counted != len(moves):
            if not self._own:
                tally = self._tally = tally.copy()
                self._own = True
            tally.add(moves[tally.counted :], self.action_of)
        return tally

    @property
    def called(self) -> int:
        """The card called so far (-1 for none)."""
        handed = self._tallied().called  # (the card handed over, if a seat held it)
        if handed:
            return handed.bit_length() - 1
        card = called_card(self.entries)
        return card if card >= 0 else called_card(self.history)

    @property
    def giver(self) -> int:
        """The seat that handed over the called card (-1 for none)."""
        tally = self._tally
        if tally is None or tally.counted != len(self.moves):
            tally = self._tallied()
        return tally.giver

    @property
    def exposed(self) -> int:
        """The stock cards turned face up for every seat."""
        tally = self._tally
        if tally is None or tally.counted != len(self.moves):
            tally = self._tallied()
        return tally.exposed

    def laid_aside(self, seat: int) -> int:
        """Return the cards ``seat`` has laid aside face down (its discards)."""
        tally = self._tally
        if tally is None or tally.counted != len(self.moves):
            tally = self._tallied()
        return tally.laid[seat]

    def taken(self, seat: int) -> int:
        """Return the cards ``seat`` got from the stock in this deal (taken or drawn)."""
        tally = self._tally
        if tally is None or tally.counted != len(self.moves):
            tally = self._tallied()
        return tally.taken[seat]

    # --- for steps -------------------------------------------------------------

    def seat(self, role: Role) -> int:
        """Return the seat playing ``role``."""
        return role_seat(role, self.order, self.declarer)

    def get(self, key: str, default: Hashable = None) -> Hashable:
        """Return what a step kept under ``key`` with :meth:`set`, or ``default``."""
        return _kept(self.data, key, default)

    def set(self, key: str, value: Hashable) -> None:
        """Keep ``value`` under ``key`` in the exchange record, for a step's own state.

        ``value`` is part of the state's value: it must be hashable, and
        picklable for states to pickle (ints, strings, tuples of them). Pick
        a key of your own (the step's class name, say); the record keeps the
        pairs sorted by key. Every seat's view leaves it out: a step shows
        what it must through its actions and :meth:`Step.hidden_from`.
        """
        if type(key) is not str:
            raise TypeError(f"a step's key is a str, not {key!r}")
        hash(value)  # refuse what cannot be part of a state's value now, not later
        pairs = {**dict(self.data), key: value}
        self.data = tuple(sorted(pairs.items(), key=_first))

    def ask(self, seat: int | None, phase: Phase | None = None) -> bool:
        """Wait for ``seat`` (``None``: chance) to act; return ``True``.

        The deal waits in ``phase``, by default the running step's
        :attr:`Step.phase`. The engine checks it is an exchange phase, and
        that chance (``seat=None``) and ``Phase.DRAWING`` go together.
        """
        self.to_move = seat
        self.phase = self.plan[self.step].phase if phase is None else phase
        return True

    def record(self, seat: int, action: Action) -> None:
        """Add ``(seat, action)`` to the history: the action a step just applied."""
        self.entries.append((seat, action))

    def force(self, seat: int, action: Action) -> None:
        """Note a move the engine made by itself for ``seat`` (no decision was needed)."""
        self.forced = (*self.forced, (self.history_length, self.step, seat, action))

    def laid_down(self) -> int:
        """Return every card laid aside so far: face down in the stock, never shown or taken."""
        tally = self._tally
        if tally is None or tally.counted != len(self.moves):
            tally = self._tallied()
        return tally.laid_all

    def hand(self, seat: int | Role) -> CardSet:
        """Return the cards ``seat`` (or the seat playing a role) holds now."""
        return _cardset(self.hands[seat if type(seat) is int else self.seat(seat)])  # type: ignore[arg-type]

    def move(
        self,
        cards: Card | CardSet | int,
        source: Place,
        target: Place,
        *,
        seen_by: Iterable[int | Role] | Literal["all"],
        words: str,
        seat: int | Role | None = None,
        forced: bool = False,
    ) -> None:
        """Move ``cards`` from ``source`` to ``target`` and record the move: the one way
        an exchange step moves cards.

        A move from the stock to the stock turns its cards face up for
        ``seen_by``. The seats in ``seen_by`` see the cards; every other seat
        sees how many cards moved, and ``words`` ("passed a card face
        down"): their views show the action that made the move as a
        :class:`~calabrasella.Hidden` with these words. The seat that moves
        always sees its own cards.

        Args:
            cards: A card, a set of cards, or a card mask.
            source: Where they are: a hand, the stock or a seat's laid-aside cards
                (:mod:`calabrasella.places`).
            target: Where they go (likewise).
            seen_by: The seats (or roles) that see the cards, or ``"all"``.
            words: What the others are told, in a few words.
            seat: Who moves them (by default the owner of ``source``, else of ``target``).
            forced: The move is the engine's (the last forced move noted with
                :meth:`force`), not the current action's.

        Raises:
            RulesetError: The cards are not all in ``source``, or a place is the
                trick or a seat's tricks (the play moves those).
        """
        if type(cards) is int:
            mask = cards
        elif isinstance(cards, Card):
            mask = 1 << cards.index
        elif isinstance(cards, CardSet):
            mask = cards.mask
        else:
            raise RulesetError(f"Work.move: expected a Card, a CardSet or a card mask, got {cards!r}")
        src, dst = source.code, target.code
        if src >= _TRICK or dst >= _TRICK:
            raise RulesetError(f"an exchange step moves no cards from {source} to {target}")
        if src < _STOCK:
            have = self.hands[src]
        elif src == _STOCK:
            have = self.stock & ~self.laid_down()
        else:
            have = self.laid_aside(src - _LAID)
        if mask & ~have or not mask:
            raise RulesetError(f"{CardSet(mask & ~have) or 'no card'} cannot move: not in {source}")
        if seen_by == "all":
            seen = EVERYONE
        else:
            seen = 0
            for s in seen_by:
                seen |= 1 << (s if type(s) is int else self.seat(s))  # type: ignore[arg-type]
        if seat is None:  # the owner of the source, else of the target, else the declarer
            owner = source.seat if source.seat is not None else target.seat
            who = self.declarer if owner is None else owner
        else:
            who = seat if type(seat) is int else self.seat(seat)  # type: ignore[arg-type]
        self._move(mask, src, dst, seen, words, who, forced)

    def _move(self, mask: int, src: int, dst: int, seen: int, words: str, who: int, forced: bool) -> None:
        """:meth:`move` on checked codes and masks (the built-in steps' path)."""
        if src != dst:
            if src < _STOCK:
                self.hands[src] &= ~mask
            else:
                self.stock &= ~mask
            if dst < _STOCK:
                self.hands[dst] |= mask
            else:
                self.stock |= mask
        if forced:
            record = (-1, len(self.forced) - 1, who, mask, src, dst, seen, words)
        else:
            entry = self.history_length - 1 if self.deciding else -1
            record = (entry, -1, who, mask, src, dst, seen, words)
        moves = self.moves
        tally = self._tally  # (counted now if it is this work's and up to date, else when read)
        if tally is not None and self._own and tally.counted == len(moves):
            tally.step(mask, src, dst, seen)
        self.moves = (*moves, record)


def put(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """Return ``values`` with item ``i`` replaced by ``value`` (for the per-seat fields of a work)."""
    if len(values) == 3:  # (the usual table: one tuple, no slices)
        a, b, c = values
        return (value, b, c) if i == 0 else (a, value, c) if i == 1 else (a, b, value)
    return (*values[:i], value, *values[i + 1 :])


def wrong_kind(work: Work, action: object, expected: str) -> IllegalActionError:
    """Return the error for an action of the wrong kind while ``work`` waits for ``expected``."""
    who = "chance" if work.to_move is None else f"seat {work.to_move}"
    return IllegalActionError(action, f"{who} is to {expected}, not to {describe(action)}")


# Each declared kind's description (its declaration's ``description``), by class.
_DESCRIPTIONS: dict[type, str] = DESCRIPTIONS


def describe(action: object) -> str:
    """Return what an action does, in a few words (``"discard"``, ``"play a card"``).

    An action of a variant's own kind says it itself: its class's
    ``description``, or else its ``kind``.
    """
    known = _DESCRIPTIONS.get(type(action))
    if known is not None:
        return known
    if isinstance(action, CustomAction):
        return type(action).description or type(action).kind
    return f"do {type(action).__name__!r} (not an action)"


# --- the protocol ----------------------------------------------------------------


class Step(abc.ABC):
    """One kind of exchange step: subclass it (as a frozen attrs class) for a new kind.

    The engine calls :meth:`start` when the step's turn comes. The step either
    does what needs no decision and returns ``False`` (the engine goes on to
    the next step), or asks a seat (or chance) with :meth:`Work.ask` and
    returns ``True``. While it waits, :meth:`legal_actions` lists the actions
    and :meth:`apply` takes one, returning ``True`` when the step is over.
    Before ``apply`` is called, the engine sets nothing: the step validates
    the action itself and raises :class:`~calabrasella.IllegalActionError`
    (leaving the work half changed is fine: it is thrown away).

    Attributes:
        phase: The phase the deal is in while this step waits. A variant's
            step that none of the built-in phases describes waits in
            :attr:`~calabrasella.Phase.EXCHANGING` and names it with
            ``phase_name``.
        phase_name: The phase's name while this step waits, as the rules
            call it (for example "swapping"), reported by
            :attr:`calabrasella.State.phase_name`; ``None``: the name of
            ``phase``.
        actions: The action classes of a variant's own kinds
            (:class:`~calabrasella.CustomAction`) the step lists and applies;
            the conformance kit checks that each it meets is declared here
            and round-trips through text, JSON and pickle.
    """

    phase: ClassVar[Phase] = Phase.DISCARDING
    phase_name: ClassVar[str | None] = None
    actions: ClassVar[tuple[type[CustomAction], ...]] = ()

    @abc.abstractmethod
    def start(self, work: Work) -> bool:
        """Begin the step: resolve it, or ask for a decision and return ``True``."""

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """Return the legal actions while the step waits (in a fixed order)."""
        return ()

    def apply(self, work: Work, action: Action) -> bool:
        """Apply ``action``, recording it with :meth:`Work.record`; return ``True`` when done.

        Raises:
            IllegalActionError: ``action`` is not legal now.
        """
        raise IllegalActionError(action, f"{type(self).__name__} takes no decisions")

    def summary(self, terms: Terms) -> str:
        """Say in a few words what the step does, in the ruleset's ``terms`` (for pictures).

        The default is the phase's name (``phase_name``, else the class
        name less ``Step``); each built-in step says more.

        Example:
            >>> import calabrasella as cb
            >>> plan = cb.CALABRESELLA.exchange_plan(cb.Contract.SOLO)
            >>> [step.summary(cb.CALABRESELLA.terms) for step in plan]
            ['monte shown to all', 'declarer takes all', 'declarer discards 4']
        """
        return self.phase_name or type(self).__name__.removesuffix("Step").lower()

    def rollout(self, work: Work, below: Callable[[int], int]) -> bool | None:
        """Make this waiting step's decisions at random, fast (optional; for :func:`~calabrasella.rollout`).

        A step may make its decisions without listing its actions, as long
        as it chooses exactly as the loop would: at each decision the
        ``below(n)``-th of its ``n`` legal actions, in the order of
        :meth:`legal_actions`, applied as :meth:`apply` applies it (each
        recorded with :meth:`Work.record`, and ``work.history_length``
        one more before each decision after the first). Return ``True``
        when the step is over, ``False`` when it made some decisions and
        still waits, ``None`` (the default) when it made none: the rollout
        then lists and applies one action at a time. The conformance kit
        holds a rollout to the loop.
        """
        return None

    def hidden_from(self, seat: int, viewer: int, action: Action, exchange: Exchange) -> str | None:
        """Deprecated: who sees a move is said where the cards move, by :meth:`Work.move`'s
        ``seen_by`` and ``words``.

        A step that overrides it is still asked (with a ``DeprecationWarning``
        when its class is made): return ``None`` when ``viewer`` may see
        ``action``, made by ``seat`` in this step, or the kind of face-down
        move it sees instead; its view shows a :class:`~calabrasella.Hidden`
        of that kind.
        """
        return None

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "hidden_from" in cls.__dict__ and cls.__qualname__ not in _WARNED:
            _WARNED.add(cls.__qualname__)  # (once: attrs makes a slotted class anew)
            warnings.warn(
                f"{cls.__name__}.hidden_from: Step.hidden_from is deprecated; say who sees "
                "the cards where they move, with Work.move(cards, source, target, "
                "seen_by=..., words=...), and views hide the rest in those words",
                DeprecationWarning,
                stacklevel=3,
            )


_WARNED: set[str] = set()


def says_what_it_hides(step: Step) -> bool:
    """Whether ``step`` overrides the deprecated :meth:`Step.hidden_from`."""
    return step.__class__.hidden_from is not Step.hidden_from


def step_hides(step: Step, seat: int, viewer: int, action: Action, exchange: Exchange) -> str | None:
    """Ask a step that overrides the deprecated :meth:`Step.hidden_from` (else ``None``)."""
    if step.__class__.hidden_from is Step.hidden_from:
        return None
    return step.hidden_from(seat, viewer, action, exchange)
