"""``calabrasella play``: whole deals driven by scripted input, menus, bad typing, quitting.

The deals are checked against the engine: each menu is replayed from the
final state's history and compared with the legal actions of the state at
that moment, and everything printed up to a prompt is scanned for cards the
seat could not know then (:func:`calabrasella.testing.cards_seat_may_know`).
"""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

import calabrasella as cb
from calabrasella import cli
from calabrasella.testing import cards_seat_may_know

RULES = [cb.CAVENDISH, cb.CALABRESELLA]
SYMBOL_SUIT = {"♦": "d", "♥": "h", "♠": "s", "♣": "c"}
CARD = re.compile(r"(?<!\w)([2-7AKQJ])([dhsc♦♥♠♣])(?!\w)")
MENU_ITEM = re.compile(r"(\d+)\. (.+?)(?=\s{2,}\d+\. |$)")


def cards_in(text: str) -> set[cb.Card]:
    """Every card written in ``text``, as a code (``Ad``) or with a suit symbol (``A♦``)."""
    return {
        cb.Card.parse(rank + SYMBOL_SUIT.get(suit, suit)) for rank, suit in CARD.findall(text)
    }


def last_menu(text: str) -> list[str]:
    """The moves of the last menu printed in ``text``, in order."""
    block = text[text.rindex("Your turn, seat") :].splitlines()[1:]
    items: list[str] = []
    for line in block:
        found = MENU_ITEM.findall(line.strip())
        if not found:
            break
        for number, move in found:
            assert int(number) == len(items) + 1
            items.append(move.strip())
    return items


class Script:
    """A reader for ``play_deal``: each answer comes from ``choose`` given the output so far.

    It keeps, for each prompt, the output printed before it and the menu on screen.
    ``choose`` returns a line, or None for the end of input.
    """

    def __init__(self, out: io.StringIO, choose: Callable[[str], str | None]) -> None:
        self.out, self.choose = out, choose
        self.before: list[str] = []
        self.menus: list[list[str]] = []
        self.lines: list[str] = []

    def __call__(self, prompt: str) -> str:
        assert prompt == "> "
        text = self.out.getvalue()
        self.before.append(text)
        self.menus.append(last_menu(text))
        line = self.choose(text)
        if line is None:
            raise EOFError
        self.lines.append(line)
        return line


def states_along(final: cb.State) -> Iterator[cb.State]:
    """The states of a deal from its first, through each action of ``final``'s history."""
    state = cb.start(final.rules, final.deal)
    yield state
    for _, action in final.history:
        state = cb.apply(state, action)
        yield state


def decisions(final: cb.State, seat: int) -> list[cb.State]:
    """The states in which ``seat`` was to move, in order."""
    return [s for s in states_along(final) if s.to_move == seat and not s.is_over]


def typed_forms(action: cb.Action, rng: random.Random) -> str:
    """The ways a person may type ``action``: its text, shouted, or its card alone."""
    forms = [str(action), f"  {str(action).upper()}  "]
    card = getattr(action, "card", None)
    if isinstance(card, cb.Card):
        forms += [card.code, card.symbol, card.code.lower()]
    return rng.choice(forms)


def play_randomly(
    rules: cb.Ruleset, seed: int, seat: int, *, symbols: bool = False
) -> tuple[cb.State, Script, str, list[cb.Action]]:
    """Play a deal, typing random menu moves as a number, a text or a card.

    Returns the last state, the script, the output and the moves meant.
    """
    rng, out, meant = random.Random(seed * 7 + seat), io.StringIO(), list[cb.Action]()

    def choose(text: str) -> str:
        menu = last_menu(text)
        number = rng.randrange(len(menu))
        meant.append(cb.parse_action(menu[number]))
        if rng.random() < 0.5:
            return str(number + 1)
        return typed_forms(meant[-1], rng)

    script = Script(out, choose)
    final = cli.play_deal(rules, seat=seat, seed=seed, symbols=symbols, read=script, out=out)
    return final, script, out.getvalue(), meant


def menu_cards(menus: list[list[str]]) -> set[cb.Card]:
    """Cards a menu names that the seat need not hold: the cards it may call."""
    return {card for menu in menus for move in menu if move.startswith("call") for card in cards_in(move)}


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("seat", [0, 1, 2])
@pytest.mark.parametrize("seed", range(5))
def test_each_menu_is_the_legal_moves_and_each_choice_is_played(
    rules: cb.Ruleset, seat: int, seed: int
) -> None:
    final, script, text, meant = play_randomly(rules, seed, seat)
    assert final.is_over
    asked = decisions(final, seat)
    assert len(script.menus) == len(asked)
    for menu, state in zip(script.menus, asked):
        assert menu == [str(action) for action in state.legal_actions()]
    # the seat's entries of the history, but for a dividete draw (chance, not a choice)
    mine = [action for who, action in final.history if who == seat and not isinstance(action, cb.Draw)]
    assert mine == meant
    assert "Traceback" not in text
    assert text.count("\nResult\n") == 1


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("seat", [0, 1, 2])
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("symbols", [False, True])
def test_the_screen_never_shows_a_card_the_seat_may_not_know(
    rules: cb.Ruleset, seat: int, seed: int, symbols: bool
) -> None:
    """At every prompt, and at the end, every card written is one the seat may know."""
    final, script, text, _ = play_randomly(rules, seed, seat, symbols=symbols)
    callable_cards = menu_cards(script.menus)
    for before, state in zip(script.before, decisions(final, seat)):
        unknown = cards_in(before) - set(cards_seat_may_know(state, seat)) - callable_cards
        assert not unknown, (unknown, before[-400:])
    assert cards_in(text) - set(cards_seat_may_know(final, seat)) - callable_cards == set()
    assert cards_in(text) >= set(final.deal.hands[seat])


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("stop", [0, 1, 3, 6, 12])
def test_quitting_mid_deal_shows_nothing_unknown_and_returns_the_state_reached(
    rules: cb.Ruleset, stop: int
) -> None:
    out = io.StringIO()
    answers = iter(["1"] * stop + ["quit"])
    script = Script(out, lambda text: next(answers))
    left = cli.play_deal(rules, seat=2, seed=11, symbols=False, read=script, out=out)
    text = out.getvalue()
    assert not left.is_over
    assert left.to_move == 2
    assert len(script.lines) == stop + 1
    assert text.endswith("\nYou left the deal unfinished.\n")
    assert cards_in(text) - set(cards_seat_may_know(left, 2)) - menu_cards(script.menus) == set()


def run_main(
    argv: list[str], stdin: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("rules", ["cavendish", "calabresella"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_deals_through_main_with_scripted_stdin(
    rules: str, seed: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typing 1 at every prompt plays the deal to its result; the payments add up to 0."""
    argv = ["play", "--rules", rules, "--seed", str(seed), "--ascii"]
    status, out, err = run_main(argv, "1\n" * 60, capsys, monkeypatch)
    assert (status, err) == (0, "")
    assert out.count("\n> 1\n") == out.count("Your turn, seat 1")  # each line read is echoed
    payments = re.search(r"^  payments: seat 0 (\S+), seat 1 \(you\) (\S+), seat 2 (\S+)$", out, re.M)
    assert payments is not None
    paid = [int(p) for p in payments.groups()]
    assert sum(paid) == 0
    mine = paid[1]
    verdict = f"you win {mine}" if mine > 0 else f"you pay {-mine}" if mine < 0 else "you neither"
    assert out.rstrip().splitlines()[-1].strip().startswith(verdict)
    again = run_main(argv, "1\n" * 60, capsys, monkeypatch)
    assert again == (0, out, "")  # the same seed and answers: the same deal


def test_a_deal_can_be_won_by_typing_the_moves(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cavendish seed 7, seat 1 (the eldest) stands: the bid, the call and the give-back typed."""
    lines = "stand\ncall 3h\n4h\n5s\ndone\n" + "1\n" * 40
    status, out, _ = run_main(["play", "--seed", "7", "--ascii"], lines, capsys, monkeypatch)
    assert status == 0
    assert "  you: bid stand\n  => you are the single player: stand\n" in out
    assert "  you: call 3h (seat 2 gives it up)\n" in out
    assert "  you: give back 4h\n" in out
    assert "  you: discard 5s\n" in out
    assert "  you: done\n" in out
    assert "  seat 0: give back" not in out and "  seat 2: discard" not in out


BAD_LINES = [
    ("99", "there is no move 99: type a number from 1 to 2"),
    ("0", "there is no move 0: type a number from 1 to 2"),
    ("-3", "there is no move -3: type a number from 1 to 2"),
    ("", "type a number from 1 to 2, a move such as 'bid stand', or 'help'"),
    ("   ", "type a number from 1 to 2, a move such as 'bid stand', or 'help'"),
    ("bid solo", "'bid solo' is not one of your moves now: type a number from 1 to 2 ('help' lists them)"),
    ("play Ad", "'play Ad' is not one of your moves now: type a number from 1 to 2 ('help' lists them)"),
    ("Ad", "no move of yours uses Ad now: type a number from 1 to 2 ('help' lists them)"),
    ("xyzzy", "not a move: 'xyzzy'; type a number from 1 to 2, a move such as 'bid stand', or 'help'"),
    ("play Zz", "not a move: 'play Zz'; type a number from 1 to 2, a move such as 'bid stand', or 'help'"),
    ("x" * 5000, "that line is 5000 characters long: type a number from 1 to 2"),
    ("9" * 5000, "that line is 5000 characters long: type a number from 1 to 2"),
    ("12345678901234567890", "there is no move 12345678901234567890: type a number from 1 to 2"),
    ("²", "not a move: '²'; type a number from 1 to 2, a move such as 'bid stand', or 'help'"),
]


@pytest.mark.parametrize(("line", "message"), BAD_LINES, ids=[m[:20] for _, m in BAD_LINES])
def test_bad_typing_gets_one_line_and_the_question_again(
    line: str, message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At seat 1's first bid (Cavendish seed 7): the message, the prompt, and nothing played."""
    status, out, err = run_main(
        ["play", "--seed", "7", "--ascii"], f"{line}\nquit\n", capsys, monkeypatch
    )
    assert (status, err) == (0, "")
    assert f"\n> {line}\n{message}\n> quit\n\nYou left the deal unfinished.\n" in out
    assert "  you:" not in out


def test_help_shows_the_situation_and_the_menu_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run_main(["play", "--seed", "7", "--ascii"], "help\n?\nq\n", capsys, monkeypatch)
    assert status == 0
    menu = "Your turn, seat 1: bid or pass\n   1. pass         2. bid stand\n"
    hand = "  your hand  2d Ad Jd  Ah Kh Qh 5h 4h  5s  Jc 6c 5c\n"
    won = "  won so far: seat 0 0 tricks (0 units), you 0 tricks (0 units), seat 2 0 tricks (0 units)\n"
    assert out.count(menu) == 3
    assert out.count(f"> help\n{won}{hand}{menu}") == 1
    assert out.count(f"> ?\n{won}{hand}{menu}") == 1


@pytest.mark.parametrize("ending", ["", "quit\n", "QUIT\n", "exit\n", " q \n"])
def test_the_end_of_input_or_quit_leaves_cleanly(
    ending: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run_main(["play", "--seed", "3"], "1\n" * 5 + ending, capsys, monkeypatch)
    assert (status, err) == (0, "")
    assert out.endswith("\nYou left the deal unfinished.\n")
    assert "Result" not in out


def test_ctrl_c_at_the_prompt_leaves_cleanly() -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    left = cli.play_deal(cb.CAVENDISH, seat=1, seed=7, read=interrupt, out=out)
    assert left == cb.new_deal(cb.CAVENDISH, seed=7)
    assert out.getvalue().endswith("\nYou left the deal unfinished.\n")


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), "not UTF-8 text"),
        (OSError(5, "Input/output error"), None),
    ],
)
def test_a_reader_that_keeps_failing_ends_the_deal(error: Exception, said: str | None) -> None:
    """Undecodable lines are refused a few times, then the deal is left; a gone input ends it."""
    calls = []

    def failing(prompt: str) -> str:
        calls.append(prompt)
        raise error

    out = io.StringIO()
    left = cli.play_deal(cb.CAVENDISH, seat=1, seed=7, read=failing, out=out)
    assert left == cb.new_deal(cb.CAVENDISH, seed=7)
    text = out.getvalue()
    assert text.endswith("\nYou left the deal unfinished.\n")
    if said is None:
        assert len(calls) == 1
    else:
        assert len(calls) == 21
        assert text.count(f"could not read that line (it is {said}): type it again\n") == 20


def test_the_installed_command_plays_a_deal_from_a_pipe() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "calabrasella", "play", "--seed", "5", "--rules", "calabresella"],
        input="1\n" * 60,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "\nResult\n" in done.stdout and "\n> 1\n" in done.stdout


def test_a_line_that_is_not_utf8_is_read_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = io.BytesIO(b"\xff\xfe\x80\n2\n" + b"1\n" * 50)
    stdout = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(raw, encoding="utf-8"))
    monkeypatch.setattr(sys, "stdout", stdout)
    assert cli.main(["play", "--seed", "7", "--ascii"]) == 0
    text = stdout.getvalue()
    assert "not a move: '\ufffd\ufffd\ufffd'" in text
    assert "  you: bid stand\n" in text and "\nResult\n" in text


def test_a_card_alone_chooses_the_one_move_that_uses_it() -> None:
    legal = (cb.Done(), cb.Discard(cb.Card.parse("Ad")), cb.Discard(cb.Card.parse("3s")))
    for line in ("Ad", "A♦", "ace of coins", "asso di denari", "ad"):
        assert cli.interpret(line, legal) == cb.Discard(cb.Card.parse("Ad"))
    assert cli.interpret("1", legal) == cb.Done()
    assert cli.interpret("discard 3s", legal) == cb.Discard(cb.Card.parse("3s"))
    with pytest.raises(ValueError, match=r"^no move of yours uses K♣ now: type a number from 1 to 3"):
        cli.interpret("Kc", legal)


def test_a_card_that_fits_several_moves_asks_which() -> None:
    ace = cb.Card.parse("Ad")
    legal = (cb.Play(ace), cb.Revoke(ace))
    with pytest.raises(ValueError, match=r"^A♦ fits several moves: type 'play A♦' or 'revoke A♦'$"):
        cli.interpret("Ad", legal)
    assert cli.interpret("revoke Ad", legal) == cb.Revoke(ace)


def test_a_single_move_menu_asks_for_1() -> None:
    with pytest.raises(cli.CommandError, match=r"^there is no move 2: type 1$"):
        cli.interpret("2", (cb.Pass(),))


def test_the_opponents_can_be_swapped(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot registered in OPPONENTS is offered by --opponents and plays the other seats."""

    def first(seed: int | str) -> cli.Opponent:
        return lambda view: view.legal_actions[0]

    monkeypatch.setitem(cli.OPPONENTS, "first", first)
    status, out, _ = run_main(
        ["play", "--seed", "7", "--opponents", "first", "--ascii"], "1\n" * 40, capsys, monkeypatch
    )
    assert status == 0
    assert "you against two first bots" in out
    assert "  you: pass\n  seat 2: pass\n  seat 0: pass\n" in out  # a first bot always passes
    with pytest.raises(cb.CalabrasellaError, match="no bot called 'clever'"):
        cli.make_opponent("clever", 1)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seat", "3"], "--seat 3: expected a seat 0..2 at a table of 3"),
        (["--seat", "-1"], "--seat -1: expected a seat 0..2 at a table of 3"),
        (["--dealer", "5"], "--dealer 5: expected a seat 0..2 at a table of 3"),
        (["--seat", "x"], "argument --seat: invalid int value: 'x'"),
        (["--rules", "skat"], "--rules skat: no ruleset named 'skat' (known: calabresella, cavendish)"),
        (["--option", "players"], "'players': expected KEY=VALUE, e.g. first_lead=after_declarer"),
        (["--option", "players=four"], "players=four: expected a whole number"),
        (["--option", "players=5"], "players=5: the table seats 3, or 4 with the dealer out"),
        (["--option", "first_lead=left"], "first_lead='left': expected one of 'eldest', 'after_declarer'"),
        (["--option", "trumps=yes"], "Cavendish() has no option 'trumps'"),
        (["--option", "players=4", "--seat", "0"], "--seat 0: the dealer sits out at a table of four"),
        (["--opponents", "clever"], "--opponents: no bot called 'clever'"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["play", *argv])
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: calabrasella play ")
    last = err.splitlines()[-1]
    assert last.startswith("calabrasella play: error: ")
    assert message in last
    assert "Traceback" not in err


def test_options_reach_the_ruleset(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "--rules", "Calabresella", "--seed", "4", "--ascii"]
    argv += ["--option", "auction=until_two_pass", "--option", "follow_suit=no"]
    status, out, _ = run_main(argv, "q\n", capsys, monkeypatch)
    assert status == 0
    assert "auction=until_two_pass" in out.splitlines()[1]
    assert "follow_suit=False" in out.splitlines()[1]


def test_four_at_the_table(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["play", "--option", "players=4", "--dealer", "3", "--seat", "0", "--seed", "5"]
    status, out, _ = run_main(argv, "1\n" * 40, capsys, monkeypatch)
    assert status == 0
    assert "you     seat 0; dealer seat 3; eldest hand seat 0; the dealer sits out\n" in out
    assert re.search(r"^  payments: seat 0 \(you\) \S+, seat 1 \S+, seat 2 \S+, seat 3 \S+$", out, re.M)


def test_without_a_seed_one_is_chosen_and_shown(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run_main(["play"], "quit\n", capsys, monkeypatch)
    assert status == 0
    seed = re.search(r"^seed    (\d+) ", out, re.M)
    assert seed is not None
    again = run_main(["play", "--seed", seed.group(1)], "quit\n", capsys, monkeypatch)
    assert again == (0, out, "")


def test_ascii_and_outputs_that_cannot_write_symbols(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, letters, _ = run_main(["play", "--seed", "2", "--ascii"], "1\n" * 40, capsys, monkeypatch)
    _, symbols, _ = run_main(["play", "--seed", "2"], "1\n" * 40, capsys, monkeypatch)
    assert not any(s in letters for s in SYMBOL_SUIT)
    assert all(s in symbols for s in SYMBOL_SUIT)
    assert cards_in(letters) == cards_in(symbols)
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", stream)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 40))
    assert cli.main(["play", "--seed", "2"]) == 0
    stream.seek(0)
    assert stream.read() == letters


def test_a_reader_that_goes_away_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    class ClosedPipe(io.StringIO):
        encoding = "utf-8"

        def write(self, text: str) -> int:
            raise BrokenPipeError

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    assert cli.main(["play", "--seed", "7"]) == 1


@given(
    lines=st.lists(
        st.one_of(
            st.text(max_size=40),
            st.sampled_from(["1", "2", "12", "pass", "done", "help", "play Ad", "Ad", "-1", "solo"]),
        ),
        max_size=30,
    ),
    seed=st.integers(0, 50),
    rules=st.sampled_from(["cavendish", "calabresella"]),
)
def test_any_lines_typed_never_give_a_traceback(lines: list[str], seed: int, rules: str) -> None:
    """Random lines, then the end of input: the deal goes on or ends, never a traceback."""
    text = "".join(line.replace("\n", " ").replace("\r", " ") + "\n" for line in lines)
    stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8", "surrogatepass")), encoding="utf-8")
    stdout = io.StringIO()
    saved = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = stdin, stdout
    try:
        status = cli.main(["play", "--rules", rules, "--seed", str(seed)])
    finally:
        sys.stdin, sys.stdout = saved
    out = stdout.getvalue()
    assert status == 0
    assert "Traceback" not in out
    assert out.endswith(("\nYou left the deal unfinished.\n", " nor pay\n")) or re.search(
        r"\n  you (win|pay) \d+\n$", out
    )


def test_the_opponents_may_be_sampling_bots_or_a_module_and_class() -> None:
    view = cb.new_deal(cb.CAVENDISH, seed=1).view(1)
    for name in ("sampling", "calabrasella.bots:HeuristicBot"):
        assert cli.make_opponent(name, 1)(view) in view.legal_actions


def test_a_card_the_player_may_not_play_is_refused_with_the_reason() -> None:
    """'no move of yours uses J♣' said nothing of why; the view tells it."""
    rng = random.Random(3)
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=3)
    must_follow: tuple[cb.View, cb.Card, cb.Suit] | None = None
    played_before: tuple[cb.View, cb.Card] | None = None
    while not state.is_over and (must_follow is None or played_before is None):
        mover = state.to_move
        if state.phase is cb.Phase.PLAYING and state.trick and state.tricks_played >= 1 and mover is not None:
            view = state.view(mover)
            led = state.trick[0].suit
            off_suit = [c for c in view.hand if c.suit != led]
            if off_suit and any(c.suit == led for c in view.hand) and must_follow is None:
                must_follow = (view, off_suit[0], led)
            gone = list(view.cards_played[view.seat])
            if gone and played_before is None:
                played_before = (view, gone[0])
        state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    assert must_follow is not None and played_before is not None
    view, card, led = must_follow
    for line in (card.code, f"play {card.code}"):
        with pytest.raises(cli.CommandError) as refused:
            cli.interpret(line, view.legal_actions, view=view)
        assert str(refused.value) == (
            f"you must follow {led.symbol}: play one of your {led.symbol} cards ('help' lists your moves)"
        )
    view, card = played_before
    with pytest.raises(cli.CommandError, match=rf"^you no longer hold {card.code[0]}.: you played it"):
        cli.interpret(f"play {card.code}", view.legal_actions, view=view)
    with pytest.raises(cli.CommandError, match=r"^you no longer hold .*you played it \('help'"):
        cli.interpret(card.code, view.legal_actions, view=view)


def test_a_card_discarded_is_no_longer_held() -> None:
    """docs/cli.md's deal: seat 1 stands, calls 3h, gives back 4h, discards 5s, takes Kd."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    for text in ["bid stand", "call 3h", "give back 4h", "discard 5s", "done", "take Kd"]:
        state = cb.apply(state, cb.parse_action(text))
    view = state.view(1)
    with pytest.raises(cli.CommandError, match=r"^you no longer hold 5♠: you discarded it \('help' lists your moves\)$"):
        cli.interpret("5s", view.legal_actions, view=view)
    with pytest.raises(cli.CommandError, match=r"^you do not hold 3♠"):
        cli.interpret("play 3s", view.legal_actions, view=view)
