"""Notation: every action's text form reads back as the same action."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from strategies import actions

import calabrasella as cb


@given(actions())
def test_str_then_parse_gives_the_same_action(action: cb.Action) -> None:
    """parse_action(str(a)) == a for every kind of action, every card and seat."""
    assert cb.parse_action(str(action)) == action


@given(actions(), st.sampled_from([str.upper, str.lower, str.title]), st.sampled_from(["  ", "\t", " \n "]))
def test_parse_ignores_case_and_spacing(action: cb.Action, case: object, gap: str) -> None:
    """What a person types: any case, any run of spaces between the words."""
    text = gap + gap.join(str(action).split()) + gap
    assert cb.parse_action(case(text)) == action  # type: ignore[operator]


@given(st.text(max_size=40))
def test_parse_refuses_junk_with_a_notation_error(text: str) -> None:
    """Any text is an action or a NotationError (a ValueError) that quotes it; nothing else."""
    error: cb.NotationError | None = None
    try:
        action = cb.parse_action(text)
    except cb.NotationError as caught:
        error = caught
    if error is None:
        assert cb.parse_action(str(action)) == action
    else:
        assert isinstance(error, ValueError)
        assert repr(text) in str(error)
