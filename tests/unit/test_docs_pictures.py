"""The docs' pictures: drawn by the mkdocs hook from the library, at least 12, and the README's kept current."""

from __future__ import annotations

import importlib.util
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def hook() -> Any:
    """docs/hooks/pictures.py, loaded as mkdocs loads it (a file, not a package module)."""
    spec = importlib.util.spec_from_file_location(
        "docs_pictures_hook", DOCS / "hooks" / "pictures.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOK = hook()
SVG = re.compile(r"<svg [^>]*version=\"1.1\"[^>]*>.*?</svg>", re.DOTALL)


def pictures_of(page: str) -> list[str]:
    markdown, count = HOOK.render((DOCS / page).read_text(encoding="utf-8"))
    found = SVG.findall(markdown)
    assert count and len(found) >= count
    return list(found)


def test_the_hook_is_configured_and_its_folder_left_out_of_the_site() -> None:
    """mkdocs.yml runs the hook and does not publish the hook's source."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "hooks:\n  - docs/hooks/pictures.py" in config
    assert re.search(r"exclude_docs: \|\n(  .*\n)*  hooks/\n", config)


def test_the_docs_show_at_least_twelve_library_pictures_on_the_pages_asked_for() -> None:
    """Home, rules, concepts, records, bots and performance each have pictures; 12 or more in all."""
    per_page = {
        page: len(pictures_of(page))
        for page in (
            "index.md",
            "rules.md",
            "concepts.md",
            "records.md",
            "bots.md",
            "performance.md",
            "pictures.md",
        )
    }
    assert all(per_page.values()), per_page
    assert sum(per_page.values()) >= 12, per_page
    assert per_page["rules.md"] >= 7  # card order, suits, trick, two flows, cappotto, stramazzo


@pytest.mark.parametrize(
    "page",
    [
        "index.md",
        "rules.md",
        "concepts.md",
        "records.md",
        "bots.md",
        "performance.md",
        "pictures.md",
    ],
)
def test_every_docs_picture_is_well_formed_svg(page: str) -> None:
    """Each picture on a page parses and has a viewBox and a title."""
    for picture in pictures_of(page):
        root = ET.fromstring(picture)
        assert root.get("viewBox") and root.find("{http://www.w3.org/2000/svg}title") is not None


def test_the_cappotto_and_stramazzo_examples_are_what_they_say() -> None:
    """The deals the rules page draws end with the bonus it names."""
    import calabrasella as cb

    for bonus in (cb.Bonus.CAPPOTTO, cb.Bonus.STRAMAZZO):
        state = HOOK.first_with(bonus)
        assert state.result.bonus is bonus and f"({bonus.value})" in HOOK.svg.record(state)


def test_a_chart_shows_the_figures_of_the_table_above_it() -> None:
    """The bars are the table's numbers: value and interval read from each cell."""
    page = "| Rules | A | B |\n|---|---|---|\n| x | +5.86 [+5.40, +6.31] | 0.35-0.37 |\n\n"
    markdown, count = HOOK.render(page + '<!-- picture: chart title="t" unit="u" -->\n')
    assert count == 1
    assert ">5.86</text>" in markdown and ">0.36</text>" in markdown  # the middle of a range
    assert HOOK._cell("+5.86 [+5.40, +6.31]") == (5.86, 5.4, 6.31)
    assert HOOK._cell("3.1-3.3 µs") == (3.2, 3.1, 3.3)
    with pytest.raises(ValueError, match="Markdown table"):
        HOOK.render('text\n<!-- picture: chart title="t" unit="u" -->\n')


def test_the_readme_deal_picture_is_what_the_generator_draws_now() -> None:
    """docs/images/deal.svg is current: regenerate it with ``python docs/hooks/pictures.py``."""
    committed = (DOCS / "images" / "deal.svg").read_text(encoding="utf-8")
    assert committed == HOOK.readme_picture(), "run: python docs/hooks/pictures.py"
    assert "docs/images/deal.svg" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_records_page_draws_the_deal_it_writes_down() -> None:
    """The Records page's picture is its own record's deal (Cavendish, dealer 0, seed 7, the same
    first five actions), played on: not another seed's deal with another dealer."""
    import calabrasella as cb

    state = HOOK.records_page_deal()
    written = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    assert state.deal == written.deal and state.dealer == 0
    assert [str(a) for _, a in state.history[:5]] == [
        "bid stand",
        "call 3h",
        "give back 4h",
        "discard 5s",
        "done",
    ]
    picture = pictures_of("records.md")[0]
    assert "Calabrasella (Cavendish): seat 0 deals" in picture
    assert "seat 1: bid stand" in picture and "seat 1: call 3h" in picture  # seat 1 is eldest


def test_a_chart_colours_the_table_s_columns_and_keeps_its_labels_whole() -> None:
    """Two columns of figures are two series with a key; a long row label is not cut to "…"."""
    label = "`rollout` from the first state of a Cavendish deal, ratio to the floor"
    page = f"| what | 0.1.0 | now |\n|---|---|---|\n| {label} | 0.23 | 0.36-0.37 |\n| b | 0.2 | 0.3 |\n\n"
    markdown, _ = HOOK.render(page + '<!-- picture: chart title="t" unit="u" -->\n')
    assert "…" not in markdown
    assert ">0.1.0</text>" in markdown and ">now</text>" in markdown
    fills = re.findall(r'<rect [^>]*height="16" fill="([^"]+)"', markdown)
    assert fills[0] == fills[2] and fills[1] == fills[3] and fills[0] != fills[1]


def test_tables_and_deals_come_in_a_phone_s_layout_too() -> None:
    """The home page's table and the rules page's deals are drawn wide and narrow, and the
    stylesheet shows the narrow ones on a phone."""
    home = HOOK.render((DOCS / "index.md").read_text(encoding="utf-8"))[0]
    assert 'class="cb-wide"' in home and 'class="cb-narrow"' in home
    assert 'viewBox="0 0 400 ' in home  # the narrow table
    css = (DOCS / "stylesheets" / "extra.css").read_text(encoding="utf-8")
    assert re.search(r"@media screen and \(max-width: [\d.]+em\) \{\s*\.cb-wide \{\s*display: none", css)


def test_the_svg_reference_shows_each_function_s_picture_and_explains_the_types() -> None:
    """Under each function of the reference, the picture its example draws; the argument types
    named in the signatures (Colors, CardsLike, Bar, Plays) are explained on the page."""
    page = (DOCS / "reference" / "svg.md").read_text(encoding="utf-8")
    functions = re.findall(r"^::: calabrasella\.svg\.([a-z_]+)$", page, re.M)
    markers = re.findall(r"^<!-- picture: reference ([a-z_]+) -->$", page, re.M)
    assert functions and functions == markers
    assert set(functions) == set(HOOK.svg.__all__) - {"DARK", "LIGHT", "Bar", "Style"}
    for name in ("Colors", "CardsLike", "Bar", "Plays"):
        assert re.search(rf"^`{name}`\n:   \S", page, re.M), name
    assert len(pictures_of("reference/svg.md")) >= len(functions)


def test_how_a_deal_goes_is_in_getting_started_with_pictures_for_a_phone() -> None:
    """The page sits under Getting started, draws the cards, a table, the flow, a trick and a
    result, and its table and flow come in a phone's layout too."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    started = config[config.index("  - Getting started:") : config.index("  - How-to guides:")]
    assert "How a deal goes: deal.md" in started
    markdown, count = HOOK.render((DOCS / "deal.md").read_text(encoding="utf-8"))
    assert count >= 6
    assert markdown.count('class="cb-narrow"') >= 3  # the table, the flow, the result
    assert 'viewBox="0 0 380 ' in markdown  # the narrow flow


def test_a_deal_in_pictures_opens_with_a_picture_and_writes_its_files() -> None:
    """The page shows a picture before its first example, and the example writes the picture
    to a file as the text says, importing nothing it does not use."""
    page = (DOCS / "pictures.md").read_text(encoding="utf-8")
    assert page.index("<!-- picture: pictures-top -->") < page.index("```pycon")
    first = page[page.index("```pycon") : page.index("```\n", page.index("```pycon") + 8)]
    assert ".write_text(picture" in first
    for name in re.findall(r">>> (?:from \S+ )?import (\w+)", first):
        assert first.count(name) > 1, f"{name} imported and not used"
