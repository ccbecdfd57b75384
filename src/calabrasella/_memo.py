"""Private: the engine's bounded caches, one rule for all of them.

Each cache is a plain ``dict`` with a size of its own; :func:`keep` stores an
entry, dropping the oldest first when the cache is full. An entry at a time
(never the whole cache at once) keeps the number of live objects steady once
a cache is full, so a long-running process (a server playing deal after
deal) settles at a flat resident memory instead of emptying and refilling
thousands of entries, which leaves the allocator's arenas fragmented.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["keep"]

K = TypeVar("K")
V = TypeVar("V")


def keep(cache: dict[K, V], key: K, value: V, size: int) -> V:
    """Store ``value`` under ``key`` in ``cache`` and return it; the oldest entry goes first
    if ``cache`` already holds ``size`` entries.

    Example:
        >>> cache: dict[str, int] = {}
        >>> for i, key in enumerate("abcd"):
        ...     _ = keep(cache, key, i, 3)
        >>> cache
        {'b': 1, 'c': 2, 'd': 3}
    """
    if len(cache) >= size and key not in cache:
        del cache[next(iter(cache))]
    cache[key] = value
    return value
