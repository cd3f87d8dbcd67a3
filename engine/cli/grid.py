"""A table drawn as rich draws one (`rich.table.Table`'s heavy-headed box), without loading rich.

Off a terminal rich fits a table to 80 columns: it wraps cells and cuts headers short with an
ellipsis, so a state piped to a file loses text ("comba…"). Drawn here, a table keeps its
natural width: where that fits rich's width the bytes are rich's (`tests/cli/test_grid.py`
checks), wider it is wider instead of cut. A cell whose width on screen only rich can measure
(wide or zero-width characters, a line break, a tab) is left to rich (`lines` gives None).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

#: Ranges of characters rich draws one column wide (tests/cli/test_grid.py checks every one):
#: Latin, Greek, Cyrillic, punctuation, arrows, mathematical operators, box drawing and shapes.
_NARROW_RANGES = ((0xA0, 0x52F), (0x2010, 0x205E), (0x2190, 0x22FF), (0x2500, 0x25FC))


@cache
def _narrow(char: str) -> bool:
    """Whether `char` takes one column on screen as rich measures it (`rich.cells.cell_len`):
    printable ASCII, or a character that is no mark, control or separator in `_NARROW_RANGES`
    (anything else is measured by rich)."""
    import unicodedata  # here: most tables are ASCII

    if " " <= char <= "~":
        return True
    point = ord(char)
    return any(low <= point <= high for low, high in _NARROW_RANGES) and unicodedata.category(char)[0] not in "MCZ"


def _width(text: str) -> int | None:
    """Columns `text` takes on screen, or None when any of its characters is not one column wide."""
    if text.isascii():
        return len(text) if text.isprintable() else None
    return len(text) if all(_narrow(c) for c in text) else None


def lines(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str] | None:
    """The table's lines (plain text, no markup): its title line if any, the box around the
    header and the rows, each column as wide as its widest cell; None if rich must draw it."""
    if any(len(row) != len(columns) for row in rows):
        return None
    widths = [0] * len(columns)
    for row in (columns, *rows):
        for i, cell in enumerate(row):
            width = _width(cell)
            if width is None:
                return None
            widths[i] = max(widths[i], width)
    if title and _width(title) is None:
        return None

    def rule(left: str, line: str, cross: str, right: str) -> str:
        return left + cross.join(line * (w + 2) for w in widths) + right

    def row_line(row: Sequence[str], bar: str) -> str:
        return bar + bar.join(f" {cell.ljust(w)} " for cell, w in zip(row, widths, strict=True)) + bar

    drawn = [title] if title else []
    drawn.append(rule("┏", "━", "┳", "┓"))
    drawn.append(row_line(columns, "┃"))
    drawn.append(rule("┡", "━", "╇", "┩"))
    drawn.extend(row_line(row, "│") for row in rows)
    drawn.append(rule("└", "─", "┴", "┘"))
    return drawn
