"""Checks over the built documentation site (issue 22).

The site is built once (``mkdocs build --strict`` into a temporary folder) and
its HTML pages are read as a reader's browser gets them.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

DOCS = ROOT / "docs"

#: The tests that read the built site: a build takes about 12 s of CPU, so they run with
#: the slow tests (``-m slow``; CI also builds the site with ``mkdocs build --strict``).
SITE = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site's folder."""
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings") is None:
        pytest.skip("the docs extra (mkdocs-material, mkdocstrings) is not installed")
    if not (ROOT / "mkdocs.yml").is_file():
        pytest.skip("no mkdocs.yml beside the tests (an installed package's tests)")
    out = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return out


def pages(site: Path) -> list[Path]:
    """Every HTML page of the site."""
    found = sorted(site.rglob("*.html"))
    assert found, "the build wrote no HTML"
    return found


@SITE
def test_no_doctest_blankline_marker_is_shown(site: Path) -> None:
    shown = [str(p.relative_to(site)) for p in pages(site) if "BLANKLINE" in p.read_text("utf-8")]
    assert shown == []


@SITE
def test_no_page_is_over_one_and_a_half_megabytes(site: Path) -> None:
    big = [(str(p.relative_to(site)), p.stat().st_size) for p in pages(site) if p.stat().st_size > 1_500_000]
    assert big == []


@SITE
def test_no_page_cites_a_path_outside_the_repository(site: Path) -> None:
    outside = re.compile(r"\.\./shared|/work/|\.ci/")
    cited = [str(p.relative_to(site)) for p in pages(site) if outside.search(p.read_text("utf-8"))]
    assert cited == []


def test_doctests_are_fenced_as_python_console_sessions() -> None:
    # ```pycon highlights the output as output, and the copy button leaves the
    # prompts and the output out (docs/stylesheets/extra.css)
    if not DOCS.is_dir():
        pytest.skip("no docs folder beside the tests")
    fenced = re.compile(r"^```(?!pycon)[a-z]*\n>>> ", re.MULTILINE)
    wrong = [p.name for p in sorted(DOCS.glob("*.md")) if fenced.search(p.read_text("utf-8"))]
    assert wrong == []


@SITE
def test_rule_texts_are_named_by_author_and_year_not_seed_numbers(site: Path) -> None:
    # "seed 000" read as a random seed to a new user; the changelog keeps its history
    cited = re.compile(r"\bseeds?\s+00[0-4]\b")
    found = [
        str(p.relative_to(site))
        for p in pages(site)
        if p.parent.name != "changelog" and cited.search(p.read_text("utf-8"))
    ]
    assert found == []


def reference(site: Path) -> str:
    """The API reference's pages (one per module, under reference/), as one text."""
    found = sorted((site / "reference").glob("*/index.html"))
    assert len(found) >= 20, "one reference page per module"
    return "".join(p.read_text("utf-8") for p in found)


@SITE
def test_the_api_page_shows_no_private_module(site: Path) -> None:
    html = reference(site)
    headings = re.findall(r"<h[1-6][^>]*\bid=\"([^\"]+)\"", html)
    assert "calabrasella.rollout" in headings  # public names, by their public path
    private = [h for h in headings if re.search(r"(^|\.)_[a-z]", h)]
    assert private == []
    # nor a private type variable in a signature (register_ruleset(cls: _R) -> _R)
    assert re.findall(r"\b_[A-Z]\b", re.sub(r"<[^>]+>", "", html)) == []


def _signature(html: str, name: str) -> str:
    """The text of the signature under the API page's heading ``name``."""
    start = html.index(f'id="{name}"')
    signature = html.index("doc-signature", start)
    return re.sub(r"<[^>]+>", "", html[signature : html.index("</code>", signature)])


@SITE
def test_the_api_page_shows_constructors_with_their_parameters(site: Path) -> None:
    html = reference(site)
    cavendish = _signature(html, "calabrasella.rulesets.cavendish.Cavendish")
    for option in ("players", "packet", "first_lead", "dealer_shares", "irregularities"):
        assert option in cavendish
    calabresella = _signature(html, "calabrasella.rulesets.calabresella.Calabresella")
    for option in ("auction", "callable", "give_back", "stramazzo", "follow_suit"):
        assert option in calabresella
    assert "suit" in _signature(html, "calabrasella.cards.Card")


@SITE
def test_the_api_page_lists_enum_members(site: Path) -> None:
    html = reference(site)
    assert "SOLISSIMO" in re.sub(r"<[^>]+>", "", html)


def test_the_home_page_links_every_page_of_the_nav() -> None:
    if not (ROOT / "mkdocs.yml").is_file():
        pytest.skip("no mkdocs.yml beside the tests")
    nav = set(re.findall(r"^\s+- (?:[^:\n]+: )?(\w+\.md)$", (ROOT / "mkdocs.yml").read_text("utf-8"), re.M))
    assert {"quickstart.md", "api.md", "datasets.md"} <= nav
    home = (DOCS / "index.md").read_text("utf-8")
    linked = set(re.findall(r"\]\((\w+\.md)[)#]", home))
    assert nav - {"index.md"} - linked == set()


def test_the_glossary_is_in_order_and_every_term_has_an_anchor() -> None:
    if not DOCS.is_dir():
        pytest.skip("no docs folder beside the tests")
    terms = re.findall(r"^\*\*([^*]+)\*\*.*?(\{ #[\w-]+ \})?$", (DOCS / "glossary.md").read_text("utf-8"), re.M)
    assert len(terms) > 20
    names = [name.lower() for name, _ in terms]
    assert names == sorted(names)
    assert all(anchor for _, anchor in terms)


@SITE
def test_the_api_page_shows_no_rest_literal_markers(site: Path) -> None:
    text = re.sub(r"<[^>]+>", "", reference(site))
    assert re.search(r"\w::\s", text) is None


def test_every_reference_page_is_in_the_nav() -> None:
    if not (ROOT / "mkdocs.yml").is_file():
        pytest.skip("no mkdocs.yml beside the tests")
    nav = set(re.findall(r"^\s+- [^:\n]+: (reference/\w+\.md)$", (ROOT / "mkdocs.yml").read_text("utf-8"), re.M))
    pages = {f"reference/{p.name}" for p in (DOCS / "reference").glob("*.md")}
    assert pages and nav == pages
    # and the overview links each of them
    overview = (DOCS / "api.md").read_text("utf-8")
    assert {f"reference/{p}" for p in re.findall(r"\]\(reference/(\w+\.md)", overview)} == pages


def _options_table(html: str) -> dict[str, list[str]]:
    """The options table of a ruleset's reference page: parameter -> its row's cells, as text."""
    table = html[html.index('id="options"') :]
    table = table[table.index("<table") : table.index("</table>")]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]:
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
        rows[cells[0]] = cells
    return rows


@SITE
@pytest.mark.parametrize("name", ["cavendish", "calabresella"])
def test_each_ruleset_page_tables_every_option_with_its_default(site: Path, name: str) -> None:
    import attrs

    import calabrasella as cb

    rules = cb.find_ruleset(name)
    table = _options_table((site / "reference" / name / "index.html").read_text("utf-8"))
    fields = [f for f in attrs.fields(type(rules)) if f.init]
    assert sorted(table) == sorted(f.alias for f in fields)
    for field in fields:
        _, values, default, sources = table[field.alias]
        assert default == repr(field.default)
        assert repr(field.default) in values
        assert sources
    # what each option means, under the table
    html = (site / "reference" / name / "index.html").read_text("utf-8")
    meant = re.findall(r"<dt><code>(\w+)</code></dt>\s*<dd>(?:<p>)?([^<]{20,})", html)
    assert sorted(option for option, _ in meant) == sorted(f.alias for f in fields)


@SITE
def test_the_variants_page_shows_the_swap_example_from_its_file(site: Path) -> None:
    # docs/variants.md includes the lines of examples/swap_variant.py from its imports to
    # the end of SwapCavendish: the range it names must still be that part
    lines = (ROOT / "examples" / "swap_variant.py").read_text("utf-8").splitlines()
    first = lines.index("from __future__ import annotations") + 1
    last = next(i for i, line in enumerate(lines) if "return (*SWAPS," in line) + 1
    assert lines[last + 2].startswith("# --- the demonstration")
    page = (DOCS / "variants.md").read_text("utf-8")
    assert f'--8<-- "examples/swap_variant.py:{first}:{last}"' in page
    text = re.sub(r"<[^>]+>", "", (site / "variants" / "index.html").read_text("utf-8"))
    for line in ("class SwapStep(Step):", "class SwapCavendish(cb.Cavendish):", "work.move("):
        assert line in text
    assert "# --- the demonstration" not in text


def test_the_ruleset_sources_name_the_rule_texts_not_seed_numbers() -> None:
    # help(cb.Calabresella) shows the docstrings as written: no rename at display
    # time, so the source itself names each text by author or title and year
    from calabrasella.cli._rules import SOURCES

    # every module but the one that renames a user's own "seed 000" citations
    source = ROOT / "src" / "calabrasella"
    cited = [
        str(p.relative_to(source))
        for p in sorted(source.rglob("*.py"))
        if p != source / "cli" / "_rules.py"
        and re.search(r"\bseeds?\s+00[0-4]\b", p.read_text("utf-8"))
    ]
    assert cited == []
    import calabrasella as cb

    docs = " ".join(" ".join((cls.__doc__ or "").split()) for cls in (cb.Cavendish, cb.Calabresella))
    # and the two rulesets' options, together, cite each of the five texts by name
    assert [name for name, _ in SOURCES.values() if name not in docs] == []


@SITE
def test_the_reference_writes_optional_and_union_one_way(site: Path) -> None:
    # X | None everywhere, the attrs constructors included (issue 22)
    text = re.sub(r"<[^>]+>", "", reference(site))
    assert "Optional[" not in text and "Union[" not in text
    assert "deals: int | None = None" in text  # Match's constructor, written Optional[int] in the source


@SITE
def test_no_doctest_directive_or_elided_output_is_shown(site: Path) -> None:
    """A reader sees no "# doctest:" directive, no "..." under a traceback's first line and
    no "..." as a line of output: a page shows the real output, or says lines are left out."""
    found = []
    for page in pages(site):
        html = page.read_text("utf-8")
        if "doctest:" in html or '<span class="go">...</span>' in html:
            found.append(str(page.relative_to(site)))
        if re.search(r"Traceback \(most recent call last\):</span>\s*<span[^>]*>\.\.\.<", html):
            found.append(str(page.relative_to(site)) + " (a traceback's ...)")
    assert found == []


def test_no_table_starts_with_an_empty_header_row() -> None:
    """A table's first row names its columns; an empty one shows as a blank bar."""
    empty = re.compile(r"^\|(\s*\|)+\s*\n\|\s*-", re.MULTILINE)
    found = [str(p.relative_to(DOCS)) for p in sorted(DOCS.rglob("*.md")) if empty.search(p.read_text("utf-8"))]
    assert found == []


def test_the_names_agree() -> None:
    """The OpenSpiel page is about both games; the docs' variants are named with underscores, as
    the built-in rulesets are; the glossary links a term, not a source path."""
    openspiel = (DOCS / "openspiel.md").read_text(encoding="utf-8")
    assert openspiel.splitlines()[0] == "# OpenSpiel: IS-MCTS on both games"
    names = re.findall(r'name(?:: ClassVar\[str\])? = "([^"]+)"', (DOCS / "variants.md").read_text("utf-8"))
    assert names and all(re.fullmatch(r"[a-z_]+", n) for n in names), names
    assert "glossary.md#" not in (DOCS / "glossary.md").read_text(encoding="utf-8")
