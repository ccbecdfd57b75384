"""Private: a package's ``dir()`` that lists only its public names, and modules that say
which function was meant when they are called."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any, NoReturn

__all__ = ["explain_calls", "public_dir"]


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


#: What to call instead, by the name of a module that may be called by mistake.
_HINTS: dict[str, str] = {}


class _ExplainedModule(ModuleType):
    """A module that, called like a function, says which function was meant.

    ``cb.deal``, ``cb.state`` and ``cb.legal`` are modules (the package's
    submodules) beside functions of similar names (``cb.new_deal``,
    ``cb.legal_actions``) and the function ``cb.view``. Calling one raises a
    ``TypeError``, as calling any module does, that names the function.
    """

    def __call__(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"{self.__name__} is a module, not a function: {_HINTS[self.__name__]}")


def explain_calls(module: ModuleType, hint: str) -> None:
    """Make calling ``module`` raise a ``TypeError`` that ends with ``hint``.

    The module is otherwise unchanged: its names, its import, its pickling.

    Example:
        >>> import types
        >>> m = types.ModuleType("demo_module")
        >>> explain_calls(m, "call demo_function() instead")
        >>> m()
        Traceback (most recent call last):
        ...
        TypeError: demo_module is a module, not a function: call demo_function() instead
    """
    _HINTS[module.__name__] = hint
    module.__class__ = _ExplainedModule
