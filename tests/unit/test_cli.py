"""The command line (calabrasella.cli): the demo, its arguments, its output and exits."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import attrs
import pytest

import calabrasella as cb
import calabrasella.__main__
from calabrasella import cli
from calabrasella.rulesets import Terms

SYMBOLS = [suit.symbol for suit in cb.Suit]
RULES = [cb.CAVENDISH, cb.CALABRESELLA]
# Seeds with something to tell: Cavendish 0 takes the last stock cards by force, 2 is
# void, 11 takes all 35, 25 calls a card in the stock; Calabresella 0 is a solissimo
# dividete (a forced draw), 1 a solissimo not raised, 2 void, 3 a scegliete (stramazzo), 4 a solo,
# 7 a scegliete where one adversary takes nothing, 19 a chiamo with a give-back.
SEEDS = [0, 1, 2, 3, 4, 7, 11, 19, 25]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the command with ``argv``; return what it printed (it must exit 0)."""
    assert cli.main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def final_state(rules: cb.Ruleset, seed: int, dealer: int = 0) -> cb.State:
    """Play the demo's deal again through the engine, the way the demo's players do."""
    rng, state = random.Random(seed), cb.new_deal(rules, dealer=dealer, seed=seed)
    while not state.is_over:
        seat = state.to_move
        action = (
            cb.sample_chance(state, rng)
            if seat is None
            else rng.choice(state.view(seat).legal_actions)
        )
        state = cb.apply(state, action)
    return state


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_demo_tells_the_deal_the_engine_played(rules: cb.Ruleset, seed: int) -> None:
    """Every section is there, in the ruleset's words, and the result is the engine's."""
    text = cli.demo(rules, seed=seed, symbols=False)
    final = final_state(rules, seed)
    result = final.result
    assert result is not None
    sections = [part.splitlines()[0] for part in text.split("\n\n")]
    assert sections[0].startswith(f"calabrasella {cb.__version__}: one deal of {rules.terms.title}")
    assert sections[1].startswith("The deal")
    assert sections[2].startswith("Auction")
    assert sections[-1] == "Result"
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert f"  {rules.terms.stock:<14}  " in text
    paid = ", ".join(
        f"seat {s} {p:+d}" if p else f"seat {s} 0" for s, p in enumerate(result.payments)
    )
    assert f"  payments: {paid}\n" in text
    for note in result.notes:
        assert f"  note: {note}\n" in text
    if result.void:
        assert "everybody passed: the deal is void" in text
        assert "Exchange" not in text and "Play" not in text
        return
    assert sections[3:6] == [
        "Exchange",
        f"Play (seat {final.history[-36][0]} leads to the first trick)",
        "Result",
    ]
    assert f"  => seat {result.declarer} is the {rules.terms.declarer}: " in text
    base, value = rules.terms.base, result.value
    made = (
        f"= {base} {result.base} x {result.multiplier}"
        if result.multiplier != 1
        else f"(the {base})"
    )
    assert f"  value: {value} {made}" in text
    points = re.search(r"^  adversaries .*: \d+ units? \(\d+ points?\), ", text, re.M)
    assert bool(points) is rules.terms.points


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(12))
def test_trick_winners_and_units_agree_with_the_cards(rules: cb.Ruleset, seed: int) -> None:
    """Each trick's winner is the highest card of the suit led; its units are its cards'."""
    text = cli.demo(rules, seed=seed, symbols=False)
    tricks = re.findall(r"^ +\d+\. (.*)  -> seat (\d) wins (\d+) units?$", text, re.M)
    assert len(tricks) in (0, 12)
    for played, winner, units in tricks:
        cards = [
            (int(seat), cb.Card.parse(code))
            for seat, code in re.findall(r"seat (\d): (\S+)", played)
        ]
        best_seat, best = cards[0]
        for seat, card in cards[1:]:
            if card.beats(best):
                best_seat, best = seat, card
        assert int(winner) == best_seat
        assert int(units) == sum(card.units for _, card in cards)


@pytest.mark.parametrize(("rules", "seed"), [("cavendish", 3), ("calabresella", 0)])
def test_the_same_seed_prints_the_same_deal(
    rules: str, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["demo", "--rules", rules, "--seed", str(seed)]
    first = run(argv, capsys)
    assert run(argv, capsys) == first
    assert first == cli.demo(cb.find_ruleset(rules), seed=seed)
    assert run(["demo", "--seed", "4"], capsys) != run(["demo", "--seed", "5"], capsys)


def test_the_default_seed_is_7(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["demo"], capsys) == run(["demo", "--seed", "7"], capsys)
    assert cli.DEFAULT_SEED == 7


def test_ascii_has_no_suit_symbols(capsys: pytest.CaptureFixture[str]) -> None:
    for rules in ("cavendish", "calabresella"):
        text = run(["demo", "--rules", rules, "--seed", "3", "--ascii"], capsys)
        assert not any(symbol in text for symbol in SYMBOLS)
        assert "d coins, h cups, s swords, c batons" in text
        with_symbols = run(["demo", "--rules", rules, "--seed", "3"], capsys)
        assert all(symbol in with_symbols for symbol in SYMBOLS)


def test_an_output_that_cannot_encode_symbols_gets_letters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", stream)
    assert cli.main(["demo", "--seed", "7"]) == 0
    stream.seek(0)
    assert stream.read() == cli.demo(cb.CAVENDISH, seed=7, symbols=False)


def test_format_cards() -> None:
    cards = cb.CardSet.parse("Kc 3s Ad As 7d")
    assert cli.format_cards(cards) == "A♦ 7♦  3♠ A♠  K♣"
    assert cli.format_cards(cards, symbols=False) == "Ad 7d  3s As  Kc"
    assert cli.format_cards([]) == "-"


def test_a_cavendish_take_of_the_last_stock_cards_is_narrated() -> None:
    """Seat 1 discards four: the whole stock is his without a choice."""
    final = final_state(cb.CAVENDISH, 0)
    forced = [(seat, move) for _, seat, move in final.forced_moves]
    assert forced and all(seat == 1 and isinstance(move, cb.Take) for seat, move in forced)
    text = cli.demo(cb.CAVENDISH, seed=0, symbols=False)
    assert "  seat 1 takes Ad  7h  Qs 7s from the stock (no choice)\n" in text
    assert text.index("the stock is turned face up") < text.index("(no choice)")


def test_calabresella_forced_moves_are_narrated() -> None:
    dividete = cli.demo(cb.CALABRESELLA, seed=0, symbols=False)
    assert "  seat 1 raises: dividete\n" in dividete
    assert "  chance: seat 2 draws Ad  7h unseen from the monte\n" in dividete
    assert "  seat 0 draws Qs 7s unseen from the monte (no choice)\n" in dividete
    solo = cli.demo(cb.CALABRESELLA, seed=4, symbols=False)
    assert "  seat 2 takes 7d  Jh 4h  Js from the monte (no choice)\n" in solo
    unseen = cli.demo(
        attrs.evolve(cb.CALABRESELLA, solo_monte_exposed=False), seed=4, symbols=False
    )
    assert "  seat 2 takes 7d  Jh 4h  Js from the monte (no choice, face down)\n" in unseen
    assert "turned face up" not in unseen
    chiamo = cli.demo(cb.CALABRESELLA, seed=19, symbols=False)
    assert "  seat 0 takes Ad 6d  Ac Kc from the monte (no choice)\n" in chiamo
    assert "  seat 0 gives back Ac to seat 1 (face up)\n" in chiamo


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(30))
def test_every_forced_move_and_only_those_say_no_choice(rules: cb.Ruleset, seed: int) -> None:
    text = cli.demo(rules, seed=seed, symbols=False)
    told = [line for line in text.splitlines() if "(no choice" in line]
    forced = final_state(rules, seed).forced_moves
    assert bool(told) == bool(forced)
    for _, seat, move in forced:
        assert isinstance(move, (cb.Take, cb.Draw))
        cards = [move.card] if isinstance(move, cb.Take) else list(move.cards)
        assert any(
            line.startswith(f"  seat {seat} ") and all(c.code in line for c in cards)
            for line in told
        )


def test_scegliete_tells_who_takes_nothing() -> None:
    text = cli.demo(cb.CALABRESELLA, seed=7, symbols=False)
    assert "raises: scegliete" in text
    assert re.search(r"^  seat \d takes nothing$", text, re.M)


def test_a_face_down_give_back_names_the_two_seats_that_see_it() -> None:
    text = cli.demo(cb.CAVENDISH, seed=7, symbols=False)
    assert "  seat 1 gives back 5h to seat 2 (face down: only seats 1 and 2 see it)\n" in text


def test_the_words_come_from_the_ruleset_terms() -> None:
    """A ruleset with other words gets them everywhere: no word is tied to a class."""

    @attrs.frozen(kw_only=True)
    class Renamed(cb.Calabresella):
        terms: ClassVar[Terms] = Terms(
            title="Terziglio", declarer="chiamante", stock="pozzo", base="posta", points=False
        )

    text = cli.demo(Renamed(), seed=3, symbols=False)
    assert "one deal of Terziglio between" in text
    assert "  pozzo    " in text and "the pozzo is turned face up" in text
    assert "=> seat 2 is the chiamante: solissimo" in text
    assert "  chiamante (seat 2): 1 unit, 1 trick\n" in text
    assert "value: 48 = posta 16 x 3 (stramazzo)" in text
    assert "monte" not in text.split("The deal")[1].split("Result")[0]


def test_four_at_the_table_the_dealer_sits_out() -> None:
    text = cli.demo(attrs.evolve(cb.CAVENDISH, players=4), seed=5, dealer=3, symbols=False)
    assert "; the dealer sits out" in text
    assert "  seat 3 dealer   (no cards: sits out)\n" in text
    assert "payments: seat 0 -33, seat 1 +11, seat 2 +11, seat 3 +11" in text


@pytest.mark.parametrize("dealer", ["5", "3", "-1"])
def test_a_bad_dealer_shows_the_demo_usage(dealer: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue #7 item 9: the error goes through the demo's parser, not the top-level one."""
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["demo", "--dealer", dealer])
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: calabrasella demo ")
    assert (
        f"calabrasella demo: error: --dealer {dealer}: expected a seat 0..2 at a table of 3\n"
        in err
    )


def test_other_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["deal"], ["demo", "--rules", "scopa"], ["demo", "--seed", "x"]):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(argv)
        assert exit_info.value.code == 2
        assert "usage: calabrasella" in capsys.readouterr().err


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, words in (
        (["--version"], f"calabrasella {cb.__version__} (search: "),
        (["demo", "--help"], "--ascii"),
    ):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(argv)
        assert exit_info.value.code == 0
        assert words in capsys.readouterr().out


def test_python_dash_m_calabrasella() -> None:
    version = subprocess.run(
        [sys.executable, "-m", "calabrasella", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert version.stdout.startswith(f"calabrasella {cb.__version__} (search: ")
    demo = subprocess.run(
        [sys.executable, "-m", "calabrasella", "demo", "--seed", "7", "--ascii"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert demo.stdout == cli.demo(cb.CAVENDISH, seed=7, symbols=False)
    assert demo.stderr == ""


def test_main_is_a_few_lines_calling_the_cli() -> None:
    assert calabrasella.__main__.main is cli.main
    source = Path(calabrasella.__main__.__file__).read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 10


class _ClosedPipe(io.StringIO):
    encoding = "utf-8"

    def write(self, text: str) -> int:
        raise BrokenPipeError


def test_a_reader_that_goes_away_exits_1_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    """``calabrasella demo | head -1``: a broken pipe is status 1, not a traceback."""
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert cli.main(["demo", "--seed", "7"]) == 1


def test_a_closed_pipe_ends_the_command_without_a_traceback() -> None:
    """The reader is gone before the demo writes: status 1 and nothing on stderr."""
    code = (
        "import time; time.sleep(0.3); from calabrasella.cli import main; raise SystemExit(main())"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code, "demo"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    err = child.stderr.read()
    assert child.wait() == 1
    assert err == b""


def test_no_command_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("usage: calabrasella ")
    listed = re.findall(r"^    (\w+)  ", out, re.MULTILINE)
    assert listed == ["play", "replay", "show", "analyse", "rules", "demo", "simulate", "serve"]
    assert "calabrasella COMMAND --help" in out


@pytest.mark.parametrize("command", [["play"], ["demo"], ["simulate", "--deals", "1"], ["rules"]])
def test_the_game_s_own_name_as_a_ruleset_suggests_the_nearest(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*command, "calabrasella"] if command == ["rules"] else [*command, "--rules", "calabrasella"]
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err
    assert err.splitlines()[-1].endswith(
        "no ruleset named 'calabrasella' (known: calabresella, cavendish); did you mean "
        "'cavendish' (Calabrasella (Cavendish)) or 'calabresella' (Calabresella (Terziglio))?"
    )


def test_a_first_game_is_against_heuristic_bots(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert cli.main(["play", "--seed", "7", "--ascii"]) == 0
    assert "you against two heuristic bots" in capsys.readouterr().out.splitlines()[0]
