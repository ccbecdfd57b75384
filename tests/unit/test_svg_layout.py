"""The pictures' layout, measured: no two labels overlap and none leaves its picture, in any common font.

Each label's box is worked out from its attributes (position, anchor, size,
weight) and the widest of the common sans fonts' widths per character
(``calabrasella.svg._text``: DejaVu Sans or Liberation Sans, whichever is
wider, plus a margin), so a layout that passes here passes in each of them.
``test_svg_browser.py`` checks the same in Chromium's own fonts. The other
tests hold the pictures to what they say: who led, plurals, the words of each
ruleset, a chart's colours and key, readable sizes.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator

import pytest
from support import played

import calabrasella as cb
from calabrasella import svg
from calabrasella.svg._text import text_width

NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float, str]


def boxes(picture: str) -> tuple[list[Box], list[Box], float, float]:
    """The labels' boxes and the count badges' boxes of a picture, and its size.

    Text inside a moved group (a card's own index) belongs to the card and is left out.
    """
    root = ET.fromstring(picture)
    _, _, width, height = (float(v) for v in (root.get("viewBox") or "").split())
    labels: list[Box] = []
    badges: list[Box] = []

    def walk(element: ET.Element, moved: bool) -> Iterator[tuple[ET.Element, bool]]:
        """Each element, and whether it sits inside a moved group (a card's parts)."""
        for child in element:
            yield child, moved
            inside = moved or (child.tag == f"{NS}g" and "transform" in child.attrib)
            yield from walk(child, inside)

    for element, moved in walk(root, False):
        if moved:
            continue
        if element.tag == f"{NS}text":
            text = element.text or ""
            x, y = float(element.get("x") or 0), float(element.get("y") or 0)
            size = float(element.get("font-size") or 12)
            w = text_width(text, size, element.get("font-weight"))
            anchor = element.get("text-anchor") or "start"
            x0 = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
            labels.append((x0, y - 0.8 * size, x0 + w, y + 0.22 * size, text))
        elif element.tag == f"{NS}g" and (element.get("transform") or "").startswith("translate("):
            # a card: its 50 x 75 face moved and scaled into place
            found = re.fullmatch(
                r"translate\(([-\d.]+) ([-\d.]+)\)(?: scale\(([\d.]+)\))?", element.get("transform") or ""
            )
            if found:
                x, y, k = float(found[1]), float(found[2]), float(found[3] or 1)
                badges.append((x + 1, y + 1, x + 50 * k - 1, y + 75 * k - 1, "card"))
        elif element.tag == f"{NS}circle" and float(element.get("r") or 0) >= 10:
            cx, cy, r = (float(element.get(k) or 0) for k in ("cx", "cy", "r"))
            badges.append((cx - r, cy - r, cx + r, cy + r, "badge"))
    return labels, badges, width, height


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def problems(picture: str) -> list[str]:
    """Labels that overlap, labels a badge covers, and labels outside the picture."""
    labels, badges, width, height = boxes(picture)
    found = []
    for i, a in enumerate(labels):
        if a[0] < -0.5 or a[1] < -0.5 or a[2] > width + 0.5 or a[3] > height + 0.5:
            found.append(f"{a[4]!r} leaves the {width:g}x{height:g} picture: {a[:4]}")
        for b in labels[i + 1 :]:
            if overlap(a, b):
                found.append(f"{a[4]!r} overlaps {b[4]!r}")
        centre = ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2)
        counts = [b for b in badges if b[4] == "badge"]
        if any(b[0] <= centre[0] <= b[2] and b[1] <= centre[1] <= b[3] for b in counts):
            continue  # a badge's own number, on its badge (and on the back under it)
        for badge in badges:
            if overlap(a, badge):
                found.append(f"a {badge[4] if badge[4] == 'card' else 'count badge'} covers {a[4]!r}")
    return found


def gallery() -> Iterator[tuple[str, str]]:
    """Every kind of picture, from many deals, both rulesets, four players, light and dark."""
    yield "legend", svg.legend()
    yield "legend dark", svg.legend(theme="dark")
    yield "cards", svg.cards(cb.CardSet.parse("3d 2d Ad Kd Qd Jd 7d 6d 5d 4d"), units=True)
    for rules in (cb.CAVENDISH, cb.CALABRESELLA, cb.Cavendish(players=4)):
        yield f"flow {rules.name}", svg.flow(rules)
        yield f"flow {rules.name} narrow", svg.flow(rules, narrow=True)
        for seed in range(6):
            end = played(rules, seed)
            states = list(cb.Record.from_state(end).states())
            for k in (3, len(states) // 3, len(states) // 2, 2 * len(states) // 3, len(states) - 1):
                state = states[min(k, len(states) - 1)]
                for narrow in (False, True):
                    yield f"{rules.name} {seed} table {k}", svg.table(state, narrow=narrow)
                    seat = state.to_move if state.to_move is not None else seed % rules.players
                    yield (
                        f"{rules.name} {seed} view {k}",
                        svg.table(state.view(seat), narrow=narrow),
                    )
            for n in range(1, 13):
                if end.tricks_played >= n:
                    yield f"{rules.name} {seed} trick {n}", svg.trick(end, n)
            yield f"{rules.name} {seed} record", svg.record(end)
            yield f"{rules.name} {seed} record narrow", svg.record(end, narrow=True)
            if end.result is not None:
                yield f"{rules.name} {seed} result", svg.result(end.result, rules=rules)
                yield f"{rules.name} {seed} result alone", svg.result(end.result)
                yield f"{rules.name} {seed} result narrow", svg.result(end.result, rules=rules, narrow=True)
    match = cb.Match.start(cb.CAVENDISH, seed=1, deals=3)
    for seed in range(3):
        match = match.record(played_in(match, seed))
    yield "match", svg.match(match)
    yield (
        "chart",
        svg.bar_chart(
            [
                ("apply_action through the whole deal, per action", 3.1, 2.9, 3.3),
                ("apply_action through the whole deal, per action", 2.0, 1.9, 2.2),
                ("legal actions", 0.4, None, None),
                ("legal actions", 0.3, None, None),
            ],
            title="Cost per decision",
            unit="µs",
            series=["0.1.0", "this version", "0.1.0", "this version"],
        ),
    )


def played_in(match: cb.Match, seed: int) -> cb.State:
    rng = random.Random(seed)
    state = match.next_deal(seed=seed)
    while not state.is_over:
        state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    return state


def test_the_measure_is_the_wider_font() -> None:
    """The measure covers DejaVu Sans, the widest common sans: "Tricks" in bold 12 px takes
    12 x (0.682 + 0.493 + 0.343 + 0.593 + 0.665 + 0.595) em there (DejaVu Sans Bold's advance
    widths, as Chromium measured them), "seat 0" in 10 px 10 x (0.521 + 0.615 + 0.613 + 0.392 +
    0.318 + 0.636); Liberation Sans takes less (0.611 + 0.389 + 0.278 + 0.556 + 0.556 + 0.556)."""
    assert text_width("Tricks", 12, "bold") >= 12 * (0.682 + 0.493 + 0.343 + 0.593 + 0.665 + 0.595)
    assert text_width("seat 0", 10) >= 10 * (0.521 + 0.615 + 0.613 + 0.392 + 0.318 + 0.636)
    assert text_width("Tricks", 12, "bold") >= 12 * (0.611 + 0.389 + 0.278 + 0.556 + 0.556 + 0.556)


def test_the_checker_finds_an_overlap_and_a_label_outside() -> None:
    """The check can fail: two labels on one spot, and a label past the right edge."""
    bad = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 40">'
        '<text x="10" y="20" font-size="12">Tricks</text><text x="30" y="20" font-size="10">seat 0</text>'
        '<text x="90" y="38" font-size="12">far</text></svg>'
    )
    found = problems(bad)
    assert "'Tricks' overlaps 'seat 0'" in found
    assert any(p.startswith("'far' leaves") for p in found)


def test_no_two_labels_overlap_and_none_leaves_its_picture() -> None:
    """In every kind of picture, from many deals: labels apart, inside the picture, clear of the badges."""
    found = [f"{name}: {p}" for name, picture in gallery() for p in problems(picture)]
    assert not found, "\n".join(found[:20])


def test_a_trick_says_who_led_and_who_won_apart() -> None:
    """The leader is named ("led"), and the footer is one phrase about the winner and the units."""
    pic = svg.trick([(1, "Kd"), (2, "3d"), (0, "4c")])
    assert "seat 1 · led" in pic
    assert ">won by seat 2, 2 units<" in pic  # K 1 + 3 1 + 4 0
    assert "won by seat 2 · seat" not in pic
    assert ">led by seat 1, not complete<" in svg.trick([(1, "Kd")])


def test_one_of_a_thing_is_singular() -> None:
    """'1 unit', '1 trick': never '1 units' or '1 tricks' in any picture."""
    singular = svg.trick([(1, "Kd"), (2, "4d"), (0, "5d")])  # K: 1 unit
    assert ">won by seat 1, 1 unit<" in singular
    for name, picture in gallery():
        assert not re.search(r"\b1 (units|tricks|points|cards)\b", picture), name


def test_a_result_keeps_its_labels_off_the_bars_and_names_its_bonus() -> None:
    """The sides' labels sit in a key under the bar in the ink colour (no white on orange), and a
    bonus is named in words, not as its raw value."""
    for seed in range(60):
        end = played(cb.CAVENDISH, seed)
        result = end.result
        assert result is not None
        if result.bonus is cb.Bonus.ALL_POINTS:
            break
    else:
        pytest.skip("no all-points deal in 60 random deals")
    pic = svg.result(result, rules=cb.CAVENDISH)
    assert "all_points" not in pic and "all 35 units" in pic
    assert 'fill="#ffffff"' not in pic
    root = ET.fromstring(pic)
    bars = [e for e in root.iter(f"{NS}rect") if e.get("height") == "14"]
    bottom = max(float(e.get("y") or 0) + 14 for e in bars)
    for label in root.iter(f"{NS}text"):
        if "units" in (label.text or "") and "value" not in (label.text or ""):
            assert float(label.get("y") or 0) - 0.8 * 11 > bottom, label.text


def test_the_stake_has_one_name_in_a_deal_s_pictures() -> None:
    """A Calabresella record says 'stake' for the number its result multiplies, as its table does."""
    for seed in range(30):
        end = played(cb.CALABRESELLA, seed)
        if end.result is not None and not end.result.void:
            break
    pic = svg.record(end)
    assert f"= stake {end.result.base} x" in pic  # type: ignore[union-attr]
    assert "= base" not in pic and "= base" not in svg.table(end)
    assert f"stake {end.result.base}" in svg.table(end)  # type: ignore[union-attr]


def test_the_dark_legend_draws_each_suit_on_a_card_s_ground() -> None:
    """On a dark page the black suits sit on light tiles (the cards' colour), not on the page."""
    pic = svg.legend(theme="dark")
    tiles = [e for e in ET.fromstring(pic).iter(f"{NS}rect") if e.get("fill") == svg.DARK["card"]]
    assert len(tiles) == 8
    for suits in ("italian", "french"):
        alone = svg.suit("c", suits=suits, theme="dark")
        assert any(e.get("fill") == svg.DARK["card"] for e in ET.fromstring(alone).iter(f"{NS}rect"))


def test_the_flow_is_readable_its_arrows_have_heads_and_it_speaks_the_ruleset_s_words() -> None:
    """Text at 12 px or more in a picture at most 730 wide (so at 11 px or more on a
    720-px column); every line ends at an arrowhead or a joining line; Cavendish says
    "single player" and "stock", Calabresella "declarer" and "monte"."""
    for rules, who, stock, other in (
        (cb.CAVENDISH, "single player", "stock", "monte"),
        (cb.CALABRESELLA, "declarer", "monte", "single player"),
    ):
        pic = svg.flow(rules)
        root = ET.fromstring(pic)
        assert float((root.get("viewBox") or "").split()[2]) <= 730
        sizes = [float(e.get("font-size") or 0) for e in root.iter(f"{NS}text")]
        assert min(sizes) >= 11
        texts = " ".join(e.text or "" for e in root.iter(f"{NS}text"))
        assert who in texts and stock in texts and other not in texts
        heads = [
            [tuple(map(float, p.split(","))) for p in (e.get("points") or "").split()]
            for e in root.iter(f"{NS}polygon")
        ]
        tips = {(round(h[0][0]), round(h[0][1])) for h in heads}
        lines = [
            tuple(float(e.get(k) or 0) for k in ("x1", "y1", "x2", "y2"))
            for e in root.iter(f"{NS}line")
        ]
        ends = {(round(x1), round(y1)) for x1, y1, _, _ in lines}
        for (
            x1,
            y1,
            x2,
            y2,
        ) in lines:  # each line's end: an arrowhead near it, or another line starts or bends there
            near_head = any(abs(x2 - tx) <= 9 and abs(y2 - ty) <= 9 for tx, ty in tips)
            joins = any(
                (abs(x2 - a) <= 1 and (min(b, d) - 1 <= y2 <= max(b, d) + 1))
                or (abs(y2 - b) <= 1 and (min(a, c) - 1 <= x2 <= max(a, c) + 1))
                for a, b, c, d in lines
                if (a, b, c, d) != (x1, y1, x2, y2)
            )
            assert near_head or joins or (round(x2), round(y2)) in ends, (
                rules.name,
                x1,
                y1,
                x2,
                y2,
            )


def test_a_chart_colours_by_series_with_a_key_and_never_cuts_a_label() -> None:
    """Bars of one series share a colour, a key names the series, a long label is whole (on two lines)."""
    label = "apply_action through the whole deal, per action"
    pic = svg.bar_chart(
        [
            (label, 3.1, 2.9, 3.3),
            (label, 2.0, 1.9, 2.2),
            ("legal", 0.4, None, None),
            ("legal", 0.3, None, None),
        ],
        title="Cost",
        unit="µs",
        series=["0.1.0", "now", "0.1.0", "now"],
    )
    root = ET.fromstring(pic)
    bars = [e.get("fill") for e in root.iter(f"{NS}rect") if e.get("height") == "16"]
    assert bars[0] == bars[2] and bars[1] == bars[3] and bars[0] != bars[1]
    texts = [e.text or "" for e in root.iter(f"{NS}text")]
    assert "0.1.0" in texts and "now" in texts
    assert "…" not in pic and label.replace(" ", "") in "".join(texts).replace(" ", "")
    with pytest.raises(ValueError, match="series"):
        svg.bar_chart([("a", 1.0, None, None)], title="t", unit="u", series=["x", "y"])


@pytest.mark.parametrize("scale", [0, -1, -0.5, float("nan"), float("inf")])
def test_a_scale_not_above_zero_is_refused_like_the_other_options(scale: float) -> None:
    """scale=-1 used to write width="-800", scale=0 a 0x0 picture: now a ValueError naming it."""
    state = played(cb.CAVENDISH, 1, 10)
    draws: list[Callable[[], str]] = [
        lambda: svg.table(state, scale=scale),
        lambda: svg.card("Ad", scale=scale),
        lambda: svg.trick(state, scale=scale),
        lambda: svg.legend(scale=scale),
    ]
    for draw in draws:
        with pytest.raises(ValueError, match=r"scale=.*: expected a number above 0"):
            draw()


def test_the_narrow_pictures_fit_a_phone_and_read_there() -> None:
    """The narrow table and record are at most 420 wide, so on a 390-px phone (about 358 px
    of page) their smallest text shows at about 9.4 px or more; the wide ones under 6 px."""
    end = played(cb.CALABRESELLA, 3)
    mid = next(s for s in cb.Record.from_state(end).states() if len(s.trick) == 2)
    for pic in (
        svg.flow(cb.CALABRESELLA, narrow=True),
        svg.flow(cb.CAVENDISH, narrow=True),
        svg.table(mid, narrow=True),
        svg.table(mid.view(1), narrow=True),
        svg.record(end, narrow=True),
        svg.result(end.result, rules=cb.CALABRESELLA, narrow=True),  # type: ignore[arg-type]
    ):
        root = ET.fromstring(pic)
        width = float((root.get("viewBox") or "").split()[2])
        assert width <= 420
        smallest = min(
            float(e.get("font-size") or 0)
            for e, moved in _outside_cards(root)
            if e.tag == f"{NS}text" and not moved
        )
        assert smallest * 358 / width >= 9.3


def _outside_cards(root: ET.Element) -> Iterator[tuple[ET.Element, bool]]:
    def walk(element: ET.Element, moved: bool) -> Iterator[tuple[ET.Element, bool]]:
        for child in element:
            inside = moved or (child.tag == f"{NS}g" and "transform" in child.attrib)
            yield child, inside
            yield from walk(child, inside)

    return walk(root, False)


def test_the_table_leaves_no_band_of_empty_felt() -> None:
    """With no card on the table (the auction), the reader's hand comes up under the stock:
    the picture is at most 400 high (it was 512 with a 200-px band of bare felt); with a
    trick on the table it keeps the room the trick and its arrow need."""
    auction = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    height = float((ET.fromstring(svg.table(auction.view(1))).get("viewBox") or "").split()[3])
    assert height <= 400
    playing = next(
        s for s in cb.Record.from_state(played(cb.CAVENDISH, 7)).states() if len(s.trick) == 2
    )
    root = ET.fromstring(svg.table(playing))
    assert float((root.get("viewBox") or "").split()[3]) == 512
