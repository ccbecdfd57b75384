"""A conformance check for rulesets: random deals, every invariant, after every action.

:func:`check_ruleset` plays many random deals under a ruleset, the dealer
rotating round the table, choosing uniformly among the legal actions (and
drawing chance outcomes with :func:`calabrasella.sample_chance`). After every
action it checks what the rules say is always true, and raises
:class:`ConformanceError` at the first broken invariant, naming the deal, the
step and the invariant. Someone writing a new variant checks it in one line:

    >>> from calabrasella import Calabresella
    >>> from calabrasella.testing import check_ruleset
    >>> check_ruleset(Calabresella(auction="until_two_pass", players=4), deals=3).deals
    3

The invariants (the ``invariant`` name a :class:`ConformanceError` carries,
listed in :data:`INVARIANTS`):

- ``cards``: the 40 cards are accounted for exactly once: every hand, the
  stock, and the cards played (completed tricks and the current trick,
  derived from the ``Play`` entries of the history).
- ``ledger``: replaying every move of the deal (:func:`calabrasella.places.records`,
  the exchange's and the play's) from the dealt cards gives every hand, the
  stock with the laid-aside cards, and the trick.
- ``purity``: applying an action, legal or not, never changes the state it
  was applied to (its hash, and a :func:`state_contents` snapshot of its
  fields compared by identity: a state is a slotted value whose fields are
  immutable, so only rebinding a slot can change it);
  ``history``: a legal action appends exactly one entry to the history.
- ``legality``: every listed action applies and :func:`~calabrasella.is_legal`
  says so; a sample of unlisted ones (other cards, other kinds of action,
  junk such as a string) raise :class:`~calabrasella.IllegalActionError`
  naming the action, and ``is_legal`` says no.
- ``determinism``: the same seed gives the same deal, and replaying the same
  deal with the same actions gives equal states and equal legal actions.
- ``conservation``: a finished deal that is not void gives the sides the
  ruleset's ``deal_units`` in all (35: 11 points, the cards' and the last
  trick's units), as a recount of the tricks from the history says; the
  payments add up to 0 (``units_payment``'s, if any); a void deal pays nothing.
- ``views``: a seat's view does not change when the cards it cannot know are
  swapped for others of the same suit (an alternative world consistent with
  what it saw, built from the state without :mod:`calabrasella.views`).
- ``encoding``: every listed action reads back equal from its text, JSON and
  pickle; one of a variant's own kind is registered and declared by its step.
- ``rollout``: :func:`calabrasella.rollout` from the deal's first state and
  from one later state ends in the same state, history included, as the
  loop it stands for (:func:`the_loop`) with a generator of the same seed.

The helpers the checks use are public, so that a property test checks the
same thing in the same way: :func:`state_contents` and :func:`same_contents`,
:func:`played_cards`, :func:`recount_tricks`, :func:`cards_seat_may_know`,
:func:`relabel_cards`, :func:`relabel_action`, :func:`encoding_problem`,
:func:`the_loop`, :func:`history_diff`, :func:`view_diff`, and for table mode
:func:`revoke_penalty` and :func:`table_mode_problem`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NoReturn, cast

import attrs

from ._end import forget
from ._invariants import (
    cards_seat_may_know,
    encoding_problem,
    history_diff,
    ledger_problem,
    new_encoding_problem,
    played_cards,
    recount_tricks,
    relabel_action,
    relabel_cards,
    revoke_penalty,
    same_contents,
    state_contents,
    table_mode_problem,
    the_loop,
    view_diff,
    world_permutation,
)
from ._legal import actor
from ._rollout import rollout
from .actions import (
    BIDS,
    CALLS,
    DISCARDS,
    DONE,
    GIVE_BACKS,
    PASS,
    PLAYS,
    RAISES,
    TAKES,
    Abandon,
    Action,
    Draw,
    Play,
    Revoke,
    TurnStock,
)
from .cards import DECK, CardSet
from .deal import deal_from, new_deal, shuffled_deal
from .engine import apply, chance_outcomes, is_legal, legal_actions, sample_chance
from .errors import (
    ConformanceError,
    IllegalActionError,
    RulesetError,
    _rebuild_conformance_error,
)
from .phases import Phase
from .rulesets.base import Ruleset
from .scoring import Side
from .state import State

__all__ = [
    "INVARIANTS",
    "CheckReport",
    "ConformanceError",
    "cards_seat_may_know",
    "check_ruleset",
    "encoding_problem",
    "history_diff",
    "played_cards",
    "recount_tricks",
    "relabel_action",
    "relabel_cards",
    "revoke_penalty",
    "same_contents",
    "state_contents",
    "table_mode_problem",
    "the_loop",
    "view_diff",
]

#: The invariants :func:`check_ruleset` checks, as a :class:`ConformanceError` names them.
INVARIANTS = (
    *("cards", "ledger", "purity", "history", "legality", "determinism", "conservation", "views"),
    *("rollout", "encoding"),
)

_FULL = (1 << 40) - 1
#: Deal ``i`` of ``check_ruleset(..., seed=s)`` is shuffled from ``s * _SEED_STRIDE + i``.
_SEED_STRIDE = 1_000_003
#: A deal longer than this is stuck (a normal deal takes about 50 actions).
_MAX_STEPS = 1_000

# Every action that names no card, and every action that names one card.
_NO_CARD_ACTIONS: tuple[Action, ...] = (PASS, DONE, *BIDS.values(), *RAISES.values())
_CARD_ACTIONS: tuple[Action, ...] = (*PLAYS, *DISCARDS, *TAKES, *CALLS, *GIVE_BACKS)
_PUT = (Play, Revoke)  # the actions that put a card to the trick
# Things that are not actions at all.
_JUNK: tuple[object, ...] = ("Ad", "pass", None, 0, DECK[0], type(PASS), (0, PASS))


# The name under which a ConformanceError pickled before the errors moved to errors.py.
_rebuild_error = _rebuild_conformance_error


@attrs.frozen(kw_only=True)
class CheckReport:
    """What :func:`check_ruleset` checked: counts only (it raises on a failure).

    Attributes:
        deals: Deals played.
        void_deals: Deals everybody passed.
        decisions: Actions chosen by seats (chance moves not counted).
        chance_moves: Chance outcomes drawn (dividete's unseen draw).
        legal_probes: Listed actions applied to check they are legal.
        illegal_probes: Unlisted actions (and junk) checked to be refused.
        replays: Deals replayed from their deal to check determinism.
        views_checked: Views compared with an alternative world's view.
        worlds_rejected: Alternative worlds dropped as inconsistent with what
            the seat saw (an action of the deal became illegal in them, or
            the public course of the deal changed).
        rollouts: Rollouts compared with the loop they stand for.

    Example:
        >>> CheckReport(deals=1).void_deals
        0
    """

    deals: int = 0
    void_deals: int = 0
    decisions: int = 0
    chance_moves: int = 0
    legal_probes: int = 0
    illegal_probes: int = 0
    replays: int = 0
    views_checked: int = 0
    worlds_rejected: int = 0
    rollouts: int = 0


def check_ruleset(
    rules: Ruleset,
    deals: int = 1000,
    seed: int = 0,
    *,
    illegal_probes: int = 6,
    view_steps: int = 1,
    world_attempts: int = 4,
) -> CheckReport:
    """Play ``deals`` random deals under ``rules`` and check every invariant after every action.

    Deal ``i`` has dealer ``i % rules.players`` and is shuffled from the seed
    ``seed * 1_000_003 + i`` (so ``new_deal(rules, dealer=..., seed=...)``
    rebuilds it); the actions are drawn from a generator seeded from that
    seed too, so a failure reproduces exactly. The invariants are listed in
    the module docstring.

    Args:
        rules: The ruleset to check (any :class:`~calabrasella.Ruleset`).
        deals: How many deals to play.
        seed: Where the pseudo-random deals and actions start.
        illegal_probes: Unlisted actions tried at each step besides the
            systematic ones (the other kinds of action, revokes, junk).
        view_steps: Steps per deal at which every seat's view is compared
            with its view in alternative worlds (each comparison also covers
            every earlier step of the deal); 0 turns the view check off.
        world_attempts: Alternative worlds tried per seat and step before
            giving up when they turn out inconsistent with what it saw.

    Returns:
        The counts of what was checked.

    Raises:
        ConformanceError: An invariant is broken; the message says where.
        RulesetError: ``rules`` is not a ruleset.
        ValueError: ``deals`` or another count is negative.

    Example:
        >>> from calabrasella import CAVENDISH
        >>> report = check_ruleset(CAVENDISH, deals=5)
        >>> report.deals, report.decisions > 0, report.illegal_probes > 0
        (5, True, True)
    """
    if not isinstance(rules, Ruleset):
        raise RulesetError(f"not a ruleset: {rules!r}")
    for name, value in (
        ("deals", deals),
        ("illegal_probes", illegal_probes),
        ("view_steps", view_steps),
        ("world_attempts", world_attempts),
    ):
        if type(value) is not int or value < 0:
            raise ValueError(f"{name}={value!r}: expected an int >= 0")
    counts = _Counts()
    for index in range(deals):
        deal = _DealCheck(rules, index, seed * _SEED_STRIDE + index, counts)
        deal.run(illegal_probes, view_steps, world_attempts)
    return CheckReport(**{f.name: getattr(counts, f.name) for f in attrs.fields(CheckReport)})


class _Counts:
    """The counters behind a :class:`CheckReport`: 0 here, counted up on each instance."""

    deals = void_deals = decisions = chance_moves = legal_probes = illegal_probes = 0
    replays = views_checked = worlds_rejected = rollouts = 0

    def __init__(self) -> None:
        self.encoded: set[Action] = set()


class _DealCheck:
    """One deal of :func:`check_ruleset`: plays it and checks it, step by step."""

    def __init__(self, rules: Ruleset, index: int, deal_seed: int, counts: _Counts) -> None:
        self.rules = rules
        self.index = index
        self.deal_seed = deal_seed
        self.dealer = index % rules.players
        self.counts = counts
        self.step = 0
        self.actions: list[Action] = []
        self.states: list[State] = []
        self.legals: list[tuple[Action, ...]] = []
        # separate streams: changing the number of probes never changes the play
        self.play_rng = random.Random(f"calabrasella.testing play {deal_seed}")
        self.probe_rng = random.Random(f"calabrasella.testing probe {deal_seed}")

    # --- reporting -----------------------------------------------------------

    def fail(self, invariant: str, detail: str) -> NoReturn:
        actions = ", ".join(str(a) for a in self.actions[: self.step])
        raise ConformanceError(
            f"{self.rules!r}, deal {self.index} (dealer {self.dealer}, "
            f"seed {self.deal_seed}), step {self.step}: {invariant}: {detail}"
            f" [actions so far: {actions or 'none'}]",
            invariant=invariant,
        )

    # --- the deal ------------------------------------------------------------

    def run(self, illegal_probes: int, view_steps: int, world_attempts: int) -> None:
        rules = self.rules
        deal = shuffled_deal(rules, dealer=self.dealer, seed=self.deal_seed)
        state = deal_from(rules, deal.hands, deal.stock, dealer=self.dealer)
        self.states.append(state)
        self.check_cards(state)
        while not state.is_over:
            if self.step >= _MAX_STEPS:
                self.fail("legality", f"the deal is not over after {_MAX_STEPS} actions")
            legal = legal_actions(state)
            self.legals.append(legal)
            digest = hash(state)
            self.check_legality(state, legal, illegal_probes, digest)
            if state.is_chance:
                action: Action = sample_chance(state, self.play_rng)
                if action not in legal:
                    self.fail("legality", f"sample_chance drew {action}, not a listed outcome")
                self.counts.chance_moves += 1
            else:
                action = self.play_rng.choice(legal)
                self.counts.decisions += 1
            self.actions.append(action)
            state = self.check_apply(state, action, digest)
            self.step += 1
            self.states.append(state)
            self.check_cards(state)
        self.check_result(state)
        self.check_determinism()
        self.check_views(view_steps, world_attempts)
        self.check_rollouts()
        self.counts.deals += 1
        if state.result is not None and state.result.void:
            self.counts.void_deals += 1

    # --- (a) cards -----------------------------------------------------------

    def check_cards(self, state: State) -> None:
        """Every card is in exactly one place: a hand, the stock, or played."""
        seen = 0
        count = 0
        places: list[CardSet] = [*state.hands, state.stock]
        plays = [card for _, card in played_cards(state)]
        places.append(CardSet.of(plays))
        for place in places:
            if seen & place.mask:
                self.fail("cards", f"{CardSet(seen & place.mask)} are in two places at once")
            seen |= place.mask
            count += len(place)
        if len(plays) + sum(len(h) for h in state.hands) + len(state.stock) != 40 or count != 40:
            self.fail("cards", f"a card is played twice: {[str(c) for c in plays]}")
        if seen != _FULL:
            self.fail("cards", f"{CardSet(_FULL & ~seen)} are nowhere")
        problem = ledger_problem(state)
        if problem:
            self.fail("ledger", problem)
        current = tuple(plays[len(plays) - len(plays) % 3 :])
        if state.trick != current:
            self.fail(
                "cards",
                f"the current trick is {[str(c) for c in state.trick]}, "
                f"but the history's last plays are {[str(c) for c in current]}",
            )
        deal = state.deal
        if len(deal.hands) == 4 and state.hand(deal.dealer):
            self.fail("cards", f"the sitting-out dealer holds {state.hand(deal.dealer)}")
        if state.phase in (Phase.PLAYING, Phase.OVER) and plays:
            assert state.contract is not None
            hand, stock = self.rules.play_sizes(state.contract, state.modifier)
            for seat in deal.order:
                played = sum(1 for who, a in state.history if who == seat and type(a) in _PUT)
                if len(state.hand(seat)) + played != hand:
                    self.fail(
                        "cards",
                        f"seat {seat} holds {len(state.hand(seat))} cards "
                        f"and has played {played}: not {hand}",
                    )
            if len(state.stock) != stock:
                self.fail("cards", f"the stock holds {len(state.stock)} cards during the play")

    # --- (b) purity and history ----------------------------------------------

    def check_apply(self, state: State, action: Action, digest: int) -> State:
        """Apply ``action``; the input state must not change, the history grows by one."""
        snapshot = state_contents(state)
        try:
            new = apply(state, action)
        except Exception as exc:  # pragma: no cover - check_legality applied it already
            self.fail("legality", f"the listed action {action} raised {exc!r}")
        if not same_contents(snapshot, state_contents(state)) or hash(state) != digest:
            self.fail("purity", f"applying {action} changed the state it was applied to")
        forget(state)  # the hooks are asked again, not their remembered answers
        if apply(state, action) != new:
            self.fail("determinism", f"applying {action} twice gave two different states")
        history, old = new.history, state.history
        if len(history) != len(old) + 1 or history[:-1] != old or history[-1][1] != action:
            self.fail("history", f"applying {action} did not append exactly it to the history")
        if not state.is_chance and history[-1][0] != actor(state, action):
            self.fail(
                "history",
                f"{action} by seat {actor(state, action)} is recorded as seat {history[-1][0]}'s",
            )
        return new

    # --- (c) legality ----------------------------------------------------------

    def check_legality(self, state: State, legal: tuple[Action, ...], probes: int, digest: int) -> None:
        """Listed actions apply; a sample of unlisted ones raise and change nothing.

        ``digest`` is the state's hash: a field that changed value in place
        (a ruleset or a step rebinding its own attributes) changes it.
        """
        if len(set(legal)) != len(legal):
            self.fail("legality", f"an action is listed twice: {[str(a) for a in legal]}")
        seat = state.to_move
        if state.is_chance:
            if seat is not None:
                self.fail("legality", f"seat {seat} is to move at a chance node")
            if not legal or legal != chance_outcomes(state):
                self.fail("legality", "the chance outcomes are not the legal actions")
        else:
            if seat is None or not 0 <= seat < self.rules.players:
                self.fail("legality", f"to_move={seat!r} in phase {state.phase.name}")
            if not legal:
                self.fail("legality", f"seat {seat} is to move but has no legal action")
            if state.legal_actions() != legal:
                self.fail("legality", "State.legal_actions() disagrees with legal_actions()")
            for who in range(self.rules.players):
                own = tuple(a for a in legal if actor(state, a) == who)
                if state.view(who).legal_actions != own:
                    self.fail("legality", f"seat {who}'s view lists other legal actions")
        before = state_contents(state)
        for action in legal:
            try:
                apply(state, action)
            except Exception as exc:
                self.fail("legality", f"the listed action {action} raised {exc!r}")
            if not same_contents(before, state_contents(state)):
                self.fail("purity", f"applying the listed action {action} changed the state")
            if not is_legal(state, action):
                self.fail("legality", f"is_legal says the listed action {action} is illegal")
        if hash(state) != digest:
            listed = ", ".join(map(str, legal))
            self.fail("purity", f"applying the listed actions ({listed}) changed the state's hash")
        if (problem := new_encoding_problem(state, legal, self.counts.encoded)) is not None:
            self.fail("encoding", problem)
        self.counts.legal_probes += len(legal)
        for probe in self.illegal_sample(state, legal, probes):
            try:
                apply(state, cast(Action, probe))  # junk included
            except IllegalActionError as exc:
                if exc.action is not probe or not isinstance(exc.reason, str) or not exc.reason:
                    self.fail("legality", f"refusing {probe!r} gave an unclear error: {exc}")
            except Exception as exc:
                self.fail("legality", f"{probe!r} raised {exc!r}, not IllegalActionError")
            else:
                self.fail("legality", f"the unlisted action {probe!r} was accepted")
            if not same_contents(before, state_contents(state)):
                self.fail("purity", f"refusing {probe!r} changed the state")
            if is_legal(state, cast(Action, probe)):
                self.fail("legality", f"is_legal says the unlisted action {probe!r} is legal")
        if hash(state) != digest:
            self.fail("purity", "refusing unlisted actions changed the state's hash")

    def illegal_sample(self, state: State, legal: tuple[Action, ...], probes: int) -> list[object]:
        """Return unlisted actions to try: near misses, then a random sample.

        Near misses: passing or stopping when not allowed, every bid or raise
        not allowed in the auction, revokes (cards held but not playable),
        calling a card held, giving back the called card, chance outcomes
        that are not outcomes. Then one junk object, one action of another
        kind, and ``probes`` random card actions.
        """
        rng = self.probe_rng
        listed = set(legal)
        phase = state.phase
        near: list[Action] = [PASS, DONE]
        if phase in (Phase.BIDDING, Phase.RAISING):
            near.extend(_NO_CARD_ACTIONS)
        seat = state.to_move
        if seat is not None and phase in (Phase.PLAYING, Phase.CALLING):
            table = PLAYS if phase is Phase.PLAYING else CALLS
            near.extend(table[card.index] for card in state.hand(seat))
        if phase is Phase.GIVING_BACK and state.called is not None:
            near.append(GIVE_BACKS[state.called.index])
        if phase is Phase.DRAWING:
            near.extend((Draw(state.stock), Draw(CardSet()), Draw(CardSet.of(rng.sample(DECK, 2)))))
        near.append(rng.choice(_NO_CARD_ACTIONS))
        near.extend(rng.choice(_CARD_ACTIONS) for _ in range(probes))
        out: list[object] = list(dict.fromkeys(a for a in near if a not in listed))
        out.append(rng.choice(_JUNK))
        self.counts.illegal_probes += len(out)
        return out

    # --- (d) determinism -------------------------------------------------------

    def check_determinism(self) -> None:
        """The seed gives the same deal; the same deal and actions give the same states."""
        first = self.states[0]
        deal = first.deal
        self.step = 0
        again = new_deal(self.rules, dealer=self.dealer, seed=self.deal_seed)
        if again != first or hash(again) != hash(first):
            self.fail("determinism", f"seed {self.deal_seed} gave two different deals")
        state = deal_from(self.rules, deal.hands, deal.stock, dealer=deal.dealer)
        if state != first:
            self.fail("determinism", "deal_from of the same deal gave another first state")
        for step, action in enumerate(self.actions):
            self.step = step
            if legal_actions(state) != self.legals[step]:
                self.fail("determinism", "the replay lists other legal actions (or another order)")
            state = apply(state, action)
            if state != self.states[step + 1]:
                self.fail("determinism", f"replaying {action} gave another state")
        self.step = len(self.actions)
        if hash(state) != hash(self.states[-1]) or state.result != self.states[-1].result:
            self.fail("determinism", "the replayed deal ends in another state")
        self.counts.replays += 1

    # --- (d') rollout -----------------------------------------------------------

    def check_rollouts(self) -> None:
        """``rollout`` ends where the loop it stands for ends, from two states of the deal."""
        rng = random.Random(f"calabrasella.testing rollout {self.deal_seed}")
        for step in sorted({0, rng.randrange(len(self.states))}):
            self.step, state, seed = step, self.states[step], rng.getrandbits(32)
            fast, loop = rollout(state, random.Random(seed)), the_loop(state, random.Random(seed))
            if fast != loop:
                detail = f"ends otherwise than the loop: {history_diff(fast, loop)}"
                self.fail("rollout", f"rollout(state, random.Random({seed})) {detail}")
            self.counts.rollouts += 1
        self.step = len(self.actions)

    # --- (e) conservation ------------------------------------------------------

    def check_result(self, state: State) -> None:
        """A played deal distributes the ruleset's units (35: 11 points); payments add up to 0."""
        result = state.result
        players = self.rules.players
        if result is None:
            self.fail("conservation", "the deal is over but has no result")
        if len(result.payments) != players or sum(result.payments) != 0:
            self.fail("conservation", f"the payments {result.payments} do not add up to 0")
        plays = played_cards(state)
        if state.history and type(state.history[-1][1]) in (Abandon, TurnStock):  # table mode
            problem = table_mode_problem(state)
            return None if problem is None else self.fail("conservation", problem)
        if result.void:
            if plays or any(result.payments) or state.exchange is not None:
                self.fail("conservation", "a void deal was played or paid")
            return
        declarer = state.declarer
        if declarer is None or result.declarer != declarer or result.contract != state.contract:
            self.fail("conservation", "the result names another declarer or contract")
        rules = self.rules
        every = 3 * rules.play_sizes(state.contract, state.modifier)[0]  # type: ignore[arg-type]
        if len(plays) != every or any(state.hands):
            self.fail("conservation", f"the deal ended after {len(plays)} cards played, not {every}")
        try:
            du, au, dt, at = recount_tricks(state)
        except ValueError as exc:
            self.fail("conservation", str(exc))
        penalty = revoke_penalty(state, du, au)
        du, au = du + penalty, au - penalty
        got = (result.declarer_units, result.adversary_units)
        whole = sum(rules.card_units(card) for card in range(40)) + rules.last_trick_units
        if rules.deal_units != whole:
            self.fail("conservation", f"deal_units is {rules.deal_units}, the cards' and last trick's {whole}")
        if sum(got) != whole:
            self.fail("conservation", f"the sides' units {got} do not add up to {whole}")
        if got != (du, au):
            self.fail("conservation", f"the sides' units are {got}; the tricks say {(du, au)}")
        if (result.declarer_points, result.adversary_points) != (du // 3, au // 3):
            self.fail("conservation", "the sides' points are not their units // 3")
        if (result.declarer_tricks, result.adversary_tricks) != (dt, at):
            self.fail("conservation", f"the tricks are {(dt, at)}, the result says otherwise")
        if result.winner is None or result.value != result.base * result.multiplier:
            self.fail("conservation", "a played deal has no winner, or value != base x multiplier")
        sign = 1 if result.winner is Side.DECLARER else -1
        for seat in range(players):
            want: tuple[int, ...] = (-sign * result.value,)
            if seat == declarer:
                continue
            if seat not in state.deal.order:
                want = (0, -sign * result.value)
            if result.payments[seat] not in want:
                self.fail(
                    "conservation",
                    f"seat {seat} pays {-result.payments[seat]}, not the value {result.value} "
                    f"the {result.winner.value} won",
                )
        paid = rules.units_payment(result.declarer_units)
        if paid is not None and paid != sign * result.value:
            self.fail("conservation", f"units_payment gives {paid}, each adversary pays {sign * result.value}")

    # --- (f) views -------------------------------------------------------------

    def check_views(self, view_steps: int, attempts: int) -> None:
        """A seat's views are equal in worlds that differ only in cards it cannot know."""
        if not view_steps or not attempts:
            return
        rng = self.probe_rng
        steps = rng.sample(range(len(self.states)), min(view_steps, len(self.states)))
        for k in sorted(steps):
            for seat in range(self.rules.players):
                for _ in range(attempts):
                    perm = world_permutation(self.states[k], seat, rng)
                    if perm is None:
                        break
                    world = self.replay_world(perm, k)
                    if world is None:
                        self.counts.worlds_rejected += 1
                        continue
                    self.compare_views(seat, world, perm)
                    break

    def replay_world(self, perm: Sequence[int], k: int) -> list[State] | None:
        """Replay the deal's first ``k`` actions with cards relabelled by ``perm``.

        Return ``None`` when the alternative world is inconsistent: an action
        became illegal or the deal's public course (phase, seat to move) changed.
        """
        deal = self.states[0].deal
        hands = [relabel_cards(h, perm) for h in deal.hands]
        state = deal_from(self.rules, hands, relabel_cards(deal.stock, perm), dealer=deal.dealer)
        world = [state]
        for step in range(k):
            self.step = step
            action = relabel_action(self.actions[step], perm)
            try:
                state = apply(state, action)
            except IllegalActionError:
                return None
            except Exception as exc:
                self.fail("views", f"replaying {action} in an alternative world raised {exc!r}")
            ref = self.states[step + 1]
            if state.phase != ref.phase or state.to_move != ref.to_move:
                return None
            world.append(state)
        return world

    def compare_views(self, seat: int, world: list[State], perm: Sequence[int]) -> None:
        for step, alt in enumerate(world):
            self.step = step
            mine, theirs = self.states[step].view(seat), alt.view(seat)
            self.counts.views_checked += 1
            if mine != theirs:
                swaps = ", ".join(f"{DECK[i]}->{DECK[j]}" for i, j in enumerate(perm) if i != j)
                self.fail(
                    "views",
                    f"seat {seat}'s view changes when cards it cannot know are swapped "
                    f"({swaps}): {view_diff(mine, theirs)}",
                )
