"""Strength: one bot against another over many seeded deals with the seats rotated.

Plays each line-up under each ruleset with :func:`calabrasella.bots.simulate.simulate`
and prints the summary tables and, for each, the candidate's edge: the mean
payment per deal of the candidate player(s) with a 95% confidence interval.
The target for a stronger candidate is an interval above zero.

Line-ups: ``1v2`` seats one candidate with two baselines (the edge is the
candidate's mean payment); ``2v1`` seats two candidates with one baseline
(the edge is minus half the baseline's mean payment, the candidates' mean
each, with the baseline's interval).

Bots are named as ``module:attribute`` (a bot factory: called with a
``random.Random``, it returns a bot; the attribute may be dotted, as in
``calabrasella.bots.sampling_bot:SamplingBot.classic``), so any bot on the
path can be compared; ``--candidate-options`` and ``--baseline-options``
pass keyword arguments to the factory, as JSON (``null`` for None):

    python benchmarks/strength.py --deals 2000 --workers 2
    python benchmarks/strength.py --candidate calabrasella.bots.sampling_bot:SamplingBot \\
        --baseline calabrasella.bots.heuristic:HeuristicBot --lineups 1v2 2v1
    python benchmarks/strength.py --candidate calabrasella.bots.sampling_bot:SamplingBot \
        --candidate-options '{"nodes": 20000, "time_limit": null, "worlds": 40}' \
        --baseline calabrasella.bots.sampling_bot:SamplingBot.classic

**In parts.** A row of 2,000 slow deals need not be played in one sitting:
``--first N`` starts at deal number N (each deal is played exactly as in one
long run: its seed and seats come from its number), ``--save FILE`` writes
each row's summary to a new JSON file (rewritten after each row, never
overwriting an existing file), and ``--combine FILE ...`` adds the saved
parts up (``Summary`` addition: the same candidate, baseline, options, seed,
library version and rules, and no deal twice) and prints the tables and
edges of the one run over all their deals; with ``--save`` too it writes the
sum. The file holds ``{"format": "calabrasella.strength", "version": 1,
"rows": [...]}``, a row per rules and line-up: ``rules`` (name, version,
options), ``lineup``, ``candidate``, ``candidate_options``, ``baseline``,
``baseline_options``, ``seed``, ``rotate``, ``library``, ``spans`` (ranges
``[start, stop)`` of deal numbers), ``seconds``, ``parts``, and the integer
``totals`` (``deals``, ``void_deals``, ``players``, ``contracts``,
``bonuses``):

    python benchmarks/strength.py --deals 300 --save part1.json
    python benchmarks/strength.py --deals 300 --first 300 --save part2.json
    python benchmarks/strength.py --combine part1.json part2.json

usage: python benchmarks/strength.py [--deals N] [--first N] [--seed S] [--workers W]
       [--rules NAME ...] [--candidate SPEC] [--baseline SPEC] [--lineups 1v2|2v1 ...]
       [--candidate-options JSON] [--baseline-options JSON] [--save FILE]
       python benchmarks/strength.py --combine FILE [FILE ...] [--save FILE]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import importlib
import json
import os
import time
from typing import Any, Optional, TypeVar, cast

import attrs

import calabrasella as cb
from calabrasella.bots.base import BotError
from calabrasella.bots.simulate import BotFactory, ContractStats, PlayerStats, Summary, simulate

FORMAT = "calabrasella.strength"
VERSION = 1
#: What makes rows one experiment, beside their rules and line-up.
EXPERIMENT = ("candidate", "candidate_options", "baseline", "baseline_options", "seed", "library")
#: The options of a run, which --combine takes from its files instead.
RUN_OPTIONS = {
    "deals": 2000,
    "first": 0,
    "seed": 1,
    "workers": 2,
    "rules": ["cavendish", "calabresella"],
    "candidate": "calabrasella.bots.heuristic:HeuristicBot",
    "baseline": "calabrasella.bots.base:RandomBot",
    "candidate_options": "{}",
    "baseline_options": "{}",
    "lineups": ["1v2"],
}
T = TypeVar("T")


def load_factory(spec: str, options: str = "{}") -> BotFactory:
    """Return the bot factory ``module:attribute`` names (the attribute may be dotted),
    given the keyword arguments of ``options`` (a JSON object) if any."""
    module, _, attribute = spec.partition(":")
    if not attribute:
        raise SystemExit(f"--candidate/--baseline: expected module:attribute, got {spec!r}")
    found: object = importlib.import_module(module)
    for name in attribute.split("."):
        found = getattr(found, name)
    factory: BotFactory = found  # type: ignore[assignment]
    keywords = json.loads(options)
    if not isinstance(keywords, dict):
        raise SystemExit(
            f"--candidate-options/--baseline-options: expected a JSON object, got {options!r}"
        )
    return functools.partial(factory, **keywords) if keywords else factory


def edge(summary: Summary, lineup: str) -> tuple[float, float, float]:
    """Return the candidate's mean payment per deal and its 95% interval."""
    if lineup == "1v2":
        player = summary.players[0]
        low, high = player.ci95
        return player.mean, low, high
    baseline = summary.players[-1]
    low, high = baseline.ci95
    return -baseline.mean / 2, -high / 2, -low / 2


@attrs.frozen
class Row:
    """One row of the edges table: a ruleset and a line-up, and the experiment."""

    experiment: dict[str, Any]  # EXPERIMENT's keys
    lineup: str
    summary: Summary
    seconds: float
    parts: int = 1

    def data(self) -> dict[str, Any]:
        """Return the row as JSON data (see the module docstring)."""
        s = self.summary
        rules = {"name": s.rules.name, "version": s.rules.version, "options": s.rules.options()}
        return {
            "rules": rules,
            "lineup": self.lineup,
            **self.experiment,
            "rotate": s.rotate,
            "spans": [list(span) for span in s.spans],
            "seconds": self.seconds,
            "parts": self.parts,
            "totals": {
                "deals": s.deals,
                "void_deals": s.void_deals,
                "players": [
                    {
                        k: getattr(p, k)
                        for k in ("name", "total", "squares", "declared", "declarer_wins")
                    }
                    for p in s.players
                ],
                "contracts": [
                    {"name": c.name, "deals": c.deals, "declarer_wins": c.declarer_wins}
                    for c in s.contracts
                ],
                "bonuses": dict(s.bonuses),
            },
        }


def save(path: str, rows: list[Row]) -> None:
    """Write ``rows`` to ``path`` (through a temporary file, so a reader never sees half)."""
    data = {"format": FORMAT, "version": VERSION, "rows": [row.data() for row in rows]}
    try:
        with open(f"{path}.tmp", "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
            out.write("\n")
        os.replace(f"{path}.tmp", path)
    except OSError as error:
        raise SystemExit(f"--save {path}: {error.strerror or error}") from None


def _get(data: object, key: str, kind: type[T], where: str) -> T:
    """Return ``data[key]``, which must be of ``kind`` (a float may be an int), else exit."""
    if not isinstance(data, dict):
        raise SystemExit(f"{where}: expected a JSON object, got {str(data)[:60]}")
    value = data.get(key)
    if not (type(value) is kind or (kind is float and type(value) is int)):
        names = {
            int: "an integer",
            float: "a number",
            str: "a string",
            list: "a list",
            dict: "an object",
        }
        got = "nothing" if key not in data else repr(value)[:60]
        raise SystemExit(f"{where}: {key!r}: expected {names.get(kind, kind.__name__)}, got {got}")
    return cast(T, value)


def read_row(data: object, where: str) -> Row:
    """Read one saved row back (checking every field), else exit naming the field."""
    rules_data = _get(data, "rules", dict, where)
    name = _get(rules_data, "name", str, f"{where}.rules")
    version = _get(rules_data, "version", int, f"{where}.rules")
    try:
        rules = cb.find_ruleset(name, **_get(rules_data, "options", dict, f"{where}.rules"))
    except cb.RulesetError as error:
        raise SystemExit(f"{where}.rules: {error}") from None
    if rules.version != version:
        raise SystemExit(
            f"{where}.rules: {name} version {version}; this library plays version {rules.version}"
        )
    lineup = _get(data, "lineup", str, where)
    if lineup not in ("1v2", "2v1"):
        raise SystemExit(f"{where}: 'lineup': expected '1v2' or '2v1', got {lineup!r}")
    kinds: tuple[type[Any], ...] = (str, dict, str, dict, int, str)
    experiment = {key: _get(data, key, kind, where) for key, kind in zip(EXPERIMENT, kinds)}
    totals = _get(data, "totals", dict, where)
    at = f"{where}.totals"
    deals = _get(totals, "deals", int, at)
    players = tuple(
        PlayerStats(
            _get(p, "name", str, f"{at}.players[{k}]"),
            deals,
            *(
                _get(p, key, int, f"{at}.players[{k}]")
                for key in ("total", "squares", "declared", "declarer_wins")
            ),
        )
        for k, p in enumerate(_get(totals, "players", list, at))
    )
    contracts = tuple(
        ContractStats(
            _get(c, "name", str, f"{at}.contracts[{k}]"),
            _get(c, "deals", int, f"{at}.contracts[{k}]"),
            _get(c, "declarer_wins", int, f"{at}.contracts[{k}]"),
        )
        for k, c in enumerate(_get(totals, "contracts", list, at))
    )
    bonuses = _get(totals, "bonuses", dict, at)
    void = _get(totals, "void_deals", int, at)
    spans = _get(data, "spans", list, where)
    if len(players) != rules.players:
        raise SystemExit(f"{at}: {len(players)} players, but {name} seats {rules.players}")
    played = sum(c.deals for c in contracts)
    if played + void != deals or sum(p.declared for p in players) != played:
        raise SystemExit(f"{at}: the totals do not add up (contracts, void deals, declared, deals)")
    try:
        summary = Summary(
            rules=rules,
            seed=experiment["seed"],
            deals=deals,
            rotate=_get(data, "rotate", bool, where),
            players=players,
            contracts=contracts,
            bonuses=tuple(sorted((b, _get(bonuses, b, int, f"{at}.bonuses")) for b in bonuses)),
            void_deals=void,
            spans=tuple(tuple(span) if type(span) is list else span for span in spans),
        )
    except BotError as error:
        raise SystemExit(f"{where}: {error}") from None
    seconds = _get(data, "seconds", float, where)
    return Row(experiment, lineup, summary, seconds, _get(data, "parts", int, where))


def combine(paths: list[str]) -> list[Row]:
    """Read the saved parts and add up the rows of each rules and line-up, else exit saying why."""
    rows: dict[tuple[str, str], Row] = {}
    first: Optional[tuple[str, dict[str, Any]]] = None
    for path in paths:
        try:
            with open(path, encoding="utf-8") as stream:
                data = json.load(stream)
        except OSError as error:
            raise SystemExit(f"--combine {path}: {error.strerror or error}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise SystemExit(f"--combine {path}: not a JSON file ({error})") from None
        if _get(data, "format", str, f"--combine {path}") != FORMAT:
            raise SystemExit(f"--combine {path}: not a file of saved strength rows ({FORMAT!r})")
        if _get(data, "version", int, f"--combine {path}") != VERSION:
            raise SystemExit(
                f"--combine {path}: version {data['version']}; this script reads {VERSION}"
            )
        for k, item in enumerate(_get(data, "rows", list, f"--combine {path}")):
            where = f"--combine {path}: rows[{k}]"
            row = read_row(item, where)
            if first is None:
                first = (where, row.experiment)
            differ = [key for key in EXPERIMENT if row.experiment[key] != first[1][key]]
            if differ:
                key = differ[0]
                raise SystemExit(
                    f"{where} is not the same experiment as {first[0]}: {key} "
                    f"{row.experiment[key]!r}, not {first[1][key]!r}"
                )
            rules = row.summary.rules
            row_key = (repr(rules), row.lineup)
            if row_key not in rows:
                rows[row_key] = row
                continue
            so_far = rows[row_key]
            try:
                summary = so_far.summary + row.summary
            except BotError as error:
                raise SystemExit(f"{where} ({rules.name} {row.lineup}): {error}") from None
            rows[row_key] = Row(
                row.experiment,
                row.lineup,
                summary,
                so_far.seconds + row.seconds,
                so_far.parts + row.parts,
            )
    if not rows:
        raise SystemExit("--combine: the files hold no rows")
    return list(rows.values())


def report(rows: list[Row], title: str) -> None:
    """Print the edges table under ``title`` (the tables are printed as the rows come)."""
    print(title)
    print(f"{'rules':<14} {'line-up':<8} {'edge':>8}   95% CI")
    for row in rows:
        mean, low, high = edge(row.summary, row.lineup)
        print(
            f"{row.summary.rules.name:<14} {row.lineup:<8} {mean:>+8.2f}   [{low:+.2f}, {high:+.2f}]"
        )


def print_combined(paths: list[str], save_path: Optional[str]) -> None:
    """Add up the parts saved in ``paths`` and print (and save) them as one run."""
    rows = combine(paths)
    for row in rows:
        print(row.summary.table())
        print(f"({row.seconds:.1f} s in {row.parts} part{'s' if row.parts > 1 else ''})\n")
    if save_path is not None:
        save(save_path, rows)
    e = rows[0].experiment
    deals = sorted({row.summary.deals for row in rows})
    each = f"{deals[0]} deals each" if len(deals) == 1 else "deals as in the tables"
    report(
        rows,
        f"candidate {e['candidate']} {json.dumps(e['candidate_options'])} vs baseline "
        f"{e['baseline']} {json.dumps(e['baseline_options'])}, {each}",
    )


def main(argv: Optional[list[str]] = None) -> None:
    """Run the line-ups (or add up saved parts) and print the tables and the edges."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, help="deals a row (default: 2000)")
    parser.add_argument("--first", type=int, help="the first deal's number (default: 0)")
    parser.add_argument("--seed", type=int, help="the master seed (default: 1)")
    parser.add_argument("--workers", type=int, help="process pool size; 0: serial (default: 2)")
    parser.add_argument("--rules", nargs="+")
    parser.add_argument("--candidate")
    parser.add_argument("--baseline")
    parser.add_argument("--candidate-options", help="JSON keyword arguments")
    parser.add_argument("--baseline-options", help="JSON keyword arguments")
    parser.add_argument("--lineups", nargs="+", choices=["1v2", "2v1"])
    parser.add_argument(
        "--save", metavar="FILE", help="write the rows' summaries to FILE (a new file)"
    )
    parser.add_argument(
        "--combine", nargs="+", metavar="FILE", help="add up saved parts and print them"
    )
    args = parser.parse_args(argv)
    given = [key for key in RUN_OPTIONS if getattr(args, key) is not None]
    if args.combine and given:
        flags = ", ".join("--" + key.replace("_", "-") for key in given)
        raise SystemExit(f"--combine takes the experiment from its files: drop {flags}")
    for key, default in RUN_OPTIONS.items():
        if getattr(args, key) is None:
            setattr(args, key, default)
    if args.save is not None and os.path.exists(args.save):
        raise SystemExit(f"--save {args.save}: the file exists (a saved part is never overwritten)")
    if args.combine:
        print_combined(args.combine, args.save)
        return
    if args.first < 0:
        raise SystemExit(f"--first {args.first}: expected a deal number, at least 0")
    candidate = load_factory(args.candidate, args.candidate_options)
    baseline = load_factory(args.baseline, args.baseline_options)
    experiment = {
        "candidate": args.candidate,
        "candidate_options": json.loads(args.candidate_options),
        "baseline": args.baseline,
        "baseline_options": json.loads(args.baseline_options),
        "seed": args.seed,
        "library": cb.__version__,
    }
    pool = concurrent.futures.ProcessPoolExecutor(args.workers) if args.workers else None
    rows: list[Row] = []
    try:
        for name in args.rules:
            rules = cb.find_ruleset(name)
            for lineup in args.lineups:
                seats = [candidate, baseline, baseline]
                if lineup == "2v1":
                    seats = [candidate, candidate, baseline]
                t0 = time.perf_counter()
                summary = simulate(
                    rules, seats, args.deals, seed=args.seed, executor=pool, first=args.first
                )
                seconds = time.perf_counter() - t0
                print(summary.table())
                print(f"({seconds:.1f} s)\n")
                rows.append(Row(experiment, lineup, summary, seconds))
                if args.save is not None:
                    save(args.save, rows)
    finally:
        if pool is not None:
            pool.shutdown()
    report(
        rows,
        f"candidate {args.candidate} {args.candidate_options} vs baseline {args.baseline} "
        f"{args.baseline_options}, {args.deals} deals each",
    )


if __name__ == "__main__":
    main()
