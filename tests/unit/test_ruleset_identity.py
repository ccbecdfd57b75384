"""Equal rulesets are one object, so the engine's caches (keyed by the ruleset object)
hold one set of entries for them however often a record or a document rebuilds them."""

from __future__ import annotations

import attrs
import pytest

import calabrasella as cb
from calabrasella import _auction


def _random_deal(rules: cb.Ruleset, seed: int) -> cb.State:
    return cb.rollout(cb.new_deal(rules, dealer=seed % 3, seed=seed), seed)


@pytest.mark.parametrize("rules", [cb.CAVENDISH, cb.CALABRESELLA])
def test_an_equal_ruleset_is_the_same_object(rules: cb.Ruleset) -> None:
    assert type(rules)() is rules
    assert attrs.evolve(rules) is rules
    assert cb.find_ruleset(rules.name) is rules
    other = attrs.evolve(rules, players=4)
    assert other is not rules and other != rules
    assert attrs.evolve(rules, players=4) is other


def test_a_record_replays_under_the_ruleset_it_names() -> None:
    state = _random_deal(cb.CALABRESELLA, 3)
    record = cb.Record.from_state(state)
    again = cb.from_json(cb.to_json(record), cb.Record)
    assert again.replay().rules is cb.CALABRESELLA


def test_records_rebuilt_from_json_add_no_cache_entries() -> None:
    # Before rulesets were interned, each record rebuilt its ruleset, and each
    # rebuilt ruleset got an auction root of its own.
    texts = [cb.to_json(cb.Record.from_state(_random_deal(cb.CAVENDISH, seed))) for seed in range(40)]
    for text in texts:
        cb.from_json(text, cb.Record).replay()
    roots = len(_auction._ROOTS)
    for text in texts:
        cb.from_json(text, cb.Record).replay()
    assert len(_auction._ROOTS) == roots


@attrs.frozen(kw_only=True)
class _Listed(cb.Cavendish):
    """A ruleset with an option that does not hash: it is built, not interned."""

    name = "listed-for-a-test"
    extra: list[int] = attrs.field(factory=list)


def test_a_ruleset_whose_options_do_not_hash_is_built_as_usual() -> None:
    first = _Listed(extra=[1])
    second = _Listed(extra=[1])
    assert first == second
    assert first is not second
    state = _random_deal(first, 1)  # it plays
    assert state.is_over
