"""Run issue 20's defect tests against the old example server, to show that each one fails.

    python benchmarks/server_defects_old.py [--commit 93d522b] [-k EXPR]

Extracts ``examples/table_server.py`` as it was at ``--commit`` (the table
server the issue was filed against) into a temporary folder, then runs
``tests/unit/test_server_defects.py`` with ``CALABRASELLA_SERVER_UNDER_TEST``
set to that file: every test starts the old example by its own command line
and talks to it over 127.0.0.1 only. It prints each test's outcome and the
first line of its failure, and exits 0 when every test failed (each defect
is shown on the old server), 1 otherwise. The same tests pass against
:mod:`calabrasella.server` in the ordinary test run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests" / "unit" / "test_server_defects.py"


def main() -> int:
    """Extract the old example, run the defect tests on it, print the outcomes."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--commit", default="93d522b", help="the old example's commit")
    parser.add_argument("-k", default=None, help="run only the tests pytest -k selects")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="old-table-server-") as folder:
        old = Path(folder) / "table_server.py"
        text = subprocess.run(
            ["git", "show", f"{args.commit}:examples/table_server.py"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        old.write_text(text, encoding="utf-8")
        env = {**os.environ, "CALABRASELLA_SERVER_UNDER_TEST": str(old)}
        report = Path(folder) / "report.xml"
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                   f"--junitxml={report}", str(TESTS)] + (["-k", args.k] if args.k else [])  # fmt: skip
        print(f"the example at {args.commit}: {old}", flush=True)
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        outcomes: dict[str, str] = {}
        reasons: dict[str, str] = {}
        if report.exists():
            for case in ElementTree.parse(report).iter("testcase"):
                name = case.get("name", "?")
                bad = case.find("failure")
                if bad is None:
                    bad = case.find("error")
                outcomes[name] = "PASSED" if bad is None else "FAILED"
                reasons[name] = "" if bad is None else bad.get("message", "")
    if not outcomes:
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
        return 1
    for name, outcome in outcomes.items():
        reason = " ".join(reasons[name].split())
        print(f"{outcome:7} {name}\n        {reason[:300]}")
    failed = sum(outcome != "PASSED" for outcome in outcomes.values())
    print(f"{failed} of {len(outcomes)} defect tests fail on the old example")
    return 0 if failed == len(outcomes) else 1


if __name__ == "__main__":
    raise SystemExit(main())
