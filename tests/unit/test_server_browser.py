"""The browser table, played in headless Chromium (Debian's ``chromium``) over loopback.

The table and its page (:class:`WebTable`) run in a thread of this process on
127.0.0.1; Chromium is started by this test with a fresh profile and
driven over ``--remote-debugging-pipe`` (the DevTools protocol, NUL-framed
JSON on file descriptors 3 and 4), never downloaded. The page plays seat 0
by clicking its cards and move buttons (``?autoplay=1``), or the test by
pressing keys 1-9, against the server's bot for a whole match; the test then
reads every message the page received, checks each against what seat 0 may
know, and takes screenshots (desktop and mobile, in the middle of the play,
every card picture loaded) into ``$CALABRASELLA_SHOTS`` if set, else the
test's temporary folder. Skipped where no ``chromium`` is installed.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from server_kit import Watched, check_messages

import calabrasella as cb
from calabrasella.server import Table, WebTable

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.slow  # a browser plays whole matches
LIMIT = 60.0
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1100,800", "--remote-debugging-pipe"]  # fmt: skip


class Pipe:
    """The DevTools protocol over Chromium's pipe: one JSON message per NUL-ended frame."""

    def __init__(self, to_browser: int, from_browser: int) -> None:
        self.out, self.inp = to_browser, from_browser
        self.buffer = b""
        self.next_id = 0

    def call(self, method: str, session: str | None = None, **params: Any) -> Any:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        os.write(self.out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + 20.0
        while True:
            while b"\0" in self.buffer:
                frame, self.buffer = self.buffer.split(b"\0", 1)
                reply = json.loads(frame)
                if reply.get("id") == self.next_id:
                    assert "error" not in reply, reply
                    return reply["result"]
            left = deadline - time.monotonic()
            assert left > 0, f"no answer to {method}"
            ready, _, _ = select.select([self.inp], [], [], left)
            if ready:
                chunk = os.read(self.inp, 1 << 20)
                assert chunk, "chromium closed its pipe"
                self.buffer += chunk


# The index (from 0) of the first move button that is not a pass, among the nine with keys.
FIRST_NOT_PASS = """(() => {
  const moves = [...document.querySelectorAll('button.move')].slice(0, 9);
  const n = moves.findIndex((b) => b.dataset.action !== 'pass');
  return moves.length ? (n < 0 ? 0 : n) : -1;
})()"""
# In the middle of the play, with every card picture loaded (the library's SVG).
MID_PLAY = """(() => {
  const view = state.view, images = [...document.querySelectorAll('img.card, img.back')];
  return Boolean(view && view.phase === 'playing' && view.trick.length >= 1 && view.hand.length >= 5
    && view.legal_actions.length && images.length > 10
    && images.every((i) => i.complete && i.naturalWidth > 0 && i.src.includes('/card/')));
})()"""
# The ledger's rows, the last result, as the page shows them.
PAGE = """(() => ({
  ledger: [...document.querySelectorAll('#ledger tr')].map(
    (tr) => [...tr.children].map((cell) => cell.textContent)),
  result: document.getElementById('result').textContent,
}))()"""
# After the match: the hand and moves hidden, the table said closed.
ENDED = """(() => ({
  mine: document.getElementById('mine').hidden,
  closed: document.body.dataset.closed === '1',
  said: !document.getElementById('stopped').hidden
    && document.getElementById('stopped-text').textContent.includes('The table has closed'),
  moves: document.querySelectorAll('button.move').length,
}))()"""
# During the match: the link back to the seat (with its token) and the last trick shown.
DURING = """(() => document.getElementById('seat-info') && ({
  link: !document.getElementById('seat-info').hidden
    && document.getElementById('comeback').href.includes('token=' + state.token),
  last: !document.getElementById('last-box').hidden
    && document.querySelectorAll('#last img.card').length === 3,
}))()"""
# The hand's layout: its rows (a playable card is raised), every card inside the page's
# width and its corner visible (nothing on top of it where its index is); the stock and the
# discards as pictures (cards and backs), and any card shown both there and in the hand.
HAND = """(() => {
  const cards = [...document.querySelectorAll('#hand img.card')];
  const rows = new Set(cards.map((c) => Math.round((c.getBoundingClientRect().bottom
    + (c.classList.contains('playable') ? Math.max(0, -parseFloat(getComputedStyle(c).top)) : 0)) / 20)));
  const width = document.documentElement.clientWidth;
  const corners = cards.every((c) => {
    const r = c.getBoundingClientRect();
    if (r.left < 0 || r.right > width) return false;  // cut at the page's edge
    if (r.top + 12 > window.innerHeight) return true;  // below the fold: in sight by scrolling
    return document.elementFromPoint(r.left + 4, r.top + 12) === c;
  });
  const held = new Set(cards.map((c) => c.dataset.code));
  const shown = [...document.querySelectorAll('#stock img.card')].map((c) => c.dataset.code);
  return { cards: cards.length, rows: rows.size, corners: corners,
           stock: shown.length + document.querySelectorAll('#stock img.back').length,
           doubled: shown.filter((code) => held.has(code)) };
})()"""
DESKTOP = {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}
MOBILE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


def shoot(pipe: Pipe, session: str, path: Path) -> None:
    """Save a PNG screenshot of the page."""
    picture = base64.b64decode(pipe.call("Page.captureScreenshot", session, format="png")["data"])
    assert picture.startswith(b"\x89PNG")
    path.write_bytes(picture)


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")
@pytest.mark.parametrize("by", ["click", "keyboard", "phone"])
def test_the_browser_plays_a_whole_match_in_headless_chromium(tmp_path: Path, by: str) -> None:
    """Seat 0 plays a 2-deal match by clicks (or keys 1-9); every message it got is its to know."""
    table = Watched(cb.CAVENDISH, deals=2, seed=21, bots=(1, 2), move_time=None)
    ports: list[int] = []
    started = threading.Event()
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    async def serve() -> None:
        await table.start()
        bridge = WebTable(table)
        ports.append(await bridge.start())
        started.set()
        try:
            await stop.wait()
        finally:
            await table.close()
            await bridge.close()

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    assert started.wait(10)
    to_browser = os.pipe()
    from_browser = os.pipe()
    assert CHROMIUM is not None
    # a trampoline puts the pipe's ends on the descriptors 3 and 4 Chromium reads and writes
    trampoline = ("import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
                  "os.execv(sys.argv[3], sys.argv[3:])")  # fmt: skip
    command = [sys.executable, "-c", trampoline, str(to_browser[0]), str(from_browser[1]),
               CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "about:blank"]  # fmt: skip
    log = (tmp_path / "chromium.log").open("wb")
    proc = subprocess.Popen(command, pass_fds=(to_browser[0], from_browser[1]),
                            stdout=subprocess.DEVNULL, stderr=log)  # fmt: skip
    log.close()
    os.close(to_browser[0])
    os.close(from_browser[1])
    try:
        pipe = Pipe(to_browser[1], from_browser[0])
        clicking = by in ("click", "phone")  # the phone's taps are clicks too
        autoplay = "&autoplay=1" if clicking else ""
        url = f"http://127.0.0.1:{ports[0]}/?name=ann&seat=0{autoplay}"
        target = pipe.call("Target.createTarget", url=url)["targetId"]
        session = pipe.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        deadline = time.monotonic() + LIMIT
        over = False
        keys = 0
        seen_link = seen_last = False
        layouts: list[dict[str, Any]] = []
        shots = Path(os.environ.get("CALABRASELLA_SHOTS", str(tmp_path)))
        shots.mkdir(parents=True, exist_ok=True)
        shot = clicking
        if by == "phone":  # the whole match at a phone's size
            pipe.call("Emulation.setDeviceMetricsOverride", session, **MOBILE)
        while not over and time.monotonic() < deadline:
            time.sleep(0.2 if clicking else 0.05)
            if not shot and pipe.call("Runtime.evaluate", session, expression=MID_PLAY,
                                      returnByValue=True)["result"].get("value") is True:  # fmt: skip
                for size, metrics in (("1280", DESKTOP), ("390", MOBILE)):  # light and dark
                    pipe.call("Emulation.setDeviceMetricsOverride", session, **metrics)
                    for scheme in ("light", "dark"):
                        pipe.call("Emulation.setEmulatedMedia", session, features=[
                            {"name": "prefers-color-scheme", "value": scheme}])  # fmt: skip
                        time.sleep(0.5)
                        shoot(pipe, session, shots / f"browser-table-{size}-{scheme}.png")
                    layouts.append(pipe.call("Runtime.evaluate", session, expression=HAND,
                                             returnByValue=True)["result"]["value"])  # fmt: skip
                pipe.call("Emulation.setEmulatedMedia", session, features=[])
                pipe.call("Emulation.clearDeviceMetricsOverride", session)
                shot = True
            if by == "keyboard":
                index = pipe.call("Runtime.evaluate", session, expression=FIRST_NOT_PASS,
                                  returnByValue=True)["result"]["value"]  # fmt: skip
                if index >= 0:
                    key = str(index + 1)
                    for kind in ("keyDown", "keyUp"):
                        pipe.call("Input.dispatchKeyEvent", session, type=kind, key=key,
                                  text=key if kind == "keyDown" else "")  # fmt: skip
                    keys += 1
                    time.sleep(0.05)
            if not seen_link or not seen_last:
                now = pipe.call("Runtime.evaluate", session, expression=DURING,
                                returnByValue=True)["result"].get("value") or {}  # fmt: skip
                now.setdefault("link", False)
                now.setdefault("last", False)
                seen_link = seen_link or now["link"]
                seen_last = seen_last or now["last"]
            found = pipe.call("Runtime.evaluate", session,
                              expression="document.body && document.body.dataset.over === '1'",
                              returnByValue=True)  # fmt: skip
            over = found["result"].get("value") is True
        assert over, "the page did not finish the match"
        assert clicking or keys > 10  # the moves were made with the keys
        assert shot, "no moment in the play with every card picture loaded"
        for layout, rows in zip(layouts, (1, 2)):  # desktop: one row; phone: wrapped, not cut
            assert layout["cards"] >= 5 and layout["rows"] <= rows, layout
            assert layout["corners"] is True, layout
            # Cavendish in the play: the stock is the declarer's four discards (face down to
            # the others), and no card taken from it is still drawn there
            assert layout["stock"] == 4 and layout["doubled"] == [], layout
        clicks = pipe.call("Runtime.evaluate", session, expression="window.cardClicks",
                           returnByValue=True)["result"]["value"]  # fmt: skip
        assert clicks > 10 if clicking else clicks == 0  # cards clicked in the hand
        text = pipe.call("Runtime.evaluate", session, expression="JSON.stringify(window.received)",
                         returnByValue=True)["result"]["value"]  # fmt: skip
        shoot(pipe, session, shots / f"browser-table-{by}-end.png")
        page = pipe.call("Runtime.evaluate", session, expression=PAGE, returnByValue=True)["result"]["value"]
        page["comeback"], page["last_trick"] = seen_link, seen_last
        hand = pipe.call("Runtime.evaluate", session,
                         expression="document.querySelectorAll('#hand .card').length",
                         returnByValue=True)["result"]["value"]  # fmt: skip
        assert hand == 0  # every card was played
        ended = pipe.call("Runtime.evaluate", session, expression=ENDED,
                          returnByValue=True)["result"]["value"]  # fmt: skip
        # the table has played its one match: nothing to play is offered, and the page says so
        assert ended == {"mine": True, "closed": True, "said": True, "moves": 0}, ended
        pipe.call("Browser.close")
    finally:
        if proc.poll() is None:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()  # the browser this test started, by its handle
                proc.wait(10)
        for fd in (to_browser[1], from_browser[0]):
            os.close(fd)
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)
    received = json.loads(text)
    assert received[0]["type"] == "welcome" and received[0]["seat"] == 0
    assert received[-1]["type"] == "match_over"
    assert len(table.finished) == 2
    assert received[-1]["totals"] == list(cb.Match(rules=cb.CAVENDISH, deals=2,
                                          finished=tuple(table.finished)).totals)  # fmt: skip
    check_messages(table, 0, [m for m in received if m["type"] != "welcome"])
    # what the page showed at the end: the ledger with the players' names, each deal's result
    assert page["ledger"][0] == ["", "ann", "bot 1", "bot 2"]
    assert [row[0] for row in page["ledger"][1:]] == ["deal 1", "deal 2", "final"]
    assert page["ledger"][-1][1:] == [f"{t:+d}" if t else "0" for t in received[-1]["totals"]]
    assert page["result"].startswith("deal 2: ")
    assert page["comeback"] is True  # the link back to the seat was shown during the match
    assert page["last_trick"] is True  # and the last trick, once there was one
    views = [(m["deal"], m["turn"]) for m in received if m["type"] == "view"]
    assert views == [(n, t) for n, final in enumerate(table.finished, start=1)
                     for t in range(len(final.history) + 1)]  # fmt: skip


class Browser:
    """Chromium started by the test (its own profile, the DevTools pipe), stopped by its handle."""

    def __init__(self, folder: Path) -> None:
        assert CHROMIUM is not None
        self.to_browser, self.from_browser = os.pipe(), os.pipe()
        trampoline = ("import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
                      "os.execv(sys.argv[3], sys.argv[3:])")  # fmt: skip
        command = [sys.executable, "-c", trampoline, str(self.to_browser[0]),
                   str(self.from_browser[1]), CHROMIUM, *FLAGS,
                   f"--user-data-dir={folder / 'profile'}", "about:blank"]  # fmt: skip
        self.proc = subprocess.Popen(command, pass_fds=(self.to_browser[0], self.from_browser[1]),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        os.close(self.to_browser[0])
        os.close(self.from_browser[1])
        self.pipe = Pipe(self.to_browser[1], self.from_browser[0])

    def open(self, url: str) -> str:
        target = self.pipe.call("Target.createTarget", url=url)["targetId"]
        session: str = self.pipe.call("Target.attachToTarget", targetId=target,
                                      flatten=True)["sessionId"]  # fmt: skip
        return session

    def js(self, session: str, expression: str) -> Any:
        return self.pipe.call("Runtime.evaluate", session, expression=expression,
                              returnByValue=True)["result"].get("value")  # fmt: skip

    def until(self, session: str, expression: str, limit: float = 15.0) -> None:
        deadline = time.monotonic() + limit
        while self.js(session, expression) is not True:
            assert time.monotonic() < deadline, f"never true: {expression}"
            time.sleep(0.1)

    def close(self) -> None:
        with contextlib.suppress(AssertionError, OSError):
            self.pipe.call("Browser.close")
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()  # the browser this test started, by its handle
            self.proc.wait(10)
        for fd in (self.to_browser[1], self.from_browser[0]):
            os.close(fd)


class Loop:
    """An event loop in a thread, where the tables and pages of a test run."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def do(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(20)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")
def test_the_page_after_a_full_table_with_a_seat_in_its_address_and_when_the_server_stops(
    tmp_path: Path,
) -> None:
    """Table full: the form is back with "watch instead"; ?seat= and ?spectate= are honoured;
    a server stop freezes the clock and the moves, and the page comes back to its seat."""
    loop = Loop()
    browser = Browser(tmp_path)
    pages: list[WebTable] = []
    tables: list[Table] = []

    async def open_table(table: Table, port: int = 0) -> int:
        tables.append(table)
        await table.start()
        pages.append(WebTable(table))
        return await pages[-1].start(port=port)

    async def stop_all() -> None:
        for table in tables:
            await table.close()
        for page in pages:
            await page.close()

    try:
        folder = tmp_path / "table"
        port = loop.do(open_table(Table(cb.CAVENDISH, deals=2, bots=(2,), seed=2,
                                        move_time=60.0, save_dir=folder)))  # fmt: skip
        seated = browser.open(f"http://127.0.0.1:{port}/?name=cid&seat=1")
        browser.until(seated, "document.getElementById('status').textContent === 'seat 1'")
        other = browser.open(f"http://127.0.0.1:{port}/?name=ann")
        browser.until(other, "document.getElementById('status').textContent === 'seat 0'")
        page = browser.open(f"http://127.0.0.1:{port}/?name=bob")
        browser.until(page, "!document.getElementById('join').hidden"
                            " && !document.getElementById('watch-instead').hidden")  # fmt: skip
        assert "taken" in browser.js(page, "document.getElementById('join-error').textContent")
        shots = Path(os.environ.get("CALABRASELLA_SHOTS", str(tmp_path)))
        shots.mkdir(parents=True, exist_ok=True)
        shoot(browser.pipe, page, shots / "browser-table-full.png")
        browser.js(page, "document.getElementById('watch-instead').click()")
        browser.until(page, "document.getElementById('status').textContent === 'watching'")
        watcher = browser.open(f"http://127.0.0.1:{port}/?name=eve&spectate=1")
        browser.until(watcher, "document.getElementById('status').textContent === 'watching'")
        browser.until(seated, "state.view !== null")
        loop.do(stop_all())
        browser.until(seated, "document.body.dataset.stopped === '1'")
        assert browser.js(seated, "document.getElementById('clock').textContent") == "clock stopped"
        assert browser.js(seated, "document.querySelectorAll('button.move, #hand img.playable')"
                                  ".length") == 0  # fmt: skip
        assert not browser.js(seated, "document.getElementById('stopped').hidden")
        assert browser.js(seated, "window.received.some((m) => m.type === 'closing')")
        shoot(browser.pipe, seated, shots / "browser-table-stopped.png")
        # the server is back (resumed from its folder, on the same port): the page sits again
        loop.do(open_table(Table.resume(folder), port))
        browser.until(seated, "document.body.dataset.stopped === ''"
                              " && document.getElementById('stopped').hidden"
                              " && document.getElementById('status').textContent === 'seat 1'")  # fmt: skip
        welcomes = browser.js(seated, "window.received.filter((m) => m.type === 'welcome').length")
        assert welcomes == 2
    finally:
        browser.close()
        with contextlib.suppress(Exception):
            loop.do(stop_all())
        loop.stop()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")
def test_the_page_s_words_a_seat_that_is_not_a_number_and_a_spectator_s_page(tmp_path: Path) -> None:
    """A seat "x" is refused as seat 7 is; a join that succeeds clears the reason; a spectator
    has no hand nor moves; a declined raise reads "no raise"; a void deal's line says it once."""
    loop = Loop()
    browser = Browser(tmp_path)
    table = Table(cb.CALABRESELLA, deals=1, bots=(1, 2), seed=3, move_time=None)
    page: list[WebTable] = []

    async def start() -> int:
        await table.start()
        page.append(WebTable(table))
        return await page[0].start()

    async def stop() -> None:
        await table.close()
        await page[0].close()

    try:
        port = loop.do(start())
        seven = browser.open(f"http://127.0.0.1:{port}/?name=ann&seat=7")
        browser.until(seven, "document.getElementById('join-error').textContent !== ''")
        letter = browser.open(f"http://127.0.0.1:{port}/?name=ann&seat=x")
        browser.until(letter, "document.getElementById('join-error').textContent !== ''")
        said = [browser.js(s, "document.getElementById('join-error').textContent") for s in (seven, letter)]
        assert said[0] == said[1] and "seat number 0..2" in said[0], said
        # the same page sits down at seat 0: the reason goes
        browser.js(letter, "document.getElementById('seat').value = '0';"
                           " document.getElementById('join').requestSubmit()")  # fmt: skip
        browser.until(letter, "document.getElementById('status').textContent === 'seat 0'")
        assert browser.js(letter, "document.getElementById('join-error').textContent") == ""
        assert browser.js(letter, "document.getElementById('mine').hidden") is False
        watcher = browser.open(f"http://127.0.0.1:{port}/?name=eve&spectate=1")
        browser.until(watcher, "document.getElementById('status').textContent === 'watching'")
        browser.until(watcher, "state.view !== null")
        assert browser.js(watcher, "document.getElementById('mine').hidden") is True
        words = browser.js(letter, """(() => [
          describeEntry([1, 'pass'], [1, 'bid solissimo']),
          describeEntry([2, 'pass'], [1, 'bid solo']),
          moveLabel('pass', ['pass', 'raise dividete', 'raise scegliete']),
          moveLabel('raise dividete', ['pass', 'raise dividete', 'raise scegliete']),
          moveLabel('raise scegliete', ['pass', 'raise dividete', 'raise scegliete']),
          moveLabel('pass', ['pass', 'bid chiamo']),
        ])()""")
        assert words[0] == "bot 1: no raise" and words[1] == "bot 2: pass", words
        assert words[2] == "no raise" and words[5] == "pass", words
        assert "two cards of the monte unseen" in words[3] and "turned face up" in words[4]
        line = browser.js(letter, """(() => {
          showResult({deal: 1, summary: 'all passed: void', result: {void: true, declarer: null,
                      notes: ['everybody passed: the deal is void'], payments: [0, 0, 0]}});
          const one = document.getElementById('result').textContent;
          showResult({deal: 2, summary: 'seat 1 solo 40-20 won', result: {void: false, declarer: 1,
                      notes: ['he wins 4 from each'], payments: [-4, 8, -4]}});
          return [one, document.getElementById('result').textContent];
        })()""")
        assert line[0] == "deal 1: everybody passed: the deal is void \u2014 ann 0, bot 1 0, bot 2 0"
        assert line[1] == ("deal 2: bot 1 solo 40-20 won: bot 1 wins 4 from each"
                           " \u2014 ann -4, bot 1 +8, bot 2 -4")  # fmt: skip
    finally:
        browser.close()
        with contextlib.suppress(Exception):
            loop.do(stop())
        loop.stop()
