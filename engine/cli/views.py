"""Rendering shared by session and replay commands: state tables, narrated logs, diffs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from engine.cli.common import console
from engine.cli.output import safe
from engine.events.base import EventBase
from engine.events.commands import CommandRecorded
from engine.rules.registry import ruleset_of
from engine.rules.view import View

if TYPE_CHECKING:
    from engine.session.audit import Line


def state_json(state: Any) -> dict[str, Any]:
    """The state as JSON, with what a GM reads off it (its ruleset says what: whose turn, wound
    shifts in ua2, abilities and wound levels in ua3) added."""
    return ruleset_of(state).state_json(state)


def render_state(state: Any, *, title: str = "") -> None:
    """Any ruleset's state, through its view (`Ruleset.view`)."""
    render_view(ruleset_of(state).view(state, title=title))


def render_view(view: View) -> None:
    """A ruleset's view as the terminal shows it: the headline, lines, tables, notes (all text
    from a log or a file made safe first)."""
    console.print(f"[bold]{safe(view.title)}[/bold]{safe(view.headline)}")
    for line in view.lines:
        console.print(safe(line))
    for section in view.sections:
        columns = [safe(column) for column in section.columns]
        console.table(safe(section.title), columns, [[safe(cell) for cell in row] for row in section.rows])
    for note in view.notes:
        console.print(safe(note))


def render_lines(lines: Iterable[Line]) -> None:
    for line in lines:
        text = safe(line.text)
        if line.struck:
            text = f"[strike]{text}[/strike] [dim]({safe(line.note)})[/dim]"
        odds = f" [dim]({safe(line.odds)})[/dim]" if line.odds else ""
        if line.type == "command_recorded":  # a command's header: its number, as --amend and undo take it
            console.print(f"[bold]{text}[/bold]{odds}")
        else:
            console.print(f"  [dim]e{line.position}[/dim] {text}{odds}")


def lines_json(lines: Sequence[Line]) -> list[dict[str, Any]]:
    return [line_json(x) for x in lines]


def line_json(x: Line) -> dict[str, Any]:
    return {
        "position": x.position,
        "round": x.round,
        "type": x.type,
        "command": x.command,
        "explanation": x.text,
        "struck": x.struck,
        "note": x.note,
        "odds": x.odds,
    }


def render_events(events: Sequence[EventBase], first_position: int) -> None:
    for offset, event in enumerate(events):
        if not isinstance(event, CommandRecorded):
            console.print(f"  [dim]e{first_position + offset}[/dim] {safe(event.explain())}")
        else:
            console.print(f"[bold]{safe(event.explain())}[/bold]")


def events_json(events: Sequence[EventBase], first_position: int) -> list[dict[str, Any]]:
    return [
        {
            "position": first_position + i,
            "type": type(e).__struct_config__.tag,
            "explanation": e.explain(),
            "event": msgspec.to_builtins(e),
        }
        for i, e in enumerate(events)
    ]
