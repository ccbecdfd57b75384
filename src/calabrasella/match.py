"""Matches: the rules above one deal (the cut for seats, dealer rotation, the ledger).

A :class:`Match` is an immutable value: the ruleset, who sits where, the
agreed number of deals, the deals played so far and the running ledger.
:meth:`Match.start` cuts for seats from a seed; :meth:`Match.next_deal`
deals the next hand with the right dealer; :meth:`Match.record` takes the
deal's final state and returns the match after it, with the payments added
to the ledger and the deal passed to the left.

The readings of the sources this module makes:

- **The cut.** Each player cuts one card from the same pack (so the cards
  are distinct). The lowest card is the lowest *rank* in the game's order
  ``3 2 A K Q J 7 6 5 4`` (the 4 lowest "both in cutting and in play", as
  Cavendish says); suits do not count, so two cards of one rank tie, and
  tied players cut again among themselves until they differ. The lowest
  card chooses first and deals first: he takes seat 0, and the others are
  seated to his left in the order of their cards, lowest first (CatsAtCards 2015's
  "seated in order of this draw from lowest to highest").
- **The deal passes to the left**: from seat ``d`` to seat ``(d + 1) % n``,
  the eldest hand of the deal just played. A void deal (everybody passed)
  is recorded like any other, scores nothing, and passes the deal on too;
  it counts as one of the agreed deals, so each seat still deals equally
  often.
- **A misdeal** happens at a real table, never in the engine; the same
  dealer deals again without penalty: :meth:`Match.redeal` (the match is
  unchanged until a deal is recorded).
- **The number of deals** is any positive number; a multiple of the table
  size (3, or 4 with four at the table) lets each player deal equally
  often, as the sources advise ("normally", "best if"), but is not required.
- **The settlement.** Each deal's payments already say what each seat
  receives (+) or pays (-), so a player's total is what he takes or pays at
  the end; :meth:`Match.settlement` lists transfers between players that
  realise the totals. (Skat's pairwise comparison of scores is for a sheet
  that records only the single player's gains; this ledger is zero-sum.)

Players are numbered ``0..n-1`` in the order they sat down to cut;
:attr:`Match.seating` says which player sits at each seat.
"""

from __future__ import annotations

import random
from typing import Any, Optional, Union

import attrs

from . import _pictures
from .cards import DECK, Card
from .deal import as_random, new_deal
from .errors import MatchError, RulesetError
from .rulesets.base import Ruleset
from .state import State

__all__ = ["Cut", "Match", "MatchError", "Transfer", "cut_for_seats"]


@attrs.frozen
class Transfer:
    """One payment of the final settlement: ``payer`` pays ``payee`` ``amount``.

    Attributes:
        payer: The paying player.
        payee: The receiving player.
        amount: How much (always positive).
    """

    payer: int
    payee: int
    amount: int


CutRound = tuple[tuple[int, Card], ...]


@attrs.frozen
class Cut:
    """The cut for seats: every card cut, and the order it put the players in.

    Attributes:
        rounds: Each cut in the order they happened, as ``(player, card)``
            pairs; the first round has every player, a later one only the
            players who tied.
        order: The players from the lowest card to the highest: ``order[0]``
            deals first and sits at seat 0, the others to his left in turn.
    """

    rounds: tuple[CutRound, ...]
    order: tuple[int, ...]

    @property
    def first_dealer(self) -> int:
        """The player who cut the lowest card."""
        return self.order[0]


def cut_for_seats(players: int, seed: Union[int, random.Random]) -> Cut:
    """Cut for seats and the first deal: each player cuts a card, the lowest deals.

    Each of the ``players`` (numbered ``0..players-1``) cuts a card of a
    pack shuffled from ``seed``. Cards compare by rank only, the 4 lowest
    and the 3 highest; players who tie cut again among themselves, from a
    freshly shuffled pack, until every one is placed. The same seed gives
    the same cut.

    Raises:
        RulesetError: ``players`` is not 3 or 4.
        SeedError: ``seed`` is neither an int nor a ``random.Random``.

    Example:
        >>> from calabrasella import cut_for_seats
        >>> cut = cut_for_seats(3, seed=6)
        >>> for cards in cut.rounds:  # two 4s tie for lowest and cut again
        ...     print([(player, str(card)) for player, card in cards])
        [(0, '4c'), (1, '4h'), (2, 'Kc')]
        [(0, 'Qd'), (1, 'Jd')]
        >>> cut.order, cut.first_dealer
        ((1, 0, 2), 1)
    """
    if type(players) is not int or players not in (3, 4):
        raise RulesetError(f"players={players!r}: a table seats 3 or 4")
    rng = as_random(seed, "seed")
    rounds: list[CutRound] = []

    def place(group: tuple[int, ...]) -> list[int]:
        pack = list(DECK)
        rng.shuffle(pack)
        cards = pack[: len(group)]
        rounds.append(tuple(zip(group, cards)))
        order: list[int] = []
        for rank in sorted({c.rank for c in cards}):
            tied = tuple(p for p, c in zip(group, cards) if c.rank == rank)
            order.extend(tied if len(tied) == 1 else place(tied))
        return order

    order = place(tuple(range(players)))
    return Cut(tuple(rounds), tuple(order))


def _rules_validator(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, Ruleset):
        hint = f" (a ruleset's name: cb.find_ruleset({value!r}) gives it)" if isinstance(value, str) else ""
        raise RulesetError(f"not a ruleset: {value!r}{hint}")


def _deals_validator(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and (type(value) is not int or value < 1):
        raise MatchError(f"deals={value!r}: expected a positive int, or None for no limit")


def _default_seating(match: Match) -> tuple[int, ...]:
    rules = match.rules  # not yet validated: the rules validator runs after the defaults
    return tuple(range(rules.players)) if isinstance(rules, Ruleset) else ()


@attrs.frozen(repr=False)
class Match:
    """A match: several deals at one table, the dealer passing to the left, a ledger.

    An immutable value: :meth:`record` returns a new match and leaves this
    one as it was. Build one with :meth:`start` (which cuts for seats) or
    directly, ``Match(rules, seating=..., deals=...)`` (the ruleset alone
    gives player ``p`` seat ``p``, seat 0 dealing first, no limit of
    deals); the constructor checks that the finished deals fit (each over,
    under the match's rules, dealt by the right seat) and works out the
    dealer, the totals and their history.

    Attributes:
        rules: The ruleset of every deal.
        seating: The player at each seat, seat 0 first (a permutation of
            ``0..players-1``).
        deals: The agreed number of deals, or ``None`` for no limit.
        first_dealer: The seat that dealt the first hand.
        finished: The final state of each deal played, in order (void deals
            included; misdeals are not deals).
        cut: The cut for seats, if the match began with one.
        dealer: The seat to deal next: ``first_dealer`` moved one seat to the
            left per finished deal.
        totals: Each player's running total, player 0 first; the totals
            always add up to 0.
        history: The totals after each finished deal.

    Example:
        >>> import random
        >>> import calabrasella as cb
        >>> rng = random.Random(5)
        >>> m = cb.Match.start(cb.CAVENDISH, seed=3, deals=3)
        >>> while not m.is_over:
        ...     s = m.next_deal(seed=rng)
        ...     while not s.is_over:
        ...         s = cb.apply(s, rng.choice(cb.legal_actions(s)))
        ...     m = m.record(s)
        >>> m.seating, m.totals, sum(m.totals), len(m.history)
        ((2, 0, 1), (21, 51, -72), 0, 3)
    """

    # the ruleset may be given by position, ``Match(cb.CAVENDISH)``; the rest by name
    rules: Ruleset = attrs.field(validator=_rules_validator)
    seating: tuple[int, ...] = attrs.field(
        default=attrs.Factory(_default_seating, takes_self=True), kw_only=True
    )
    deals: Optional[int] = attrs.field(default=None, validator=_deals_validator, kw_only=True)
    first_dealer: int = attrs.field(default=0, kw_only=True)
    finished: tuple[State, ...] = attrs.field(default=(), kw_only=True)
    cut: Optional[Cut] = attrs.field(default=None, kw_only=True)
    dealer: int = attrs.field(init=False, eq=False)
    totals: tuple[int, ...] = attrs.field(init=False, eq=False)
    history: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        n = self.rules.players
        if (
            not isinstance(self.seating, tuple)
            or sorted(self.seating) != list(range(n))
            or not all(type(p) is int for p in self.seating)
        ):
            raise MatchError(f"seating={self.seating!r}: expected a permutation of 0..{n - 1}")
        if type(self.first_dealer) is not int or not 0 <= self.first_dealer < n:
            raise MatchError(f"first_dealer={self.first_dealer!r}: expected a seat 0..{n - 1}")
        if not isinstance(self.finished, tuple):
            raise MatchError(f"finished={self.finished!r}: expected a tuple of states")
        if self.deals is not None and len(self.finished) > self.deals:
            raise MatchError(f"{len(self.finished)} deals played of {self.deals} agreed")
        if self.cut is not None and not isinstance(self.cut, Cut):
            raise MatchError(f"cut={self.cut!r}: expected a Cut or None")
        totals = [0] * n
        history = []
        for number, state in enumerate(self.finished):
            self._check_deal(number, state)
            assert state.result is not None  # _check_deal made sure the deal is over
            for seat, paid in enumerate(state.result.payments):
                totals[self.seating[seat]] += paid
            history.append(tuple(totals))
        object.__setattr__(self, "dealer", (self.first_dealer + len(self.finished)) % n)
        object.__setattr__(self, "totals", tuple(totals))
        object.__setattr__(self, "history", tuple(history))

    def _check_deal(self, number: int, state: object) -> None:
        """Raise :class:`MatchError` unless ``state`` may be deal ``number`` of this match."""
        which = f"deal {number + 1}"
        if not isinstance(state, State):
            raise MatchError(f"{which}: not a State: {state!r}")
        if state.rules != self.rules:
            raise MatchError(
                f"{which} was played under {state.rules!r}, not this match's {self.rules!r}"
            )
        if not state.is_over or state.result is None:
            raise MatchError(f"{which} is not over (phase {state.phase.name.lower()})")
        dealer = (self.first_dealer + number) % self.rules.players
        if state.dealer != dealer:
            raise MatchError(
                f"{which} was dealt by seat {state.dealer}, but seat {dealer} deals it"
            )

    @classmethod
    def start(
        cls,
        rules: Ruleset,
        *,
        seed: Union[int, random.Random],
        deals: Optional[int] = None,
    ) -> Match:
        """Cut for seats with ``seed`` and return the match before its first deal.

        The players (``rules.players`` of them) sit in the order of the cut
        (see :func:`cut_for_seats`): the lowest card at seat 0, and he deals
        first.

        Raises:
            RulesetError: ``rules`` is not a ruleset.
            SeedError: ``seed`` is neither an int nor a ``random.Random``.
            MatchError: ``deals`` is not a positive int or ``None``.

        Example:
            >>> import calabrasella as cb
            >>> m = cb.Match.start(cb.CAVENDISH, seed=6, deals=6)
            >>> m.seating, m.dealer, m.dealer_player, m.totals
            ((1, 0, 2), 0, 1, (0, 0, 0))
        """
        if not isinstance(rules, Ruleset):
            raise RulesetError(f"not a ruleset: {rules!r}")
        cut = cut_for_seats(rules.players, seed)
        return cls(rules=rules, seating=cut.order, deals=deals, cut=cut)

    # --- queries -----------------------------------------------------------------

    @property
    def players(self) -> int:
        """Players at the table: 3, or 4 with the dealer sitting out each deal."""
        return self.rules.players

    @property
    def dealer_player(self) -> int:
        """The player who deals next."""
        return self.seating[self.dealer]

    @property
    def deals_played(self) -> int:
        """How many deals are finished (void deals included)."""
        return len(self.finished)

    @property
    def is_over(self) -> bool:
        """Whether the agreed number of deals is played (never, with no limit)."""
        return self.deals is not None and len(self.finished) >= self.deals

    @property
    def payments(self) -> tuple[tuple[int, ...], ...]:
        """What each player received (+) or paid (-) in each finished deal, by player.

        Example:
            >>> import calabrasella as cb
            >>> cb.Match.start(cb.CAVENDISH, seed=1).payments
            ()
        """
        previous = (0,) * self.players
        rows = []
        for row in self.history:
            rows.append(tuple(b - a for a, b in zip(previous, row)))
            previous = row
        return tuple(rows)

    def seat_of(self, player: int) -> int:
        """Return the seat where ``player`` sits.

        Raises:
            MatchError: ``player`` is not a player of the match.

        Example:
            >>> import calabrasella as cb
            >>> cb.Match(rules=cb.CAVENDISH, seating=(2, 0, 1)).seat_of(2)
            0
        """
        if type(player) is not int or player not in self.seating:
            raise MatchError(f"player {player!r}: expected 0..{self.players - 1}")
        return self.seating.index(player)

    def leaders(self) -> tuple[int, ...]:
        """Return the players with the highest total (the winners, once the match is over).

        Example:
            >>> import calabrasella as cb
            >>> cb.Match.start(cb.CAVENDISH, seed=1).leaders()
            (0, 1, 2)
        """
        best = max(self.totals)
        return tuple(p for p, total in enumerate(self.totals) if total == best)

    def settlement(self) -> tuple[Transfer, ...]:
        """Return transfers between players that realise the totals.

        A player with a negative total pays that much in all, one with a
        positive total receives that much. The payers, in player order, pay
        the receivers in player order, each paying as much as the current
        receiver still has to get: at most ``players - 1`` transfers, the
        same for the same totals.

        Example:
            >>> import calabrasella as cb
            >>> m = cb.Match.start(cb.CAVENDISH, seed=1)
            >>> m.settlement()
            ()
        """
        owed = [[p, -t] for p, t in enumerate(self.totals) if t < 0]
        due = [[p, t] for p, t in enumerate(self.totals) if t > 0]
        transfers: list[Transfer] = []
        i = j = 0
        while i < len(owed) and j < len(due):
            amount = min(owed[i][1], due[j][1])
            transfers.append(Transfer(owed[i][0], due[j][0], amount))
            owed[i][1] -= amount
            due[j][1] -= amount
            i += owed[i][1] == 0
            j += due[j][1] == 0
        return tuple(transfers)

    # --- dealing on --------------------------------------------------------------

    def next_deal(self, *, seed: Union[int, random.Random]) -> State:
        """Return the first state of the next deal, dealt by :attr:`dealer` from ``seed``.

        The match itself does not change: play the deal out and hand its
        final state to :meth:`record`. To deal known cards instead, call
        ``cb.deal_from(match.rules, hands, stock, dealer=match.dealer)``.

        Raises:
            MatchError: The match is over.
            SeedError: ``seed`` is neither an int nor a ``random.Random``.

        Example:
            >>> import calabrasella as cb
            >>> m = cb.Match(rules=cb.CAVENDISH, first_dealer=2)
            >>> m.next_deal(seed=7).dealer
            2
        """
        if self.is_over:
            raise MatchError(f"the match is over: all {self.deals} deals are played")
        return new_deal(self.rules, dealer=self.dealer, seed=seed)

    def redeal(self, *, seed: Union[int, random.Random]) -> State:
        """Deal again after a misdeal: the same dealer, without penalty.

        A misdeal (cards not properly distributed, or not four in the stock)
        happens at a real table, not in the engine. Throw the spoiled deal
        away unrecorded and deal again; the match has not changed, so this
        is :meth:`next_deal` under the name of what happened.

        Raises:
            MatchError: The match is over.
            SeedError: ``seed`` is neither an int nor a ``random.Random``.

        Example:
            >>> import calabrasella as cb
            >>> m = cb.Match.start(cb.CAVENDISH, seed=1)
            >>> m.redeal(seed=8).dealer == m.next_deal(seed=7).dealer == m.dealer
            True
        """
        return self.next_deal(seed=seed)

    def record(self, state: State) -> Match:
        """Return the match after the deal that ended in ``state``.

        The deal's payments, seat by seat, are added to the totals of the
        players in those seats, and the deal passes to the left (to the
        next seat). A void deal (everybody passed) changes no total and
        passes the deal on all the same.

        Raises:
            MatchError: The match is over, or ``state`` is not the final
                state of this match's next deal: not a state, not over,
                played under other rules, or dealt by another seat. This
                match is unchanged.

        Example:
            >>> import calabrasella as cb
            >>> m = cb.Match.start(cb.CAVENDISH, seed=1)
            >>> s = m.next_deal(seed=7)
            >>> for _ in range(3):
            ...     s = cb.apply(s, cb.Pass())
            >>> after = m.record(s)
            >>> s.result.void, after.dealer, after.totals
            (True, 1, (0, 0, 0))
        """
        if self.is_over:
            raise MatchError(f"the match is over: all {self.deals} deals are played")
        self._check_deal(len(self.finished), state)
        return attrs.evolve(self, finished=(*self.finished, state))

    def __repr__(self) -> str:
        agreed = "" if self.deals is None else f" of {self.deals}"
        return (
            f"<Match {self.rules.name} seating={self.seating} "
            f"deals={len(self.finished)}{agreed} dealer={self.dealer} totals={self.totals}>"
        )

    _repr_svg_, _repr_pretty_ = _pictures.svg_of, _pictures.pretty
