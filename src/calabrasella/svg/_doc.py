"""The SVG writer under the pictures: elements as text, numbers written one way, a style.

Standard library only. Every number is written by :func:`num` (at most two
decimals, no ``-0``), every text and attribute is escaped, attributes keep
the order they are given in, so the same picture is the same bytes on every
run and every machine.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Union
from xml.sax.saxutils import escape, quoteattr

__all__ = ["DARK", "LIGHT", "Canvas", "Style", "check_scale", "num", "style_of"]

Number = Union[int, float]

#: The colours of the light style: cards stay white on a green table in both
#: styles; what is drawn outside the table (labels, charts) uses ``ink``.
LIGHT: Mapping[str, str] = {
    "card": "#fffdf7",
    "card_edge": "#5b5b5b",
    "ink": "#1d1d1f",
    "muted": "#666670",
    "paper": "none",
    "felt": "#2f6f4f",
    "felt_edge": "#1f4d36",
    "on_felt": "#f4f1e6",
    "back": "#7a2531",
    "back_line": "#e9c46a",
    "highlight": "#f2b705",
    "winner": "#f2b705",
    "coins": "#c8961a",
    "cups": "#c0392b",
    "swords": "#2c5f9e",
    "batons": "#3f7d3a",
    "red": "#c62828",
    "black": "#1d1d1f",
    "bar": "#3f6fb5",
    "bar_alt": "#d08a2e",
    "grid": "#b9b9c2",
}

#: The dark style: the same cards and table, light labels on a dark page.
DARK: Mapping[str, str] = {
    **LIGHT,
    "ink": "#ececf1",
    "muted": "#a9a9b5",
    "felt": "#24583f",
    "felt_edge": "#163726",
    "bar": "#78a6f0",
    "bar_alt": "#f0b463",
    "grid": "#55555f",
}


class Style:
    """The colours of a picture: a light or dark base with any colours replaced.

    ``theme`` is ``"light"`` (dark text, for a white page) or ``"dark"``;
    ``colors`` maps names of :data:`LIGHT` to colours (any SVG colour).
    """

    __slots__ = ("colors", "theme")

    def __init__(self, theme: str = "light", colors: Mapping[str, str] | None = None) -> None:
        if theme not in ("light", "dark"):
            raise ValueError(f"theme={theme!r}: expected 'light' or 'dark'")
        base = dict(LIGHT if theme == "light" else DARK)
        for name, value in (colors or {}).items():
            if name not in base:
                raise ValueError(
                    f"unknown colour name {name!r}: expected one of {', '.join(sorted(base))}"
                )
            base[name] = value
        self.theme = theme
        self.colors = base

    def __getitem__(self, name: str) -> str:
        return self.colors[name]


def style_of(theme: str, colors: Mapping[str, str] | None) -> Style:
    """Return the :class:`Style` for a picture function's ``theme`` and ``colors``."""
    return Style(theme, colors)


def check_scale(scale: object) -> float:
    """Return ``scale`` if it is a finite number above 0, else raise ValueError (as the other options do)."""
    if (
        isinstance(scale, bool)
        or not isinstance(scale, (int, float))
        or not math.isfinite(scale)
        or scale <= 0
    ):
        raise ValueError(f"scale={scale!r}: expected a number above 0")
    return float(scale)


def num(x: Number) -> str:
    """Write a coordinate: an int as it is, a float rounded to two decimals without trailing zeros."""
    if isinstance(x, int):
        return str(x)
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attrs(attributes: Mapping[str, object]) -> str:
    out = []
    for name, value in attributes.items():
        if value is None:
            continue
        key = name.rstrip("_").replace("_", "-")
        text = (
            num(value)
            if isinstance(value, (int, float)) and not isinstance(value, bool)
            else str(value)
        )
        out.append(f" {key}={quoteattr(text)}")
    return "".join(out)


class Canvas:
    """A picture being drawn: elements appended in order, written by :meth:`svg`."""

    __slots__ = ("height", "parts", "style", "title", "width")

    def __init__(self, width: Number, height: Number, style: Style, title: str) -> None:
        self.width = width
        self.height = height
        self.style = style
        self.title = title
        self.parts: list[str] = []

    def add(self, tag: str, text: str | None = None, **attributes: object) -> None:
        """Append one element (``class_`` writes ``class``, ``font_size`` writes ``font-size``)."""
        if text is None:
            self.parts.append(f"<{tag}{_attrs(attributes)}/>")
        else:
            self.parts.append(f"<{tag}{_attrs(attributes)}>{escape(text)}</{tag}>")

    def open(self, tag: str, **attributes: object) -> None:
        self.parts.append(f"<{tag}{_attrs(attributes)}>")

    def close(self, tag: str) -> None:
        self.parts.append(f"</{tag}>")

    def text(
        self,
        x: Number,
        y: Number,
        text: str,
        *,
        size: Number = 12,
        color: str = "ink",
        anchor: str = "start",
        weight: str | None = None,
        **more: object,
    ) -> None:
        """Write a line of text in the generic sans-serif font (no font file)."""
        self.add(
            "text",
            text,
            x=x,
            y=y,
            font_size=size,
            fill=self.style[color] if color in self.style.colors else color,
            text_anchor=anchor,
            font_weight=weight,
            **more,
        )

    def svg(self, scale: float = 1.0) -> str:
        """Return the picture: one ``<svg>`` element (SVG 1.1, a viewBox, no external resource).

        Raises:
            ValueError: ``scale`` is not a number above 0.
        """
        check_scale(scale)
        w, h = self.width, self.height
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
            f'viewBox="0 0 {num(w)} {num(h)}" width="{num(w * scale)}" height="{num(h * scale)}" '
            f'font-family="sans-serif" role="img">'
        )
        return head + f"<title>{escape(self.title)}</title>" + "".join(self.parts) + "</svg>"
