"""The ``calabrasella`` command.

Usage::

    calabrasella play [--rules NAME] [--option KEY=VALUE]... [--seat N] [--dealer N]
                      [--seed N] [--opponents NAME] [--ascii] [--save FILE]
    calabrasella replay FILE [--deal N] [--step] [--ascii]
    calabrasella show FILE [--deal N]
    calabrasella analyse FILE [--deal N] [--format text|json|svg] [--worlds N] [--seed S]
                          [--exchange-options N] [--from-trick N] [--max-nodes N]
    calabrasella rules [NAME]...
    calabrasella demo [--rules NAME] [--seed N] [--dealer N] [--ascii]
    calabrasella simulate [--rules NAME] [--option KEY=VALUE]... [--bots NAMES]
                          [--deals N] [--seed N] [--workers N] [--progress] [--save FILE]
    calabrasella serve [--host H] [--port N] [--rules NAME] [--deals N] [--players N]
                       [--seed N] [--move-time S] [--grace S] [--tables N] [--web PORT]
                       [--save DIR] [--resume DIR]
    calabrasella --version

``python -m calabrasella`` is the same command. ``play`` deals one deal
and lets a person at the terminal play one seat against two bots, showing
only that seat's view, and can save the deal as a record; ``replay``
steps through a saved record (or state) and ``show`` prints it as text;
``analyse`` values every card played in a saved deal (text, JSON or an SVG chart);
``rules`` lists the registered rulesets with their options; ``demo`` plays one seeded deal between random players and prints
it (see :func:`demo`); ``simulate`` plays many deals between bots and
prints a summary table (and with ``--save`` writes every deal to a data set);
``serve`` serves a table over TCP (``calabrasella.server``).

Every command reads from stdin and writes to stdout, and a bad argument or
file gets a one-line message on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import builtins
import datetime
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import calabrasella as cb

from .._public import public_dir as _public_dir
from ..errors import BotError
from ._analyse import add_parser as _add_analyse
from ._analyse import run_analyse
from ._demo import DEFAULT_SEED, demo
from ._play import (
    OPPONENTS,
    CommandError,
    Opponent,
    Reader,
    interpret,
    make_opponent,
    play_deal,
    random_opponent,
)
from ._render import can_write_symbols, format_cards
from ._replay import (
    FileProblem,
    data_set_format,
    load_deal,
    load_deals,
    load_record,
    replay_record,
    show_record,
)
from ._rules import nearest_rulesets, option_info, parse_option_values, rules_text
from ._serve import add_parser as _add_serve
from ._serve import run_serve
from ._simulate import default_progress, parse_bots, run_simulation, save_simulation

__all__ = [
    "DEFAULT_SEED",
    "OPPONENTS",
    "CommandError",
    "FileProblem",
    "Opponent",
    "Reader",
    "demo",
    "format_cards",
    "interpret",
    "load_record",
    "main",
    "make_opponent",
    "option_info",
    "parse_option_values",
    "play_deal",
    "random_opponent",
    "replay_record",
    "rules_text",
    "show_record",
]


def _terminal_reader(echo: bool) -> Reader:
    """Read lines with :func:`input`; when stdin is not a terminal, write each line read
    after its prompt (so a scripted session reads like a typed one). A stdin that
    cannot be read any more counts as its end."""

    def read(prompt: str) -> str:
        try:
            line = builtins.input(prompt)
        except (OSError, ValueError) as error:  # closed, or gone
            if isinstance(error, UnicodeDecodeError):
                raise
            raise EOFError from None
        if echo:
            sys.stdout.write(line + "\n")
        return line

    return read


def _fail(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """Print the command's usage and a one-line error to stderr; exit 2."""
    parser.error(message)


def _seat_check(parser: argparse.ArgumentParser, rules: cb.Ruleset, flag: str, seat: int) -> None:
    if not 0 <= seat < rules.players:
        table = f"0..{rules.players - 1} at a table of {rules.players}"
        _fail(parser, f"{flag} {seat}: expected a seat {table}")


def _version_line() -> str:
    """The package's version and the solver's search in use: compiled, or pure Python and why.

    What ``calabrasella --version`` prints (see
    :data:`calabrasella.bots.solver.COMPILED` and
    :data:`~calabrasella.bots.solver.WHY_PURE`).

    Example:
        >>> _version_line().startswith(f"calabrasella {cb.__version__} (search: ")
        True
    """
    from ..bots import solver

    search = "compiled" if solver.COMPILED else f"pure Python; {solver.WHY_PURE}"
    return f"calabrasella {cb.__version__} (search: {search})"


class _Version(argparse.Action):
    """``--version``: print :func:`_version_line` and exit (the solver imported only then)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **_: object) -> None:
        super().__init__(
            option_strings,
            dest,
            default=argparse.SUPPRESS,
            nargs=0,
            help="show the version and the solver's search in use (compiled or pure Python), and exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(_version_line())
        parser.exit()


def _build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    parser = argparse.ArgumentParser(
        prog="calabrasella",
        description="Rules engine for Calabrasella (Cavendish) and Calabresella (Terziglio).",
        epilog="'calabrasella COMMAND --help' tells each command's options; "
        "'calabrasella play' deals you a seat against two bots.",
    )
    parser.add_argument("--version", action=_Version)
    # no COMMAND: main() prints this help, the commands listed
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=False)
    subs: dict[str, argparse.ArgumentParser] = {}

    play = subs["play"] = commands.add_parser(
        "play",
        help="play one deal at the terminal against two bots",
        description="Deal one deal and play one seat against two bots. You see only what "
        "your seat may know; choose each move from the menu by its number or by typing it "
        "('play A♦', 'bid solo', or a card alone). 'help' shows the menu and the score so far; "
        "'quit' (or the end of input) stops.",
    )
    add = play.add_argument
    add("--rules", default="cavendish", metavar="NAME", help="a ruleset (default: %(default)s)")
    add(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a ruleset option, e.g. first_lead=after_declarer (repeatable; see 'rules')",
    )
    add("--seat", type=int, default=1, metavar="N", help="your seat (default: 1, the eldest hand)")
    add("--dealer", type=int, default=0, metavar="N", help="the dealer's seat (default: 0)")
    add("--seed", type=int, metavar="N", help="deal this seed (default: a random one, shown)")
    add(
        "--opponents",
        default="heuristic",
        metavar="NAME",
        help="the bots at the other seats: heuristic, random, sampling or module:Class"
        " (default: %(default)s)",
    )
    add("--ascii", action="store_true", help="write suits as letters (d h s c), not symbols")
    add(
        "--save",
        metavar="FILE",
        help="save the deal as a record when it ends or you quit (JSON; text if FILE ends in .txt)",
    )

    replay = subs["replay"] = commands.add_parser(
        "replay",
        help="step through a saved deal, action by action",
        description="Print a saved deal (a JSON record or state, or a text record): the hands, "
        "then each action with what the table sees after it, then the result.",
    )
    replay.add_argument(
        "file", metavar="FILE", help="the record or state to replay, or a data set of deals"
    )
    replay.add_argument(
        "--deal", type=int, metavar="N", help="the deal of a data set to replay (1 for the first)"
    )
    replay.add_argument("--step", action="store_true", help="wait for Enter before each action")
    replay.add_argument("--ascii", action="store_true", help="write suits as letters (d h s c)")

    show = subs["show"] = commands.add_parser(
        "show",
        help="print a saved deal as a record's text",
        description="Print a saved deal (a JSON record or state, or a text record) in the "
        "record's text form: tags, hands, auction, exchange, tricks and result. A data set of "
        "deals (JSON lines or a multi-deal text file, as simulate --save writes) is printed "
        "deal after deal, a blank line between two: a multi-deal text file.",
    )
    show.add_argument("file", metavar="FILE", help="the record, state or data set to show")
    show.add_argument(
        "--deal", type=int, metavar="N", help="only this deal of a data set (1 for the first)"
    )

    subs["analyse"] = _add_analyse(commands)

    rules = subs["rules"] = commands.add_parser(
        "rules",
        help="list the rulesets and their options, defaults and sources",
        description="List the registered rulesets (or those named) with each option's "
        "default, its other values, its meaning and the rule texts it comes from.",
    )
    rules.add_argument("names", nargs="*", metavar="NAME", help="only these rulesets")

    demo_parser = subs["demo"] = commands.add_parser(
        "demo",
        help="play one seeded deal between random players and print it",
        description="Play one deal between random players and print the hands, the auction, "
        "the exchange, every trick and the result. The same seed gives the same deal.",
    )
    add = demo_parser.add_argument
    add("--rules", default="cavendish", metavar="NAME", help="a ruleset (default: %(default)s)")
    add("--seed", type=int, default=DEFAULT_SEED, metavar="N", help="(default: %(default)s)")
    add("--dealer", type=int, default=0, metavar="N", help="the dealer's seat (default: 0)")
    add("--ascii", action="store_true", help="write suits as letters (d h s c), not symbols")

    sim = subs["simulate"] = commands.add_parser(
        "simulate",
        help="play many deals between bots and print a summary",
        description="Play many deals between bots, the players changing seats, and print "
        "each player's mean payment with a 95% confidence interval, the declarer's wins "
        "by contract and how often the multipliers struck. The same seed gives the same "
        "table, on one process or several.",
    )
    add = sim.add_argument
    add("--rules", default="cavendish", metavar="NAME", help="a ruleset (default: %(default)s)")
    add("--option", action="append", default=[], metavar="KEY=VALUE", help="a ruleset option")
    add(
        "--bots",
        default="heuristic,random,random",
        metavar="NAMES",
        help="one bot per player, or one for all: heuristic, random, sampling or module:Class"
        " (default: %(default)s)",
    )
    add("--deals", type=int, default=1000, metavar="N", help="(default: %(default)s)")
    add("--seed", type=int, default=1, metavar="N", help="the master seed (default: %(default)s)")
    add("--workers", type=int, default=1, metavar="N", help="processes (default: %(default)s)")
    add(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="draw a progress bar on stderr (default: when stderr is a terminal)",
    )
    add(
        "--save",
        metavar="FILE",
        help="also write every deal to FILE as a data set: JSON lines for a .jsonl name, "
        "else a multi-deal text file",
    )
    subs["serve"] = _add_serve(commands)
    return parser, subs


def _ruleset(parser: argparse.ArgumentParser, name: str, pairs: Sequence[str]) -> cb.Ruleset:
    try:
        default = cb.find_ruleset(name)
    except cb.RulesetError as error:
        hint = nearest_rulesets(name)
        _fail(parser, f"--rules {name}: {error}" + (f"; {hint}" if hint else ""))
    try:
        return cb.find_ruleset(name, **parse_option_values(default, pairs))
    except cb.RulesetError as error:
        _fail(parser, f"--option: {error}")


def _run_demo(parser: argparse.ArgumentParser, args: Any) -> int:
    rules = _ruleset(parser, args.rules, ())
    _seat_check(parser, rules, "--dealer", args.dealer)
    symbols = not args.ascii and can_write_symbols(sys.stdout)
    sys.stdout.write(demo(rules, seed=args.seed, dealer=args.dealer, symbols=symbols))
    return 0


def _run_play(parser: argparse.ArgumentParser, args: Any, read: Reader | None) -> int:
    rules = _ruleset(parser, args.rules, args.option)
    _seat_check(parser, rules, "--dealer", args.dealer)
    _seat_check(parser, rules, "--seat", args.seat)
    if rules.players == 4 and args.seat == args.dealer:
        _fail(parser, f"--seat {args.seat}: the dealer sits out at a table of four")
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    if read is None:
        read = _stdin_reader()
    if args.save is not None:
        _check_target(parser, args.save)
    try:
        make_opponent(args.opponents, seed)
    except CommandError as error:
        _fail(parser, str(error))
    symbols = not args.ascii and can_write_symbols(sys.stdout)
    state = play_deal(
        rules,
        seat=args.seat,
        dealer=args.dealer,
        seed=seed,
        opponents=args.opponents,
        symbols=symbols,
        read=read,
        out=sys.stdout,
    )
    if args.save is None:
        return 0
    tags = {
        "Event": "calabrasella play",
        "Date": datetime.date.today().isoformat(),
        "Player": f"seat {args.seat} at the terminal",
        "Opponents": f"{args.opponents} bots",
        "Seed": str(seed),
    }
    try:
        record = cb.Record.from_state(state, tags=tags)
        text = record.to_text() if args.save.endswith(".txt") else cb.to_json(record, indent=2)
        Path(args.save).write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    except (OSError, cb.RecordError) as error:
        why = error.strerror if isinstance(error, OSError) and error.strerror else error
        sys.stderr.write(f"calabrasella play: cannot save the deal to {args.save}: {why}\n")
        return 1
    sys.stdout.write(f"Saved the deal to {args.save}.\n")
    return 0


def _run_simulate(parser: argparse.ArgumentParser, args: Any) -> int:
    rules = _ruleset(parser, args.rules, args.option)
    if args.deals < 1:
        _fail(parser, f"--deals {args.deals}: expected at least 1")
    if args.workers < 1:
        _fail(parser, f"--workers {args.workers}: expected at least 1")
    try:
        bots = parse_bots(args.bots, rules.players)
    except CommandError as error:
        _fail(parser, str(error))
    progress = default_progress() if args.progress is None else (sys.stderr if args.progress else None)
    if args.save is not None:
        _check_target(parser, args.save)
    try:
        table = run_simulation(
            rules, bots, args.deals, seed=args.seed, workers=args.workers, progress=progress
        )
    except (cb.IllegalActionError, BotError) as error:  # a bot broke the rules: which, where
        sys.stderr.write(f"calabrasella simulate: {error}\n")
        return 1
    sys.stdout.write(table if table.endswith("\n") else table + "\n")
    if args.save is not None:
        try:
            saved = save_simulation(args.save, rules, bots, args.deals, seed=args.seed)
        except OSError as error:
            sys.stderr.write(f"calabrasella simulate: --save {args.save}: {error.strerror or error}\n")
            return 1
        sys.stdout.write(f"Saved {saved} deals to {args.save}.\n")
    return 0


def _check_target(parser: argparse.ArgumentParser, path: str) -> None:
    """Refuse, before the deal, a --save FILE that cannot be a file."""
    target = Path(path)
    if target.is_dir():
        _fail(parser, f"--save {path}: is a directory")
    if not target.parent.is_dir():
        _fail(parser, f"--save {path}: no directory {str(target.parent)!r}")


def _stdin_reader() -> Reader:
    """:func:`input`, reading a line that is not UTF-8 as text, echoing it when not a terminal."""
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")
    return _terminal_reader(echo=not _isatty(sys.stdin))


def _run_file(command: str, args: Any, read: Reader | None) -> int:
    """``replay`` and ``show``: a bad file is one line on stderr and status 2."""
    if args.deal is not None and args.deal < 1:
        sys.stderr.write(f"calabrasella {command}: --deal {args.deal}: expected 1 or more\n")
        return 2
    try:
        form = data_set_format(args.file) if command == "show" and args.deal is None else None
        if form is not None:  # every deal of a data set, as a multi-deal text file
            for number, each in enumerate(load_deals(args.file, form)):
                sys.stdout.write(("\n" if number else "") + show_record(each))
            return 0
        record = load_deal(args.file, args.deal)
    except FileProblem as problem:
        sys.stdout.flush()
        sys.stderr.write(f"calabrasella {command}: {problem}\n")
        return 2
    if command == "show":
        sys.stdout.write(show_record(record))
        return 0
    step = (read if read is not None else _stdin_reader()) if args.step else None
    symbols = not args.ascii and can_write_symbols(sys.stdout)
    replay_record(record, out=sys.stdout, symbols=symbols, step=step)
    return 0


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def main(argv: Sequence[str] | None = None, *, read: Reader | None = None) -> int:
    """Run the ``calabrasella`` command; return the exit status.

    0 on success (with no command, the commands are listed); 1 when the reader of the output goes away (a broken pipe),
    ``play --save`` or ``simulate --save`` cannot write its file, or a bot of
    ``simulate`` breaks the rules (a one-line message naming the bot and the
    deal); 2 for a file ``replay``,
    ``show`` or ``analyse`` cannot read (with a one-line message on stderr). ``read``
    replaces :func:`input` for ``play`` and ``replay --step`` (a function
    taking the prompt and returning a line, raising :class:`EOFError` at the
    end).

    Raises:
        SystemExit: For ``--help``, ``--version`` and bad arguments (status 0 or 2);
            a bad argument of a command prints that command's usage.

    Example:
        >>> main(["demo", "--seed", "7", "--ascii"])  # doctest: +ELLIPSIS
        calabrasella 0.1.0: one deal of Calabrasella (Cavendish) between random players
        ...
          note: he wins 11 from each
        0
    """
    parser, subs = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # no command: what there is to do
        parser.print_help()
        return 0
    command = subs[args.command]
    try:
        if args.command == "demo":
            status = _run_demo(command, args)
        elif args.command == "play":
            status = _run_play(command, args, read)
        elif args.command == "simulate":
            status = _run_simulate(command, args)
        elif args.command == "serve":
            status = run_serve(command, args)
        elif args.command == "analyse":
            status = run_analyse(command, args)
        elif args.command in ("replay", "show"):
            status = _run_file(args.command, args, read)
        else:
            try:
                sys.stdout.write(rules_text(args.names))
            except cb.RulesetError as error:
                _fail(command, str(error))
            status = 0
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (``calabrasella demo | head``)
        return 1
    except KeyboardInterrupt:
        return 130
    return status


def __dir__() -> list[str]:
    """The public names: ``__all__`` and the package's own public submodules.

    ``dir()`` would otherwise list what the package imports too (``argparse``, ``sys`` and the other modules and names it imports).
    """
    return _public_dir(globals(), __all__)
