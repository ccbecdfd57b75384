"""The pictures seen in a real browser: headless Chromium renders a page of every kind of picture.

It checks that the screenshot is not blank, that each picture drew something
where it sits on the page, that each picture's box lies inside the page, and
that what each picture draws lies inside its own viewBox (nothing cut off at
an edge). It uses the system's Chromium (Debian's ``chromium`` package, or the
binary named by ``CALABRASELLA_CHROMIUM``); nothing downloads a browser. It
skips, saying why, where there is none. Set ``CALABRASELLA_SCREENSHOTS`` to a
folder to keep the page and the screenshot.
"""

from __future__ import annotations

import html
import json
import os
import random
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest
from support import played

import calabrasella as cb
from calabrasella import svg


def chromium() -> str | None:
    named = os.environ.get("CALABRASELLA_CHROMIUM")
    if named:
        return named
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


BROWSER = chromium()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        BROWSER is None,
        reason="no Chromium found (install Debian's chromium package, or set CALABRASELLA_CHROMIUM)",
    ),
]


def gallery(theme: str = "light") -> dict[str, str]:
    """One of each kind of picture, and a few options, in ``theme``."""
    mid = played(cb.CALABRESELLA, 3, 22)
    end = played(cb.CAVENDISH, 4)
    last = next(s for s in cb.Record.from_state(end).states() if s.tricks_played == 11 and s.trick)
    four = played(cb.Cavendish(players=4), 5, 30)
    match = cb.Match.start(cb.CAVENDISH, seed=1, deals=3)
    for seed in range(3):
        match = match.record(_next(match, seed))
    t = theme
    return {
        "card": svg.card("Ad", theme=t),
        "card-french": svg.card("Qh", suits="french", theme=t),
        "back": svg.back(theme=t),
        "suit": svg.suit("s", theme=t),
        "legend": svg.legend(theme=t),
        "cards": svg.cards(cb.CardSet.parse("3d 2d Ad Kd Qd Jd 7d 6d 5d 4d"), units=True, theme=t),
        "trick": svg.trick(end, 12, theme=t),
        "trick-four": svg.trick(four, theme=t),
        "table-state": svg.table(mid, theme=t),
        "table-view": svg.table(mid.view(1), theme=t),
        "table-narrow": svg.table(mid.view(1), narrow=True, theme=t),
        "table-four": svg.table(four.view(2), suits="french", theme=t),
        "table-last-trick": svg.table(last, theme=t),
        "table-over": svg.table(end.view(0), theme=t),
        "record": svg.record(end, theme=t),
        "record-narrow": svg.record(end, narrow=True, theme=t),
        "result": svg.result(end.result, rules=end.rules, theme=t),  # type: ignore[arg-type]
        "match": svg.match(match, theme=t),
        "bar-chart": svg.bar_chart(
            [
                ("Cavendish", 19.65, 18.24, 21.06),
                ("Calabresella", 5.86, 5.4, 6.31),
                ("apply_action through the whole deal, per action", 3.1, 2.9, 3.3),
                ("apply_action through the whole deal, per action", 2.0, 1.9, 2.2),
            ],
            title="Mean payment per deal",
            unit="units",
            series=["before", "before", "before", "after"],
            theme=t,
        ),
        "flow-cavendish": svg.flow(cb.CAVENDISH, theme=t),
        "flow-calabresella": svg.flow(cb.CALABRESELLA, theme=t),
        "flow-narrow": svg.flow(cb.CALABRESELLA, narrow=True, theme=t),
    }


def _next(match: cb.Match, seed: int) -> cb.State:
    rng = random.Random(seed)
    state = match.next_deal(seed=seed)
    while not state.is_over:
        state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    return state


SCRIPT = """
<script>
const out = [];
for (const box of document.querySelectorAll('div.pic')) {
  const el = box.querySelector('svg');
  const r = el.getBoundingClientRect();
  const b = el.getBBox();
  const v = el.viewBox.baseVal;
  out.push({kind: box.dataset.kind, left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX,
            bottom: r.bottom + scrollY, bbox: [b.x, b.y, b.x + b.width, b.y + b.height],
            view: [v.x, v.y, v.x + v.width, v.y + v.height]});
}
const page = {width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight};
document.getElementById('boxes').textContent = JSON.stringify({page: page, boxes: out});
</script>
"""


def page_of(pictures: dict[str, str]) -> str:
    body = "".join(
        f'<h3>{html.escape(kind)}</h3><div class="pic" data-kind="{html.escape(kind)}">{picture}</div>'
        for kind, picture in pictures.items()
    )
    style = "body{margin:16px;font-family:sans-serif;background:#fff;color:#1d1d1f} .pic{display:inline-block}"
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>{style}</style></head><body>"
        f"{body}<pre id='boxes'></pre>{SCRIPT}</body></html>"
    )


def run_browser(*args: str) -> subprocess.CompletedProcess[str]:
    assert BROWSER is not None
    with tempfile.TemporaryDirectory() as profile:
        flags = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
        ]
        return subprocess.run(
            [BROWSER, *flags, *args], capture_output=True, text=True, timeout=120, check=False
        )


def png_pixels(data: bytes) -> tuple[int, int, int, list[bytes]]:
    """Decode an 8-bit, non-interlaced PNG (what Chromium writes): width, height, bytes per pixel, rows."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        chunk = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and interlace == 0 and color in (2, 6)
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def test_every_kind_of_picture_renders_inside_the_page_in_chromium(tmp_path: Path) -> None:
    """Chromium draws each picture: not blank, inside the page, its drawing inside its viewBox."""
    pictures = gallery()
    page = tmp_path / "pictures.html"
    page.write_text(page_of(pictures), encoding="utf-8")
    dom = run_browser("--dump-dom", "--virtual-time-budget=3000", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    text = dom.stdout[dom.stdout.index('<pre id="boxes">') + 16 :]
    found = json.loads(html.unescape(text[: text.index("</pre>")]))
    boxes, size = found["boxes"], found["page"]
    assert [b["kind"] for b in boxes] == list(pictures)
    for b in boxes:
        assert (
            0 <= b["left"] < b["right"] <= size["width"]
            and 0 <= b["top"] < b["bottom"] <= size["height"]
        ), b
        x0, y0, x1, y1 = b["bbox"]
        v0, w0, v1, w1 = b["view"]
        assert x0 >= v0 - 1 and y0 >= w0 - 1 and x1 <= v1 + 1 and y1 <= w1 + 1, (
            f"{b['kind']} draws outside its viewBox: {b}"
        )

    shot = tmp_path / "pictures.png"
    width, height = int(size["width"]), int(size["height"])
    result = run_browser(f"--window-size={width},{height}", f"--screenshot={shot}", page.as_uri())
    assert shot.exists(), result.stderr[-2000:]
    w, h, bpp, rows = png_pixels(shot.read_bytes())
    assert (w, h) == (width, height)
    colours = {rows[y][x * bpp : x * bpp + 3] for y in range(0, h, 7) for x in range(0, w, 7)}
    assert len(colours) > 50, "the screenshot is blank or nearly so"
    for b in boxes:  # each picture drew something where the page put it
        inside = {
            rows[y][x * bpp : x * bpp + 3]
            for y in range(int(b["top"]) + 1, min(int(b["bottom"]), h), 3)
            for x in range(int(b["left"]) + 1, min(int(b["right"]), w), 3)
        }
        assert len(inside) > 3, f"{b['kind']} looks blank on screen"
    keep = os.environ.get("CALABRASELLA_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)
        shutil.copy(page, Path(keep) / page.name)


#: The labels' boxes as Chromium lays them out in its own fonts: each picture's
#: text outside the cards (a card's index sits in a moved group), every pair
#: that overlaps by more than half a pixel, and any label outside its picture.
LABELS = """
<script>
const found = [];
for (const box of document.querySelectorAll('div.pic')) {
  const el = box.querySelector('svg');
  const frame = el.getBoundingClientRect();
  const texts = [...el.querySelectorAll('text')].filter(t => !t.closest('g[transform]'));
  const rects = texts.map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            size: parseFloat(t.getAttribute('font-size')) * frame.width / el.viewBox.baseVal.width};
  });
  const tol = 0.5;
  // the cards (a moved group not inside another) and the count badges (circles r >= 10)
  const cards = [...el.querySelectorAll('g[transform]')]
    .filter(g => !g.parentElement.closest('g[transform]')).map(g => g.getBoundingClientRect());
  const badges = [...el.querySelectorAll('circle')]
    .filter(c => !c.closest('g[transform]') && parseFloat(c.getAttribute('r')) >= 10)
    .map(c => c.getBoundingClientRect());
  const inside = (r, b) => {
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    return b.left <= x && x <= b.right && b.top <= y && y <= b.bottom;
  };
  for (const a of rects) {
    if (badges.some(b => inside(a, b))) { continue; }  // a badge's own number
    const d = (a.bottom - a.top) * 0.2;
    for (const c of [...cards, ...badges]) {
      if (a.left < c.right - 1 && c.left + 1 < a.right && a.top + d < c.bottom - 1 && c.top + 1 < a.bottom - d) {
        found.push(box.dataset.kind + ': a card or a badge covers ' + JSON.stringify(a.text));
        break;
      }
    }
  }
  for (let i = 0; i < rects.length; i++) {
    const a = rects[i];
    if (a.left < frame.left - tol || a.right > frame.right + tol || a.top < frame.top - tol
        || a.bottom > frame.bottom + tol) {
      found.push(box.dataset.kind + ': ' + JSON.stringify(a.text) + ' leaves the picture');
    }
    for (let j = i + 1; j < rects.length; j++) {
      const b = rects[j];
      // glyph boxes: the font's ascent and descent; shrink each by a fifth of its height
      const da = (a.bottom - a.top) * 0.2, db = (b.bottom - b.top) * 0.2;
      if (a.left < b.right - tol && b.left < a.right - tol
          && a.top + da < b.bottom - db - tol && b.top + db < a.bottom - da - tol) {
        found.push(box.dataset.kind + ': ' + JSON.stringify(a.text) + ' overlaps ' + JSON.stringify(b.text));
      }
    }
  }
}
document.getElementById('boxes').textContent = JSON.stringify(found);
</script>
"""


def labelled_page(pictures: dict[str, str], width: int, theme: str, font: str = "") -> str:
    """The pictures in a column ``width`` pixels wide (each shrinks to it), on a light or dark
    page, their text in ``font`` (the browser's sans-serif by default)."""
    body = "".join(
        f'<div class="pic" data-kind="{html.escape(kind)}">'
        + picture.replace("<svg ", '<svg style="max-width:100%;height:auto;display:block" ', 1)
        + "</div>"
        for kind, picture in pictures.items()
    )
    ground, ink = ("#fff", "#1d1d1f") if theme == "light" else ("#1e2129", "#e6e6e6")
    style = (
        f"body{{margin:0;background:{ground};color:{ink}}}"
        f".col{{width:{width}px;padding:0 16px;box-sizing:border-box}} .pic{{margin:12px 0}}"
        + (f"svg, svg text{{font-family:'{font}' !important}}" if font else "")
    )
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>{style}</style></head><body>"
        f"<div class='col'>{body}</div><pre id='boxes'></pre>{LABELS}</body></html>"
    )


def labels_in_chromium(
    tmp_path: Path, pictures: dict[str, str], width: int, theme: str, font: str = ""
) -> list[str]:
    page = tmp_path / f"labels-{width}-{theme}.html"
    page.write_text(labelled_page(pictures, width, theme, font), encoding="utf-8")
    dom = run_browser("--dump-dom", "--virtual-time-budget=3000", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    text = dom.stdout[dom.stdout.index('<pre id="boxes">') + 16 :]
    found: list[str] = json.loads(html.unescape(text[: text.index("</pre>")]))
    return found


@pytest.mark.slow
def test_the_label_check_finds_an_overlap_and_a_label_outside(tmp_path: Path) -> None:
    """The check can fail: "Tricks" written over "seat 0" (the old record's header in DejaVu
    Sans), a label running past the picture's edge, and a card over a label."""
    bad = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 80" width="200" height="80">'
        '<text x="10" y="20" font-size="12" font-weight="bold">Tricks</text>'
        '<text x="40" y="20" font-size="10">seat 0</text>'
        '<text x="170" y="36" font-size="12">far away</text>'
        '<g transform="translate(100 2)"><rect width="50" height="75"/></g>'
        '<text x="110" y="30" font-size="11">under</text></svg>'
    )
    found = labels_in_chromium(tmp_path, {"bad": bad}, 1280, "light")
    assert 'bad: a card or a badge covers "under"' in found
    assert 'bad: "Tricks" overlaps "seat 0"' in found
    assert 'bad: "far away" leaves the picture' in found


@pytest.mark.slow
@pytest.mark.parametrize("font", ["DejaVu Sans", "Liberation Sans"])
@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("width", [1280, 390])
def test_no_two_labels_overlap_in_chromium_at_desktop_and_phone_width(
    tmp_path: Path, width: int, theme: str, font: str
) -> None:
    """Chromium lays out every kind of picture in a desktop column and in a phone's, light and
    dark, in DejaVu Sans and in Liberation Sans (Arial's widths): no two labels overlap, no
    card or count badge covers a label, none leaves its picture. (The system must have both fonts: Debian's fonts-dejavu-core and
    fonts-liberation, which its chromium package pulls in.)"""
    found = labels_in_chromium(tmp_path, gallery(theme), width, theme, font)
    assert found == [], "\n".join(found[:20])
