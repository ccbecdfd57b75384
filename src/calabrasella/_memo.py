"""Private: the engine's bounded caches, one rule for all of them.

Each cache is a plain ``dict`` with a size of its own, at most :data:`LARGEST`
entries; :func:`keep` stores an entry, dropping the oldest first when the
cache is full: the oldest eighth at once (one entry in a cache of fewer than
sixteen), never the whole cache, so that the number of live objects stays
within an eighth of the size once a cache is full.

Why an eighth and not one entry: a dict keeps the slots of its deleted entries
until it is next resized, and finding its oldest live entry steps over all of
them. Dropped one at a time from the front, a full cache of 2,048 entries had
some thousands of such slots to step over for every entry stored, about 0.8 µs
each time: on new deals, where every entry is new, that was a good part of
the cost of an action of the exchange. An eighth at once steps over them once
for 256 entries.

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

from itertools import islice
from typing import TypeVar

__all__ = ["LARGEST", "keep"]

#: The most entries any of the engine's caches holds (see the module's docstring).
LARGEST = 2048

K = TypeVar("K")
V = TypeVar("V")


def keep(cache: dict[K, V], key: K, value: V, size: int) -> V:
    """Store ``value`` under ``key`` in ``cache`` and return it; the oldest entries go first
    (an eighth of ``size``, at least one) if ``cache`` already holds ``size`` entries.

    Example:
        >>> cache: dict[str, int] = {}
        >>> for i, key in enumerate("abcd"):
        ...     _ = keep(cache, key, i, 3)
        >>> cache
        {'b': 1, 'c': 2, 'd': 3}
    """
    if len(cache) >= size and key not in cache:
        for old in list(islice(cache, max(1, size >> 3))):
            del cache[old]
    cache[key] = value
    return value
