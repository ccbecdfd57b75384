"""Which search an install uses, and what it says: --version, the bot's warning, the build.

The package builds the compiled search where a C compiler works (setup.py)
and is pure Python otherwise. ``calabrasella --version`` names the search in
use and, when pure, why; a default SamplingBot on a pure install searches
fewer tricks than on a compiled one and says so once.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import calabrasella as cb
from calabrasella.bots import solver


def _run(code: str, pure: bool) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CALABRASELLA_PURE_SOLVER="1" if pure else "0")
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )


def test_version_names_the_search_in_use() -> None:
    """--version says compiled when it is, and pure Python with the reason otherwise."""
    command = [sys.executable, "-m", "calabrasella", "--version"]
    pure = subprocess.run(
        command,
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, CALABRASELLA_PURE_SOLVER="1"),
    )
    assert pure.stdout == (
        f"calabrasella {cb.__version__} (search: pure Python; "
        "turned off by CALABRASELLA_PURE_SOLVER=1)\n"
    )
    default = subprocess.run(command, capture_output=True, text=True, check=True)
    if solver.COMPILED:
        assert default.stdout == f"calabrasella {cb.__version__} (search: compiled)\n"
    else:
        assert default.stdout.startswith(f"calabrasella {cb.__version__} (search: pure Python; ")
        assert solver.WHY_PURE in default.stdout


def test_why_pure_is_empty_only_when_compiled() -> None:
    assert (solver.WHY_PURE == "") == solver.COMPILED


_BOTS = """
import warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    from calabrasella.bots.sampling_bot import SamplingBot
    bots = [SamplingBot(1), SamplingBot(2), SamplingBot.classic(3), SamplingBot(4, search_from=12)]
print([bot.search_from for bot in bots])
for warning in caught:
    print(warning.category.__name__, warning.message)
"""


def test_a_pure_install_s_default_bot_warns_once() -> None:
    """Pure: the default bot searches 7 tricks and warns once, naming what differs and the way out."""
    out = _run(_BOTS, pure=True).stdout.splitlines()
    assert out[0] == "[7, 7, 7, 12]"
    assert len(out) == 2, out
    assert out[1].startswith("RuntimeWarning SamplingBot: the solver's search is pure Python")
    for words in ("CALABRASELLA_PURE_SOLVER=1", "only the last 7 tricks", "C compiler", "search_from=12"):
        assert words in out[1]


@pytest.mark.skipif(not solver.COMPILED, reason="the compiled search is not built")
def test_a_compiled_install_s_default_bot_searches_every_trick_silently() -> None:
    out = _run(_BOTS, pure=False).stdout.splitlines()
    assert out == ["[12, 12, 7, 12]"]
