"""Records and JSON: save and load deals, states, views, results and matches.

A :class:`Record` is a deal written down, like a chess PGN: the ruleset (its
name, version and options), the deal, the actions in order, and optionally
the result and free tags. It is valid exactly when its play is legal: the
constructor replays the actions through the engine. Its two forms are JSON
(:func:`to_json`) and a text a card player would write down
(:meth:`Record.to_text`).

:func:`to_data` / :func:`from_data` and :func:`to_json` / :func:`from_json`
write and read a :class:`~calabrasella.State` (as its record), a
:class:`~calabrasella.View`, a :class:`~calabrasella.Result`, a
:class:`Record` or a :class:`~calabrasella.Match`. Loading takes the kind
you expect, never the kind the input claims, and treats the input as
untrusted: anything malformed or forged raises
:class:`~calabrasella.RecordError` saying where and why, in bounded time and
memory (see the limits below).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypeVar, Union, cast

import attrs

from . import _codec, _pictures, _record_text, _view_codec
from ._action_json import action_data
from ._action_kinds import ACTION_CLASSES
from ._codec import FORMAT, FrozenMap, OptionValue, fail, join, prefixed, quote
from .actions import Action, CustomAction
from .deal import Deal, start
from .engine import apply
from .errors import IllegalActionError, RecordError, RulesetError
from .match import Match
from .rulesets.base import Ruleset
from .scoring import Result
from .state import State
from .views import View

__all__ = [
    "FORMAT",
    "MAX_ACTIONS",
    "MAX_BYTES",
    "MAX_DEALS",
    "MAX_MATCH_BYTES",
    "Record",
    "from_data",
    "from_json",
    "to_data",
    "to_json",
]

#: The longest JSON or text input read for a record, a state, a view or a
#: result, checked before parsing (a ``str`` is measured in characters).
MAX_BYTES = 1_000_000
#: The longest JSON input read for a match.
MAX_MATCH_BYTES = 20_000_000
#: The most actions a loaded deal may hold, checked before replaying (a deal
#: takes about 50; only table mode's repeated irregularities make more).
MAX_ACTIONS = 1_000
#: The most finished deals a loaded match may hold.
MAX_DEALS = 10_000
#: The most tags a record may carry, and the longest tag name.
MAX_TAGS = 64
MAX_TAG_NAME = 40
#: Tag names the text form uses for the record's own fields.
RESERVED_TAGS = ("ruleset", "version", "options", "dealer")

_RESULT_FIELDS = tuple(f.name for f in attrs.fields(Result))


def _freeze_options(
    value: Union[Mapping[str, OptionValue], Iterable[tuple[str, OptionValue]]],
) -> Mapping[str, OptionValue]:
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
        pairs = list(value)
        if not all(isinstance(p, tuple) and len(p) == 2 for p in pairs):
            fail("rules.options", "expected (name, value) pairs")
        if len({name for name, _ in pairs}) != len(pairs):
            fail("rules.options", "an option is given twice")
    else:
        fail("rules.options", f"expected a mapping of options, got {quote(value)}")
    return FrozenMap(sorted(pairs, key=lambda kv: str(kv[0])))


def _freeze_tags(value: Mapping[str, str]) -> Mapping[str, str]:
    if not isinstance(value, Mapping):
        fail("tags", f"expected a mapping of tags, got {quote(value)}")
    if len(value) > MAX_TAGS:
        fail("tags", f"{len(value)} tags, more than {MAX_TAGS}")
    seen: set[str] = set()
    for key, tag in value.items():
        _check_tag(key, tag)
        if key.lower() in seen:
            fail(join("tags", key), "a tag name is given twice (names ignore case)")
        seen.add(key.lower())
    return FrozenMap(value.items())


def _check_tag(key: object, value: object) -> None:
    where = join("tags", str(key)[:MAX_TAG_NAME])
    if (
        type(key) is not str
        or not 0 < len(key) <= MAX_TAG_NAME
        or not key.isascii()
        or not key[0].isalpha()
        or not key.replace("_", "").replace("-", "").isalnum()
    ):
        fail(where, f"a tag name is a word of letters, digits, _ and -, not {quote(key)}")
    if key.lower() in RESERVED_TAGS:
        fail(where, f"{quote(key)} is reserved for the record's own fields")
    tag = _codec.text(value, where)
    if any(c < " " or c in "\x7f\x85\u2028\u2029" for c in tag):
        fail(where, "a tag value is one line of text, without control characters")
    try:
        tag.encode("utf-8")
    except UnicodeEncodeError:
        fail(where, "a tag value must be valid Unicode text")


def _freeze_actions(value: Iterable[Action]) -> tuple[Action, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        fail("actions", f"expected a sequence of actions, got {quote(value)}")
    return tuple(value)


@attrs.frozen(kw_only=True)
class Record:
    """A deal written down, like a chess PGN: the rules, the deal and the actions in order.

    A record is valid exactly when its play is legal: the constructor replays
    the actions through the engine, so a ``Record`` always replays. Forced
    moves (cards the engine moves by itself) are not actions and are not
    written; a chance outcome (dividete's :class:`~calabrasella.Draw`) is.
    Build one from a state with :meth:`from_state`; save it with
    :func:`to_json` or :meth:`to_text`.

    Attributes:
        ruleset: The ruleset's registry name (:func:`~calabrasella.find_ruleset`).
        ruleset_version: The version of the rules the deal was played under;
            a newer version than this library's is refused, an older one is
            replayed under the current rules.
        options: The ruleset's options as written (all of them when made by
            :meth:`from_state`), sorted by name; an immutable mapping.
        deal: The deal: the dealer, every hand and the stock.
        actions: The actions in order, chance outcomes included.
        result: The result, or ``None`` (an unfinished deal, or one saved
            without it); when given it must be the replay's.
        tags: Free text tags (``event``, ``site``, ``date``, ``round``,
            ``players``...) in their order: an immutable mapping of names
            (letters, digits, ``_``, ``-``) to one-line values.

    Raises:
        RecordError: Anything that does not fit, saying where (``actions[12]``)
            and why: an unknown ruleset or option, a newer version, a deal
            for another table, an illegal action (with the engine's reason),
            a result the replay does not give, a bad tag.

    Example:
        >>> import calabrasella as cb
        >>> s = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
        >>> s = cb.apply(cb.apply(s, cb.Pass()), cb.Bid("stand"))
        >>> record = cb.Record.from_state(s, tags={"event": "club night"})
        >>> [str(a) for a in record.actions], record.replay() == s
        (['pass', 'bid stand'], True)
    """

    ruleset: str
    ruleset_version: int
    options: Mapping[str, OptionValue] = attrs.field(factory=dict, converter=_freeze_options)
    deal: Deal
    actions: tuple[Action, ...] = attrs.field(default=(), converter=_freeze_actions)
    result: Union[Result, None] = None
    tags: Mapping[str, str] = attrs.field(factory=dict, converter=_freeze_tags)
    _rules: Ruleset = attrs.field(init=False, eq=False, repr=False, hash=False)
    _final: State = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        rules = _codec.build_rules(self.ruleset, self.ruleset_version, self.options, "rules")
        if type(self.ruleset) is not str:  # pragma: no cover - build_rules checked it
            fail("rules.name", quote(self.ruleset))
        deal = self.deal
        if not isinstance(deal, Deal):
            fail("deal", f"expected a Deal, got {quote(deal)}")
        if len(deal.hands) != rules.players:
            fail("deal.hands", f"{len(deal.hands)} hands for {rules.name}'s table of {rules.players}")
        state = start(rules, deal)
        older = self.ruleset_version < type(rules).version
        for i, action in enumerate(self.actions):
            if type(action) not in ACTION_CLASSES and not isinstance(action, CustomAction):
                fail(f"actions[{i}]", f"not an action: {quote(action)}")
            try:
                state = apply(state, action)
            except IllegalActionError as error:
                why = f"{str(action)!r} is illegal: {error.reason}"
                if older:
                    why += (
                        f" (the record is of {rules.name} version {self.ruleset_version}; "
                        f"this library plays version {type(rules).version} and cannot read it)"
                    )
                fail(f"actions[{i}]", why)
        _check_result(self.result, state)
        object.__setattr__(self, "_rules", rules)
        object.__setattr__(self, "_final", state)

    @property
    def rules(self) -> Ruleset:
        """The ruleset: ``find_ruleset(ruleset, **options)``."""
        return self._rules

    @property
    def dealer(self) -> int:
        """The dealer's seat (``deal.dealer``)."""
        return self.deal.dealer

    @property
    def is_over(self) -> bool:
        """Whether the deal is played to its end."""
        return self._final.is_over

    @classmethod
    def from_state(cls, state: State, *, tags: Mapping[str, str] | None = None) -> Record:
        """Return the record of the deal that led to ``state`` (finished or not).

        The record holds the ruleset's name, version and every option, the
        deal, every action of ``state.history`` and the result if the deal
        is over.

        Raises:
            RecordError: ``state`` is not a state, its ruleset is not
                registered under its name (register it with
                :func:`~calabrasella.register_ruleset`) or has an option a
                record cannot hold, or a tag is bad.

        Example:
            >>> import calabrasella as cb
            >>> s = cb.new_deal(cb.CALABRESELLA, seed=3)
            >>> cb.Record.from_state(s).options["auction"]
            'single_round'
        """
        if not isinstance(state, State):
            fail("", f"expected a State, got {quote(state)}")
        rules = state.rules
        name = rules.name.strip().lower() if isinstance(rules.name, str) else rules.name
        registered = _codec.ruleset_class(name, "rules.name")
        if registered is not type(rules):
            fail("rules.name", f"{type(rules).__qualname__} is not the ruleset registered as {name!r}")
        record = cls(
            ruleset=name,
            ruleset_version=rules.version,
            options=_codec.options_of(rules),
            deal=state.deal,
            actions=tuple(action for _, action in state.history),
            result=state.result,
            tags={} if tags is None else tags,
        )
        if record._final != state:
            fail("", "the state does not follow from its deal and its history")
        return record

    def replay(self) -> State:
        """Return the state after every action (the record's final state).

        Example:
            >>> import calabrasella as cb
            >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
            >>> cb.Record.from_state(s).replay() == s
            True
        """
        return self._final

    def states(self) -> Iterator[State]:
        """Yield the first state, then the state after each action.

        Example:
            >>> import calabrasella as cb
            >>> s = cb.apply(cb.new_deal(cb.CAVENDISH, seed=7), cb.Pass())
            >>> [state.to_move for state in cb.Record.from_state(s).states()]
            [1, 2]
        """
        state = start(self._rules, self.deal)
        yield state
        for action in self.actions:
            state = apply(state, action)
            yield state

    def to_text(self) -> str:
        """Return the record as a card player would write it down; :meth:`from_text` reads it.

        Tag lines (``[Ruleset "cavendish"]``), the hands as diagrams, the
        auction and the exchange one action a line (``seat 1: bid stand``,
        the engine's forced moves marked ``(forced)``), each trick numbered
        with its leader and winner, and the result.

        Raises:
            RecordError: An option's value cannot be written as text.

        Example:
            >>> import calabrasella as cb
            >>> s = cb.apply(cb.new_deal(cb.CAVENDISH, seed=7), cb.Pass())
            >>> print(cb.Record.from_state(s).to_text())
            [Ruleset "cavendish"]
            [Version "2"]
            [Options "dealer_shares=true first_lead=eldest irregularities=forbid packet=4 players=3"]
            [Dealer "0"]
            <BLANKLINE>
            Hands
              seat 0 (dealer)  d: 3 Q 7 6 5  h: 2 6  s: K 7  c: A Q 4
              seat 1           d: 2 A J  h: A K Q 5 4  s: 5  c: J 6 5
              seat 2           d: -  h: 3 J 7  s: 2 A Q 6 4  c: 3 2 K 7
              stock            d: K 4  h: -  s: 3 J  c: -
            <BLANKLINE>
            Auction
              seat 1: pass
            <BLANKLINE>
        """
        return _record_text.render(self)

    @classmethod
    def from_text(
        cls, text: str, *, max_bytes: int = MAX_BYTES, max_actions: int = MAX_ACTIONS
    ) -> Record:
        """Read a record from the text :meth:`to_text` writes (or a person wrote).

        The tags, the hands, the actions and the presence of a result
        section make the record. The rest is derived and checked against
        the replay: each action line's seat, the dealer's mark, the forced
        moves, each trick's number, leader and winner, and the result's
        lines. Section headings and layout are free; ``#`` starts a comment
        line.

        Raises:
            RecordError: The text is too long, malformed, or disagrees with
                its replay; the message names the line.

        Example:
            >>> import calabrasella as cb
            >>> r = cb.Record.from_state(cb.new_deal(cb.CAVENDISH, seed=7))
            >>> cb.Record.from_text(r.to_text()) == r
            True
        """
        return _record_text.parse(cls, text, max_bytes=max_bytes, max_actions=max_actions)

    __repr__ = _pictures.record_repr  # (short: the whole record is to_text() or to_json())
    _repr_svg_, _repr_pretty_ = _pictures.svg_of, _pictures.pretty


def _check_result(result: object, state: State) -> None:
    if result is None:
        return
    if not isinstance(result, Result):
        fail("result", f"expected a Result or None, got {quote(result)}")
    final = state.result
    if final is None:
        fail("result", f"the deal is not over (phase {state.phase.name.lower()}) but a result is given")
    if result != final:
        for name in _RESULT_FIELDS:
            mine, theirs = getattr(result, name), getattr(final, name)
            if mine != theirs:
                fail(
                    f"result.{name}",
                    f"the record says {_short(mine)}, the replay gives {_short(theirs)}",
                )


def _short(value: object) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(quote(v) for v in value[:6]) + (", ...)" if len(value) > 6 else ")")
    return quote(getattr(value, "value", value))


# --- plain data ----------------------------------------------------------------------

Value = Union[State, View, Result, Record, Match]
Kind = TypeVar("Kind", State, View, Result, Record, Match)
_NAMES: dict[type, str] = {State: "state", View: "view", Result: "result", Record: "record", Match: "match"}


def _record_body(record: Record, *, tags: bool) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if tags:
        body["tags"] = dict(record.tags)
    body["rules"] = {
        "name": record.ruleset,
        "version": record.ruleset_version,
        "options": dict(record.options),
    }
    body["deal"] = _codec.deal_data(record.deal)
    body["actions"] = [action_data(a, f"actions[{i}]") for i, a in enumerate(record.actions)]
    body["result"] = None if record.result is None else _codec.result_data(record.result)
    return body


def _read_record(
    value: object, where: str, max_actions: int, *, tags: bool, rules_of: Ruleset | None = None
) -> Record:
    keys = ("rules", "deal", "actions")
    data = _codec.obj(value, where, keys, ("result", "tags") if tags else ("result",))
    rules = _codec.obj(data["rules"], join(where, "rules"), ("name", "version", "options"))
    built = _codec.build_rules(rules["name"], rules["version"], rules["options"], join(where, "rules"))
    if rules_of is not None and built != rules_of:
        fail(join(where, "rules"), f"{built!r} is not the match's rules {rules_of!r}")
    deal = _codec.read_deal(data["deal"], join(where, "deal"))
    at = join(where, "actions")
    listed = _codec.items(data["actions"], at, max_actions)
    actions = [_codec.action(a, f"{at}[{i}]") for i, a in enumerate(listed)]
    result = data.get("result")
    if result is not None:
        result = _codec.read_result(result, join(where, "result"))
    try:
        return Record(
            ruleset=rules["name"],
            ruleset_version=rules["version"],
            options=rules["options"],
            deal=deal,
            actions=actions,
            result=result,
            tags=data.get("tags", {}),
        )
    except RecordError as error:
        raise prefixed(error, where) if where else error from None


def _match_data(match: Match) -> dict[str, Any]:
    return {
        "rules": _codec.rules_data(match.rules),
        "seating": list(match.seating),
        "deals": match.deals,
        "first_dealer": match.first_dealer,
        "cut": None if match.cut is None else _codec.cut_data(match.cut),
        "finished": [_record_body(Record.from_state(s), tags=False) for s in match.finished],
        "totals": list(match.totals),
    }


def _read_match(value: object, max_actions: int, max_deals: int) -> Match:
    keys = ("rules", "seating", "deals", "first_dealer", "cut", "finished")
    data = _codec.obj(value, "", keys, ("totals",))
    rules = _codec.read_rules(data["rules"], "rules")
    n = rules.players
    seating = _codec.ints(data["seating"], "seating", n, 0, n - 1)
    if sorted(seating) != list(range(n)):
        fail("seating", f"{list(seating)} is not a permutation of the players 0..{n - 1}")
    deals = _codec.maybe_int(data["deals"], "deals", 1, 10**9)
    first = _codec.integer(data["first_dealer"], "first_dealer", 0, n - 1)
    cut = None if data["cut"] is None else _codec.read_cut(data["cut"], "cut", n)
    listed = _codec.items(data["finished"], "finished", max_deals)
    if deals is not None and len(listed) > deals:
        fail("finished", f"{len(listed)} deals played of {deals} agreed")
    finished = []
    for i, entry in enumerate(listed):
        record = _read_record(entry, f"finished[{i}]", max_actions, tags=False, rules_of=rules)
        if record.dealer != (first + i) % n:
            fail(f"finished[{i}].deal.dealer", f"seat {(first + i) % n} deals deal {i + 1}, not seat {record.dealer}")
        if not record.is_over:
            fail(f"finished[{i}].actions", "the deal is not over")
        finished.append(record.replay())
    try:
        match = Match(rules=rules, seating=seating, deals=deals, first_dealer=first,
                      finished=tuple(finished), cut=cut)  # fmt: skip
    except (RulesetError, RecordError) as error:  # pragma: no cover - checked above
        fail("", str(error))
    if "totals" in data and _codec.ints(data["totals"], "totals", n, -(10**12), 10**12) != match.totals:
        fail("totals", f"the match's deals give {list(match.totals)}")
    return match


def to_data(value: Value) -> dict[str, Any]:
    """Return ``value`` as JSON-ready plain data: dicts, lists, str, int, bool and None.

    ``value`` is a :class:`~calabrasella.State` (written as its record:
    rules, deal, actions), a :class:`~calabrasella.View` (only what it
    holds), a :class:`~calabrasella.Result`, a :class:`Record` or a
    :class:`~calabrasella.Match`. The document names its ``"type"`` and the
    ``"format"`` version.

    Raises:
        RecordError: ``value`` is none of those, or its ruleset cannot be
            written (a state's or match's ruleset must be registered).

    Example:
        >>> import calabrasella as cb
        >>> data = cb.to_data(cb.new_deal(cb.CAVENDISH, seed=7))
        >>> data["type"], data["format"], data["rules"]["name"], data["actions"]
        ('state', 1, 'cavendish', [])
    """
    if isinstance(value, Record):
        body = _record_body(value, tags=True)
    elif isinstance(value, State):
        body = _record_body(Record.from_state(value), tags=False)
    elif isinstance(value, View):
        body = _view_codec.view_data(value)
    elif isinstance(value, Result):
        body = _codec.result_data(value)
    elif isinstance(value, Match):
        body = _match_data(value)
    else:
        fail("", f"cannot write {quote(value)}: expected a State, View, Result, Record or Match")
    return {"type": _NAMES[type(value)], "format": FORMAT, **body}


def from_data(
    data: object,
    kind: type[Kind],
    *,
    max_actions: int = MAX_ACTIONS,
    max_deals: int = MAX_DEALS,
) -> Kind:
    """Read plain data (as :func:`to_data` writes it) back into a value of ``kind``.

    ``kind`` is :class:`~calabrasella.State`, :class:`~calabrasella.View`,
    :class:`~calabrasella.Result`, :class:`Record` or
    :class:`~calabrasella.Match`; the document's ``"type"`` must name it,
    and its ``"format"`` must be one this library reads. A state, a record
    and each deal of a match are replayed through the engine, so they load
    only if their play is legal; a stored result must be the replay's.

    Raises:
        RecordError: Anything malformed or forged, saying where and why:
            a wrong type or kind, a missing or unknown key, an unknown
            ruleset or option, a newer ruleset version, a bad card or a card
            dealt twice, an illegal action, a result the replay does not
            give, more than ``max_actions`` actions in a deal or
            ``max_deals`` deals in a match.

    Example:
        >>> import calabrasella as cb
        >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> cb.from_data(cb.to_data(s), cb.State) == s
        True
    """
    name = _NAMES.get(kind) if isinstance(kind, type) else None
    if name is None:
        fail("", f"cannot read {quote(kind)}: expected State, View, Result, Record or Match")
    if type(data) is not dict:
        fail("", f"expected an object, got {quote(data)}")
    doc = dict(data)
    found = doc.pop("type", None)
    if found != name:
        fail("type", f"expected {name!r}, got {quote(found) if 'type' in data else 'nothing'}")
    version = doc.pop("format", None)
    if type(version) is not int or version != FORMAT:
        fail("format", f"this library reads format {FORMAT}, not {quote(version)}")
    value: Value
    if kind is Record:
        value = _read_record(doc, "", max_actions, tags=True)
    elif kind is State:
        value = _read_record(doc, "", max_actions, tags=False).replay()
    elif kind is View:
        value = _view_codec.read_view(doc, "", max_actions)
    elif kind is Result:
        value = _codec.read_result(doc, "")
    else:
        value = _read_match(doc, max_actions, max_deals)
    return cast(Kind, value)


def to_json(value: Value, *, indent: int | None = None) -> str:
    """Return ``value`` as JSON text: :func:`to_data`, dumped.

    Raises:
        RecordError: As :func:`to_data`.

    Example:
        >>> import calabrasella as cb
        >>> cb.to_json(cb.Result.void_deal(3))[:40]
        '{"type": "result", "format": 1, "void": '
    """
    return json.dumps(to_data(value), indent=indent, ensure_ascii=False)


def from_json(
    text: Union[str, bytes],
    kind: type[Kind],
    *,
    max_bytes: int | None = None,
    max_actions: int = MAX_ACTIONS,
    max_deals: int = MAX_DEALS,
) -> Kind:
    """Read JSON text (as :func:`to_json` writes it) back into a value of ``kind``.

    The input's length is checked before it is parsed: at most
    ``max_bytes`` (by default :data:`MAX_BYTES`, :data:`MAX_MATCH_BYTES` for
    a match). Then it is read as :func:`from_data` reads plain data.

    Raises:
        RecordError: The text is too long or not JSON (duplicate keys,
            ``NaN``, nesting too deep and huge numbers are refused), or as
            :func:`from_data`.

    Example:
        >>> import calabrasella as cb
        >>> v = cb.new_deal(cb.CAVENDISH, seed=7).view(1)
        >>> cb.from_json(cb.to_json(v), cb.View) == v
        True
        >>> cb.from_json('{"type": "view"}', cb.State)
        Traceback (most recent call last):
        ...
        calabrasella.errors.RecordError: type: expected 'state', got 'view'
    """
    limit = max_bytes if max_bytes is not None else MAX_MATCH_BYTES if kind is Match else MAX_BYTES
    data = _codec.parse_json(text, limit)
    return from_data(data, kind, max_actions=max_actions, max_deals=max_deals)
