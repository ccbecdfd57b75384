"""The text form of a record: what a card player would write down, and reading it back.

The layout, line by line::

    [Ruleset "cavendish"]                      tag lines: the rules, the dealer,
    [Version "2"]                              then the record's free tags
    [Options "first_lead=eldest players=3 ..."]
    [Dealer "0"]
    [event "club night"]

    Hands                                      one line per seat, cards by suit,
      seat 0 (dealer)  d: 3 A 7  h: ...        then the stock
      stock            d: J  h: 4  s: -  c: K Q

    Auction                                    one action a line, in str() notation
      seat 1: bid stand

    Exchange
      seat 1: call 3h
      (forced) seat 1: take 7c                 the engine's forced moves

    Play                                       a trick a line: its number, who led,
      1. seat 1 leads: Ad, 3d, 4d -> seat 2    the cards (other actions in words), who won

    Result                                     the replay's result
      ...

What makes the record: the tags, the hands and stock, every action (lines of
the auction and the exchange, items of the trick lines), and whether a
result section is there. What is derived, and checked against the replay:
each action line's seat, the dealer's mark, the forced moves, each trick's
number, leader, cards per trick and winner, and the result's lines.
Section headings only switch the kind of line expected; ``#`` starts a
comment line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NoReturn

import attrs

from . import _codec
from .actions import Action, Play, parse_action
from .cards import DECK, CardSet
from .errors import NotationError, RecordError, RulesetError
from .phases import Phase
from .scoring import Result
from .state import State
from .suits import Rank, Suit

if TYPE_CHECKING:
    from .records import Record

#: The longest line read.
MAX_LINE = 1200
_SECTIONS = ("hands", "auction", "exchange", "play", "result")
_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_-]*)[ \t]+"((?:[^"\\]|\\.)*)"\]')
_SEAT = re.compile(r"seat[ \t]+([0-9]{1,2})[ \t]*:(.*)", re.IGNORECASE)
_LABEL = re.compile(r"(?:seat[ \t]+([0-9]{1,2})|(stock))[ \t]*(\(dealer\))?(.*)", re.IGNORECASE)
_NUMBER = re.compile(r"-?[0-9]{1,9}")
_SMALL = re.compile(r"[0-9]{1,3}")
_PLAIN = re.compile(r"[A-Za-z0-9_.+-]+")
_SUITS = {suit.letter: suit for suit in Suit}
_RANKS = {rank.char: rank for rank in Rank}
_CARDS = {(card.suit, card.rank): card for card in DECK}


def _fail(line: int, reason: str) -> NoReturn:
    raise RecordError(where=f"line {line}", reason=reason)


# --- writing -------------------------------------------------------------------------


@attrs.define
class Trick:
    """One trick of the play as the text writes it (the actions made while it was open)."""

    number: int
    start: int
    leader: int
    actions: list[Action] = attrs.Factory(list)
    winner: int | None = None
    closed: bool = False


def play_groups(states: list[State], actions: Iterable[Action]) -> list[Trick]:
    """Group the actions of the play by trick: ``states[i]`` is the state before action ``i``."""
    tricks: list[Trick] = []
    for i, action in enumerate(actions):
        before, after = states[i], states[i + 1]
        if before.phase is not Phase.PLAYING:
            continue
        k = before.tricks_played
        if not tricks or tricks[-1].closed:
            tricks.append(Trick(k + 1, i, before.leader))
        trick = tricks[-1]
        trick.actions.append(action)
        if after.tricks_played != k:
            trick.closed = True
            won = [s for s, (a, b) in enumerate(zip(before.tricks_won, after.tricks_won)) if a != b]
            trick.winner = won[0] if len(won) == 1 and after.tricks_played == k + 1 else None
    return tricks


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _option_text(key: str, value: object) -> str:
    if isinstance(value, bool):
        return f"{key}={'true' if value else 'false'}"
    if value is None:
        return f"{key}=null"
    word = str(value)
    if not _PLAIN.fullmatch(word):
        raise RecordError(
            where=f"rules.options.{key}",
            reason=f"{_codec.quote(value)} cannot be written in the text form",
        )
    return f"{key}={word}"


def diagram(cards: CardSet) -> str:
    """Return a hand as ``d: 3 A 7  h: 2 Q  s: -  c: K``."""
    if not cards:
        return "sits out"
    return "  ".join(
        f"{suit.letter}: {' '.join(c.rank.char for c in cards.suit(suit)) or '-'}" for suit in Suit
    )


def result_lines(result: Result) -> list[str]:
    """Return the lines of a result section (without indentation)."""
    lines = []
    if result.void:
        lines.append("void")
    else:
        contract = "" if result.contract is None else result.contract.value
        if result.modifier is not None:
            contract += f" {result.modifier.value}"
        side = "nobody" if result.winner is None else f"the {result.winner.value}"
        bonus = "" if result.bonus is None else f" ({result.bonus.value})"
        lines.append(
            f"declarer seat {result.declarer}, {contract}: {result.declarer_units} units to "
            f"{result.adversary_units}, tricks {result.declarer_tricks} to {result.adversary_tricks}"
        )
        lines.append(
            f"won by {side}: {result.base} x {result.multiplier}{bonus} = {result.value}"
        )
    lines.append("payments: " + ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(result.payments)))
    lines.extend(f"note: {note}" for note in result.notes)
    return lines


def render(record: Record) -> str:
    """Return the text form of ``record``."""
    options = " ".join(_option_text(k, v) for k, v in record.options.items())
    lines = [
        f'[Ruleset "{_escape(record.ruleset)}"]',
        f'[Version "{record.ruleset_version}"]',
        f'[Options "{options}"]',
        f'[Dealer "{record.dealer}"]',
    ]
    lines += [f'[{key} "{_escape(value)}"]' for key, value in record.tags.items()]
    lines += ["", "Hands"]
    for seat, hand in enumerate(record.deal.hands):
        label = f"seat {seat}" + (" (dealer)" if seat == record.dealer else "")
        lines.append(f"  {label:<16} {diagram(hand)}")
    lines.append(f"  {'stock':<16} {diagram(record.deal.stock)}")
    states = list(record.states())
    final = states[-1]
    forced: dict[int, list[tuple[int, Action]]] = {}
    for at, seat, action in final.forced_moves:
        forced.setdefault(at, []).append((seat, action))
    tricks = {t.start: t for t in play_groups(states, record.actions)}
    section = ""
    i = 0
    while i < len(record.actions):
        before = states[i]
        if before.phase is Phase.PLAYING:
            if section != "Play":
                section = "Play"
                lines += ["", section]
            trick = tricks[i]
            lines.append(_trick_line(trick))
            i += len(trick.actions)
            continue
        heading = "Auction" if before.phase is Phase.BIDDING else "Exchange"
        if section != heading:
            section = heading
            lines += ["", section]
        seat, action = final.history[i]
        text = str(action)
        lines.append(f"  {text}" if text.startswith("seat ") else f"  seat {seat}: {text}")
        i += 1
        if i in forced and section != "Exchange":
            section = "Exchange"
            lines += ["", section]
        lines += [f"  (forced) seat {s}: {a}" for s, a in forced.get(i, ())]
    if record.result is not None:
        lines += ["", "Result"] + [f"  {line}" for line in result_lines(record.result)]
    return "\n".join(lines) + "\n"


def _trick_line(trick: Trick) -> str:
    items = ", ".join(a.card.code if type(a) is Play else str(a) for a in trick.actions)
    won = "" if trick.winner is None else f" -> seat {trick.winner}"
    return f"  {trick.number}. seat {trick.leader} leads: {items}{won}"


# --- reading -------------------------------------------------------------------------


@attrs.define
class _Parsed:
    """What the reader gathered, with the line of each piece."""

    tags: dict[str, tuple[str, int]] = attrs.Factory(dict)
    hands: dict[int, tuple[CardSet, int]] = attrs.Factory(dict)
    stock: tuple[CardSet, int] | None = None
    dealer_mark: tuple[int, int] | None = None
    hands_line: int = 0
    actions: list[Action] = attrs.Factory(list)
    action_lines: list[int] = attrs.Factory(list)
    seats: list[tuple[int, int, int]] = attrs.Factory(list)  # (action index, seat, line)
    forced: list[tuple[int, int, str]] = attrs.Factory(list)  # (line, seat, action text)
    tricks: list[tuple[int, int, int, int | None, int, int]] = attrs.Factory(list)
    result: list[tuple[int, str]] = attrs.Factory(list)
    result_line: int = 0


def parse(cls: type[Record], text: object, *, max_bytes: int, max_actions: int) -> Record:
    """Read a record from its text form (see the module's docstring)."""
    if not isinstance(text, str):
        raise RecordError(where="", reason=f"expected text, got {_codec.quote(text)}")
    if len(text) > max_bytes:
        raise RecordError(
            where="", reason=f"the text is {len(text)} characters, more than max_bytes={max_bytes}"
        )
    p = _Parsed()
    section = ""
    for number, raw in enumerate(text.splitlines(), 1):
        if len(raw) > MAX_LINE:
            _fail(number, f"a line of {len(raw)} characters is too long (at most {MAX_LINE})")
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.lower() in _SECTIONS:
            section = line.lower()
            if section == "hands":
                p.hands_line = number
            if section == "result":
                p.result_line = number
            continue
        if line.startswith("["):
            if section:
                _fail(number, "tag lines come before the hands")
            _read_tag(p, line, number)
        elif section == "hands":
            _read_hand(p, line, number)
        elif section in ("auction", "exchange"):
            _read_action_line(p, line, number)
        elif section == "play":
            _read_trick(p, line, number)
        elif section == "result":
            p.result.append((number, " ".join(line.split())))
        else:
            _fail(number, f"expected a tag line or a section heading, got {_codec.quote(line)}")
        if len(p.actions) > max_actions:
            _fail(number, f"more than max_actions={max_actions} actions")
    return _build(cls, p)


def _read_tag(p: _Parsed, line: str, number: int) -> None:
    match = _TAG.fullmatch(line)
    if match is None:
        _fail(number, f'expected a tag line such as [event "club night"], got {_codec.quote(line)}')
    key = match.group(1)
    if key.lower() in (k.lower() for k in p.tags):
        _fail(number, f"the tag {key!r} is given twice")
    p.tags[key] = (re.sub(r"\\(.)", r"\1", match.group(2)), number)


def _read_hand(p: _Parsed, line: str, number: int) -> None:
    match = _LABEL.fullmatch(line)
    if match is None:
        _fail(number, f"expected 'seat N' or 'stock' and the cards, got {_codec.quote(line)}")
    seat_text, stock, mark, rest = match.groups()
    cards = _read_diagram(rest.strip(), number)
    if stock is not None:
        if p.stock is not None or mark:
            _fail(number, "the stock is given twice" if p.stock else "the stock does not deal")
        p.stock = (cards, number)
        return
    seat = int(seat_text)
    if seat in p.hands:
        _fail(number, f"seat {seat}'s hand is given twice")
    p.hands[seat] = (cards, number)
    if mark:
        if p.dealer_mark is not None:
            _fail(number, "two seats are marked (dealer)")
        p.dealer_mark = (seat, number)


def _read_diagram(rest: str, number: int) -> CardSet:
    if rest.lower() in ("sits out", "-"):
        return CardSet()
    mask = 0
    suit: Suit | None = None
    for token in rest.replace(":", ": ").split():
        if token.endswith(":"):
            suit = _SUITS.get(token[:-1].lower())
            if suit is None:
                _fail(number, f"{token[:-1]!r} is not a suit letter (d, h, s, c)")
            continue
        if token == "-":
            continue
        rank = _RANKS.get(token.upper())
        if suit is None or rank is None:
            where = "before its suit (write 'd: 3 A')" if suit is None else "not a rank"
            _fail(number, f"{_codec.quote(token)}: {where}")
        bit = 1 << _CARDS[suit, rank].index
        if mask & bit:
            _fail(number, f"{token}{suit.letter} is written twice")
        mask |= bit
    return CardSet(mask)


def _action(text: str, number: int) -> Action:
    try:
        return parse_action(text)
    except (NotationError, RulesetError) as error:  # RulesetError: a kind's parser that misbehaves
        _fail(number, str(error))


def _read_action_line(p: _Parsed, line: str, number: int) -> None:
    if line.lower().startswith("(forced)"):
        match = _SEAT.fullmatch(line[8:].strip())
        if match is None:
            _fail(number, f"expected '(forced) seat N: action', got {_codec.quote(line)}")
        p.forced.append((number, int(match.group(1)), str(_action(match.group(2), number))))
        return
    match = _SEAT.fullmatch(line)
    if match is not None:
        p.seats.append((len(p.actions), int(match.group(1)), number))
        line = match.group(2)
    p.actions.append(_action(line, number))
    p.action_lines.append(number)


def _read_trick(p: _Parsed, line: str, number: int) -> None:
    head, dot, rest = line.partition(".")
    label, colon, body = rest.partition(":")
    words = label.split()
    if not (dot and colon and _SMALL.fullmatch(head) and len(words) == 3
            and words[0].lower() == "seat" and _SMALL.fullmatch(words[1])
            and words[2].lower() == "leads"):  # fmt: skip
        _fail(number, f"expected a trick such as '1. seat 2 leads: Ad, 3d, 4d -> seat 0', got {_codec.quote(line)}")
    winner: int | None = None
    if "->" in body:
        body, _, tail = body.rpartition("->")
        won = tail.split()
        if len(won) != 2 or won[0].lower() != "seat" or not _SMALL.fullmatch(won[1]):
            _fail(number, f"expected '-> seat N' after the cards, got {_codec.quote(tail.strip())}")
        winner = int(won[1])
    start = len(p.actions)
    for item in body.split(","):
        word = item.strip()
        if not word:
            _fail(number, "an empty item between commas")
        try:
            action: Action = Play(_codec.card(word, ""))
        except RecordError:
            action = _action(word, number)
        p.actions.append(action)
        p.action_lines.append(number)
    p.tricks.append((number, int(head), int(words[1]), winner, start, len(p.actions) - start))


def _options(cls_name: str, text: str, number: int) -> dict[str, Any]:
    defaults = _codec.option_defaults(_codec.ruleset_class(cls_name, f"line {number}"))
    options: dict[str, Any] = {}
    for token in text.split():
        key, eq, value = token.partition("=")
        if not eq or not key:
            _fail(number, f"expected options as name=value, got {_codec.quote(token)}")
        if key in options:
            _fail(number, f"the option {key!r} is given twice")
        kind = type(defaults.get(key))
        options[key] = _option_value(value, kind, number, key)
    return options


def _option_value(value: str, kind: type, number: int, key: str) -> object:
    words = {"true": True, "false": False}
    if kind is str:
        return value
    if kind is bool:
        if value not in words:
            _fail(number, f"{key}: expected true or false, got {_codec.quote(value)}")
        return words[value]
    if kind is int:
        if not _NUMBER.fullmatch(value):
            _fail(number, f"{key}: expected an int, got {_codec.quote(value)}")
        return int(value)
    if value == "null":
        return None
    if value in words:
        return words[value]
    return int(value) if _NUMBER.fullmatch(value) else value


def _build(cls: type[Record], p: _Parsed) -> Record:
    reserved = {k.lower(): (k, v, n) for k, (v, n) in p.tags.items() if k.lower() in _RESERVED}
    if "ruleset" not in reserved:
        _fail(1, 'no [Ruleset "..."] tag')
    _, name, rules_line = reserved["ruleset"]
    cls_of = _codec.ruleset_class(name, f"line {rules_line}")
    version: int = cls_of.version
    if "version" in reserved:
        _, text, line = reserved["version"]
        if not _NUMBER.fullmatch(text):
            _fail(line, f"expected a version number, got {_codec.quote(text)}")
        version = int(text)
    options_line = reserved["options"][2] if "options" in reserved else rules_line
    options = _options(name, reserved["options"][1], options_line) if "options" in reserved else {}
    dealer = _dealer(p, reserved)
    if p.stock is None:
        _fail(p.hands_line or 1, "no stock line among the hands")
    seats = sorted(p.hands)
    if seats != list(range(len(seats))):
        _fail(p.hands_line or 1, f"expected a hand for each of the seats 0..n-1, got seats {seats}")
    hands = [p.hands[s][0] for s in seats]
    paths = [f"line {p.hands[s][1]}" for s in seats]
    deal = _codec.make_deal(dealer, hands, p.stock[0], f"line {p.hands_line}", paths, f"line {p.stock[1]}")
    tags = {k: v for k, (v, _) in p.tags.items() if k.lower() not in _RESERVED}
    tag_lines = {k: n for k, (_, n) in p.tags.items()}
    try:
        record = cls(ruleset=name, ruleset_version=version, options=options, deal=deal,
                     actions=p.actions, tags=tags)  # fmt: skip
    except RecordError as error:
        raise _locate(error, p, rules_line, options_line, tag_lines) from None
    if p.result_line:
        record = _with_result(record, p)
    _check_annotations(record, p)
    return record


_RESERVED = ("ruleset", "version", "options", "dealer")


def _dealer(p: _Parsed, reserved: dict[str, tuple[str, str, int]]) -> int:
    mark = p.dealer_mark
    if "dealer" not in reserved:
        if mark is None:
            _fail(p.hands_line or 1, 'no [Dealer "N"] tag and no seat marked (dealer)')
        return mark[0]
    _, text, line = reserved["dealer"]
    if not _SMALL.fullmatch(text):
        _fail(line, f"expected a seat number, got {_codec.quote(text)}")
    dealer = int(text)
    if mark is not None and mark[0] != dealer:
        _fail(mark[1], f"seat {mark[0]} is marked (dealer) but the Dealer tag says seat {dealer}")
    return dealer


def _locate(
    error: RecordError, p: _Parsed, rules_line: int, options_line: int, tag_lines: dict[str, int]
) -> RecordError:
    where = error.where
    line = rules_line
    if where.startswith("actions["):
        line = p.action_lines[int(where[8 : where.index("]")])]
    elif where.startswith("rules.options"):
        line = options_line
    elif where.startswith("deal"):
        line = p.hands_line
    elif where.startswith("tags."):
        line = tag_lines.get(where[5:], rules_line)
    return RecordError(where=f"line {line}", reason=error.reason)


def _with_result(record: Record, p: _Parsed) -> Record:
    final = record.replay()
    if final.result is None:
        _fail(p.result_line, f"a result section, but the deal is not over (phase {final.phase.name.lower()})")
    expected = [" ".join(line.split()) for line in result_lines(final.result)]
    for k, want in enumerate(expected):
        if k >= len(p.result):
            _fail(p.result_line, f"the result misses the line {_codec.quote(want)}")
        number, got = p.result[k]
        if got != want:
            _fail(number, f"the text says {_codec.quote(got)}, the replay gives {_codec.quote(want)}")
    if len(p.result) > len(expected):
        _fail(p.result[len(expected)][0], "more result lines than the replay gives")
    return attrs.evolve(record, result=final.result)


def _check_annotations(record: Record, p: _Parsed) -> None:
    states = list(record.states())
    final = states[-1]
    for index, seat, line in p.seats:
        actor = final.history[index][0]
        if seat != actor:
            _fail(line, f"the line says seat {seat}, but seat {actor} makes this move")
    forced = [(seat, str(action)) for _, seat, action in final.forced_moves]
    for k, (line, seat, text) in enumerate(p.forced):
        if k >= len(forced) or forced[k] != (seat, text):
            want = "no more forced moves" if k >= len(forced) else f"seat {forced[k][0]}: {forced[k][1]}"
            _fail(line, f"the replay's forced move here is {want}")
    if len(p.forced) < len(forced):
        seat, text = forced[len(p.forced)]
        _fail(p.hands_line or 1, f"the forced move 'seat {seat}: {text}' is not written")
    tricks = play_groups(states, record.actions)
    for k, (line, number, leader, winner, start, count) in enumerate(p.tricks):
        if k >= len(tricks) or tricks[k].start != start:
            _fail(line, "these actions are not a trick of the play")
        trick = tricks[k]
        if count != len(trick.actions):
            _fail(line, f"trick {trick.number} holds {len(trick.actions)} actions, not {count}")
        checks: tuple[tuple[object, object, str], ...] = (
            (number, trick.number, "number"),
            (leader, trick.leader, "leader"),
            (winner, trick.winner, "winner"),
        )
        for written, replayed, what in checks:
            if written != replayed:
                _fail(line, f"the trick's {what} is {replayed}, not {written}")
    if len(p.tricks) != len(tricks):
        _fail(p.action_lines[tricks[len(p.tricks)].start], "a trick of the play is not a trick line")
