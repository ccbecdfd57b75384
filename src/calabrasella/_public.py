"""Private: a package's ``dir()`` that lists only its public names."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

__all__ = ["public_dir"]


def public_dir(namespace: Mapping[str, Any], exported: Iterable[str]) -> list[str]:
    """``exported`` (a package's ``__all__``) and the package's own public submodules.

    A package's ``dir()`` would otherwise list what it imports too (the
    ``from __future__`` import's ``annotations``, standard modules).

    Example:
        >>> import calabrasella.bots as bots
        >>> "annotations" in dir(bots), "HeuristicBot" in dir(bots), "heuristic" in dir(bots)
        (False, True, True)
    """
    package = namespace["__name__"]
    submodules = {
        name
        for name, value in namespace.items()
        if isinstance(value, ModuleType)
        and value.__name__.startswith(f"{package}.")
        and not name.startswith("_")
    }
    return sorted(set(exported) | submodules)
