"""Private: the engine's bounded caches, one rule for all of them.

Each cache is a plain ``dict`` with a size of its own, at most :data:`LARGEST`
entries; :func:`keep` stores an entry, dropping the oldest first when the
cache is full. An entry at a time (never the whole cache at once) keeps the
number of live objects steady once a cache is full.

Why no cache holds more than :data:`LARGEST`: a dict whose entries come and go
is rebuilt every so often, and the table of a dict of some 4,000 entries or
more is over 128 KiB, which glibc's ``malloc`` serves from ``mmap`` and, once
one is freed, from its heap instead. Rebuilt again and again there, such tables
fragmented the heap: a server playing deal after deal, with the engine's
caches full at 4,096 and 8,192 entries, grew by 2 to 3 kB of resident memory a
deal, none of it live Python objects (``tracemalloc`` saw none); with every
cache at 2,048 entries its memory stays flat (``benchmarks/server_soak.py
--warm``; ``docs/server.md`` has the figures).
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["LARGEST", "keep"]

#: The most entries any of the engine's caches holds (see the module's docstring).
LARGEST = 2048

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
