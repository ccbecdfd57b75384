"""Photograph every page of the docs site in headless Chromium, desktop and mobile.

    python scripts/screenshots.py [--site DIR] [--out DIR] [--jobs N]

Builds the site with ``mkdocs build --strict`` (or takes one already built,
``--site``), serves it on 127.0.0.1 from a standard-library HTTP server in a
thread, and has Debian's ``chromium`` shoot each page at a desktop size
(1280x2000) and a phone's (390x1600), plus a few key pages in dark mode. It
checks that:

- each picture is the size asked for and not blank: it holds more than a
  handful of distinct rows of pixels, so a page that failed to render (a
  single colour, or a bare header bar) is caught;
- no page is wider than a phone's screen: the server makes one more page that
  frames pages of the site (eight at a time) 390 pixels wide and measures each one's
  document when it has loaded, and Chromium's ``--dump-dom`` reports the
  figures (a wide table or picture must scroll inside its own box, not push
  the page sideways).

The pictures are saved under ``--out`` (or ``$CALABRASELLA_SCREENSHOTS``;
default: a new temporary folder, printed), in ``desktop/``, ``mobile/`` and
``dark/``, for a person to look at. The browser is ``--chromium``, or
``$CALABRASELLA_CHROMIUM``, or ``chromium`` on the PATH.
It exits 1 if a check fails, and 0 without shooting anything, saying so, when
no Chromium is installed (``--require-browser`` makes that a failure too).
CI runs it (``.ci/run``) after the strict build. Standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import http.server
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: name -> (width, height, dark): the window sizes each page is shot at
SIZES = {"desktop": (1280, 2000, False), "mobile": (390, 1600, False)}
#: the pages also shot in dark mode (the reader's system preference)
DARK_PAGES = ("", "rules/", "api/", "reference/engine/", "reference/calabresella/")
DARK_SIZE = (1280, 2000, True)
#: a picture with no more distinct rows than this shows nothing but a colour or a bar
MIN_DISTINCT_ROWS = 20
PROBE_PAGE = "__overflow__.html"
#: the page the server makes for the width check (``?N``: batch N): pages of
#: the site each in a frame as wide as a phone, each measured when it has
#: loaded (one browser for a batch; the frame gives the phone's width, which a
#: headless window cannot be narrower than 500 pixels to give)
PROBE = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<pre id="cb-overflow"></pre>
<script>
var report = document.getElementById("cb-overflow");
function measure(frame) {
  var doc = frame.contentDocument, root = doc.documentElement, width = root.clientWidth, wide = [];
  doc.querySelectorAll("body *").forEach(function (el) {
    var box = el.getBoundingClientRect(), scrolled = false;
    for (var up = el.parentElement; up && up !== doc.body; up = up.parentElement) {
      var style = getComputedStyle(up);
      if (style.overflowX !== "visible") { scrolled = true; break; }
    }
    if (!scrolled && box.width && box.right > width + 1 && wide.length < 3) {
      wide.push(el.tagName.toLowerCase() + "." + String(el.className).trim().split(/\\s+/).join(".")
        + " to " + Math.round(box.right) + "px");
    }
  });
  report.textContent += JSON.stringify({page: frame.dataset.page, overflow: root.scrollWidth - width,
    width: width, wide: wide}) + "\\n";
}
</script>
FRAMES
</body></html>"""
FRAME = '<iframe data-page="{page}" src="/{page}" width="{width}" height="800" onload="measure(this)"></iframe>'
_PROBE_RESULT = re.compile(r'<pre id="cb-overflow">(.*?)</pre>', re.S)
#: pages measured per browser (the width check's page ``?N`` frames batch N)
WIDTH_BATCH = 8


def find_chromium() -> str | None:
    """The browser: ``$CALABRASELLA_CHROMIUM``, or Debian's ``chromium`` (``chromium-browser``) if installed."""
    return os.environ.get("CALABRASELLA_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def page_paths(site: Path) -> list[str]:
    """The URL path of every page of the built site ("" for the home page, "rules/", ...)."""
    paths = []
    for index in sorted(site.rglob("index.html")):
        relative = index.parent.relative_to(site).as_posix()
        if relative.split("/")[0] in {"assets", "search"}:
            continue
        paths.append("" if relative == "." else relative + "/")
    return paths


def picture_name(path: str) -> str:
    """The file name of a page's picture: ``index.png``, ``reference-engine.png``."""
    return (path.strip("/").replace("/", "-") or "index") + ".png"


# --- the pictures -------------------------------------------------------------------------------


def png_rows(data: bytes) -> tuple[int, int, list[bytes]]:
    """A PNG's width, height and its rows of pixels as stored (each with its filter byte).

    Raises:
        ValueError: ``data`` is not a PNG this can read (8-bit, not interlaced).
    """
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    at, chunks, header = 8, [], b""
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        at += 12 + length
    if len(header) != 13:
        raise ValueError("a PNG without its header")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour)
    if depth != 8 or interlace or channels is None:
        raise ValueError(f"a PNG this cannot read (depth {depth}, colour type {colour}, interlace {interlace})")
    pixels = zlib.decompress(b"".join(chunks))
    stride = 1 + width * channels
    if len(pixels) != stride * height:
        raise ValueError("a PNG whose data does not fill its rows")
    return width, height, [pixels[i : i + stride] for i in range(0, len(pixels), stride)]


def picture_problem(data: bytes, width: int, height: int) -> str | None:
    """What is wrong with a screenshot (``None`` if nothing): its size, or that it is blank.

    A picture of one colour (or one colour and a bar across it) has only a
    few distinct rows as stored, whatever filter the encoder chose per row; a
    page of text and pictures has hundreds.

    Example:
        >>> blank = png(4, 30, [bytes(4 * 3)] * 30)
        >>> picture_problem(blank, 4, 30)
        'blank: 1 distinct rows of pixels'
        >>> picture_problem(blank, 8, 30)
        'the picture is 4x30, not 8x30'
    """
    try:
        got_width, got_height, rows = png_rows(data)
    except (ValueError, zlib.error, struct.error) as error:
        return f"not a readable PNG: {error}"
    if (got_width, got_height) != (width, height):
        return f"the picture is {got_width}x{got_height}, not {width}x{height}"
    distinct = len(set(rows))
    if distinct <= MIN_DISTINCT_ROWS:
        return f"blank: {distinct} distinct rows of pixels"
    return None


def png(width: int, height: int, rows: Sequence[bytes]) -> bytes:
    """An RGB PNG of ``rows`` (each ``3 * width`` bytes, filter 0): for the tests."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"".join(b"\x00" + row for row in rows))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


# --- the server ---------------------------------------------------------------------------------


class _Handler(http.server.SimpleHTTPRequestHandler):
    """The site's files, and the width check's page (:data:`PROBE_PAGE`)."""

    pages: tuple[str, ...] = ()

    def do_GET(self) -> None:
        path, _, query = self.path.partition("?")
        if path != "/" + PROBE_PAGE:
            super().do_GET()
            return
        width = SIZES["mobile"][0]
        batch = int(query) if query.isdigit() else 0
        pages = self.pages[batch * WIDTH_BATCH : (batch + 1) * WIDTH_BATCH]
        frames = "\n".join(FRAME.format(page=page, width=width) for page in pages)
        html = PROBE.replace("FRAMES", frames).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(html)))
        self.end_headers()
        self.wfile.write(html)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a line per request would bury the report."""


@contextmanager
def serve(site: Path, pages: Sequence[str] = ()) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 (a free port) in a thread; yield its base URL; stop it after.

    ``pages`` are the pages the width check's page frames.
    """
    handler = functools.partial(type("Handler", (_Handler,), {"pages": tuple(pages)}), directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


# --- the browser --------------------------------------------------------------------------------


def _chromium(
    chromium: str, size: tuple[int, int, bool], extra: list[str], url: str, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    width, height, dark = size
    with tempfile.TemporaryDirectory(prefix="cb-chromium-") as profile:
        command = [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-extensions",
            "--no-first-run",
            "--hide-scrollbars",
            "--mute-audio",
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            *(["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] if dark else []),
            *extra,
            url,
        ]
        for _ in range(2):  # a browser that hangs (rarely, on a loaded machine) is tried once more
            try:
                return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
            except subprocess.TimeoutExpired:
                continue
        return subprocess.CompletedProcess(command, -1, "", f"timed out twice ({timeout:.0f} s each)")


def shoot(chromium: str, url: str, size: tuple[int, int, bool], picture: Path) -> str | None:
    """Photograph ``url`` into ``picture``; return what is wrong with it, or ``None``."""
    picture.parent.mkdir(parents=True, exist_ok=True)
    done = _chromium(chromium, size, [f"--screenshot={picture}"], url)
    if not picture.is_file():
        return f"no picture (chromium exited {done.returncode}: {done.stderr.strip()[-300:]})"
    return picture_problem(picture.read_bytes(), size[0], size[1])


def overflows(chromium: str, base: str, pages: Sequence[str], batch: int = 0) -> dict[str, str | None]:
    """How each page of a batch overflows a phone's width (``None`` if it does not), in one browser.

    ``pages`` are all the pages the server frames; batch ``batch`` is
    :data:`WIDTH_BATCH` of them.
    """
    chosen = pages[batch * WIDTH_BATCH : (batch + 1) * WIDTH_BATCH]
    done = _chromium(chromium, (1280, 2000, False), ["--dump-dom"], f"{base}{PROBE_PAGE}?{batch}", timeout=180)
    found = _PROBE_RESULT.search(done.stdout)
    lines = found.group(1).replace("&quot;", '"').replace("&amp;", "&").splitlines() if found else []
    reports = {report["page"]: report for report in map(json.loads, filter(None, lines))}
    problems: dict[str, str | None] = {}
    for page in chosen:
        report = reports.get(page)
        if report is None:
            problems[page] = f"not measured (chromium exited {done.returncode}: {done.stderr.strip()[-200:]})"
        elif report["overflow"] > 0:
            wide = ", ".join(report["wide"]) or "inside a box that does not scroll"
            problems[page] = f"{report['overflow']}px wider than the {report['width']}px screen: {wide}"
        else:
            problems[page] = None
    return problems


def run(site: Path, out: Path, chromium: str, jobs: int) -> list[str]:
    """Shoot and check every page; return the problems found (empty if none)."""
    paths = page_paths(site)
    problems = []
    with serve(site, paths) as base, concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        batches = range((len(paths) + WIDTH_BATCH - 1) // WIDTH_BATCH)
        width_checks = [pool.submit(overflows, chromium, base, paths, batch) for batch in batches]
        futures: dict[concurrent.futures.Future[str | None], str] = {}
        for path in paths:
            url = base + path
            for name, size in SIZES.items():
                futures[pool.submit(shoot, chromium, url, size, out / name / picture_name(path))] = f"/{path} ({name})"
        for path in DARK_PAGES:
            if path in paths:
                picture = out / "dark" / picture_name(path)
                futures[pool.submit(shoot, chromium, base + path, DARK_SIZE, picture)] = f"/{path} (dark)"
        for future in concurrent.futures.as_completed(futures):
            problem = future.result()
            if problem:
                problems.append(f"{futures[future]}: {problem}")
        for check in width_checks:
            for path, problem in check.result().items():
                if problem:
                    problems.append(f"/{path} (mobile width): {problem}")
    print(f"{len(paths)} pages, {len(futures)} shots and probes; pictures in {out}")
    return sorted(problems)


def build(site: Path) -> None:
    """Build the docs site into ``site`` (``mkdocs build --strict``)."""
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=ROOT,
        check=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: build or take the site, shoot it, report; 0 if every check passed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a site already built (default: build one)")
    parser.add_argument("--out", type=Path, help="where to save the pictures (default: a new temporary folder)")
    parser.add_argument("--jobs", type=int, default=2, help="browsers at once (default 2)")
    parser.add_argument("--chromium", help="the browser (default: chromium on the PATH)")
    parser.add_argument("--require-browser", action="store_true", help="fail, not skip, without Chromium")
    args = parser.parse_args(argv)
    chromium = args.chromium or find_chromium()
    if chromium is None:
        print("screenshots: no chromium installed; nothing shot (Debian: apt-get install chromium)")
        return 1 if args.require_browser else 0
    named = os.environ.get("CALABRASELLA_SCREENSHOTS")
    out = args.out or (Path(named) if named else Path(tempfile.mkdtemp(prefix="calabrasella-shots-")))
    with tempfile.TemporaryDirectory(prefix="calabrasella-site-") as built:
        site = args.site
        if site is None:
            site = Path(built)
            build(site)
        problems = run(site.resolve(), out.resolve(), chromium, max(1, args.jobs))
    for problem in problems:
        print(f"  {problem}")
    print(f"screenshots: {len(problems)} problems" if problems else "screenshots: every page passed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
