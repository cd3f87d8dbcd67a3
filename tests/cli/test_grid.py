"""engine.cli.grid draws a table off a terminal without rich: where the table fits rich's width
the bytes must be rich's, and where it does not, nothing is cut short."""

from __future__ import annotations

import io
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from engine.cli import grid
from engine.cli.output import Output, escape, plain, safe

#: Mostly what a state shows (names, numbers, "Dazed −10", "▶"), sometimes any character at all.
NARROW = st.sampled_from([*" abcXYZ019/.-[]\\", "é", "ß", "Ω", "ж", "−", "—", "…", "→", "▶", "█"])
CELL = st.one_of(
    st.text(alphabet=NARROW, max_size=12),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12),
)
COLUMNS = st.integers(min_value=1, max_value=6)


def rich_draws(title: str, columns: list[str], rows: list[list[str]], *, width: int) -> str:
    out = io.StringIO()
    console = Console(file=out, highlight=False, soft_wrap=True, emoji=False, width=width)
    table = Table(title=title or None)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    return out.getvalue()


def output_draws(title: str, columns: list[str], rows: list[list[str]], monkeypatch: pytest.MonkeyPatch) -> str:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    Output().table(title, columns, rows)
    return out.getvalue()


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, list[str], list[list[str]]]:
    n = draw(COLUMNS)
    columns = draw(st.lists(CELL, min_size=n, max_size=n))
    rows = draw(st.lists(st.lists(CELL, min_size=n, max_size=n), max_size=4))
    return draw(CELL), columns, rows


@given(tables())
def test_a_table_off_a_terminal_is_what_rich_draws_when_it_fits(table: tuple[str, list[str], list[list[str]]]) -> None:
    title, columns, rows = (safe(table[0]), [safe(c) for c in table[1]], [[safe(c) for c in r] for r in table[2]])
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.delenv("FORCE_COLOR", raising=False)
        monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
        monkeypatch.delenv("COLUMNS", raising=False)
        drawn_here = grid.lines(plain(title), [plain(c) for c in columns], [[plain(c) for c in r] for r in rows])
        width = 500 if drawn_here is not None else 80  # rich's own width off a terminal
        assert output_draws(title, columns, rows, monkeypatch) == rich_draws(title, columns, rows, width=width)


def test_every_character_drawn_here_is_one_column_wide_for_rich() -> None:
    for point in range(sys.maxunicode + 1):
        char = chr(point)
        if unicodedata.category(char) != "Cs" and grid._width(char) is not None:
            assert cell_len(char) == 1, f"U+{point:04X}"


@given(st.lists(st.text(alphabet=NARROW, max_size=12), min_size=1, max_size=5))
def test_a_table_of_narrow_text_is_drawn_here(cells: list[str]) -> None:
    assert grid.lines("t", ["x"] * len(cells), [cells]) is not None


@pytest.mark.parametrize("cell", ["Dazed −10", "attack → Ace (.44 revolver)", "▶", "■■□□ — Zoë, Ωmega, Жанна…"])
def test_what_a_state_shows_is_drawn_here(cell: str) -> None:
    drawn = grid.lines("state", ["who", "what"], [["Ace", cell]])
    assert drawn is not None and any(cell in line for line in drawn)


def test_a_wide_table_is_drawn_whole_not_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    columns = [f"column {i}" for i in range(12)]
    rows = [[f"cell {i} of a long row" for i in range(12)]]
    drawn = output_draws("wide", columns, rows, monkeypatch)
    assert "…" not in drawn and "cell 11 of a long row" in drawn and "column 11" in drawn
    assert "…" in rich_draws("wide", columns, rows, width=80)  # what rich would have done


@pytest.mark.parametrize("cell", ["漢字", "e\u0301", "two\nlines", "a\tb"])
def test_what_only_rich_can_measure_is_left_to_rich(cell: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.delenv("COLUMNS", raising=False)
    assert grid.lines("", ["x"], [[cell]]) is None
    assert output_draws("", ["x"], [[escape(cell)]], monkeypatch) == rich_draws("", ["x"], [[escape(cell)]], width=80)


def test_a_terminal_gets_riches_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    drawn = output_draws("[bold]t[/bold]", ["a"], [["1"]], monkeypatch)
    assert "\x1b[" in drawn and "┏" in drawn
