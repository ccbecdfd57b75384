"""The ruleset registry: registering, finding, undoing a registration, name normalising."""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import pytest

import calabrasella as cb
from calabrasella import rulesets

BUILT_IN = ("calabresella", "cavendish")


@pytest.fixture(autouse=True)
def _restore_registry() -> Iterator[None]:
    """Whatever a test does to the registry, the next test starts from the built-in one.

    This touches the private dict on purpose: the clean-up must not depend on
    the functions under test.
    """
    saved = dict(rulesets._REGISTRY)
    yield
    rulesets._REGISTRY.clear()
    rulesets._REGISTRY.update(saved)


def ruleset_named(name: object) -> type[cb.Ruleset]:
    """A new Cavendish subclass whose ``name`` is ``name`` (a fresh class on every call)."""

    @attrs.frozen(kw_only=True)
    class Variant(cb.Cavendish):
        pass

    Variant.name = name  # type: ignore[assignment]
    return Variant


# --- names: lowercase and stripped on registration, as find_ruleset reads them -------------


def test_mixed_case_name_is_listed_and_found() -> None:
    """Before the fix a class named "MyRules" was listed but find_ruleset could not find it."""
    cls = cb.register_ruleset(ruleset_named("MyRules"))
    assert "myrules" in cb.ruleset_names()
    assert "MyRules" not in cb.ruleset_names()
    assert cb.find_ruleset("MyRules") == cls()
    assert cb.find_ruleset("myrules") == cls()
    assert cb.find_ruleset("  MYRULES ") == cls()
    assert isinstance(cb.find_ruleset("MyRules", first_lead="after_declarer"), cls)


def test_name_is_stripped_on_registration() -> None:
    cls = cb.register_ruleset(ruleset_named("  Spaced Out\t"))
    assert "spaced out" in cb.ruleset_names()
    assert cb.find_ruleset("spaced out") == cls()
    assert cls.name == "  Spaced Out\t"  # the class itself is left as written


def test_names_differing_only_in_case_are_one_name() -> None:
    """A second class cannot take a name that differs from a registered one only in case."""
    with pytest.raises(cb.RulesetError, match="registered already"):
        cb.register_ruleset(ruleset_named("Cavendish"))
    cb.register_ruleset(ruleset_named("house"))
    with pytest.raises(cb.RulesetError, match="registered already"):
        cb.register_ruleset(ruleset_named(" HOUSE "))
    assert cb.ruleset_names() == ("calabresella", "cavendish", "house")


def test_registering_the_same_class_twice_is_harmless() -> None:
    cls = ruleset_named("Twice")
    assert cb.register_ruleset(cls) is cls
    assert cb.register_ruleset(cls) is cls
    assert cb.ruleset_names() == ("calabresella", "cavendish", "twice")


@pytest.mark.parametrize(
    "name",
    ["", "   ", "\t\n", None, 3, b"bytes"],
    ids=["empty", "spaces", "whitespace", "None", "int", "bytes"],
)
def test_empty_or_non_string_name_is_refused(name: object) -> None:
    with pytest.raises(cb.RulesetError, match="name"):
        cb.register_ruleset(ruleset_named(name))
    assert cb.ruleset_names() == BUILT_IN


# --- unregister_ruleset --------------------------------------------------------------------


def test_unregister_by_name_any_case() -> None:
    cls = cb.register_ruleset(ruleset_named("MyRules"))
    assert cb.unregister_ruleset(" MyRULES ") is cls
    assert cb.ruleset_names() == BUILT_IN
    with pytest.raises(cb.RulesetError, match="no ruleset named"):
        cb.find_ruleset("myrules")


def test_unregister_by_class() -> None:
    cls = cb.register_ruleset(ruleset_named("MyRules"))
    assert cb.unregister_ruleset(cls) is cls
    assert cb.ruleset_names() == BUILT_IN


def test_unregister_then_register_again() -> None:
    cls = cb.register_ruleset(ruleset_named("again"))
    cb.unregister_ruleset(cls)
    other = cb.register_ruleset(ruleset_named("again"))  # the name is free again
    assert cb.find_ruleset("again") == other()


def test_unregister_a_built_in_ruleset_and_put_it_back() -> None:
    assert cb.unregister_ruleset("cavendish") is cb.Cavendish
    assert cb.ruleset_names() == ("calabresella",)
    with pytest.raises(cb.RulesetError):
        cb.find_ruleset("cavendish")
    cb.register_ruleset(cb.Cavendish)
    assert cb.find_ruleset("cavendish") == cb.CAVENDISH


def test_unregister_an_unknown_name_raises() -> None:
    known = r"\(known: calabresella, cavendish\)"
    with pytest.raises(cb.RulesetError, match=rf"no ruleset named 'skat' {known}"):
        cb.unregister_ruleset("skat")
    assert cb.ruleset_names() == BUILT_IN


def test_unregister_a_class_that_is_not_registered_raises() -> None:
    with pytest.raises(cb.RulesetError, match="not registered"):
        cb.unregister_ruleset(ruleset_named("never"))
    assert cb.ruleset_names() == BUILT_IN


def test_unregister_a_class_whose_name_belongs_to_another_class_raises() -> None:
    """Unregistering by class removes that class only, never another one of the same name."""
    impostor = ruleset_named("Cavendish")
    with pytest.raises(cb.RulesetError, match="another class"):
        cb.unregister_ruleset(impostor)
    assert cb.find_ruleset("cavendish") == cb.CAVENDISH


@pytest.mark.parametrize(
    "thing",
    [None, 3, cb.CAVENDISH, object, ""],
    ids=["None", "int", "a-ruleset-value", "object", "empty"],
)
def test_unregister_something_else_raises(thing: object) -> None:
    with pytest.raises(cb.RulesetError):
        cb.unregister_ruleset(thing)  # type: ignore[arg-type]
    assert cb.ruleset_names() == BUILT_IN


# --- registered_ruleset --------------------------------------------------------------------


def test_registered_ruleset_registers_inside_the_block_only() -> None:
    cls = ruleset_named("Scoped")
    with cb.registered_ruleset(cls) as entered:
        assert entered is cls
        assert cb.ruleset_names() == ("calabresella", "cavendish", "scoped")
        assert cb.find_ruleset("Scoped") == cls()
    assert cb.ruleset_names() == BUILT_IN
    with pytest.raises(cb.RulesetError):
        cb.find_ruleset("scoped")


def test_registered_ruleset_restores_the_registry_on_an_exception() -> None:
    cls = ruleset_named("Scoped")
    seen: list[tuple[str, ...]] = []

    def fail_inside() -> None:
        with cb.registered_ruleset(cls):
            seen.append(cb.ruleset_names())
            raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        fail_inside()
    assert seen == [("calabresella", "cavendish", "scoped")]
    assert cb.ruleset_names() == BUILT_IN


def test_registered_ruleset_restores_the_previous_state_whatever_the_block_did() -> None:
    """Registrations and unregistrations made inside the block are undone too."""
    kept = cb.register_ruleset(ruleset_named("kept"))
    before = dict(rulesets._REGISTRY)
    with cb.registered_ruleset(ruleset_named("scoped")):
        cb.register_ruleset(ruleset_named("inner"))
        cb.unregister_ruleset("kept")
        cb.unregister_ruleset("cavendish")
    assert before == rulesets._REGISTRY
    assert cb.find_ruleset("kept") == kept()


def test_registered_ruleset_nests() -> None:
    with cb.registered_ruleset(ruleset_named("outer")):
        with cb.registered_ruleset(ruleset_named("inner")):
            assert cb.ruleset_names() == ("calabresella", "cavendish", "inner", "outer")
        assert cb.ruleset_names() == ("calabresella", "cavendish", "outer")
    assert cb.ruleset_names() == BUILT_IN


def test_registered_ruleset_of_an_already_registered_class_leaves_it_registered() -> None:
    with cb.registered_ruleset(cb.Cavendish):
        assert cb.find_ruleset("cavendish") == cb.CAVENDISH
    assert cb.ruleset_names() == BUILT_IN


def test_registered_ruleset_refuses_a_taken_name_before_the_block() -> None:
    ran = []

    def enter() -> None:
        with cb.registered_ruleset(ruleset_named("CALABRESELLA")):
            ran.append(True)

    with pytest.raises(cb.RulesetError, match="registered already"):
        enter()
    assert not ran
    assert cb.find_ruleset("calabresella") == cb.CALABRESELLA
    assert cb.ruleset_names() == BUILT_IN


# --- exports -------------------------------------------------------------------------------


def test_new_functions_are_exported() -> None:
    assert cb.unregister_ruleset is rulesets.unregister_ruleset
    assert cb.registered_ruleset is rulesets.registered_ruleset
    for name in ("unregister_ruleset", "registered_ruleset"):
        assert name in cb.__all__
        assert name in rulesets.__all__
