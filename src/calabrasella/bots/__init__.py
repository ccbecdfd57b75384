"""Bots, a perfect-information solver, hidden-card sampling and simulation.

Everything here uses only the public API and views; the engine never imports
this package.
"""

from __future__ import annotations

__all__: list[str] = []
