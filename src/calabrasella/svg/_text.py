"""Text measured without a font file: a width per character, the widest of the common sans fonts.

A picture names the generic ``sans-serif`` family, so the reader's browser
picks the font: DejaVu Sans on many Linux systems, Liberation Sans, Arial or
Helvetica elsewhere. The table below holds, for each character, the wider of
DejaVu Sans and Liberation Sans (the same widths as Arial and Helvetica), in
thousandths of the font size, regular and bold, and :func:`text_width` adds
5 percent to that. Laid out by these widths, two labels that do not touch
here do not touch in any of those fonts. A character not in the table counts
as the widest one.
"""

from __future__ import annotations

__all__ = ["fit", "text_width"]

_CHARS = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~·…♦♥♠♣×–—àèéìòù°±€"
_NORMAL = (
    318,
    401,
    460,
    838,
    636,
    950,
    780,
    275,
    390,
    390,
    500,
    838,
    318,
    361,
    318,
    337,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    337,
    337,
    838,
    838,
    838,
    556,
    1015,
    684,
    686,
    722,
    770,
    667,
    611,
    778,
    752,
    295,
    500,
    667,
    557,
    863,
    748,
    787,
    667,
    787,
    722,
    667,
    611,
    732,
    684,
    989,
    685,
    667,
    685,
    390,
    337,
    390,
    838,
    556,
    500,
    613,
    635,
    550,
    635,
    615,
    352,
    635,
    634,
    278,
    278,
    579,
    278,
    974,
    634,
    612,
    635,
    635,
    411,
    521,
    392,
    634,
    592,
    818,
    592,
    592,
    525,
    636,
    337,
    636,
    838,
    318,
    1000,
    896,
    896,
    896,
    896,
    838,
    556,
    1000,
    613,
    615,
    615,
    278,
    612,
    634,
    500,
    838,
    636,
)
_BOLD = (
    348,
    456,
    521,
    838,
    696,
    1002,
    872,
    306,
    457,
    457,
    523,
    838,
    380,
    415,
    380,
    365,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    400,
    400,
    838,
    838,
    838,
    611,
    1000,
    774,
    762,
    734,
    830,
    683,
    683,
    821,
    837,
    372,
    556,
    775,
    637,
    995,
    837,
    850,
    733,
    850,
    770,
    720,
    682,
    812,
    774,
    1103,
    771,
    724,
    725,
    457,
    365,
    457,
    838,
    556,
    500,
    675,
    716,
    593,
    716,
    678,
    435,
    716,
    712,
    343,
    343,
    665,
    343,
    1042,
    712,
    687,
    716,
    716,
    493,
    595,
    478,
    712,
    652,
    924,
    645,
    652,
    582,
    712,
    365,
    712,
    838,
    380,
    1000,
    896,
    896,
    896,
    896,
    838,
    556,
    1000,
    675,
    678,
    678,
    343,
    687,
    712,
    500,
    838,
    696,
)

_WIDTHS = {
    weight: dict(zip(_CHARS, table)) for weight, table in (("normal", _NORMAL), ("bold", _BOLD))
}
_WIDEST = {weight: max(table.values()) for weight, table in _WIDTHS.items()}
#: the margin over the widest measured font (Verdana-like fonts run a little wider)
MARGIN = 1.05


def text_width(text: str, size: float, weight: str | None = None) -> float:
    """The width ``text`` may take at font size ``size`` in any common sans font.

    Example:
        >>> round(text_width("seat 0", 10), 1)
        32.5
        >>> text_width("seat 0", 10, "bold") > text_width("seat 0", 10)
        True
    """
    table = _WIDTHS["bold" if weight == "bold" else "normal"]
    widest = _WIDEST["bold" if weight == "bold" else "normal"]
    return sum(table.get(ch, widest) for ch in text) * size / 1000 * MARGIN


def fit(text: str, size: float, width: float, weight: str | None = None) -> str:
    """``text``, cut at a word and ended with "…" if it would be wider than ``width``.

    Example:
        >>> fit("declarer discards four cards", 10, 80)
        'declarer…'
    """
    if text_width(text, size, weight) <= width:
        return text
    words = text.split(" ")
    while len(words) > 1:
        words.pop()
        cut = " ".join(words) + "…"
        if text_width(cut, size, weight) <= width:
            return cut
    out = text
    while out and text_width(out + "…", size, weight) > width:
        out = out[:-1]
    return out + "…"
