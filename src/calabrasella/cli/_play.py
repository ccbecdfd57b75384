"""``calabrasella play``: one deal at the terminal, a person against two bots.

The person sees only their seat's view (:meth:`calabrasella.State.view`):
the loop reads the state for whose turn it is and hands every other
question to a view, so nothing on the screen can show a card the seat may
not know. Moves are chosen from a numbered menu, by number or by typing the
move (any text :func:`calabrasella.parse_action` reads, or a card alone
when exactly one move uses it). Lines come from an injectable ``read``
function (``input`` by default) and text goes to ``out``, so a whole deal
can be driven from a script.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

import calabrasella as cb
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.errors import CommandError
from calabrasella.scoring import plural as _n

from ._render import (
    action_text,
    active_seats,
    card_text,
    format_cards,
    menu_lines,
    result_lines,
    suit_legend,
)

__all__ = [
    "OPPONENTS",
    "CommandError",
    "Opponent",
    "Reader",
    "heuristic_opponent",
    "interpret",
    "make_opponent",
    "play_deal",
    "random_opponent",
]

#: Reads one line after writing a prompt, like :func:`input`; raises :class:`EOFError` at the end.
Reader = Callable[[str], str]
#: A bot: given its seat's view (that seat is to act), returns one of the view's legal actions.
Opponent = Callable[[cb.View], cb.Action]

_QUIT = frozenset({"quit", "q", "exit"})
_HELP = frozenset({"help", "h", "?", "menu"})
_NUMBER = re.compile(r"[+-]?[0-9]+")
_LONGEST = 120  # a line longer than this is no move


class _Bad(Exception):
    """A line that is not one of the moves on the menu; the message says why."""


def random_opponent(seed: int | str) -> Opponent:
    """Return a bot that chooses uniformly among its legal actions, seeded by ``seed``.

    Example:
        >>> bot = random_opponent(7)
        >>> bot(cb.new_deal(cb.CAVENDISH, seed=1).view(1)) in (cb.Pass(), cb.Bid("stand"))
        True
    """
    rng = random.Random(seed)

    def choose(view: cb.View) -> cb.Action:
        return rng.choice(view.legal_actions)

    return choose


def heuristic_opponent(seed: int | str) -> Opponent:
    """Return a :class:`~calabrasella.bots.HeuristicBot`'s choice, seeded by ``seed``.

    Example:
        >>> bot = heuristic_opponent(7)
        >>> bot(cb.new_deal(cb.CAVENDISH, seed=1).view(1)) in (cb.Pass(), cb.Bid("stand"))
        True
    """
    return HeuristicBot(random.Random(seed)).choose


#: The bots ``play --opponents NAME`` may sit at the table: a name, and a maker taking a seed.
OPPONENTS: dict[str, Callable[[int | str], Opponent]] = {
    "heuristic": heuristic_opponent,
    "random": random_opponent,
}


def make_opponent(name: str, seed: int | str) -> Opponent:
    """Return the bot called ``name``, seeded by ``seed``.

    ``name`` is one of :data:`OPPONENTS`, ``sampling`` (a
    :class:`~calabrasella.bots.SamplingBot`) or ``module:Class`` for any bot
    class (called with a ``random.Random``).

    Raises:
        CommandError: No bot has that name.

    Example:
        >>> make_opponent("random", 1) is not None
        True
        >>> make_opponent("oracle", 1)
        Traceback (most recent call last):
        ...
        calabrasella.errors.CommandError: --opponents: no bot called 'oracle' (known: heuristic, random, sampling, or module:Class)
    """
    maker = OPPONENTS.get(name.strip().lower())
    if maker is not None:
        return maker(seed)
    from ._bots import find_bot

    return find_bot(name, "--opponents")(random.Random(seed)).choose


def interpret(
    line: str, legal: Sequence[cb.Action], *, symbols: bool = True, view: cb.View | None = None
) -> cb.Action:
    """Return the move ``line`` chooses among ``legal`` (numbered from 1).

    A line is a number from the menu, a move in any form
    :func:`calabrasella.parse_action` reads (``"play A♦"``, ``"bid stand"``,
    ``"pass"``), or a card alone when exactly one legal move uses it. Given
    the player's ``view``, a card it may not play is refused with the reason
    (a suit to follow, a card no longer held).

    Raises:
        CommandError: The line chooses no legal move; the message, one line,
            says why and what to type.

    Example:
        >>> legal = (cb.Pass(), cb.Bid("stand"))
        >>> interpret("2", legal), interpret(" STAND ", legal)
        (Bid(contract=<Contract.STAND: 'stand'>), Bid(contract=<Contract.STAND: 'stand'>))
        >>> interpret("3", legal)
        Traceback (most recent call last):
        ...
        calabrasella.errors.CommandError: there is no move 3: type a number from 1 to 2
    """
    try:
        return _interpret(line, legal, symbols, view)
    except _Bad as bad:
        raise CommandError(str(bad)) from None


def _interpret(
    line: str, legal: Sequence[cb.Action], symbols: bool, view: cb.View | None = None
) -> cb.Action:
    text = " ".join(line.split())
    count = len(legal)
    numbers = f"a number from 1 to {count}" if count > 1 else "1"
    if not text:
        raise _Bad(f"type {numbers}, a move such as '{_example(legal, symbols)}', or 'help'")
    if len(text) > _LONGEST:
        raise _Bad(f"that line is {len(text)} characters long: type {numbers}")
    if _NUMBER.fullmatch(text):
        number = int(text)
        if 1 <= number <= count:
            return legal[number - 1]
        raise _Bad(f"there is no move {number}: type {numbers}")
    try:
        action = cb.parse_action(text)
    except cb.NotationError:
        return _by_card(text, legal, numbers, symbols, view)
    if action in legal:
        return action
    why = _why_not(action, legal, view, symbols)
    if why:
        raise _Bad(f"{why} ('help' lists your moves)")
    shown = action_text(action, symbols=symbols)
    raise _Bad(f"'{shown}' is not one of your moves now: type {numbers} ('help' lists them)")


def _why_not(action: cb.Action, legal: Sequence[cb.Action], view: cb.View | None, symbols: bool) -> str:
    """Why a card play is not among the legal moves, read off the view and its moves ("" if unknown)."""
    if view is None or not isinstance(action, cb.Play) or view.phase is not cb.Phase.PLAYING:
        return ""
    card = action.card
    written = card_text(card, symbols=symbols)
    if card not in view.hand:
        if card in view.cards_played[view.seat]:
            return f"you no longer hold {written}: you played it"
        if card in view.discards:
            return f"you no longer hold {written}: you discarded it"
        return f"you do not hold {written}"
    plays = [a.card for a in legal if isinstance(a, cb.Play)]
    if view.trick and plays:
        led = view.trick[0][1].suit
        if card.suit != led and all(c.suit == led for c in plays):
            suit = led.symbol if symbols else led.name.lower()
            return f"you must follow {suit}: play one of your {suit} cards"
    return ""


def _by_card(
    text: str, legal: Sequence[cb.Action], numbers: str, symbols: bool, view: cb.View | None = None
) -> cb.Action:
    """A card alone: the one legal move that uses it."""
    try:
        card = cb.Card.parse(text)
    except cb.NotationError:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise _Bad(
            f"not a move: {shown!r}; type {numbers}, a move such as "
            f"'{_example(legal, symbols)}', or 'help'"
        ) from None
    uses = [action for action in legal if getattr(action, "card", None) == card]
    if len(uses) == 1:
        return uses[0]
    written = card_text(card, symbols=symbols)
    if not uses:
        why = _why_not(cb.Play(card), legal, view, symbols)
        if why:
            raise _Bad(f"{why} ('help' lists your moves)")
        raise _Bad(f"no move of yours uses {written} now: type {numbers} ('help' lists them)")
    which = " or ".join(f"'{action_text(a, symbols=symbols)}'" for a in uses)
    raise _Bad(f"{written} fits several moves: type {which}")


def _example(legal: Sequence[cb.Action], symbols: bool) -> str:
    """A move to show in a hint: the last on the menu (a card, if any move names one)."""
    return action_text(legal[-1], symbols=symbols) if legal else "pass"


_TASKS = {
    cb.Phase.BIDDING: "bid or pass",
    cb.Phase.CALLING: "call a card",
    cb.Phase.DISCARDING: "discard a card",
    cb.Phase.RAISING: "raise or pass",
    cb.Phase.PLAYING: "play a card",
}


class _Table:
    """What the seat at the terminal is told: each event as its view shows it."""

    def __init__(self, seat: int, out: TextIO, symbols: bool) -> None:
        self.seat, self.out, self.symbols = seat, out, symbols
        self.seen: cb.View | None = None
        self.shown: cb.CardSet | None = None

    def say(self, *lines: str) -> None:
        self.out.write("".join(line + "\n" for line in lines))

    def cards(self, cards: Sequence[cb.Card] | cb.CardSet) -> str:
        return format_cards(cards, symbols=self.symbols)

    def who(self, seat: int) -> str:
        return "you" if seat == self.seat else f"seat {seat}"

    def does(self, seat: int, verb: str) -> str:
        """``"seat 2 wins"``, ``"you win"``: the seat and the verb agreeing."""
        return f"you {verb}" if seat == self.seat else f"seat {seat} {verb}s"

    def hand(self, view: cb.View, label: str = "your hand") -> list[str]:
        """The hand, unless it is the one shown last."""
        if view.hand == self.shown:
            return []
        self.shown = view.hand
        return [f"  {label}  {self.cards(view.hand)}"]

    def start(self, view: cb.View, seed: int, opponents: str) -> None:
        rules, players = view.rules, view.rules.players
        options = ", ".join(f"{name}={value}" for name, value in rules.options().items())
        eldest = (view.dealer + 1) % players
        self.say(
            f"calabrasella {cb.__version__}: {rules.terms.title}, you against two {opponents} bots",
            f"rules   {rules.name} (version {rules.version}): {options}",
            f"seed    {seed} (the same seed deals the same cards)",
            f"you     seat {self.seat}; dealer seat {view.dealer}; eldest hand seat {eldest}"
            + ("; the dealer sits out" if players == 4 else ""),
            f"suits   {suit_legend(symbols=self.symbols)}",
            "Type a move's number, or the move as the menu writes it (a card alone will do);",
            "'help' shows the menu and the tricks won so far; 'quit' leaves the deal.",
            "",
            *self.hand(view, "Your hand"),
            "",
            "Auction (the eldest hand speaks first)",
        )
        self.seen = view

    def update(self, view: cb.View) -> None:
        """Tell what changed between the last view and this one."""
        before = self.seen
        assert before is not None
        self.seen = view
        terms = view.rules.terms
        for seat, action in view.history[len(before.history) :]:
            text = self._action(action, view)
            if before.phase is cb.Phase.RAISING and isinstance(action, cb.Pass):
                text += " (no raise)"
            self.say(f"  {self.who(seat)}: {text}")
        if before.declarer is None and view.declarer is not None and view.contract is not None:
            who = "you are" if view.declarer == self.seat else f"seat {view.declarer} is"
            self.say(
                f"  => {who} the {terms.declarer}: {view.contract.value}",
                "",
                "Exchange",
            )
        if view.exposed != before.exposed:
            shown = self.cards(view.exposed - before.exposed)
            self.say(f"  the {terms.stock} is turned face up: {shown}")
        for _, seat, action in view.forced_moves[len(before.forced_moves) :]:
            self.say(f"  {self.who(seat)}: {self._action(action, view)} (no choice)")
        if view.phase not in (cb.Phase.BIDDING, cb.Phase.PLAYING, cb.Phase.OVER):
            self.say(*self.hand(view, "your hand now"))
        if sum(view.tricks_won) > sum(before.tricks_won):
            self._trick_won(before, view)
        if view.phase is cb.Phase.PLAYING and before.phase is not cb.Phase.PLAYING:
            self.say("", f"Play ({self.does(view.leader, 'lead')} to the first trick)")
        if view.is_over:
            self._end(view)

    def _action(self, action: cb.Action | cb.Hidden, view: cb.View) -> str:
        text = action_text(action, symbols=self.symbols)
        if isinstance(action, cb.Call):
            if view.giver is None:
                return f"{text} (it is in the {view.rules.terms.stock}: nobody gives anything)"
            return f"{text} ({self.does(view.giver, 'give')} it up)"
        return text

    def _trick_won(self, before: cb.View, view: cb.View) -> None:
        winner = next(s for s, (a, b) in enumerate(zip(before.tricks_won, view.tricks_won)) if b > a)
        units = view.card_units_won[winner] - before.card_units_won[winner]
        last = view.history[-1]
        card = getattr(last[1], "card", None)
        played = [*before.trick, *([(last[0], card)] if isinstance(card, cb.Card) else [])]
        cards = ", ".join(f"{self.who(s)} {card_text(c, symbols=self.symbols)}" for s, c in played)
        number = sum(view.tricks_won)
        self.say(f"  trick {number}: {cards}  -> {self.does(winner, 'win')} {_n(units, 'unit')}")

    def _end(self, view: cb.View) -> None:
        result = view.result
        assert result is not None
        stock = view.rules.terms.stock
        if view.final_stock is not None:
            to = "your side" if view.leader == self.seat else f"seat {view.leader}'s side"
            self.say(
                f"  last trick: {view.rules.last_trick_units} units more, and the {stock} "
                f"{self.cards(view.final_stock)} ({_n(view.final_stock.units, 'unit')}) to {to}"
            )
        seats = active_seats(view.rules.players, view.dealer)
        self.say("", *result_lines(result, view.rules.terms, seats, you=self.seat))
        paid = result.payments[self.seat]
        verdict = f"you win {paid}" if paid > 0 else f"you pay {-paid}" if paid < 0 else "you neither win nor pay"
        self.say(f"  {verdict}")

    def situation(self, view: cb.View, *, again: bool = False) -> list[str]:
        """The lines shown before the menu: in the play the trick so far; the hand if new."""
        lines = []
        if view.phase is cb.Phase.PLAYING:
            number = sum(view.tricks_won) + 1
            if view.trick:
                so_far = ", ".join(
                    f"{self.who(s)} {card_text(c, symbols=self.symbols)}" for s, c in view.trick
                )
                lines.append(f"  trick {number} so far: {so_far}")
            else:
                lines.append(f"  trick {number}: you lead")
        if again:
            self.shown = None
        return [*lines, *self.hand(view)]

    def status(self, view: cb.View) -> list[str]:
        """What ``help`` adds: the contract, the exchange so far, tricks and units won."""
        terms = view.rules.terms
        lines = []
        if view.declarer is not None and view.contract is not None:
            raised = f" {view.modifier.value}" if view.modifier is not None else ""
            who = "you are" if view.declarer == self.seat else f"seat {view.declarer} is"
            lines.append(f"  {who} the {terms.declarer}: {view.contract.value}{raised}")
        if view.called is not None:
            lines.append(f"  called: {card_text(view.called, symbols=self.symbols)}")
        if view.given_back is not None:
            lines.append(f"  given back: {card_text(view.given_back, symbols=self.symbols)}")
        if view.exposed:
            lines.append(f"  {terms.stock} shown to all: {self.cards(view.exposed)}")
        if view.discards:
            lines.append(f"  your discards: {self.cards(view.discards)}")
        if view.drawn:
            lines.append(f"  you drew: {self.cards(view.drawn)}")
        won = ", ".join(
            f"{self.who(s)} {_n(view.tricks_won[s], 'trick')} ({_n(view.card_units_won[s], 'unit')})"
            for s in active_seats(view.rules.players, view.dealer)
        )
        lines.append(f"  won so far: {won}")
        return lines

    def menu(self, view: cb.View) -> list[str]:
        task = _TASKS.get(view.phase, view.phase_name)
        if view.phase is cb.Phase.GIVING_BACK and view.giver is not None:
            task = f"give a card back to {self.who(view.giver)}"
        elif view.phase is cb.Phase.TAKING:
            task = f"take a card from the {view.rules.terms.stock}"
        if cb.Done() in view.legal_actions:
            task += ", or done"
        choices = [action_text(a, symbols=self.symbols) for a in view.legal_actions]
        return [f"Your turn, seat {self.seat}: {task}", *menu_lines(choices)]


def play_deal(
    rules: cb.Ruleset,
    *,
    seat: int,
    dealer: int = 0,
    seed: int = 7,
    opponents: str = "heuristic",
    symbols: bool = True,
    read: Reader = input,
    out: TextIO | None = None,
) -> cb.State:
    """Play one deal with a person at ``seat``; return the last state (over, or left).

    The other seats are bots from :data:`OPPONENTS`; the deal is
    ``new_deal(rules, dealer=dealer, seed=seed)``, and the bots and the
    chance draws are seeded from ``seed`` too, so the same seed and the same
    answers give the same deal. ``read`` is asked for a line whenever the
    person is to move; ``quit`` or the end of input (:class:`EOFError`, or
    Ctrl-C) leaves the deal unfinished, and the state reached is returned.
    Bad lines get a one-line message and the question again.

    Raises:
        SeatError: ``seat`` or ``dealer`` is not a seat at the table.
        CommandError: ``seat`` is a dealer who sits out, or no bots are called ``opponents``.

    Example:
        >>> import io
        >>> out = io.StringIO()
        >>> final = play_deal(cb.CAVENDISH, seat=1, seed=7, read=lambda prompt: "1", out=out)
        >>> final.is_over, out.getvalue().splitlines()[-1]
        (True, '  you pay 21')
    """
    state = cb.new_deal(rules, dealer=dealer, seed=seed)
    if type(seat) is not int or not 0 <= seat < rules.players:
        raise cb.SeatError(seat, rules.players)
    if seat not in state.deal.order:
        raise CommandError(f"seat {seat} is the dealer, who sits out at a table of four")
    bots = make_opponent(opponents, f"{seed}/opponents")
    chance = random.Random(f"{seed}/chance")
    table = _Table(seat, out if out is not None else sys.stdout, symbols)
    table.start(state.view(seat), seed, opponents)
    while not state.is_over:
        mover = state.to_move
        action: cb.Action
        if mover is None:
            action = cb.sample_chance(state, chance)
        elif mover == seat:
            chosen = _ask(state.view(seat), table, read)
            if chosen is None:
                table.say("", "You left the deal unfinished.")
                return state
            action = chosen
        else:
            action = bots(state.view(mover))
        state = cb.apply(state, action)
        table.update(state.view(seat))
    return state


def _ask(view: cb.View, table: _Table, read: Reader) -> cb.Action | None:
    """Ask until a line chooses a legal move; ``None`` for quit or the end of input."""
    table.say(*table.situation(view), *table.menu(view))
    unreadable = 0
    while True:
        try:
            line = read("> ")
        except (EOFError, KeyboardInterrupt):
            return None
        except UnicodeDecodeError:  # a line that is not text: ask again, a few times
            unreadable += 1
            if unreadable > 20:
                return None
            table.say("could not read that line (it is not UTF-8 text): type it again")
            continue
        except OSError:  # the input is gone
            return None
        words = " ".join(line.split()).lower()
        if words in _QUIT:
            return None
        if words in _HELP:
            table.say(*table.status(view), *table.situation(view, again=True), *table.menu(view))
            continue
        try:
            return _interpret(line, view.legal_actions, table.symbols, view)
        except _Bad as bad:
            table.say(str(bad))
