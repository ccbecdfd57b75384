"""``import calabrasella`` (and its encoding, and the envs package) imports no NumPy, PettingZoo or OpenSpiel."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import calabrasella as cb

SRC = Path(cb.__file__).resolve().parents[1]
HEAVY = ("numpy", "pettingzoo", "gymnasium", "pyspiel", "open_spiel")


@pytest.mark.parametrize("module", ["calabrasella", "calabrasella.encoding", "calabrasella.envs"])
def test_the_core_imports_no_research_tool(module: str) -> None:
    """In a fresh interpreter, after the import (and an observation), none of the tools is loaded."""
    code = (
        f"import json, sys, {module}\n"
        "import calabrasella as cb\n"
        "from calabrasella import encoding\n"
        "view = cb.new_deal(cb.CAVENDISH, seed=1).view(0)\n"
        "encoding.observation(view); encoding.legal_mask(view)\n"
        "print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    loaded = set(json.loads(done.stdout))
    assert "calabrasella" in loaded
    assert loaded.isdisjoint(HEAVY), loaded & set(HEAVY)
