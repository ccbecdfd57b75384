"""``calabrasella analyse``: what each card of a saved deal was worth, as text, JSON or SVG."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from calabrasella.bots.analysis import EXCHANGE_OPTIONS, MAX_WORLDS, analyse, tricks_in_deal
from calabrasella.errors import FileProblem

from ._replay import load_deal

__all__ = ["add_parser", "run_analyse"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``analyse`` to the command's subparsers and return its parser."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "analyse",
        help="what each card played in a saved deal was worth, and what it lost",
        description="Analyse a saved deal (a JSON record or state, a text record, or one deal "
        "of a data set): for every card played, the value of each legal play with every hand "
        "open (the declarer's units at the end of the deal under perfect play) and the units "
        "the card played lost; with --worlds N, also an estimate from the player's own view, "
        "averaged over N sampled deals. The exchange's last decision is valued too; bids and "
        "the rest of the exchange are listed, not valued.",
    )
    add = parser.add_argument
    add("file", metavar="FILE", help="the record or state to analyse, or a data set of deals")
    add("--deal", type=int, metavar="N", help="the deal of a data set (1 for the first)")
    add("--format", choices=("text", "json", "svg"), default="text",
        help="a text table, JSON, or an SVG chart of the units lost (default: %(default)s)")  # fmt: skip
    add("--worlds", type=int, default=0, metavar="N",
        help="also estimate each play from the player's own view over N sampled worlds "
        "(default: %(default)s, none)")  # fmt: skip
    add("--seed", type=int, default=0, metavar="S",
        help="the seed of the sampled worlds (default: %(default)s)")  # fmt: skip
    add("--exchange-options", type=int, default=EXCHANGE_OPTIONS, metavar="N",
        help="value the exchange's last decision when it has at most N options, each a whole "
        "deal to solve (default: %(default)s; 0 never)")  # fmt: skip
    add("--from-trick", type=int, default=1, metavar="N",
        help="value only the plays from trick N on (default: %(default)s, the whole deal)")  # fmt: skip
    add("--max-nodes", type=int, metavar="N",
        help="give up a search after N positions; that play is marked not analysed")  # fmt: skip
    return parser


def run_analyse(parser: argparse.ArgumentParser, args: Any) -> int:
    """Run ``analyse``: 0, or 2 with a one-line message for a bad argument or file."""
    if not 0 <= args.worlds <= MAX_WORLDS:
        parser.error(f"--worlds {args.worlds}: expected 0 to {MAX_WORLDS}")
    if args.max_nodes is not None and args.max_nodes < 1:
        parser.error(f"--max-nodes {args.max_nodes}: expected at least 1")
    if args.from_trick < 1:
        parser.error(f"--from-trick {args.from_trick}: expected 1 or more")  # past the last trick: below
    if args.exchange_options < 0:
        parser.error(f"--exchange-options {args.exchange_options}: expected 0 or more")
    if args.deal is not None and args.deal < 1:
        parser.error(f"--deal {args.deal}: expected 1 or more")
    try:
        record = load_deal(args.file, args.deal)
    except FileProblem as problem:
        sys.stderr.write(f"calabrasella analyse: {problem}\n")
        return 2
    tricks = tricks_in_deal(record.replay())
    if args.from_trick > tricks:
        parser.error(f"--from-trick {args.from_trick}: expected 1 to {tricks}, the deal's tricks")
    result = analyse(
        record,
        worlds=args.worlds,
        seed=args.seed,
        max_nodes=args.max_nodes,
        exchange_options=args.exchange_options,
        from_trick=args.from_trick,
    )
    if args.format == "json":
        sys.stdout.write(json.dumps(result.to_data(), indent=2) + "\n")
    elif args.format == "svg":
        sys.stdout.write(result._repr_svg_() + "\n")
    else:
        sys.stdout.write(result.to_text())
    return 0
