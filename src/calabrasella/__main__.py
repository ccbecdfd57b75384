"""The command line: play one seeded demo deal between random players.

Usage::

    calabrasella demo [--rules cavendish|calabresella] [--seed N] [--dealer N] [--ascii]
    calabrasella --version

``python -m calabrasella`` is the same as the ``calabrasella`` command. The
demo deals with ``new_deal(rules, dealer=N, seed=SEED)``; the three players
choose uniformly among the legal actions of their own view with
``random.Random(SEED)``, which also draws the chance outcomes (dividete's
unseen draw). The same seed prints the same deal on every machine.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable, Sequence
from typing import TextIO

import attrs

import calabrasella as cb

__all__ = ["main"]

#: The seed the demo uses when none is given.
DEFAULT_SEED = 7

_SUIT_SYMBOLS = "♦♥♠♣"


@attrs.frozen
class _Step:
    """One transition of the demo deal.

    Attributes:
        before: The state the action was applied to.
        seat: The seat that acted (for a chance outcome, the seat that drew).
        action: The action applied.
        after: The state the action led to.
    """

    before: cb.State
    seat: int
    action: cb.Action
    after: cb.State


@attrs.frozen
class _Terms:
    """The words a ruleset's sources use for the stock and the declarer.

    Attributes:
        stock: ``"stock"`` (Cavendish) or ``"monte"`` (Calabresella).
        declarer: ``"single player"`` (Cavendish) or ``"declarer"``.
        base: What the value is made of: the ``"difference"`` of the sides'
            units (Cavendish) or the ``"stake"`` (Calabresella).
    """

    stock: str = "stock"
    declarer: str = "declarer"
    base: str = "base"


def _terms(rules: cb.Ruleset) -> _Terms:
    """Return the words for ``rules``' stock, declarer and base value.

    Args:
        rules: The ruleset of the deal.

    Returns:
        Cavendish's words for a :class:`calabrasella.Cavendish`, the Italian
        game's for a :class:`calabrasella.Calabresella`, neutral ones otherwise.
    """
    if isinstance(rules, cb.Cavendish):
        return _Terms(stock="stock", declarer="single player", base="difference")
    if isinstance(rules, cb.Calabresella):
        return _Terms(stock="monte", declarer="declarer", base="stake")
    return _Terms()


# --- playing --------------------------------------------------------------------


def play_random_deal(rules: cb.Ruleset, *, seed: int, dealer: int = 0) -> list[_Step]:
    """Play one deal between random players and return its transitions.

    The deal is ``new_deal(rules, dealer=dealer, seed=seed)``. Each player
    picks uniformly among ``state.view(seat).legal_actions`` with
    ``random.Random(seed)``; chance nodes are drawn with
    :func:`calabrasella.sample_chance` from the same generator.

    Args:
        rules: The ruleset to play.
        seed: The seed of the deal and of the players' choices.
        dealer: The dealer's seat.

    Returns:
        The transitions from the first action to the end of the deal.

    Raises:
        RecordError: ``dealer`` is not a seat of the table.

    Example:
        >>> steps = play_random_deal(cb.CAVENDISH, seed=7)
        >>> steps[-1].after.is_over, sum(steps[-1].after.result.payments)
        (True, 0)
    """
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=dealer, seed=seed)
    steps: list[_Step] = []
    while not state.is_over:
        before = state
        if state.is_chance:
            action: cb.Action = cb.sample_chance(state, rng)
        else:
            seat = state.to_move
            assert seat is not None
            action = rng.choice(state.view(seat).legal_actions)
        state = cb.apply(state, action)
        who = state.history[-1][0]
        steps.append(_Step(before, who, action, state))
    return steps


# --- formatting -------------------------------------------------------------------


def format_cards(cards: Iterable[cb.Card], *, symbols: bool = True) -> str:
    """Return cards sorted by suit, the suits two spaces apart.

    Args:
        cards: The cards, in any order.
        symbols: Write suits as Unicode symbols (``A♦``) rather than letters (``Ad``).

    Returns:
        The cards in canonical order (coins, cups, swords, batons; the
        strongest rank first), or ``"-"`` when there are none.

    Example:
        >>> format_cards(cb.CardSet.parse("Kc 3s Ad As 7d"))
        'A♦ 7♦  3♠ A♠  K♣'
        >>> format_cards(cb.CardSet.parse("Kc 3s"), symbols=False)
        '3s  Kc'
    """
    groups: dict[cb.Suit, list[str]] = {}
    for card in sorted(cards):
        groups.setdefault(card.suit, []).append(card.symbol if symbols else card.code)
    if not groups:
        return "-"
    return "  ".join(" ".join(group) for group in groups.values())


def _card(card: cb.Card, symbols: bool) -> str:
    """Return one card's notation, with a suit symbol or a suit letter."""
    return card.symbol if symbols else card.code


def _seat(seat: int) -> str:
    """Return a seat's name."""
    return f"seat {seat}"


def _seats(seats: Iterable[int]) -> str:
    """Return the names of several seats, such as ``'seats 0 and 2'``."""
    names = [str(s) for s in seats]
    if len(names) == 1:
        return f"seat {names[0]}"
    return f"seats {', '.join(names[:-1])} and {names[-1]}"


def _plural(n: int, word: str) -> str:
    """Return ``n`` and ``word``, with an ``s`` unless ``n`` is 1."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _signed(n: int) -> str:
    """Return ``n`` with its sign (``+3``, ``-3``, ``0``)."""
    return f"{n:+d}" if n else "0"


def _header(rules: cb.Ruleset, seed: int, dealer: int, first: cb.State) -> list[str]:
    """Return the lines naming the ruleset, its options, the seed and the dealer."""
    options = ", ".join(f"{name}={value}" for name, value in rules.options().items())
    return [
        f"calabrasella {cb.__version__}: one deal between random players",
        f"rules   {rules.name} (version {rules.version}): {options}",
        f"seed    {seed}: the deal is new_deal(rules, dealer={dealer}, seed={seed});"
        f" the players choose with random.Random({seed})",
        f"dealer  {_seat(dealer)}; eldest hand {_seat(first.deal.eldest)}"
        + ("; the dealer sits out" if first.players == 4 else ""),
    ]


def _deal_lines(first: cb.State, terms: _Terms, symbols: bool) -> list[str]:
    """Return the lines showing each seat's dealt hand and the stock."""
    deal = first.deal
    legend = ", ".join(
        f"{suit.symbol if symbols else suit.letter} {name}"
        for suit, name in zip(cb.Suit, ("coins", "cups", "swords", "batons"), strict=True)
    )
    lines = [f"The deal (sorted by suit: {legend})"]
    rows: list[tuple[str, cb.CardSet]] = []
    for seat, hand in enumerate(deal.hands):
        role = " dealer" if seat == deal.dealer else " eldest" if seat == deal.eldest else ""
        rows.append((f"{_seat(seat)}{role}", hand))
    rows.append((terms.stock, deal.stock))
    for label, cards in rows:
        if not cards:
            lines.append(f"  {label:<14}  (no cards: sits out)")
            continue
        shown = format_cards(cards, symbols=symbols)
        lines.append(f"  {label:<14}  {shown:<42}  {_plural(cards.units, 'unit')}")
    return lines


def _auction_lines(steps: Sequence[_Step], terms: _Terms) -> list[str]:
    """Return the lines of the auction: each call, then who declares what."""
    lines = ["Auction (the eldest hand speaks first)"]
    for step in steps:
        if step.before.phase is cb.Phase.BIDDING:
            lines.append(f"  {_seat(step.seat)}: {step.action}")
    end = steps[-1].after if steps else None
    for step in steps:
        if step.before.phase is cb.Phase.BIDDING and step.after.phase is not cb.Phase.BIDDING:
            end = step.after
            break
    if end is None or end.declarer is None or end.contract is None:
        lines.append("  everybody passed: the deal is void")
    else:
        lines.append(f"  => {_seat(end.declarer)} is the {terms.declarer}: {end.contract.value}")
    return lines


class _Exchange:
    """Narrate the exchange (call, give-back, discards, exposed stock, takes).

    Consecutive discards or takes of one seat are grouped on one line.

    Attributes:
        terms: The ruleset's words.
        symbols: Whether to write suits as symbols.
        lines: The lines so far.
    """

    def __init__(self, terms: _Terms, symbols: bool) -> None:
        self.terms = terms
        self.symbols = symbols
        self.lines: list[str] = []
        self._group: tuple[str, int, list[cb.Card]] | None = None

    def _say(self, text: str) -> None:
        self.flush()
        self.lines.append(f"  {text}")

    def flush(self) -> None:
        """Write out the pending group of discards or takes, if any."""
        if self._group is None:
            return
        kind, seat, cards = self._group
        self._group = None
        shown = format_cards(cards, symbols=self.symbols)
        if kind == "discard":
            self.lines.append(f"  {_seat(seat)} discards {shown} (face down)")
        else:
            self.lines.append(f"  {_seat(seat)} takes {shown} from the {self.terms.stock}")

    def _add(self, kind: str, seat: int, card: cb.Card) -> None:
        if self._group is not None and self._group[:2] == (kind, seat):
            self._group[2].append(card)
            return
        self.flush()
        self._group = (kind, seat, [card])

    def step(self, step: _Step) -> None:
        """Narrate one transition (an action and what the engine did after it)."""
        before, after = step.before, step.after
        if before.phase is not cb.Phase.BIDDING:
            self._action(step)
        elif after.phase is cb.Phase.BIDDING or after.is_over:
            return
        self._exposed(before, after)
        self._moved(before, after, step.action)
        if after.phase is cb.Phase.PLAYING and before.phase is not cb.Phase.PLAYING:
            self._say(
                f"the {self.terms.stock} for the winner of the last trick (face down): "
                f"{format_cards(after.stock, symbols=self.symbols)}"
            )

    def _action(self, step: _Step) -> None:
        action, seat, before, after = step.action, step.seat, step.before, step.after
        sym = self.symbols
        if isinstance(action, cb.Raise):
            self._say(f"{_seat(seat)} raises: {action.modifier.value}")
        elif isinstance(action, cb.Pass):
            self._say(f"{_seat(seat)} does not raise")
        elif isinstance(action, cb.Call):
            card = _card(action.card, sym)
            if after.giver is None:
                self._say(
                    f"{_seat(seat)} calls {card}: it is in the {self.terms.stock}, "
                    "nobody gives anything"
                )
            else:
                self._say(f"{_seat(seat)} calls {card}: {_seat(after.giver)} gives it up")
        elif isinstance(action, cb.GiveBack):
            giver = before.giver
            assert giver is not None
            self._say(
                f"{_seat(seat)} gives back {_card(action.card, sym)} to {_seat(giver)} "
                f"({_give_back_visibility(after, seat, giver)})"
            )
        elif isinstance(action, cb.Discard):
            self._add("discard", seat, action.card)
        elif isinstance(action, cb.Take):
            self._add("take", seat, action.card)
        elif isinstance(action, cb.Done):
            if self._group is not None and self._group[1] == seat:
                self.flush()
            elif before.phase is cb.Phase.TAKING:
                self._say(f"{_seat(seat)} takes nothing")
            else:
                self._say(f"{_seat(seat)} discards nothing")
        elif isinstance(action, cb.Draw):
            self._say(
                f"chance: {_seat(seat)} draws {format_cards(action.cards, symbols=sym)} "
                f"unseen from the {self.terms.stock}"
            )

    def _exposed(self, before: cb.State, after: cb.State) -> None:
        """Say which stock cards were turned face up by this transition."""
        seat = after.deal.order[0]
        new = after.view(seat).exposed - before.view(seat).exposed
        if new:
            self._say(
                f"the {self.terms.stock} is turned face up: "
                f"{format_cards(new, symbols=self.symbols)}"
            )

    def _moved(self, before: cb.State, after: cb.State, action: cb.Action) -> None:
        """Say which stock cards the engine moved into a hand by itself (forced moves)."""
        by_action = cb.CardSet()
        if isinstance(action, (cb.Take, cb.Call)):
            by_action = cb.CardSet.of([action.card])
        elif isinstance(action, cb.Draw):
            by_action = action.cards
        moved = (before.stock - after.stock) - by_action
        if not moved:
            return
        seat = after.deal.order[0]
        exposed = after.view(seat).exposed
        for holder in range(after.players):
            got = moved & after.hand(holder)
            if not got:
                continue
            shown = format_cards(got, symbols=self.symbols)
            if got <= exposed:
                self._say(f"{_seat(holder)} takes {shown} from the {self.terms.stock}")
            elif holder == after.declarer:
                self._say(
                    f"{_seat(holder)} takes {shown} from the {self.terms.stock} "
                    "(not shown to the others)"
                )
            else:
                self._say(f"{_seat(holder)} draws {shown} unseen from the {self.terms.stock}")


def _give_back_visibility(after: cb.State, declarer: int, giver: int) -> str:
    """Say who saw the card given back: everybody, or only the two seats concerned."""
    others = [s for s in after.deal.order if s not in (declarer, giver)]
    if others and after.view(others[0]).given_back is not None:
        return "face up"
    return f"face down: only {_seats(sorted((declarer, giver)))} see it"


def _exchange_lines(steps: Sequence[_Step], terms: _Terms, symbols: bool) -> list[str]:
    """Return the lines of everything between the auction and the first lead."""
    narrator = _Exchange(terms, symbols)
    for step in steps:
        if step.before.phase is cb.Phase.PLAYING:
            break
        narrator.step(step)
    narrator.flush()
    if not narrator.lines:
        narrator.lines.append("  (nothing: the play starts at once)")
    return ["Exchange", *narrator.lines]


def _winner(trick: Sequence[tuple[int, cb.Card]]) -> int:
    """Return the seat that wins a complete trick: the highest card of the suit led."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if card.beats(best):
            best_seat, best = seat, card
    return best_seat


def _play_lines(steps: Sequence[_Step], terms: _Terms, symbols: bool) -> list[str]:
    """Return one line per trick: the seat that led, the cards, the winner and the units."""
    plays = [s for s in steps if isinstance(s.action, cb.Play)]
    if not plays:
        return []
    lines = [f"Play ({_seat(plays[0].seat)} leads to the first trick)"]
    trick: list[tuple[int, cb.Card]] = []
    number = 0
    for step in plays:
        assert isinstance(step.action, cb.Play)
        trick.append((step.seat, step.action.card))
        if len(trick) < 3:
            continue
        number += 1
        winner = _winner(trick)
        units = sum(card.units for _, card in trick)
        cards = "  ".join(f"{_seat(seat)}: {_card(card, symbols)}" for seat, card in trick)
        lines.append(f"  {number:>2}. {cards}  -> {_seat(winner)} wins {_plural(units, 'unit')}")
        if step.after.is_over:
            stock = step.after.stock
            lines.append(
                f"      last trick: 3 units more, and the {terms.stock} "
                f"{format_cards(stock, symbols=symbols)} ({_plural(stock.units, 'unit')}) "
                f"to {_seat(winner)}'s side"
            )
        trick = []
    return lines


def _result_lines(final: cb.State, terms: _Terms) -> list[str]:
    """Return the lines of the result: units, winner, value, payments and notes."""
    result = final.result
    assert result is not None
    lines = ["Result"]
    payments = ", ".join(f"{_seat(s)} {_signed(p)}" for s, p in enumerate(result.payments))
    if result.void or result.declarer is None:
        lines.append("  void deal: nobody pays")
    else:
        declarer = result.declarer
        adversaries = sorted(s for s in final.deal.order if s != declarer)
        points = isinstance(final.rules, cb.Calabresella)
        d_pts = f" ({_plural(result.declarer_points, 'point')})" if points else ""
        a_pts = f" ({_plural(result.adversary_points, 'point')})" if points else ""
        lines.append(
            f"  {terms.declarer} ({_seat(declarer)}): {_plural(result.declarer_units, 'unit')}"
            f"{d_pts}, {_plural(result.declarer_tricks, 'trick')}"
        )
        lines.append(
            f"  adversaries ({_seats(adversaries)}): {_plural(result.adversary_units, 'unit')}"
            f"{a_pts}, {_plural(result.adversary_tricks, 'trick')}"
        )
        winner = terms.declarer if result.declarer_won else "adversaries"
        contract = result.contract.value if result.contract is not None else "?"
        if result.modifier is not None:
            contract += f" {result.modifier.value}"
        value = f"{result.value}"
        if result.multiplier != 1:
            bonus = result.bonus.value.replace("_", " ") if result.bonus is not None else ""
            value += f" = {terms.base} {result.base} x {result.multiplier} ({bonus})"
        else:
            value += f" (the {terms.base})"
        lines.append(f"  contract: {contract}; winner: the {winner}")
        lines.append(f"  value: {value}, paid by or to each adversary")
    lines.append(f"  payments: {payments}")
    lines.extend(f"  note: {note}" for note in result.notes)
    return lines


def format_demo(
    rules: cb.Ruleset, steps: Sequence[_Step], *, seed: int, dealer: int, symbols: bool = True
) -> str:
    """Return the readable account of a deal played by :func:`play_random_deal`.

    Args:
        rules: The ruleset played.
        steps: The deal's transitions, from the first action to the end.
        seed: The seed the deal was played with (shown in the header).
        dealer: The dealer's seat.
        symbols: Write suits as Unicode symbols rather than letters.

    Returns:
        The text, one line per event, ending with a newline.
    """
    first = steps[0].before if steps else cb.new_deal(rules, dealer=dealer, seed=seed)
    final = steps[-1].after if steps else first
    terms = _terms(rules)
    sections = [
        _header(rules, seed, dealer, first),
        _deal_lines(first, terms, symbols),
        _auction_lines(steps, terms),
    ]
    if final.declarer is not None:
        sections.append(_exchange_lines(steps, terms, symbols))
        sections.append(_play_lines(steps, terms, symbols))
    sections.append(_result_lines(final, terms))
    return "\n\n".join("\n".join(lines) for lines in sections if lines) + "\n"


def _supports_symbols(stream: TextIO) -> bool:
    """Tell whether ``stream`` can encode the Unicode suit symbols."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return False
    try:
        _SUIT_SYMBOLS.encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return False
    return True


# --- the command line -------------------------------------------------------------


def _build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``calabrasella`` command."""
    parser = argparse.ArgumentParser(
        prog="calabrasella",
        description="Rules engine for Calabrasella (Cavendish) and Calabresella (Terziglio).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {cb.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    demo = commands.add_parser(
        "demo",
        help="play one seeded deal between random players and print it",
        description=(
            "Play one deal between random players and print it: the hands, the auction, "
            "the exchange, every trick and the result. The same seed gives the same deal."
        ),
    )
    demo.add_argument(
        "--rules",
        choices=cb.ruleset_names(),
        default="cavendish",
        help="the ruleset, with its default options (default: cavendish)",
    )
    demo.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        metavar="N",
        help=f"seed of the deal and of the players' choices (default: {DEFAULT_SEED})",
    )
    demo.add_argument(
        "--dealer", type=int, default=0, metavar="N", help="the dealer's seat (default: 0)"
    )
    demo.add_argument(
        "--ascii",
        action="store_true",
        help="write suits as letters (d h s c) instead of the symbols ♦ ♥ ♠ ♣",
    )
    return parser


def _write(text: str, stream: TextIO) -> int:
    """Write ``text`` to ``stream``; return 0, or 1 if the reader went away."""
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the ``calabrasella`` command line.

    Args:
        argv: The arguments, without the program name; ``sys.argv[1:]`` when
            ``None``.

    Returns:
        The exit status: 0 on success.

    Raises:
        SystemExit: For ``--help``, ``--version`` and bad arguments (argparse's
            usual exits, status 0 or 2).

    Example:
        >>> import contextlib, io
        >>> out = io.StringIO()
        >>> with contextlib.redirect_stdout(out):
        ...     status = main(["demo", "--seed", "7", "--ascii"])
        >>> status, out.getvalue().splitlines()[-1].startswith("  note:")
        (0, True)
    """
    parser = _build_parser()
    args = parser.parse_args(argv)
    rules = cb.find_ruleset(args.rules)
    if not 0 <= args.dealer < rules.players:
        parser.error(f"--dealer {args.dealer}: expected a seat 0..{rules.players - 1}")
    steps = play_random_deal(rules, seed=args.seed, dealer=args.dealer)
    symbols = not args.ascii and _supports_symbols(sys.stdout)
    text = format_demo(rules, steps, seed=args.seed, dealer=args.dealer, symbols=symbols)
    return _write(text, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
