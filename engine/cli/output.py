"""Printing console markup without loading rich where rich would draw nothing.

rich prints a line of console markup (`[bold]…[/bold]`) as plain text when its stream is a file
or a pipe, and loading it is about 15 % of a session command. So a line printed to a file or a
pipe is rendered here, as rich renders it there: tags dropped, escapes undone, the control codes
rich strips stripped. rich itself prints to a terminal, when the environment forces a terminal or
colour, and every renderable that is not a string; `tests/cli/test_output.py` checks that both
give the same bytes. A table of text (`Output.table`) is drawn off a terminal by `engine.cli.grid`."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from engine.cli.lazy import collector_paused
from engine.text import shown

if TYPE_CHECKING:
    from rich.console import Console

#: A markup tag with the backslashes before it (rich.markup.RE_TAGS).
_TAG = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")
#: A tag's text as an escape must mark it (rich.markup.escape).
_ESCAPABLE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
#: What rich removes from every text it prints (rich.control.strip_control_codes).
_STRIPPED = dict.fromkeys([7, 8, 11, 12, 13])
#: Environment variables with which rich may treat a file or a pipe as a terminal.
_TERMINAL_VARIABLES = ("FORCE_COLOR", "TTY_COMPATIBLE")


def escape(text: str) -> str:
    """`text` fit for markup: every tag-like bracket escaped (as rich.markup.escape does)."""

    def backslashed(match: re.Match[str]) -> str:
        backslashes, tag = match.groups()
        return f"{backslashes}{backslashes}\\{tag}"

    escaped = _ESCAPABLE.sub(backslashed, text)
    if escaped.endswith("\\") and not escaped.endswith("\\\\"):
        return escaped + "\\"
    return escaped


def safe(text: str) -> str:
    """Text from a log or a file fit for markup: control characters and bidirectional controls
    escaped (engine.text.shown), brackets too."""
    return escape(shown(text))


def plain(markup: str) -> str:
    """The text a line of markup shows: its tags dropped and its escapes undone (rich.markup.render)."""
    if "[" not in markup:
        return markup
    pieces: list[str] = []
    position = 0
    for match in _TAG.finditer(markup):
        whole, backslashes, _ = match.groups()
        start, end = match.span()
        pieces.append(markup[position:start].replace("\\[", "["))
        literal, escaped = divmod(len(backslashes), 2)
        pieces.append("\\" * literal)
        if escaped:
            pieces.append(whole[len(backslashes) :].replace("\\[", "["))
        position = end
    pieces.append(markup[position:].replace("\\[", "["))
    return "".join(pieces)


class Output:
    """Lines of markup on stdout (or stderr), plain when rich would print them plain."""

    def __init__(self, *, stderr: bool = False) -> None:
        self._stderr = stderr
        self._rich: Console | None = None

    @property
    def rich(self) -> Console:
        """The rich console on the same stream, loaded the first time it is needed."""
        if self._rich is None:
            with collector_paused():
                from rich.console import Console

            # Text is printed as written: a name like `:fire:` stays text (and rich's emoji table never loads).
            self._rich = Console(stderr=self._stderr, highlight=False, soft_wrap=True, emoji=False)
        return self._rich

    def print(self, renderable: Any = "", *, markup: bool = True, style: str | None = None) -> None:
        """`renderable` and a line break; `style` is drawn on a terminal only."""
        stream = self._stream()
        if self._rich is not None or not isinstance(renderable, str) or "\t" in renderable or _terminal(stream):
            self.rich.print(renderable, markup=markup, style=style)
            return
        text = plain(renderable) if markup else renderable
        stream.write(text.translate(_STRIPPED) + "\n")

    def table(self, title: str, columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        """A table of markup cells under a markup title: drawn here off a terminal (at its natural
        width, `engine.cli.grid`), by rich on a terminal or where only rich can measure a cell."""
        stream = self._stream()
        if not _terminal(stream):
            from engine.cli import grid  # here: most commands print no table

            drawn = grid.lines(plain(title), [plain(c) for c in columns], [[plain(c) for c in row] for row in rows])
            if drawn is not None:
                stream.write("".join(f"{line}\n" for line in drawn))
                return
        with collector_paused():
            from rich.table import Table

        table = Table(title=title or None)
        for column in columns:
            table.add_column(column)
        for row in rows:
            table.add_row(*row)
        self.rich.print(table)

    def _stream(self) -> IO[str]:
        return sys.stderr if self._stderr else sys.stdout


def _terminal(stream: IO[str]) -> bool:
    """Whether rich could draw styles on `stream` (a terminal, or the environment says so)."""
    if any(name in os.environ for name in _TERMINAL_VARIABLES):
        return True
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty is not None and isatty())
    except ValueError:  # a closed stream: rich decides
        return True
