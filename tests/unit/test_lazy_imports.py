"""``import calabrasella`` loads the engine only; records, their text format, the codecs and matches load on first use.

Each check runs in a fresh interpreter (a subprocess), since the test run
itself has long imported everything.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import calabrasella as cb

SRC = Path(cb.__file__).resolve().parents[1]
LAZY_MODULES = (
    "calabrasella.records",
    "calabrasella.match",
    "calabrasella._codec",
    "calabrasella._record_text",
    "calabrasella._view_codec",
)
LAZY_NAMES = {
    "Cut": "calabrasella.match",
    "Match": "calabrasella.match",
    "Transfer": "calabrasella.match",
    "cut_for_seats": "calabrasella.match",
    "Record": "calabrasella.records",
    "from_data": "calabrasella.records",
    "from_json": "calabrasella.records",
    "to_data": "calabrasella.records",
    "to_json": "calabrasella.records",
    "rollout": "calabrasella._rollout",
}


def run(code: str) -> object:
    """Run ``code`` in a fresh interpreter that imports this calabrasella; return what it prints (JSON)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize("package", ["calabrasella", "calabrasella.bots", "calabrasella.testing", "calabrasella.cli"])
def test_import_calabrasella_leaves_records_match_and_codecs_unloaded(package: str) -> None:
    """After ``import calabrasella`` (or the bots, the kit, the CLI) no lazy module is in ``sys.modules``."""
    loaded = run(
        f"import json, sys, {package}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('calabrasella'))))"
    )
    assert isinstance(loaded, list)
    assert package in loaded
    assert "calabrasella.engine" in loaded
    assert "calabrasella.state" in loaded
    assert [m for m in LAZY_MODULES if m in loaded] == []
    if package == "calabrasella":  # (the bots and the kit roll out: they load it)
        assert "calabrasella._rollout" not in loaded


def test_the_lazy_names_work_on_first_use() -> None:
    """``cb.Match``, ``cb.Record``, ``cb.to_json``... load their module and work; ``from`` imports too."""
    out = run(
        "import json, sys\n"
        "import calabrasella as cb\n"
        "state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)\n"
        "text = cb.to_json(state)\n"
        "back = cb.from_json(text, cb.State)\n"
        "record = cb.Record.from_state(state)\n"
        "match = cb.Match.start(cb.CAVENDISH, seed=1)\n"
        "from calabrasella import Cut, cut_for_seats\n"
        "print(json.dumps({\n"
        "    'round_trip': back == state,\n"
        "    'record': record.replay() == state,\n"
        "    'match': match.players,\n"
        "    'cut': isinstance(match.cut, Cut) and callable(cut_for_seats),\n"
        "    'loaded': sorted(m for m in sys.modules if m.startswith('calabrasella')),\n"
        "}))"
    )
    assert isinstance(out, dict)
    assert out["round_trip"] is True
    assert out["record"] is True
    assert out["match"] == 3
    assert out["cut"] is True
    assert [m for m in LAZY_MODULES if m not in out["loaded"]] == []


def test_the_lazy_names_are_the_objects_their_modules_define() -> None:
    import importlib

    for name, module in LAZY_NAMES.items():
        assert getattr(cb, name) is getattr(importlib.import_module(module), name), name
        assert name in cb.__all__


def test_dir_lists_every_public_name_before_first_use() -> None:
    listed = run("import json, calabrasella\nprint(json.dumps(dir(calabrasella)))")
    assert isinstance(listed, list)
    assert set(cb.__all__) <= set(listed)
    assert listed == sorted(listed)


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    out = run(
        "import json, calabrasella\n"
        "try:\n"
        "    calabrasella.Nope\n"
        "except AttributeError as e:\n"
        "    print(json.dumps(str(e)))\n"
    )
    assert out == "module 'calabrasella' has no attribute 'Nope'"


def test_the_type_checking_imports_name_exactly_the_lazy_names() -> None:
    """mypy sees each lazy name through an ``if TYPE_CHECKING:`` import, and no other name is lazy."""
    tree = ast.parse((SRC / "calabrasella" / "__init__.py").read_text(encoding="utf-8"))
    seen: dict[str, str] = {}
    lazy: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom)
                seen.update({alias.name: f"calabrasella.{imp.module}" for alias in imp.names})
        if isinstance(node, ast.AnnAssign | ast.Assign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "_LAZY" for t in targets):
                lazy = {k: f"calabrasella.{v}" for k, v in ast.literal_eval(node.value).items()}
    assert seen == LAZY_NAMES
    assert lazy == LAZY_NAMES
