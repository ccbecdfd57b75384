"""``calabrasella rules``: the registered rulesets, their options, defaults, values and sources.

Nothing here is declared twice: an option is a field of the ruleset class
(its default from the field), its values come from the field's type
(``Literal[...]``, ``bool``) or, for an int, from the values its validator
accepts among 0..12, and its meaning and sources from the ``Attributes:``
section of the class docstrings (the class's own first, then its bases').
"""

from __future__ import annotations

import inspect
import re
import textwrap
import typing
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

import calabrasella as cb

__all__ = [
    "SOURCES",
    "OptionInfo",
    "name_sources",
    "nearest_rulesets",
    "option_info",
    "parse_option_values",
    "rules_text",
]

#: The five public rule texts the library's rules come from: each one's short
#: name (author or title, and year where the text gives them), as the ruleset
#: docstrings cite it, and what it is, keyed by the number the project files
#: them under. The rules page names them the same way.
SOURCES = {
    "000": ("Foster 1897", "R. F. Foster, Foster's Complete Hoyle (1897), after Cavendish's Pocket Guide"),
    "001": ("Denexa Games", "the rules of Calabrasella by Denexa Games, a maker of playing cards (undated)"),
    "002": ("CatsAtCards 2015", "CatsAtCards.com, Calabrasella and then Calabresella (copyright 2015)"),
    "003": ("Calabresella (3p)", "an unsigned web page titled \"Calabresella (3p)\" (undated)"),
    "004": (
        "Rules page 2024",
        "an unsigned rules page, \"Objective of Calabresella\" (undated; the posts it lists run to January 2024)",
    ),
}

_SEEDS = re.compile(r"\bseeds? (00[0-4](?:(?:,? and |, )00[0-4])*)")
_SEED_NUMBER = re.compile(r"00[0-4]")


def name_sources(text: str) -> str:
    """Return ``text`` with each "seed 000" naming its rule text by author and year.

    The library's ruleset docstrings cite the rule texts by name; a ruleset
    of one's own that cites them by number ("seed 000") is shown with the
    names too, since a reader would take "seed" for a random seed.

    Example:
        >>> name_sources("3, or 4 with the dealer sitting out (seeds 000 and 002).")
        '3, or 4 with the dealer sitting out (Foster 1897 and CatsAtCards 2015).'
        >>> name_sources('"eldest" (default, seed 000, Foster): the eldest hand')
        '"eldest" (default, Foster 1897): the eldest hand'
    """

    def names(cited: re.Match[str]) -> str:
        return _SEED_NUMBER.sub(lambda number: SOURCES[number.group()][0], cited.group(1))

    return _SEEDS.sub(names, text).replace("Foster 1897, Foster)", "Foster 1897)")


def _cited(doc: str) -> tuple[str, ...]:
    """The keys of :data:`SOURCES` a docstring cites, by short name or by number, in the order cited."""
    found = [(m.start(), seed) for m in _SEEDS.finditer(doc) for seed in _SEED_NUMBER.findall(m.group(1))]
    for seed, (name, _) in SOURCES.items():
        found += [(m.start(), seed) for m in re.finditer(re.escape(name), doc)]
    return tuple(dict.fromkeys(seed for _, seed in sorted(found)))


_ROLE = re.compile(r":\w+:`~?(?:[\w.]*\.)?([\w]+)`")


@attrs.frozen
class OptionInfo:
    """One option of a ruleset, as ``rules`` lists it.

    Attributes:
        name: The option's keyword.
        default: Its default value.
        values: The values it accepts, when they are few; empty otherwise.
        doc: What its docstring says (meaning, and the rule texts it comes
            from, named by :func:`name_sources`), less any sentence on a
            deprecated keyword (the changelog and the API reference say that).
        seeds: The numbers of the rule texts the doc cites, in order (keys of
            :data:`SOURCES`).
    """

    name: str
    default: Any
    values: tuple[Any, ...]
    doc: str
    seeds: tuple[str, ...]


def _attribute_docs(cls: type) -> dict[str, str]:
    """Each documented attribute's text, the class's own docs over its bases'."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        text = klass.__dict__.get("__doc__")
        if isinstance(text, str):
            docs.update(_attributes_section(inspect.cleandoc(text)))
    return docs


def _attributes_section(doc: str) -> dict[str, str]:
    entries: dict[str, list[str]] = {}
    inside, current = False, None
    for line in doc.splitlines():
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if not inside:
            inside = stripped == "Attributes:" and indent == 0
            continue
        if not stripped:
            continue
        if indent == 0:
            break
        entry = re.fullmatch(r"(\w+): (.*)", stripped) if indent <= 4 else None
        if entry:
            current = entry.group(1)
            entries[current] = [entry.group(2)]
        elif current is not None:
            entries[current].append(stripped)
    return {name: _plain(" ".join(words)) for name, words in entries.items()}


def _find(name: str) -> cb.Ruleset:
    """:func:`calabrasella.find_ruleset`, its error naming the nearest rulesets."""
    try:
        return cb.find_ruleset(name)
    except cb.RulesetError as error:
        hint = nearest_rulesets(name)
        raise cb.RulesetError(f"{error}; {hint}" if hint else str(error)) from None


_SENTENCE_END = re.compile(r"(?<=\.)\s+(?=[A-Z])")


def _rules_only(text: str) -> str:
    """An option's text without its sentences on deprecated keywords (an API matter, not a rule).

    Example:
        >>> _rules_only("Whether to. The old keyword x is deprecated: 3 warns. Then y.")
        'Whether to. Then y.'
    """
    return " ".join(s for s in _SENTENCE_END.split(text) if "deprecat" not in s.lower())


def _plain(text: str) -> str:
    """Docstring markup as plain text: ``x`` is x, :class:`~a.B` is B."""
    return _ROLE.sub(r"\1", text).replace("``", "")


def _values(cls: type, field: attrs.Attribute[Any], hint: Any) -> tuple[Any, ...]:
    if typing.get_origin(hint) is typing.Literal:
        return typing.get_args(hint)
    if hint is bool or isinstance(field.default, bool):
        return (field.default, not field.default)
    if hint is int or type(field.default) is int:
        fits = []
        for value in range(13):
            try:
                options: dict[str, Any] = {field.alias or field.name: value}
                cls(**options)
            except (cb.RulesetError, TypeError, ValueError):
                continue
            fits.append(value)
        return tuple(fits)
    return ()


def option_info(rules: cb.Ruleset) -> list[OptionInfo]:
    """Return the options of ``rules``'s class: name, default, values, doc and seeds.

    Example:
        >>> [(o.name, o.default, o.values) for o in option_info(cb.CAVENDISH)][:2]
        [('players', 3, (3, 4)), ('packet', 4, (1, 2, 3, 4, 6, 12))]
        >>> option_info(cb.CALABRESELLA)[-1].seeds
        ('002', '003', '004')
    """
    cls = type(rules)
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # a class whose annotations do not resolve: read its defaults only
        hints = {}
    docs = _attribute_docs(cls)
    found = []
    for field in attrs.fields(cls):
        if not field.init:
            continue
        doc = _rules_only(docs.get(field.alias, ""))
        seeds = _cited(doc)
        values = _values(cls, field, hints.get(field.name))
        default = field.default if field.default is not attrs.NOTHING else None
        found.append(
            OptionInfo(field.alias, default, values, name_sources(doc), tuple(dict.fromkeys(seeds)))
        )
    return found


def parse_option_values(rules: cb.Ruleset, pairs: Sequence[str]) -> dict[str, Any]:
    """Return ``KEY=VALUE`` texts as options of ``rules``'s class, each value of its default's type.

    ``true``/``false`` (or yes/no, on/off, 1/0) for a flag, digits for a
    number, the text itself otherwise. An unknown key is passed on as text,
    for the ruleset to refuse by name.

    Raises:
        RulesetError: A pair without ``=``, or a value not of the option's type.

    Example:
        >>> parse_option_values(cb.CALABRESELLA, ["auction=until_two_pass", "follow_suit=no"])
        {'auction': 'until_two_pass', 'follow_suit': False}
        >>> parse_option_values(cb.CAVENDISH, ["players=four"])
        Traceback (most recent call last):
        ...
        calabrasella.errors.RulesetError: players=four: expected a whole number
    """
    defaults: Mapping[str, Any] = {
        f.alias: f.default for f in attrs.fields(type(rules)) if f.init
    }
    options: dict[str, Any] = {}
    for pair in pairs:
        key, equals, text = pair.partition("=")
        key, text = key.strip(), text.strip()
        if not equals or not key:
            raise cb.RulesetError(f"{pair!r}: expected KEY=VALUE, e.g. first_lead=after_declarer")
        default = defaults.get(key)
        if isinstance(default, bool):
            words = {"true": True, "yes": True, "on": True, "1": True}
            words.update({"false": False, "no": False, "off": False, "0": False})
            if text.lower() not in words:
                raise cb.RulesetError(f"{key}={text}: expected true or false")
            options[key] = words[text.lower()]
        elif isinstance(default, int):
            if not re.fullmatch(r"[+-]?\d{1,9}", text):
                raise cb.RulesetError(f"{key}={text}: expected a whole number")
            options[key] = int(text)
        else:
            options[key] = text
    return options


def nearest_rulesets(name: str) -> str:
    """Return a hint naming the registered rulesets nearest to ``name``, or ``""`` if none is near.

    A ruleset is near when its name is spelt almost alike, or when ``name``
    is a word of its title (the game "Calabrasella" is the ruleset
    ``cavendish``, "Calabrasella (Cavendish)").

    Example:
        >>> nearest_rulesets("calabrasella")
        "did you mean 'cavendish' (Calabrasella (Cavendish)) or 'calabresella' (Calabresella (Terziglio))?"
        >>> nearest_rulesets("terziglio")
        "did you mean 'calabresella' (Calabresella (Terziglio))?"
        >>> nearest_rulesets("skat")
        ''
    """
    import difflib

    word = name.strip().lower()
    names = cb.ruleset_names()
    titles = {n: cb.find_ruleset(n).terms.title for n in names}
    by_title = [n for n in names if word and word in re.findall(r"\w+", titles[n].lower())]
    alike = difflib.get_close_matches(word, names, n=3, cutoff=0.6)
    near = list(dict.fromkeys([*by_title, *alike]))
    if not near:
        return ""
    return "did you mean " + " or ".join(f"{n!r} ({titles[n]})" for n in near) + "?"


def rules_text(names: Sequence[str] = (), *, width: int = 79) -> str:
    """Return the registered rulesets (or those named), each option with its default and values.

    Raises:
        RulesetError: A name is not a registered ruleset.

    Example:
        >>> print(rules_text(["cavendish"]).splitlines()[3])
        cavendish: Calabrasella (Cavendish), rules version 2
    """
    chosen = [_find(name) for name in names] or [
        cb.find_ruleset(name) for name in cb.ruleset_names()
    ]
    lines = [
        "The rulesets and their options (defaults first). Choose with",
        "  calabrasella play --rules NAME --option KEY=VALUE ...",
    ]
    cited: dict[str, None] = {}
    wrap = textwrap.TextWrapper(width=width, initial_indent=" " * 6, subsequent_indent=" " * 6)
    for rules in chosen:
        summary = _plain((inspect.getdoc(type(rules)) or "").split("\n")[0])
        lines += ["", f"{rules.name}: {rules.terms.title}, rules version {rules.version}"]
        if summary:
            lines.append(f"  {summary}")
        for option in option_info(rules):
            others = [v for v in option.values if v != option.default]
            allowed = f"  (or {', '.join(map(str, others))})" if others else ""
            lines.append(f"  {option.name}={option.default}{allowed}")
            if option.doc:
                lines += wrap.wrap(option.doc)
            cited.update(dict.fromkeys(option.seeds))
    if cited:
        lines += ["", "Sources (the rule texts cited above):"]
        lines += [f"  {SOURCES[seed][0]}: {SOURCES[seed][1]}" for seed in sorted(cited)]
    return "\n".join(lines) + "\n"
