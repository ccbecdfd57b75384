"""The exchange: the engine runs a ruleset's exchange steps, and nothing else.

Everything between the auction and the play is a ruleset's plan of steps
(:mod:`calabrasella.rulesets.steps`); each step owns its rule (how it starts,
its legal actions, how it applies one, the phase it waits in, what it
hides). This module only drives them, the same way for every step: copy the
state into a :class:`Work`, let the running step apply the action, start
the next steps until one waits or the play begins, and build the next state
from the work. :func:`calabrasella.rollout` drives the same steps on one work.
"""

from __future__ import annotations

from ._auction import Position
from .actions import Action
from .errors import RulesetError
from .phases import BIDDING, DRAWING, OVER, PLAYING
from .rulesets.steps import Exchange, Step, Work
from .state import HistoryEntry, State, make_state

__all__ = ["advance", "apply_exchange", "begin_exchange", "close", "start_play", "work_of"]


def work_of(state: State) -> Work:
    """Return a fresh working copy of ``state`` (a state of the exchange)."""
    work = Work(
        state._rules,
        list(state._hand_masks),
        state._stock_mask,
        state._exchange,  # type: ignore[arg-type]
        len(state._history) + 1,
        state._phase,
        state._to_move,
        state._history,
    )
    work._tally = getattr(state, "_tally", None)  # (the work before's count of its moves: shared)
    return work


def begin_exchange(state: State, won: Position, history: tuple[HistoryEntry, ...]) -> State:
    """Return the state after the auction's last call: the exchange runs to its first decision."""
    declarer, contract = won.won  # type: ignore[misc]
    record = Exchange.begin(declarer, contract, won.plan, state._deal.order, len(state._hand_masks))
    work = Work(state._rules, list(state._hand_masks), state._stock_mask, record, len(history), history=history)
    advance(work)
    return close(state, work, history)


def apply_exchange(state: State, action: Action) -> State:
    """Return the state after ``action`` in the exchange: the running step applies it."""
    work = work_of(state)
    step = work.plan[work.step]
    if step.apply(work, action):
        work.step += 1
        advance(work)
    entries = work.entries
    history = state._history + (entries[0],) if len(entries) == 1 else state._history + tuple(entries)
    return close(state, work, history)


def advance(work: Work) -> None:
    """Run the plan from ``work.step`` until a step waits for a decision, or begin the play."""
    while work.step < len(work.plan):  # (a raise inserts its steps into the plan as it applies)
        step = work.plan[work.step]
        work.moved = 0
        work.deciding = False
        work.starts += (work.history_length,)  # one start per step, in order
        if step.start(work):
            check_wait(work, step)
            return
        work.step += 1
    start_play(work)


def check_wait(work: Work, step: Step) -> None:
    """Refuse a step that waits in a phase that is not the exchange's, or chance out of DRAWING."""
    phase = work.phase
    if phase is BIDDING or phase is PLAYING or phase is OVER or (
        (work.to_move is None) != (phase is DRAWING)
    ):
        raise RulesetError(
            f"{work.rules.name}: {step!r} waits in phase {phase.name} for "
            f"{'chance' if work.to_move is None else f'seat {work.to_move}'}: an exchange "
            "step waits in an exchange phase, and only chance waits in DRAWING"
        )


def start_play(work: Work) -> None:
    """Check the hands and the stock the exchange leaves; let the first leader lead.

    Raises:
        RulesetError: The ruleset's exchange left a hand or the stock of the wrong size.
    """
    rules = work.rules
    hand_size, stock_size = rules.play_sizes(work.contract, work.modifier)
    for seat in work.order:
        held = work.hands[seat].bit_count()
        if held != hand_size:
            raise RulesetError(
                f"{rules.name}: the exchange leaves seat {seat} with {held} cards, not {hand_size}"
            )
    if work.stock.bit_count() != stock_size:
        raise RulesetError(
            f"{rules.name}: the exchange leaves {work.stock.bit_count()} cards in the stock, "
            f"not {stock_size}"
        )
    work.phase = PLAYING
    work.to_move = rules.first_leader(
        order=work.order, declarer=work.declarer, contract=work.contract, modifier=work.modifier
    )


def close(state: State, work: Work, history: tuple[HistoryEntry, ...]) -> State:
    """Build the next state from the work of one action (``state`` is the one it came from)."""
    if work.phase is PLAYING:
        leader: int = work.to_move  # type: ignore[assignment]
        record = work.exchange()
    else:  # a step waits: list its legal actions now, while the work is at hand
        leader = state._leader
        record = work.exchange(work.plan[work.step].legal_actions(work))
    return make_state(
        rules=state._rules,
        deal=state._deal,
        phase=work.phase,
        to_move=work.to_move,
        hand_masks=tuple(work.hands),
        stock_mask=work.stock,
        exchange=record,
        leader=leader,
        card_units_won=state._card_units_won,
        tricks_won=state._tricks_won,
        history=history,
        tally=work._tally,
    )
