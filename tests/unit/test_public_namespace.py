"""dir() of the public packages lists their public names, not what they import (issue 22)."""

from __future__ import annotations

import calabrasella.bots
import calabrasella.cli


def test_dir_of_bots_is_its_public_names_and_submodules() -> None:
    names = dir(calabrasella.bots)
    assert "annotations" not in names
    assert set(calabrasella.bots.__all__) <= set(names)
    assert {"heuristic", "solver"} <= set(names)
    assert names == sorted(names)


def test_dir_of_cli_is_its_public_names() -> None:
    names = dir(calabrasella.cli)
    assert not {"argparse", "sys", "annotations", "cb", "Path"} & set(names)
    assert names == sorted(calabrasella.cli.__all__)
    # what it imports is still there for the code that uses it
    assert getattr(calabrasella.cli, "sys") is __import__("sys")  # noqa: B009
