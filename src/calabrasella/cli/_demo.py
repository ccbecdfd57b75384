"""``calabrasella demo``: play one seeded deal between random players and print it.

The demo deals with
``new_deal(rules, dealer=N, seed=SEED)``; the players choose uniformly among
the legal actions of their own view with ``random.Random(SEED)``, which also
draws the chance outcomes, so the same seed prints the same deal on every
machine. It tells only what the engine reports: the ruleset's ``terms``, the
exposed cards, the forced moves, who leads after each trick, and the result.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import calabrasella as cb
from calabrasella.scoring import plural as _n

from ._render import format_cards, result_lines, suit_legend

__all__ = ["DEFAULT_SEED", "demo"]

#: The seed the demo uses when none is given.
DEFAULT_SEED = 7

#: A line of the exchange: the words before the cards, the cards, the words after.
_Line = tuple[str, list[cb.Card], str]


def _header(state: cb.State, seed: int, symbols: bool) -> list[str]:
    """The ruleset, its options, the seed and the dealer; then the hands dealt."""
    rules, deal = state.rules, state.deal
    options = ", ".join(f"{name}={value}" for name, value in rules.options().items())
    legend = suit_legend(symbols=symbols)
    lines = [
        f"calabrasella {cb.__version__}: one deal of {rules.terms.title} between random players",
        f"rules   {rules.name} (version {rules.version}): {options}",
        f"seed    {seed}: the deal is new_deal(rules, dealer={deal.dealer}, seed={seed});"
        f" the players choose with random.Random({seed})",
        f"dealer  seat {deal.dealer}; eldest hand seat {deal.eldest}"
        + ("; the dealer sits out" if state.players == 4 else ""),
        "",
        f"The deal (sorted by suit: {legend})",
    ]
    roles = {deal.dealer: " dealer", deal.eldest: " eldest"}
    rows = [(f"seat {seat}{roles.get(seat, '')}", hand) for seat, hand in enumerate(deal.hands)]
    for label, cards in [*rows, (rules.terms.stock, deal.stock)]:
        shown = f"{format_cards(cards, symbols=symbols):<42}  {_n(cards.units, 'unit')}"
        lines.append(f"  {label:<14}  {shown if cards else '(no cards: sits out)'}")
    return lines


def _exchange(
    seat: int, action: cb.Action, before: cb.State, after: cb.State, *, symbols: bool, forced: bool
) -> _Line | None:
    """Return the line telling an action (or forced move) of the exchange; None for none."""
    stock, notes = after.rules.terms.stock, ["no choice"] if forced else []
    if isinstance(action, (cb.Discard, cb.Take, cb.Draw)):
        if isinstance(action, cb.Draw):
            head, cards = f"{'' if forced else 'chance: '}seat {seat} draws ", [*action.cards]
            where = f" unseen from the {stock}"
        elif isinstance(action, cb.Take):
            head, cards, where = f"seat {seat} takes ", [action.card], f" from the {stock}"
            notes += [] if action.card in after.exposed else ["face down"]
        else:
            head, cards, where = f"seat {seat} discards ", [action.card], ""
            notes.append("face down")
        return head, cards, where + (f" ({', '.join(notes)})" if notes else "")
    if isinstance(action, cb.Call):
        gives = f"seat {after.giver} gives it up"
        if after.giver is None:
            gives = f"it is in the {stock}, nobody gives anything"
        return f"seat {seat} calls {format_cards([action.card], symbols=symbols)}: {gives}", [], ""
    if isinstance(action, cb.GiveBack) and before.giver is not None:
        card, pair = format_cards([action.card], symbols=symbols), sorted((seat, before.giver))
        third = next(s for s in after.deal.order if s not in pair)  # did the third seat see it?
        seen = after.view(third).given_back is not None
        how = "face up" if seen else f"face down: only seats {pair[0]} and {pair[1]} see it"
        return f"seat {seat} gives back {card} to seat {before.giver} ({how})", [], ""
    if isinstance(action, cb.Raise):
        return f"seat {seat} raises: {action.modifier.value}", [], ""
    if isinstance(action, cb.Pass):
        return f"seat {seat} does not raise", [], ""
    if isinstance(action, cb.Done):  # ends a run of takes or discards; alone, it takes nothing
        took = before.history[-1][0] == seat and isinstance(before.history[-1][1], cb.Take)
        nothing = before.phase is cb.Phase.TAKING and not took
        return (f"seat {seat} takes nothing", [], "") if nothing else None
    return f"seat {seat}: {action}", [], ""


def _result(state: cb.State) -> list[str]:
    """The sides' units (and points) and tricks, the contract, the value, payments, notes."""
    assert state.result is not None
    return result_lines(state.result, state.rules.terms, sorted(state.deal.order))


def demo(rules: cb.Ruleset, *, seed: int, dealer: int = 0, symbols: bool = True) -> str:
    """Play one deal between random players; return its account, one line per event.

    Raises:
        SeatError: ``dealer`` is not a seat at the table.

    Example:
        >>> print(demo(cb.CAVENDISH, seed=7, symbols=False).splitlines()[-3])
          payments: seat 0 -11, seat 1 +22, seat 2 -11
    """
    rng, state = random.Random(seed), cb.new_deal(rules, dealer=dealer, seed=seed)
    stock = rules.terms.stock

    def show(cards: Iterable[cb.Card]) -> str:
        return format_cards(cards, symbols=symbols)

    auction, play, trick = ["Auction (the eldest hand speaks first)"], list[str](), list[str]()
    exchange: list[_Line] = []

    def say(line: _Line | None) -> None:  # a seat's run of discards or takes goes on one line
        if line and line[1] and exchange and exchange[-1][1] and exchange[-1][::2] == line[::2]:
            exchange[-1][1].extend(line[1])
        elif line:
            exchange.append(line)

    while not state.is_over:
        before, actor = state, state.to_move
        action: cb.Action
        if actor is None:
            action = cb.sample_chance(state, rng)
        else:
            action = rng.choice(state.view(actor).legal_actions)
        state = cb.apply(state, action)
        seat = state.history[-1][0]
        if before.phase is cb.Phase.BIDDING:
            auction.append(f"  seat {seat}: {action}")
            if state.contract is not None:
                won = f"the {rules.terms.declarer}: {state.contract.value}"
                auction.append(f"  => seat {state.declarer} is {won}")
        elif isinstance(action, cb.Play):
            trick.append(f"seat {seat}: {show([action.card])}")
            if not state.trick:  # the trick is complete: its winner leads the next one
                units = state.card_units_won[state.leader] - before.card_units_won[state.leader]
                won = f"seat {state.leader} wins {_n(units, 'unit')}"
                play.append(f"  {state.tricks_played:>2}. {'  '.join(trick)}  -> {won}")
                trick = []
        else:
            say(_exchange(seat, action, before, state, symbols=symbols, forced=False))
        if state.exposed != before.exposed:
            say((f"the {stock} is turned face up: ", [*(state.exposed - before.exposed)], ""))
        for _, who, move in state.forced_moves[len(before.forced_moves) :]:
            say(_exchange(who, move, before, state, symbols=symbols, forced=True))
        if state.phase is cb.Phase.PLAYING and before.phase is not cb.Phase.PLAYING:
            say((f"the {stock} for the winner of the last trick (face down): ", [*state.stock], ""))
            play.append(f"Play (seat {state.leader} leads to the first trick)")
    if play:
        to = f"{show(state.stock)} ({_n(state.stock.units, 'unit')}) to seat {state.leader}'s side"
        play.append(f"      last trick: {state.rules.last_trick_units} units more, and the {stock} {to}")
        told = [f"  {head}{show(cards) if cards else ''}{tail}" for head, cards, tail in exchange]
        play = ["Exchange", *told, "", *play]
    else:
        auction.append("  everybody passed: the deal is void")
    sections = [_header(state, seed, symbols), auction, play, _result(state)]
    return "\n\n".join("\n".join(lines) for lines in sections if lines) + "\n"
