"""Analysis of a played deal: what each card played was worth, and what it cost.

:func:`analyse` replays a :class:`~calabrasella.Record` and, at every card
play, values each legal play two ways:

- **with every hand open**: the declarer's units at the end of the deal
  when all three play perfectly from then on (:func:`~calabrasella.bots.action_values`).
  This is exact, and it is what hindsight says: the player could not see
  the other hands.
- **as an estimate from the seat's own view** (``worlds`` > 0): the same
  values averaged over that many deals drawn at random among those the
  seat could not tell from the real one (:class:`~calabrasella.bots.Sampler`),
  each solved with every hand open. It is an estimate: seeded, so the
  same record and seed give the same numbers, and stated with the number
  of worlds it averages.

One search serves the whole deal: the positions it settled valuing one
decision (kept in its transposition table) are there for the next, whose
positions are among them, so each decision after the first costs a
fraction of a whole-deal solve; the values are those a new search at each
decision finds.

Every value is in the declarer's units, as the deal's
:class:`~calabrasella.Result` reports ``declarer_units``. The units a play
*lost* are counted from the mover's side: the declarer wants more units,
an adversary fewer, so a play that lost nothing is one of the best.

The exchange's last decision, the one whose every option starts the play
(the last discard, say), is valued the same way when it has at most
:data:`EXCHANGE_OPTIONS` options (``exchange_options``): each option's value is the play's
with every hand open. Bids and the exchange's earlier decisions are listed
and not analysed: their worth depends on cards still to be seen and on
every decision after them, a tree of whole deals to solve, beyond what a
quick analysis should cost. Table mode's irregular actions (a revoke, a
play out of turn, an abandon) are listed and not analysed either; the
plays after them are.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, Optional, Union

import attrs

import calabrasella as cb
from calabrasella.scoring import plural

from ._shared import Shared, shared_action_values, shared_value
from .sampling import Sampler
from .solver import SearchLimitError, SolveError, _action_values

__all__ = ["Analysis", "Decision", "analyse"]

#: The most worlds :func:`analyse` averages a decision over.
MAX_WORLDS = 1000

_AUCTION = frozenset({cb.Phase.BIDDING})
#: By default an exchange decision is valued when each of at most this many options starts
#: the play: each option is a whole deal to solve (a Calabresella discard has a dozen or more).
EXCHANGE_OPTIONS = 4
_IRREGULAR = (cb.Revoke, cb.OutOfTurn, cb.Abandon, cb.TurnStock)


class _Values(Mapping[cb.Action, Any]):
    """An immutable, hashable mapping of actions to values, in the order given."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[cb.Action, Any]) -> None:
        self._data = dict(data)

    def __getitem__(self, key: cb.Action) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[cb.Action]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __eq__(self, other: object) -> bool:
        return dict(self._data) == dict(other.items()) if isinstance(other, Mapping) else NotImplemented

    def __repr__(self) -> str:
        return repr(self._data)


def _frozen_values(value: Mapping[cb.Action, Any]) -> Mapping[cb.Action, Any]:
    """An immutable, hashable copy (in the order given)."""
    return _Values(value)


def _optional_values(
    value: Optional[Mapping[cb.Action, float]],
) -> Optional[Mapping[cb.Action, float]]:
    return None if value is None else _frozen_values(value)


@attrs.frozen(kw_only=True)
class Decision:
    """One decision of a played deal and, for a card play, what each legal option was worth.

    Attributes:
        index: Its place among the record's actions (0 for the first).
        seat: The seat that acted.
        stage: ``"auction"``, ``"exchange"`` or ``"play"``.
        trick: The trick it was played to (1 for the first), for a play; else ``None``.
        action: The action taken.
        analysed: Whether the open-hand values below were found.
        note: Why not, when not analysed (``""`` when analysed).
        values: Each legal play and the declarer's units at the end of
            the deal after it, with every hand open and perfect play from
            then on (empty when not analysed).
        best: The best of those values for the seat that acted: the
            highest for the declarer, the lowest for an adversary.
        chosen: The value of the action taken.
        lost: The units the action taken lost against the best, from the
            mover's side (``abs(best - chosen)``, 0 for a best play).
        worlds: The number of sampled worlds the estimate averages (0: none made).
        estimate: Each legal play's value averaged over ``worlds`` worlds
            drawn from the seat's own view (``None`` when none was made).
        estimate_lost: The units the action taken lost against the best
            estimate, from the mover's side (``None`` when none was made).
    """

    index: int
    seat: int
    stage: str
    trick: Optional[int]
    action: cb.Action
    analysed: bool
    note: str = ""
    values: Mapping[cb.Action, int] = attrs.field(factory=dict, converter=_frozen_values)
    best: Optional[int] = None
    chosen: Optional[int] = None
    lost: Optional[int] = None
    worlds: int = 0
    estimate: Optional[Mapping[cb.Action, float]] = attrs.field(
        default=None, converter=_optional_values
    )
    estimate_lost: Optional[float] = None


@attrs.frozen(kw_only=True)
class Analysis:
    """The analysis of a played deal (:func:`analyse`): every decision, in order.

    In a notebook it shows as its chart (``_repr_svg_``): the units lost
    trick by trick, each seat's bar, the biggest mistake marked.

    Attributes:
        rules: The deal's ruleset.
        declarer: The declarer's seat (``None`` when nobody declared: all
            passed, or the record ends in the auction).
        contract: The contract in words (``"stand"``, ``"solo dividete"``), or ``""``.
        declarer_units: The declarer's units at the end of the deal as played
            (``None`` when the record is not finished or nobody played).
        worlds: The worlds asked for each estimate (0: no estimates).
        seed: The seed of the sampled worlds.
        decisions: Every decision of the deal, in the order played.
        finished: Whether the deal is over (all passed, or played out);
            ``False`` for a record that stops before its end.
    """

    rules: cb.Ruleset
    declarer: Optional[int]
    contract: str
    declarer_units: Optional[int]
    worlds: int
    seed: int
    decisions: tuple[Decision, ...]
    finished: bool = True

    @property
    def players(self) -> int:
        """The number of seats at the table."""
        return self.rules.players

    @property
    def biggest(self) -> Optional[Decision]:
        """The analysed decision that lost the most units with every hand open
        (the first such, if several tie), or ``None`` when none lost any."""
        worst: Optional[Decision] = None
        for decision in self.decisions:
            if decision.lost and (worst is None or decision.lost > (worst.lost or 0)):
                worst = decision
        return worst

    def lost_by_seat(self) -> tuple[int, ...]:
        """The units each seat's analysed decisions lost in all, every hand open (seat 0 first)."""
        totals = [0] * self.players
        for decision in self.decisions:
            if decision.lost:
                totals[decision.seat] += decision.lost
        return tuple(totals)

    def to_data(self) -> dict[str, Any]:
        """Return the analysis as plain JSON data (its shape is in the docs' analysis page).

        Actions are written in notation (``"play Ad"``); the values of each
        decision are an object from an action to its units.
        """

        def values(mapping: Optional[Mapping[cb.Action, Any]]) -> Optional[dict[str, Any]]:
            if mapping is None:
                return None
            return {str(action): value for action, value in mapping.items()}

        biggest = self.biggest
        return {
            "type": "analysis",
            "format": 1,
            "ruleset": self.rules.name,
            "declarer": self.declarer,
            "contract": self.contract,
            "declarer_units": self.declarer_units,
            "finished": self.finished,
            "deal_units": self.rules.deal_units,
            "worlds": self.worlds,
            "seed": self.seed,
            "biggest": None if biggest is None else biggest.index,
            "lost_by_seat": list(self.lost_by_seat()),
            "decisions": [
                {
                    "index": d.index,
                    "seat": d.seat,
                    "stage": d.stage,
                    "trick": d.trick,
                    "action": str(d.action),
                    "analysed": d.analysed,
                    "note": d.note,
                    "values": values(d.values),
                    "best": d.best,
                    "chosen": d.chosen,
                    "lost": d.lost,
                    "worlds": d.worlds,
                    "estimate": values(d.estimate),
                    "estimate_lost": d.estimate_lost,
                }
                for d in self.decisions
            ],
        }

    def to_text(self) -> str:
        """Return the analysis as a text table, a decision a line, and a summary."""
        return _render(self)

    def _repr_svg_(self) -> str:
        from calabrasella import svg  # at call time: importing the bots leaves it unloaded

        return svg.analysis(self)


def _stage(phase: cb.Phase) -> str:
    if phase in _AUCTION:
        return "auction"
    if phase is cb.Phase.PLAYING:
        return "play"
    return "exchange"


def _best(values: Mapping[cb.Action, float], declarer: bool) -> float:
    return max(values.values()) if declarer else min(values.values())


def _lost(best: float, chosen: float) -> float:
    return abs(best - chosen)


def _estimate(
    state: cb.State, seat: int, worlds: int, seed: int, index: int, max_nodes: Optional[int]
) -> tuple[Optional[dict[cb.Action, float]], str]:
    """Each legal play's value averaged over ``worlds`` worlds of ``seat``'s view."""
    try:
        sampler = Sampler(state.view(seat))
    except cb.CalabrasellaError as error:  # a ruleset the sampler does not know
        return None, f"no estimate: {error}"
    rng = random.Random(f"{seed}:{index}")
    sums: dict[cb.Action, float] = {}
    for _ in range(worlds):
        try:
            world = sampler.sample(rng)
            found, _nodes = _action_values(world, "analyse", max_nodes, 0.0, None)
        except SearchLimitError:
            return None, "no estimate: a world's search passed the node limit"
        except cb.CalabrasellaError as error:  # no world drawn under a ruleset's own rule
            return None, f"no estimate: {error}"
        for action, value in found.items():
            sums[action] = sums.get(action, 0.0) + value
    return {action: total / worlds for action, total in sums.items()}, ""


def _exchange_values(
    shared: Shared, state: cb.State, action: cb.Action, max_nodes: Optional[int], most: int
) -> Union[dict[cb.Action, int], str]:
    """Each option's value when every option starts the play, else why it is not valued."""
    legal = [a for a in cb.legal_actions(state) if not isinstance(a, _IRREGULAR)]
    if action not in legal:
        return f"an irregular action ({type(action).__name__.lower()}) is not valued"
    after = {option: cb.apply(state, option) for option in legal}  # a few dozen at most
    if any(next_.phase is not cb.Phase.PLAYING for next_ in after.values()):
        return "an exchange decision before the last is not valued"
    if len(legal) > most:
        return f"an exchange decision of {len(legal)} options is not valued (more than {most})"
    found: dict[cb.Action, int] = {}
    guess: Optional[int] = None
    # the option taken last: the search the shared object keeps goes on with its play
    for option in sorted(after, key=lambda option: option == action):
        try:
            found[option], _nodes = shared_value(
                shared, after[option], "analyse", max_nodes, guess
            )
        except (SearchLimitError, SolveError) as error:
            return str(error)
        guess = found[option]
    return {option: found[option] for option in legal}


def _check(worlds: object, seed: object, max_nodes: object) -> None:
    if type(worlds) is not int or not 0 <= worlds <= MAX_WORLDS:
        raise ValueError(f"worlds={worlds!r}: expected an int from 0 to {MAX_WORLDS}")
    if type(seed) is not int:
        raise ValueError(f"seed={seed!r}: expected an int")
    if max_nodes is not None and (type(max_nodes) is not int or max_nodes < 1):
        raise ValueError(f"max_nodes={max_nodes!r}: expected a positive int or None")


def tricks_in_deal(state: cb.State) -> int:
    """The number of tricks ``state``'s deal has: the cards each seat holds when the play begins.

    Example:
        >>> tricks_in_deal(cb.new_deal(cb.CAVENDISH, seed=1))
        12
    """
    if state.contract is not None:
        return state.rules.play_sizes(state.contract, state.modifier)[0]
    return max(len(hand) for hand in state.deal.hands)  # no contract: each seat's cards as dealt


def analyse(
    record: Union[cb.Record, cb.State],
    *,
    worlds: int = 0,
    seed: int = 0,
    max_nodes: Optional[int] = None,
    exchange_options: int = EXCHANGE_OPTIONS,
    from_trick: int = 1,
) -> Analysis:
    """Analyse every decision of a played deal (see the module docstring).

    Args:
        record: The deal: a :class:`~calabrasella.Record`, or a
            :class:`~calabrasella.State` (its history is the deal). It need
            not be finished: the decisions made so far are analysed.
        worlds: For each card play, also average the options over this
            many worlds drawn from the mover's own view (0, the default:
            only the open-hand values). Each world is a whole search.
        seed: The seed of those worlds: the same record, worlds and seed
            give the same analysis.
        max_nodes: Give up a decision's search (or a world's) after this
            many positions searched for it: the decision is then marked not
            analysed (or without estimate), saying why. ``None``: no limit.
        exchange_options: Value the exchange's last decision (every option
            starting the play) when it has at most this many options
            (default :data:`EXCHANGE_OPTIONS`; 0 never). Each option is a
            whole deal to solve.
        from_trick: Value only the plays from this trick on (1, the
            default: every decision); the decisions before it are listed,
            not analysed. An ending is much cheaper than a whole deal.

    Returns:
        The :class:`Analysis`: each decision with its options' values, the
        units its action lost, and the estimate when asked for.

    Raises:
        ValueError: ``record`` is neither a Record nor a State, or
            ``worlds``, ``seed``, ``max_nodes``, ``exchange_options`` or
            ``from_trick`` is out of range (``from_trick`` past the deal's
            last trick included).

    Example:
        The ending of :func:`~calabrasella.bots.solve`'s example: the declarer
        (seat 1) leads the 2d where the ace was worth 2 units more, and seat 0
        takes the trick with the 3d, which gives the declarer 7 units more
        than the Qd would have:

        >>> import calabrasella as cb
        >>> from calabrasella.bots import analyse
        >>> state = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> while state.phase is not cb.Phase.PLAYING or state.tricks_played < 10:
        ...     state = cb.apply(state, cb.legal_actions(state)[-1])
        >>> for text in ["play 2d", "play 3h", "play 3d"]:
        ...     state = cb.apply(state, cb.parse_action(text))
        >>> analysis = analyse(state, from_trick=11)  # the ending alone
        >>> [(d.seat, str(d.action), d.chosen, d.best, d.lost) for d in analysis.decisions[-3:]]
        [(1, 'play 2d', 12, 14, 2), (2, 'play 3h', 12, 12, 0), (0, 'play 3d', 19, 12, 7)]
    """
    if isinstance(record, cb.State):
        record = cb.Record.from_state(record)
    if not isinstance(record, cb.Record):
        raise ValueError(f"analyse() needs a Record or a State, not {type(record).__name__}")
    _check(worlds, seed, max_nodes)
    if type(from_trick) is not int or from_trick < 1:
        raise ValueError(f"from_trick={from_trick!r}: expected an int from 1 up")
    if type(exchange_options) is not int or exchange_options < 0:
        raise ValueError(f"exchange_options={exchange_options!r}: expected an int from 0 up")
    final = record.replay()
    tricks = tricks_in_deal(final)
    if from_trick > tricks:
        raise ValueError(f"from_trick={from_trick}: expected 1 to {tricks}, the deal's tricks")
    # one search for the deal: each decision's solve starts from what the earlier ones learnt
    with Shared() as shared:
        decisions = _decisions(
            record, final, shared, worlds, seed, max_nodes, exchange_options, from_trick
        )
    result = final.result
    contract = " ".join(c.value for c in (final.contract, final.modifier) if c is not None)
    return Analysis(
        rules=final.rules,
        declarer=final.declarer,
        contract=contract,
        declarer_units=None if result is None or result.void else result.declarer_units,
        worlds=worlds,
        seed=seed,
        decisions=tuple(decisions),
        finished=final.is_over,
    )


def _decisions(
    record: cb.Record,
    final: cb.State,
    shared: Shared,
    worlds: int,
    seed: int,
    max_nodes: Optional[int],
    exchange_options: int,
    from_trick: int,
) -> list[Decision]:
    """Every decision of ``record`` (which ends in ``final``), analysed as :func:`analyse` says."""
    history = final.history
    decisions: list[Decision] = []
    known: Optional[int] = None  # the value of the state reached, when the last play found it
    for index, state in enumerate(record.states()):
        if index == len(history):
            break
        seat, action = history[index]
        if state.phase is cb.Phase.DRAWING:  # chance, not a decision
            known = None
            continue
        stage = _stage(state.phase)
        trick = state.tricks_played + 1 if stage == "play" else None
        common: dict[str, Any] = {"index": index, "seat": seat, "stage": stage,
                                  "trick": trick, "action": action}  # fmt: skip
        if from_trick > 1 and (trick or 0) < from_trick and stage != "auction":
            note = f"before trick {from_trick}, where the analysis starts"
            decisions.append(Decision(analysed=False, note=note, **common))
            known = None
            continue
        if stage == "exchange":
            found_exchange = _exchange_values(shared, state, action, max_nodes, exchange_options)
            if isinstance(found_exchange, str):
                decisions.append(Decision(analysed=False, note=found_exchange, **common))
                known = None
                continue
            by_declarer = seat == state.declarer
            best = int(_best(found_exchange, by_declarer))
            chosen = found_exchange[action]
            valued = Decision(
                analysed=True,
                values=found_exchange,
                best=best,
                chosen=chosen,
                lost=int(_lost(best, chosen)),
                **common,
            )
            decisions.append(valued)
            known = chosen
            continue
        if stage != "play":
            decisions.append(Decision(analysed=False, note="a bid is not valued", **common))
            known = None
            continue
        if not isinstance(action, cb.Play) or seat != state.to_move:
            note = f"an irregular action ({type(action).__name__.lower()}) is not valued"
            decisions.append(Decision(analysed=False, note=note, **common))
            known = None
            continue
        legal = [a for a in cb.legal_actions(state) if isinstance(a, cb.Play)]
        if len(legal) == 1 and known is not None:  # forced: worth what the state is worth
            values: dict[cb.Action, int] = {action: known}
        else:
            try:
                guess = None if known is None else dict.fromkeys(legal, known)
                found, _nodes = shared_action_values(shared, state, "analyse", max_nodes, guess)
            except (SearchLimitError, SolveError) as error:
                decisions.append(Decision(analysed=False, note=str(error), **common))
                known = None
                continue
            values = {play: units for play, units in found.items()}
        by_declarer = seat == state.declarer
        best = int(_best(values, by_declarer))
        chosen = values[action]
        estimate: Optional[dict[cb.Action, float]] = None
        estimate_lost: Optional[float] = None
        note = ""
        if worlds and len(legal) > 1:
            estimate, note = _estimate(state, seat, worlds, seed, index, max_nodes)
            if estimate is not None:
                estimate_lost = round(_lost(_best(estimate, by_declarer), estimate[action]), 2)
                estimate = {a: round(v, 2) for a, v in estimate.items()}
        decisions.append(
            Decision(
                analysed=True,
                note=note,
                values=values,
                best=best,
                chosen=chosen,
                lost=int(_lost(best, chosen)),
                worlds=worlds if estimate is not None else 0,
                estimate=estimate,
                estimate_lost=estimate_lost,
                **common,
            )
        )
        known = chosen
    return decisions


# --- the text table (Analysis.to_text) ------------------------------------------------


def _number(value: float) -> str:
    return f"{value:g}"


def _card(action: cb.Action) -> str:
    return action.card.code if isinstance(action, cb.Play) else str(action)


def _options(decision: Decision, declarer: bool) -> str:
    """The options, best first for the mover, each with its open-hand value."""
    ordered = sorted(decision.values.items(), key=lambda kv: -kv[1] if declarer else kv[1])
    return ", ".join(f"{_card(a)} {v}" for a, v in ordered)


def _header(analysis: Analysis) -> list[str]:
    """The lines above the table: the deal, what the numbers are."""
    rules = analysis.rules
    if analysis.declarer is None and analysis.finished:
        head = f"Analysis of a {rules.name} deal: nobody played (all passed)"
    elif analysis.declarer is None:
        head = f"Analysis of a {rules.name} deal: unfinished, it stops in the auction (nobody has declared)"
    else:
        head = f"Analysis of a {rules.name} deal: {analysis.contract} by seat {analysis.declarer}"
        if analysis.declarer_units is not None:
            head += f", {analysis.declarer_units} of {rules.deal_units} units to the declarer"
        elif not analysis.finished:
            head += ", unfinished"
    lines = [
        head,
        "Values: the declarer's units at the end of the deal, every hand open, perfect play after.",
        "Lost: units the play gave away against the best play, from the mover's side.",
    ]
    if analysis.worlds:
        lines.append(
            f"Estimate: the same averaged over {plural(analysis.worlds, 'world')} drawn from the "
            f"mover's own view (seed {analysis.seed}); an estimate, not exact."
        )
    return lines


def _render(analysis: Analysis) -> str:
    """The whole text: the header, a line per decision, the totals and the biggest mistake."""
    lines = [*_header(analysis), ""]
    estimate = analysis.worlds > 0
    columns = f"{'trick':<9}{'seat':<5}{'action':<16}{'value':>6}{'best':>6}{'lost':>6}"
    lines.append(columns + (f"{'est.lost':>10}" if estimate else "") + "  options (open hands)")
    for d in analysis.decisions:
        where = str(d.trick) if d.trick is not None else d.stage
        row = f"{where:<9}{d.seat:<5}{d.action!s:<16}"
        if not d.analysed:
            lines.append(row + f"  not analysed: {d.note}")
            continue
        row += f"{d.chosen:>6}{d.best:>6}{d.lost:>6}"
        if estimate:
            row += f"{'-' if d.estimate_lost is None else _number(d.estimate_lost):>10}"
        mark = "  <- biggest mistake" if analysis.biggest is d else ""
        lines.append(row + "  " + _options(d, d.seat == analysis.declarer) + mark)
    lines.append("")
    lost = analysis.lost_by_seat()
    lines.append("Units lost, every hand open: " + ", ".join(
        f"seat {seat} {units}" for seat, units in enumerate(lost)))  # fmt: skip
    worst = analysis.biggest
    if worst is None:
        lines.append("No play lost a unit.")
    else:
        where = f"trick {worst.trick}" if worst.trick is not None else f"the {worst.stage}"
        did = "played" if isinstance(worst.action, cb.Play) else "chose"
        best = [_card(a) for a, v in worst.values.items() if v == worst.best]
        named = best[0] if len(best) == 1 else ", ".join(best[:-1]) + " or " + best[-1]
        lines.append(
            f"Biggest mistake: {where}, seat {worst.seat} {did} "
            f"{_card(worst.action)} ({plural(worst.lost or 0, 'unit')} lost): the best was "
            f"{named}, {worst.best} units to the declarer against {worst.chosen}."
        )
    return "\n".join(lines) + "\n"
