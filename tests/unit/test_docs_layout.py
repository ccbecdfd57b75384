"""The docs pages in Chromium at a desktop's width (1280 px) and a phone's (390 px):
nothing cut off, pictures readable.

The site is built with ``mkdocs build --strict`` and served on 127.0.0.1; a
page of the server's frames each page of the site at each width and measures
it when it has loaded (a headless window cannot be narrower than 500 px; a
frame can). Checked: no table and no code block hides part of itself (wider
than its box, so cut or scrolled away), and the text of the pictures shown is
at least 10 px on a desktop and, for the pictures drawn for a phone, 9 px on
a phone; a deal's twelve tricks take at most 1,600 px (two to a row on a
phone, not one above another). Uses Debian's ``chromium`` (or ``$CALABRASELLA_CHROMIUM``); skips
where there is none.
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = (
    "",
    "deal/",
    "quickstart/",
    "rules/",
    "server/",
    "variants/",
    "records/",
    "pictures/",
    "pettingzoo/",
    "openspiel/",
    "performance/",
    "reference/svg/",
)

PROBE = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<pre id="report"></pre>
<script>
var left = FRAMES_COUNT, found = [];
function measure(frame) {
  var doc = frame.contentDocument, width = frame.width, where = frame.dataset.page + " at " + width + "px: ";
  doc.querySelectorAll("table, pre > code").forEach(function (el) {
    if (el.getClientRects().length && el.scrollWidth > el.clientWidth + 1) {
      found.push(where + el.tagName.toLowerCase() + " cut: " + el.textContent.trim().slice(0, 60));
    }
  });
  doc.querySelectorAll(".cb-tricks").forEach(function (grid) {  // a deal's twelve tricks
    var tall = grid.getBoundingClientRect().height;
    if (tall > 1600) { found.push(where + "the tricks stack " + Math.round(tall) + "px high"); }
  });
  var least = width >= 1000 ? 10 : 9;
  doc.querySelectorAll(".cb-picture svg").forEach(function (svg) {
    var box = svg.getBoundingClientRect();
    if (!box.width) { return; }  // not shown at this width
    if (width < 1000 && !svg.closest(".cb-narrow")) { return; }
    var factor = box.width / svg.viewBox.baseVal.width;
    svg.querySelectorAll("text").forEach(function (t) {
      if (t.closest("g[transform]")) { return; }  // a card's own index
      var px = parseFloat(t.getAttribute("font-size")) * factor;
      if (px < least) {
        found.push(where + "picture text at " + px.toFixed(1) + "px: " + t.textContent.slice(0, 40));
      }
    });
  });
  if (--left === 0) { document.getElementById("report").textContent = JSON.stringify(found); }
}
</script>
FRAMES
</body></html>"""


def load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site() -> Iterator[Path]:
    if importlib.util.find_spec("mkdocs") is None or not (ROOT / "mkdocs.yml").is_file():
        pytest.skip("the docs extra or mkdocs.yml is missing")
    with tempfile.TemporaryDirectory(prefix="cb-site-") as out:
        subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", out],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        yield Path(out)


@pytest.mark.slow
def test_no_table_or_code_is_cut_and_pictures_read_at_desktop_and_phone_width(site: Path) -> None:
    """At 1280 px and at 390 px: every table and code block fits its box (the server's
    protocol table, the variants' step table, the install line, long error messages),
    and the pictures' text is readable."""
    shots = load("screenshots", ROOT / "scripts" / "screenshots.py")
    browser = shots.find_chromium()
    if browser is None:
        pytest.skip("no chromium (Debian's package) to lay the pages out in")
    frames = "\n".join(
        f'<iframe data-page="/{page}" src="/{page}" width="{width}" height="900" onload="measure(this)"></iframe>'
        for page in PAGES
        for width in (1280, 390)
    )
    probe = PROBE.replace("FRAMES_COUNT", str(2 * len(PAGES))).replace("FRAMES", frames)
    (site / "__layout__.html").write_text(probe, encoding="utf-8")
    with shots.serve(site) as base:
        done = shots._chromium(
            browser,
            (1400, 1000, False),
            ["--dump-dom", "--virtual-time-budget=20000"],
            f"{base}__layout__.html",
            timeout=240,
        )
    found = re.search(r'<pre id="report">(.*?)</pre>', done.stdout, re.S)
    assert found and found.group(1), f"not measured: {done.stderr[-500:]}"
    problems = json.loads(html.unescape(found.group(1)))
    assert problems == [], "\n".join(problems[:30])
