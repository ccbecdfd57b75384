"""Helpers shared by the unit tests."""

from __future__ import annotations

import copy
from typing import cast

import pytest

import calabrasella as cb


def assert_illegal(state: cb.State, action: object, *words: str) -> cb.IllegalActionError:
    """Apply ``action``, expect IllegalActionError naming it and a reason; ``state`` is unchanged."""
    before = copy.deepcopy(state)
    digest = hash(state)
    with pytest.raises(cb.IllegalActionError) as info:
        cb.apply(state, cast(cb.Action, action))
    error = info.value
    assert isinstance(error, ValueError)
    assert error.action is action
    assert error.reason
    for word in words:
        assert word in error.reason.lower(), (word, error.reason)
    assert state == before
    assert hash(state) == digest
    assert not cb.is_legal(state, cast(cb.Action, action))
    assert action not in cb.legal_actions(state)
    return error
