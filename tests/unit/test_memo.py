"""The engine's bounded caches: the oldest entry goes first, and none is larger than
``_memo.LARGEST`` (larger dicts, churned, fragmented a long-running server's heap)."""

from __future__ import annotations

from calabrasella import _auction, _memo, _pickle, views
from calabrasella.rulesets import _raise_steps


def test_keep_drops_the_oldest_entry_only_when_full() -> None:
    cache: dict[int, str] = {}
    for key in range(5):
        assert _memo.keep(cache, key, str(key), 3) == str(key)
    assert list(cache) == [2, 3, 4]
    _memo.keep(cache, 3, "again", 3)  # a key already held: nothing is dropped
    assert cache == {2: "2", 3: "again", 4: "4"}


def test_a_full_cache_drops_its_oldest_eighth_at_once() -> None:
    """Finding the oldest entry steps over the slots of the entries dropped before it,
    so a large cache drops an eighth at once: the sixteen oldest of 128, in order."""
    cache: dict[int, int] = {}
    for key in range(128):
        _memo.keep(cache, key, key, 128)
    assert len(cache) == 128
    _memo.keep(cache, 128, 128, 128)
    assert list(cache) == list(range(16, 129))
    for key in range(129, 129 + 15):  # room again: nothing more is dropped until full
        _memo.keep(cache, key, key, 128)
    assert list(cache) == list(range(16, 144))


def test_no_cache_is_larger_than_largest() -> None:
    sizes = [
        _raise_steps._DRAWS_SIZE,
        views._MEMO_SIZE,
        _auction._ROOTS_SIZE,
        _pickle._RECORDS_SIZE,
        _pickle._CACHE_SIZE,
    ]
    assert max(sizes) <= _memo.LARGEST == 2048

