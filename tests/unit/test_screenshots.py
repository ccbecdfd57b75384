"""scripts/screenshots.py, the docs' screenshot pass that CI runs: its checks can fail.

The blank-picture check is tested on PNGs made here; the phone-width check on
a two-page site made here, in the system's Chromium (skipped, saying why,
where there is none).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "screenshots.py"


@pytest.fixture(scope="module")
def shots() -> ModuleType:
    if not SCRIPT.is_file():
        pytest.skip("no scripts/screenshots.py beside the tests (an installed package's tests)")
    spec = importlib.util.spec_from_file_location("screenshots", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["screenshots"] = module
    spec.loader.exec_module(module)
    return module


def stripes(width: int, height: int) -> list[bytes]:
    """Rows of a page-like picture: each row a different grey."""
    return [bytes([row % 256]) * (3 * width) for row in range(height)]


def test_a_single_colour_picture_is_blank(shots: ModuleType) -> None:
    white = shots.png(10, 40, [b"\xff" * 30] * 40)
    assert shots.picture_problem(white, 10, 40).startswith("blank")


def test_a_bar_on_a_single_colour_is_blank_too(shots: ModuleType) -> None:
    rows = [b"\x30" * 30] * 5 + [b"\xff" * 30] * 35  # a header bar and nothing under it
    assert shots.picture_problem(shots.png(10, 40, rows), 10, 40).startswith("blank")


def test_a_picture_with_many_rows_passes(shots: ModuleType) -> None:
    assert shots.picture_problem(shots.png(10, 40, stripes(10, 40)), 10, 40) is None


def test_a_picture_of_the_wrong_size_or_no_picture_is_a_problem(shots: ModuleType) -> None:
    assert "not 12x40" in shots.picture_problem(shots.png(10, 40, stripes(10, 40)), 12, 40)
    assert shots.picture_problem(b"GIF89a", 10, 40).startswith("not a readable PNG")


def test_pages_are_found_and_named(shots: ModuleType, tmp_path: Path) -> None:
    for folder in ("", "rules", "reference/engine", "assets/x", "search"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "index.html").write_text("<html></html>")
    paths = shots.page_paths(tmp_path)
    assert paths == ["", "reference/engine/", "rules/"]
    assert [shots.picture_name(p) for p in paths] == ["index.png", "reference-engine.png", "rules.png"]


@pytest.mark.slow
def test_a_page_wider_than_a_phone_is_reported(shots: ModuleType, tmp_path: Path) -> None:
    browser = shots.find_chromium()
    if browser is None:
        pytest.skip("no chromium (Debian's package) to measure pages in")
    (tmp_path / "wide").mkdir()
    (tmp_path / "wide" / "index.html").write_text('<html><body><div style="width:900px">x</div></body></html>')
    (tmp_path / "boxed").mkdir()
    (tmp_path / "boxed" / "index.html").write_text(
        '<html><body><div style="overflow-x:auto"><div style="width:900px">x</div></div></body></html>'
    )
    pages = shots.page_paths(tmp_path)
    with shots.serve(tmp_path, pages) as base:
        found = shots.overflows(browser, base, pages)
    assert found["boxed/"] is None
    assert found["wide/"] is not None and "wider than the 390px screen" in found["wide/"]
