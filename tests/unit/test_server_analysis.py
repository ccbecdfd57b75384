"""The browser table's analysis of a finished deal: served once the deal is over, never before."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from server_kit import run, until
from test_server_web import get, next_of, raw_http, serving, status, tab

import calabrasella as cb
from calabrasella.server import Lobby, Table, WebTable

#: Searches bounded small: the chart is drawn (plays past it are not valued) in pure Python too.
SMALL = 5_000


def body(answer: bytes) -> bytes:
    return answer.partition(b"\r\n\r\n")[2]


def test_a_finished_deal_s_analysis_is_a_chart() -> None:
    async def scenario() -> None:
        table = Table(cb.CAVENDISH, deals=2, bots=(0, 1, 2), seed=3, matches=1)
        async with serving(table) as (_, page, port):
            page.analyst.max_nodes = SMALL
            await until(lambda: page.finished.get("", 1) is not None)
            assert status(await raw_http(port, get("/analysis/1.svg"))) == 403  # no key
            assert status(await raw_http(port, get("/analysis/1.svg?key=" + "0" * 32))) == 403
            key = "?key=" + table.analysis_key
            answer = await raw_http(port, get("/analysis/1.svg" + key), wait=60)
            assert status(answer) == 200 and b"image/svg+xml" in answer
            root = ET.fromstring(body(answer))
            assert root.tag == "{http://www.w3.org/2000/svg}svg"
            assert b"Units lost trick by trick" in body(answer)
            again = await raw_http(port, get("/analysis/1.svg" + key), wait=10)  # kept
            assert body(again) == body(answer)
            for path in ("/analysis/7.svg", "/analysis/x.svg", "/analysis/" + "9" * 5000 + ".svg"):
                assert status(await raw_http(port, get(path + key))) == 404, path
            assert status(await raw_http(port, get("/analysis/1.svg" + key + "&table=x"))) == 403

    run(scenario(), limit=120)


def test_behind_a_lobby_the_table_is_named() -> None:
    async def scenario() -> None:
        lobby = Lobby({"a": Table(cb.CAVENDISH, deals=1, bots=(1, 2), seed=3),
                       "b": Table(cb.CAVENDISH, deals=2, bots=(0, 1, 2), seed=4)})  # fmt: skip
        await lobby.start()
        page = WebTable(lobby)
        page.analyst.max_nodes = SMALL
        port = await page.start()
        try:
            await until(lambda: page.finished.get("b", 1) is not None)
            a, b = (lobby.tables[name].analysis_key for name in "ab")
            answer = await raw_http(port, get(f"/analysis/1.svg?table=b&key={b}"), wait=60)
            assert status(answer) == 200 and ET.fromstring(body(answer)).tag.endswith("svg")
            # table b's key opens only table b's deals
            assert status(await raw_http(port, get(f"/analysis/1.svg?table=a&key={b}"))) == 403
            assert status(await raw_http(port, get(f"/analysis/1.svg?key={a}"))) == 403  # no table
            assert status(await raw_http(port, get(f"/analysis/1.svg?table=a&key={a}"))) == 404
        finally:
            await lobby.close()
            await page.close()

    run(scenario(), limit=120)


def test_nothing_is_served_while_the_deal_is_played() -> None:
    async def scenario() -> None:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), seed=3, matches=1)
        async with serving(table) as (_, page, port):
            ws = await tab(port)
            await ws.send(json.dumps({"type": "hello", "name": "ann", "seat": 0}))
            await next_of(ws, "view")  # seat 0 sits and does not move: the deal waits
            assert table.state is not None and not table.state.is_over
            key = table.analysis_key
            assert status(await raw_http(port, get("/analysis/1.svg?key=" + key))) == 404
            assert page.finished.deals == {}
            await ws.close()

    run(scenario())


@pytest.mark.slow
def test_the_page_offers_the_analysis_after_the_deal_in_chromium(tmp_path: Path) -> None:
    """Seat 0 plays a one-deal match in headless Chromium; no offer while it plays; after it,
    the button shows the chart, and a screenshot of the page is saved."""
    browser_kit = pytest.importorskip("test_server_browser")
    if browser_kit.CHROMIUM is None:
        pytest.skip("no chromium installed")
    loop = browser_kit.Loop()
    table = Table(cb.CAVENDISH, deals=1, seed=21, bots=(1, 2), move_time=None)
    page = WebTable(table)
    page.analyst.max_nodes = SMALL

    async def start() -> int:
        await table.start()
        return await page.start()

    async def stop() -> None:
        await table.close()
        await page.close()

    port = loop.do(start())
    browser = browser_kit.Browser(tmp_path)
    try:
        session = browser.open(f"http://127.0.0.1:{port}/?name=ann&seat=0&autoplay=1")
        browser.until(session, "Boolean(state.view && state.view.phase === 'playing')", 30)
        assert browser.js(session, "document.getElementById('analyse-box').hidden") is True
        browser.until(session, "document.body.dataset.over === '1'", 60)
        assert browser.js(session, "document.getElementById('analyse-box').hidden") is False
        browser.js(session, "document.getElementById('analyse').click()")
        browser.until(session, "document.body.dataset.analysis === '1'", 60)
        chart = browser.js(session, "(() => { const i = document.getElementById('analysis-chart');"
                                    " return [i.naturalWidth, i.getBoundingClientRect().width,"
                                    " i.src]; })()")  # fmt: skip
        assert chart[0] > 0 and chart[1] > 100
        assert chart[2].endswith("/analysis/1.svg?key=" + table.analysis_key)
        # the chart calls the seats by the names the page uses
        text = browser.pipe.call("Runtime.evaluate", session, awaitPromise=True, returnByValue=True,
                                 expression="fetch(document.getElementById('analysis-chart')"
                                            ".src).then((r) => r.text())")["result"]["value"]  # fmt: skip
        assert "ann" in text and "bot 1" in text and "seat 0" not in text
        shots = Path(os.environ.get("CALABRASELLA_SHOTS", str(tmp_path)))
        shots.mkdir(parents=True, exist_ok=True)
        browser.js(session, "document.getElementById('analysis').scrollIntoView()")
        browser_kit.shoot(browser.pipe, session, shots / "browser-table-analysis.png")
    finally:
        browser.close()
        loop.do(stop())
        loop.stop()
