"""engine.cli.output prints a line of markup to a file or a pipe without rich, and must print
the very bytes rich would: tags dropped, escapes undone, control codes stripped."""

from __future__ import annotations

import io
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.markup import escape as rich_escape

from engine.cli.output import Output, escape, plain, safe

#: Pieces that make markup interesting: tags, escapes, backslashes, brackets that are no tag.
PIECES = st.sampled_from(
    ["[bold]", "[/bold]", "[dim]", "[/dim]", "[/]", "\\", "\\\\", "[", "]", "[1]", "[x y]", "\\[b]"]
)
ANY_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]))
TEXT = st.lists(st.one_of(PIECES, ANY_TEXT), max_size=8).map("".join)


def rich_prints(renderable: str, *, markup: bool = True) -> str:
    out = io.StringIO()
    console = Console(file=out, highlight=False, soft_wrap=True, emoji=False, width=40)
    console.print(renderable, markup=markup)
    return out.getvalue()


def output_prints(renderable: str, *, markup: bool = True, monkeypatch: pytest.MonkeyPatch) -> str:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    Output().print(renderable, markup=markup)
    return out.getvalue()


@given(TEXT)
def test_escape_is_riches_escape(text: str) -> None:
    assert escape(text) == rich_escape(text)


@given(TEXT.filter(lambda text: "\\" not in text))
def test_escaped_text_shows_as_written(text: str) -> None:
    assert plain(f"[bold]{escape(text)}[/bold]") == text


@given(TEXT)
def test_a_line_printed_plain_is_what_rich_prints_off_a_terminal(text: str) -> None:
    markup = f"[bold]{safe(text)}[/bold] [dim]{escape(text)}[/dim]"
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.delenv("FORCE_COLOR", raising=False)
        monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
        assert output_prints(markup, monkeypatch=monkeypatch) == rich_prints(markup)
        assert output_prints(text, markup=False, monkeypatch=monkeypatch) == rich_prints(text, markup=False)


@pytest.mark.parametrize(
    "markup",
    ["\\\\[bold]x[/bold]", "a\\[b]c", "tail\\", "[x y] stays", "a\r\nb\x07\x08", "x\ty", "[bold]a[/bold]  "],
)
def test_the_odd_cases_print_as_rich_prints_them(markup: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    assert output_prints(markup, monkeypatch=monkeypatch) == rich_prints(markup)


def test_a_terminal_gets_riches_styles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    out = output_prints("[bold]loud[/bold]", monkeypatch=monkeypatch)
    assert "\x1b[1m" in out and "loud" in out
