"""The pictures (calabrasella.svg): well-formed SVG 1.1, deterministic, and showing what they say."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from support import load_example

import calabrasella as cb
from calabrasella import svg

NS = "{http://www.w3.org/2000/svg}"


def played(rules: cb.Ruleset, seed: int, steps: int | None) -> cb.State:
    """A deal played by random legal actions, ``steps`` of them (or to its end)."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
    n = 0
    while not state.is_over and (steps is None or n < steps):
        state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        n += 1
    return state


def parse(picture: str) -> ET.Element:
    """Parse a picture, checking what every picture must be."""
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg" and root.get("version") == "1.1"
    assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", root.get("viewBox") or "")
    assert root.find(f"{NS}title") is not None
    assert not [e for e in root.iter() if "id" in e.attrib], "ids would clash on a page of pictures"
    assert not re.search(r"href|url\(|@import|<image|font-face", picture), "an external resource"
    return root


def titles(picture: str) -> list[str]:
    return [t.text or "" for t in parse(picture).iter(f"{NS}title")]


def all_pictures() -> list[str]:
    end = played(cb.CALABRESELLA, 3, None)
    mid = played(cb.CAVENDISH, 5, 20)
    match = cb.Match.start(cb.CAVENDISH, seed=1, deals=2)
    for seed in (1, 2):
        match = match.record(_finish(match, seed))
    return [
        svg.card("Ad"),
        svg.card("3s", suits="french", theme="dark"),
        svg.back(),
        svg.suit("c"),
        svg.cards(cb.CardSet.parse("Ad 3s Kc"), units=True),
        svg.trick(end, 4),
        svg.trick(mid),
        svg.table(mid),
        svg.table(mid.view(2)),
        svg.table(end.view(0)),
        svg.record(end),
        svg.record(cb.Record.from_state(mid)),
        svg.result(end.result),  # type: ignore[arg-type]
        svg.match(match),
        svg.flow(cb.CAVENDISH),
        svg.flow(cb.CALABRESELLA),
        svg.bar_chart([("a", 1.5, 1.0, 2.0), ("b", -0.5, -1.0, 0.1)], title="t", unit="u"),
        svg.table(played(cb.Cavendish(players=4), 2, 30).view(1)),
    ]


def _finish(match: cb.Match, seed: int) -> cb.State:
    rng = random.Random(seed)
    state = match.next_deal(seed=seed)
    while not state.is_over:
        state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    return state


def test_every_picture_is_well_formed_svg_with_a_viewbox_and_nothing_external() -> None:
    """Each kind of picture parses as XML, is SVG 1.1 with a viewBox, has no id and no external resource."""
    for picture in all_pictures():
        parse(picture)


@pytest.mark.slow
def test_pictures_are_the_same_bytes_in_another_process() -> None:
    """Another interpreter (another hash seed) draws the very same bytes."""
    code = (
        "import sys; sys.path.insert(0, 'tests/unit'); import test_svg, hashlib; "
        "print(hashlib.sha256(''.join(test_svg.all_pictures()).encode()).hexdigest())"
    )
    import hashlib
    import os
    from pathlib import Path

    here = hashlib.sha256("".join(all_pictures()).encode()).hexdigest()
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root, env=env
    )
    assert out.stdout.strip() == here


def test_a_card_shows_its_rank_and_the_suits_differ_by_pattern() -> None:
    """A face names its code; the Italian coins are a round coin, the French diamonds a lozenge."""
    italian, french = svg.card("Ad"), svg.card("Ad", suits="french")
    assert titles(italian)[1] == "Ad" and ">A<" in italian
    assert "<circle" in italian and "<circle" not in french and "<polygon" in french
    assert svg.card("Kc") != svg.card("Kd")
    with pytest.raises(ValueError, match="suits="):
        svg.card("Ad", suits="german")
    with pytest.raises(cb.NotationError):
        svg.card("Zz")


def test_colours_theme_and_scale_are_options() -> None:
    """A colour replaced by name shows up; an unknown name is refused; scale sets the size only."""
    assert "#123456" in svg.back(colors={"back": "#123456"})
    with pytest.raises(ValueError, match="unknown colour"):
        svg.back(colors={"nope": "#000"})
    big = parse(svg.card("Ad", scale=2))
    assert big.get("width") == "100" and big.get("viewBox") == "0 0 50 75"
    assert svg.table(played(cb.CAVENDISH, 1, 0), theme="dark") != svg.table(
        played(cb.CAVENDISH, 1, 0)
    )


def test_a_state_shows_every_hand_and_a_view_only_its_own() -> None:
    """The state's table names all 40 cards; a view's names its hand and backs for the rest."""
    state = played(cb.CAVENDISH, 7, 3)  # still in the auction: 36 cards in hands, 4 in the stock
    seen = {t for t in titles(svg.table(state)) if len(t) == 2}
    assert seen == {c.code for c in cb.DECK}
    view = state.view(1)
    pic = svg.table(view)
    faces = {t for t in titles(pic) if len(t) == 2}
    assert faces == {c.code for c in view.hand}
    assert titles(pic).count("a face-down card") == 12 + 12 + 4
    assert "seat 1 (you)" in pic


def test_the_seats_sit_round_the_table_in_turn_order_either_way() -> None:
    """Cavendish's next seat sits to the reader's left, Calabresella's to the right."""
    assert svg._table.slots(3, 0, "left") == {0: "bottom", 1: "left", 2: "right"}
    assert svg._table.slots(3, 0, "right") == {0: "bottom", 1: "right", 2: "left"}
    assert svg._table.slots(4, 2, "left") == {2: "bottom", 3: "left", 0: "top", 1: "right"}
    def first_card(rules: cb.Ruleset) -> cb.State:
        state = played(rules, 1, None)
        return next(s for s in cb.Record.from_state(state).states() if len(s.trick) == 1)

    assert "passes to the left" in svg.table(first_card(cb.CAVENDISH))
    assert "passes to the right" in svg.table(first_card(cb.CALABRESELLA))


def test_the_way_round_is_drawn_by_the_cards_on_the_table_only() -> None:
    """No "play passes" arrow in the auction; while a trick is on the table its words sit
    at the arrow's tail, not a card's height below it (item 11)."""
    assert "passes to the" not in svg.table(played(cb.CAVENDISH, 1, 0))
    state = next(
        s for s in cb.Record.from_state(played(cb.CAVENDISH, 1, None)).states() if len(s.trick) == 2
    )
    root = parse(svg.table(state))
    path = next(e for e in root.iter(f"{NS}path") if e.get("opacity") == "0.8")  # the arrow
    start_x, start_y = (float(v) for v in (path.get("d") or "").split()[1].split(","))
    words = next(e for e in root.iter(f"{NS}text") if "passes to the" in (e.text or ""))
    assert abs(float(words.get("y") or 0) - start_y) < 12
    assert abs(float(words.get("x") or 0) - start_x) < 12


def test_a_trick_rings_its_winner_and_counts_its_units() -> None:
    """The highest card of the suit led wins; the last trick's 3 units are counted."""
    plays = [(1, "Kd"), (2, "3d"), (0, "Ac")]  # the 3 wins; K 1 + 3 1 + A 3 units
    assert "won by seat 2" in svg.trick(plays) and "5 units" in svg.trick(plays)
    assert "8 units" in svg.trick(plays, 12)  # the last trick: 3 units more
    end = played(cb.CAVENDISH, 4, None)
    last = svg._scene.tricks_of(end.history)[-1]
    assert last.number == 12 and f"won by seat {last.winner}" in svg.trick(end, 12)
    with pytest.raises(ValueError, match="no such trick"):
        svg.trick(played(cb.CAVENDISH, 4, 0), 3)


def test_the_deal_summary_lists_the_auction_and_every_trick() -> None:
    """The record picture writes each non-play action and a row per trick with its winner."""
    end = played(cb.CALABRESELLA, 9, None)
    pic = svg.record(end)
    for seat, action in end.history:
        if not isinstance(action, cb.Play):
            assert f"seat {seat}: {action}" in pic
    rows = re.findall(r">seat \d: (\d+) units?</text>", pic)
    assert len(rows) == (12 if not end.result.void else 0)  # type: ignore[union-attr]
    assert all((n == "1") == (f"{n} unit<" in pic) for n in rows if n == "1")
    assert svg.record(cb.Record.from_state(end)) == pic


def test_reprs_are_short_and_say_what_matters() -> None:
    """A state's repr names the ruleset, phase, who acts, the contract and the tricks."""
    state = played(cb.CALABRESELLA, 3, 20)
    text = repr(state)
    assert text.startswith("<State calabresella playing, seat ") and "tricks " in text
    assert state.contract is not None and state.contract.value in text
    assert f"by seat {state.declarer}," in text
    view = state.view(0)
    assert repr(view).startswith("<View seat=0 playing") and str(view.hand) in repr(view)
    record = cb.Record.from_state(played(cb.CAVENDISH, 2, None), tags={"event": "x"})
    assert len(repr(record)) < 120 and repr(record).startswith("<Record cavendish v")


class Printer:
    """IPython's pretty printer, the two methods used."""

    def __init__(self) -> None:
        self.out: list[str] = []

    def text(self, s: str) -> None:
        self.out.append(s)

    def break_(self) -> None:
        self.out.append("\n")


def test_each_object_has_a_notebook_picture_and_pretty_text() -> None:
    """Card, CardSet, State, View, Record, Result and Match have _repr_svg_ and _repr_pretty_."""
    end = played(cb.CAVENDISH, 2, None)
    match = cb.Match.start(cb.CAVENDISH, seed=1, deals=1)
    match = match.record(_finish(match, 3))
    objects: list[Any] = [
        cb.DECK[3],
        end.hand(0) | end.stock,
        end,
        end.view(1),
        cb.Record.from_state(end),
        end.result,
        match,
    ]
    for obj in objects:
        parse(obj._repr_svg_())
        p = Printer()
        obj._repr_pretty_(p, False)
        assert p.out[0] == repr(obj)
    p = Printer()
    cb.Record.from_state(end)._repr_pretty_(p, False)
    assert "".join(p.out).count("\n") > 20  # the record's text follows
    with pytest.raises(TypeError, match="no picture"):
        svg.picture(3)


def test_the_table_names_the_called_card_and_who_gave_it() -> None:
    """After a call the header says which card was called and which seat handed it over."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    for text in ["bid stand", "call 3h"]:
        state = cb.apply(state, cb.parse_action(text))
    assert state.called is not None and state.giver is not None
    words = f"called {state.called.code}, given by seat {state.giver}"
    assert words in svg.table(state) and words in svg.table(state.view(2))


def test_bottom_and_direction_can_be_chosen_and_are_checked() -> None:
    """Another seat at the bottom, play drawn the other way round; a bad seat or way is refused."""
    state = played(cb.CAVENDISH, 1, 0)
    assert "seat 2 (you)" in svg.table(state.view(2)) and "(you)" not in svg.table(state, bottom=2)
    playing = next(
        s for s in cb.Record.from_state(played(cb.CAVENDISH, 1, None)).states() if s.trick
    )
    assert "passes to the right" in svg.table(playing, direction="right")
    with pytest.raises(ValueError, match="bottom=3"):
        svg.table(state, bottom=3)
    with pytest.raises(ValueError, match="direction="):
        svg.table(state, direction="up")
    with pytest.raises(TypeError, match="State or a View"):
        svg.table(cb.Record.from_state(state))  # type: ignore[arg-type]
    assert "trick 4" in svg.trick(played(cb.CAVENDISH, 4, None), 4)


def test_the_deal_in_pictures_example_writes_a_page_of_every_trick(tmp_path: Path) -> None:
    """examples/deal_in_pictures.py writes one page: the view at the start, 12 tricks, the end, the record."""
    example = load_example("deal_in_pictures")
    target = tmp_path / "deal.html"
    assert example.main([str(target)]) == 0
    text = target.read_text(encoding="utf-8")
    assert text.count("<svg") == 1 + 12 + 1 + 1
    for number in range(1, 13):
        assert f"<title>trick {number}</title>" in text
