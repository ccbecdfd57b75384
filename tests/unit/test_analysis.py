"""``bots.analyse`` and ``calabrasella analyse``: values checked by hand on a short ending.

The ending (Cavendish, seat 0 deals, seed 7, every earlier choice the last
legal action) is the solver's worked example: seat 1 stood, has won 9
units and leads to trick 11. The hands: seat 1 (the declarer) 2d Ad, seat
2 3h 2s (no diamonds), seat 0 3d Qd; the stock 5s 3c Jc 6c (2 units), so
the last trick is worth 3 + 2 = 5 units besides its cards. Order of play
1, 2, 0. Cards rank 3 2 A K Q J 7 6 5 4; the ace counts 3 units, the 3, 2
and the court cards 1.

Worked out by hand:

- Seat 1 leads 2d. Seat 2 throws a heart or a spade (1 unit either way).
  If seat 0 plays Qd, the 2d wins 2d+Qd+1 = 3 units (12), and seat 0's 3d
  takes the last trick from the Ad: 12. If seat 0 plays 3d, it wins the
  trick and leads Qd into the Ad: Ad+Qd+1 = 5 and the last trick's 5, 19.
  So after the 2d seat 0's Qd is worth 12, his 3d 19: the 3d loses 7.
- Seat 1 leads Ad instead: seat 0's 3d takes it and the Qd runs into the
  2d (9 + 3 + 5 = 17), or seat 0 lets the ace win (9 + 5 = 14) and takes
  the last trick with the 3d: 14. So the Ad is worth 14, the 2d 12: the
  2d loses 2.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest

import calabrasella as cb
from calabrasella import cli
from calabrasella.bots import Analysis, analyse


def ending(plays: list[str]) -> cb.Record:
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    while state.phase is not cb.Phase.PLAYING or state.tricks_played < 10:
        state = cb.apply(state, cb.legal_actions(state)[-1])
    assert [str(hand) for hand in state.hands] == ["3d Qd", "2d Ad", "3h 2s"]
    assert (state.declarer, state.to_move, state.card_units_won[1]) == (1, 1, 9)
    for text in plays:
        state = cb.apply(state, cb.parse_action(text))
    return cb.Record.from_state(state)


BLUNDERS = ["play 2d", "play 3h", "play 3d", "play Qd", "play Ad", "play 2s"]


@pytest.fixture(scope="module")
def blunders() -> Analysis:
    return analyse(ending(BLUNDERS), from_trick=11)  # the ending: cheap in pure Python too


def at(analysis: Analysis, trick: int, seat: int) -> cb.bots.Decision:
    return next(d for d in analysis.decisions if d.trick == trick and d.seat == seat)


def test_the_lead_of_the_two_loses_two_units(blunders: Analysis) -> None:
    lead = at(blunders, 11, 1)
    assert lead.analysed and lead.stage == "play"
    assert {str(a): v for a, v in lead.values.items()} == {"play 2d": 12, "play Ad": 14}
    assert (lead.best, lead.chosen, lead.lost) == (14, 12, 2)


def test_an_adversary_loses_what_the_declarer_gains(blunders: Analysis) -> None:
    third = at(blunders, 11, 0)
    assert {str(a): v for a, v in third.values.items()} == {"play 3d": 19, "play Qd": 12}
    assert (third.best, third.chosen, third.lost) == (12, 19, 7)
    throw = at(blunders, 11, 2)
    assert set(throw.values.values()) == {12} and throw.lost == 0


def test_the_last_trick_is_forced_and_the_result_is_the_replays(blunders: Analysis) -> None:
    for seat in (0, 1, 2):
        last = at(blunders, 12, seat)
        assert last.values == {last.action: 19} and last.lost == 0
    assert blunders.declarer_units == 19 and blunders.declarer == 1
    assert blunders.contract == "stand"


def test_the_biggest_mistake_of_the_ending(blunders: Analysis) -> None:
    late = [d for d in blunders.decisions if d.trick is not None and d.trick >= 11]
    worst = max(late, key=lambda d: d.lost or 0)
    assert (worst.trick, worst.seat, str(worst.action), worst.lost) == (11, 0, "play 3d", 7)
    biggest = blunders.biggest
    assert biggest is worst


def test_bids_and_the_tricks_before_the_start_are_listed_not_valued(blunders: Analysis) -> None:
    record = ending(BLUNDERS)
    assert len(blunders.decisions) == len(record.actions)  # no chance actions here
    first = blunders.decisions[0]
    assert first.stage == "auction" and not first.analysed and "bid" in first.note
    assert first.values == {} and first.lost is None
    stages = [d.stage for d in blunders.decisions]
    assert stages.index("play") > stages.index("exchange") > 0
    early = [d for d in blunders.decisions if d.stage != "auction" and (d.trick or 0) < 11]
    assert early and all(not d.analysed and "before trick 11" in d.note for d in early)
    assert all(d.analysed for d in blunders.decisions if (d.trick or 0) >= 11)


def test_the_analysis_is_immutable_and_its_json_has_its_shape(blunders: Analysis) -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        blunders.worlds = 3  # type: ignore[misc]
    data = json.loads(json.dumps(blunders.to_data()))
    assert data["type"] == "analysis" and data["deal_units"] == cb.CAVENDISH.deal_units
    lead = next(d for d in data["decisions"] if d["trick"] == 11 and d["seat"] == 1)
    assert lead["values"] == {"play 2d": 12, "play Ad": 14} and lead["lost"] == 2
    assert lead["estimate"] is None and lead["worlds"] == 0


def test_the_repr_is_a_valid_svg_chart_with_the_mistake_marked(blunders: Analysis) -> None:
    svg = blunders._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    biggest = blunders.biggest
    assert biggest is not None
    assert f"biggest mistake: seat {biggest.seat} played" in svg
    assert "trick 11, seat 0 played 3d: 7 units lost" in svg


def test_the_estimate_is_seeded_labelled_and_over_the_legal_plays() -> None:
    record = ending(["play 2d", "play 3h", "play Qd", "play Ad", "play 2s", "play 3d"])
    one = analyse(record, worlds=3, seed=5, from_trick=11)
    assert one == analyse(record, worlds=3, seed=5, from_trick=11)
    lead = at(one, 11, 1)
    assert lead.worlds == 3 and lead.estimate is not None
    assert set(lead.estimate) == set(lead.values)
    assert all(0 <= v <= cb.CAVENDISH.deal_units for v in lead.estimate.values())
    assert lead.estimate_lost is not None and lead.estimate_lost >= 0
    assert "averaged over 3 worlds" in one.to_text() and "seed 5" in one.to_text()
    assert at(one, 12, 1).estimate is None  # one legal play: nothing to estimate


def test_bad_arguments_are_refused() -> None:
    record = ending([])
    with pytest.raises(ValueError, match="worlds=-1"):
        analyse(record, worlds=-1)
    with pytest.raises(ValueError, match="needs a Record or a State"):
        analyse("deal.json")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_nodes=0"):
        analyse(record, max_nodes=0)
    with pytest.raises(ValueError, match="exchange_options=-1"):
        analyse(record, exchange_options=-1)
    with pytest.raises(ValueError, match="from_trick=0"):
        analyse(record, from_trick=0)
    for past in (13, 99):  # twelve tricks in a deal
        with pytest.raises(ValueError, match=f"from_trick={past}: expected 1 to 12"):
            analyse(record, from_trick=past)
    assert analyse(record, from_trick=12).decisions  # the last trick is fine


def test_a_deal_that_stops_in_the_auction_is_not_said_to_be_all_passed() -> None:
    state = cb.apply(cb.new_deal(cb.CAVENDISH, dealer=0, seed=7), cb.Pass())
    head = analyse(state).to_text().splitlines()[0]
    assert head == "Analysis of a cavendish deal: unfinished, it stops in the auction (nobody has declared)"
    assert analyse(state).to_data()["finished"] is False
    for _ in range(2):
        state = cb.apply(state, cb.Pass())
    assert state.is_over and state.result is not None and state.result.void
    assert analyse(state).to_text().splitlines()[0] == "Analysis of a cavendish deal: nobody played (all passed)"
    assert analyse(state).finished and analyse(state).to_data()["finished"] is True


def test_the_biggest_mistake_names_every_best_card(blunders: Analysis) -> None:
    """Trick 11, seat 0 played 3d where Qd kept the declarer to 12 (hand-checked ending above)."""
    assert blunders.biggest is not None and blunders.biggest.values == {
        cb.parse_action("play 3d"): 19, cb.parse_action("play Qd"): 12}
    line = blunders.to_text().splitlines()[-1]
    assert line == (
        "Biggest mistake: trick 11, seat 0 played 3d (7 units lost): the best was Qd, "
        "12 units to the declarer against 19."
    )


def test_a_node_limit_marks_the_play_not_analysed() -> None:
    analysis = analyse(ending(BLUNDERS), max_nodes=1)
    lead = at(analysis, 1, 1)  # twelve tricks to go: more than one position to search
    assert not lead.analysed and "gave up" in lead.note
    assert lead.values == {} and lead.lost is None


# --- the command ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analyse") / "deal.json"
    path.write_text(cb.to_json(ending(BLUNDERS)), encoding="utf-8")
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_prints_a_table(saved: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["analyse", str(saved), "--from-trick", "11"], capsys)
    assert (status, err) == (0, "")
    rows = [line.split() for line in out.splitlines()]
    assert ["11", "1", "play", "2d", "12", "14", "2", "Ad", "14,", "2d", "12"] in rows
    assert ["11", "0", "play", "3d", "19", "12", "7", "Qd", "12,", "3d", "19", "<-", "biggest",
            "mistake"] in rows  # fmt: skip
    assert "Biggest mistake: trick 11, seat 0 played 3d (7 units lost): the best was Qd, 12 units to the declarer against 19." in out
    assert "stand by seat 1, 19 of 35 units to the declarer" in out


def test_the_command_writes_json_and_svg(saved: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["analyse", str(saved), "--format", "json", "--from-trick", "11"], capsys)
    data = json.loads(out)
    assert status == 0 and data["declarer_units"] == 19
    status, out, _ = run(["analyse", str(saved), "--format", "svg", "--from-trick", "11"], capsys)
    assert status == 0 and ET.fromstring(out).tag.endswith("svg")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read it"),
        ('{"type": "record"', "not a record"),
        ("", "empty"),
    ],
)
def test_the_command_refuses_a_bad_file(
    content: str | None, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deal.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    status, out, err = run(["analyse", str(path)], capsys)
    assert status == 2 and out == ""
    assert err.startswith("calabrasella analyse: ") and message in err
    assert "Traceback" not in err and len(err.splitlines()) == 1


def test_the_command_refuses_bad_options(saved: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--worlds", "-2"], ["--max-nodes", "0"], ["--format", "png"],
                 ["--exchange-options", "-1"], ["--from-trick", "0"],
                 ["--from-trick", "13"], ["--from-trick", "99"]):  # fmt: skip
        with pytest.raises(SystemExit) as exit_:
            cli.main(["analyse", str(saved), *argv])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and argv[0] in err
    with pytest.raises(SystemExit):
        cli.main(["analyse", str(saved), "--from-trick", "13"])
    assert "--from-trick 13: expected 1 to 12, the deal's tricks" in capsys.readouterr().err


@pytest.mark.slow  # twelve tricks and four whole deals to solve: seconds in pure Python
def test_the_exchange_s_last_decision_is_worth_the_play_it_starts() -> None:
    """Not worked by hand (twelve tricks): each option of the last take is valued by a search
    of the play after it; the one taken must be worth what the first lead's best play is
    worth, found by the other search (every play's value); the earlier decisions are not valued."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    for text in ["bid stand", "call 3h", "give back 4h", "discard 5s", "done", "take Kd", "play 5h"]:
        state = cb.apply(state, cb.parse_action(text))
    analysis = analyse(state)
    take, lead = analysis.decisions[-2:]
    assert take.stage == "exchange" and take.analysed and str(take.action) == "take Kd"
    assert sorted(str(a) for a in take.values) == ["take 3s", "take 4d", "take Js", "take Kd"]
    assert lead.seat == 1 == analysis.declarer and lead.best == max(lead.values.values())
    assert take.chosen == lead.best
    assert take.best == max(take.values.values()) and take.lost == take.best - take.chosen
    done = analysis.decisions[-3]
    assert str(done.action) == "done" and not done.analysed and "before the last" in done.note
    fewer = analyse(state, exchange_options=3).decisions[-2]  # four options: more than asked
    assert not fewer.analysed and "4 options" in fewer.note and fewer.values == {}
