"""The time of ``import calabrasella`` against ``import attrs``, from ``python -X importtime``.

Each run is a fresh interpreter: ``python -X importtime -c "import MODULE"``,
and the figure is the cumulative µs of the top-level line of MODULE (all it
imports included, attrs too for calabrasella). The two modules run
interleaved, N times each; it prints the median of each and their ratio.

Python compiles a module's source on every import when it cannot keep the
bytecode (``PYTHONDONTWRITEBYTECODE=1``, as in some sandboxes), while pip
compiles an installed package's bytecode once at install; ``--bytecode``
keeps the bytecode (in a cache directory under the system's temporary
directory, warmed by a first run) to measure what an installed package
costs, and ``--src DIR`` measures the package in DIR instead of the one
installed.

usage: python benchmarks/import_time.py [--runs N] [--bytecode] [--src DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

MODULES = ("attrs", "calabrasella")


def import_us(module: str, env: dict[str, str]) -> int:
    """The cumulative µs of ``import module`` in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),
        check=True,
    )
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() == module:
            return int(parts[1])
    raise SystemExit(f"no line for {module} in:\n{done.stderr[-2000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--bytecode", action="store_true", help="keep compiled bytecode between runs")
    parser.add_argument("--src", help="the directory that holds the calabrasella package to measure")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.src:
        env["PYTHONPATH"] = str(Path(args.src).resolve())
    if args.bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "calabrasella-import-time")
    for module in MODULES:  # warm the file cache (and the bytecode cache)
        import_us(module, env)
    runs: dict[str, list[int]] = {module: [] for module in MODULES}
    for _ in range(args.runs):  # interleaved: a busy moment weighs on both alike
        for module in MODULES:
            runs[module].append(import_us(module, env))
    medians = {module: statistics.median(times) for module, times in runs.items()}
    cache = "bytecode kept" if args.bytecode else f"PYTHONDONTWRITEBYTECODE={env.get('PYTHONDONTWRITEBYTECODE', '')}"
    print(f"median of {args.runs} ({cache}):")
    for module, us in medians.items():
        print(f"  import {module:<13} {us / 1000:7.1f} ms")
    print(f"  ratio          {medians['calabrasella'] / medians['attrs']:7.2f} x attrs")


if __name__ == "__main__":
    main()
