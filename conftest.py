"""Leave out the doctests of the research extras' modules and pages when the extra is missing.

``python -m pytest`` collects the doctests of ``src`` and ``docs``; the
PettingZoo and OpenSpiel modules import their tool at the top, so without
``calabrasella[pettingzoo]`` or ``calabrasella[openspiel]`` installed they are
not collected (their tests in ``tests/envs`` skip themselves).
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("numpy") is None:
    collect_ignore += ["src/calabrasella/envs/pettingzoo.py", "docs/pettingzoo.md"]
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore += ["src/calabrasella/envs/openspiel.py", "docs/openspiel.md"]
