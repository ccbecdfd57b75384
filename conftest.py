"""Leave out the doctests of the research extras' modules and pages when the extra is missing; use both cores; leave out the slow tests unless asked.

``python -m pytest`` collects the doctests of ``src`` and ``docs``; the
PettingZoo and OpenSpiel modules (and the browser table's, ``server/_web.py``)
import their tool at the top, so without ``calabrasella[pettingzoo]``,
``calabrasella[openspiel]`` or ``calabrasella[server]`` installed they are not
collected (their tests skip themselves).
"""

from __future__ import annotations

import importlib.util

import pytest

collect_ignore: list[str] = []
if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("numpy") is None:
    collect_ignore += ["src/calabrasella/envs/pettingzoo.py", "docs/pettingzoo.md"]
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore += ["src/calabrasella/envs/openspiel.py", "docs/openspiel.md"]
if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
    collect_ignore += ["src/calabrasella/server/_web.py"]  # the browser table: the server extra


# --- both cores ------------------------------------------------------------------
#
# The whole default suite (``python -m pytest -q``: no paths given, so pytest
# runs its testpaths) is spread over one worker process a core by pytest-xdist
# (the ``test`` extra), so that it takes a minute or two on two cores. Every
# test is independent of the others and of their order, and the property tests
# are derandomized, so the outcome is the one of a serial run. The slow tests
# (``-m slow``, ``--slow``: soaks and servers that measure memory and time) and
# paths of your own run in one process; ``-n N`` (``-n 0`` for one process),
# ``--pdb``, ``--collect-only`` or ``-p no:xdist`` decide by themselves.


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    if not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput"):
        return
    if config.args_source is not pytest.Config.ArgsSource.TESTPATHS:
        return
    option = config.option
    if option.numprocesses is not None or option.collectonly or option.usepdb:
        return
    if option.markexpr or config.getoption("--slow"):
        return
    option.numprocesses = "auto"
    if option.dist == "no":
        option.dist = "load"


# --- the slow tests ---------------------------------------------------------------
#
# Tests marked ``slow`` (the Chromium tests, the long server and soak tests, the
# whole-deal solver and conformance runs) are left out of a plain
# ``python -m pytest`` so that it takes a few minutes; ``--slow`` runs them too,
# and ``-m slow`` runs them alone (CI runs both halves: .ci/run). A ``-m``
# expression of your own decides by itself.


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--slow",
        action="store_true",
        default=False,
        help="also run the tests marked slow (left out by default; -m slow runs them alone)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow") or config.getoption("markexpr"):
        return
    kept = [item for item in items if item.get_closest_marker("slow") is None]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[i for i in items if i.get_closest_marker("slow")])
        items[:] = kept
