"""Running a session command through the service and rendering its result (rich or JSON)."""

from __future__ import annotations

from pathlib import Path

from engine.cli.common import console, emit_json
from engine.cli.session.options import service
from engine.cli.views import events_json, render_events
from engine.commands.base import CommandBase
from engine.events.commands import CommandRecorded
from engine.session.service import Amended, Executed, Marked, Precheck
from engine.text import shown


def act(
    db: Path,
    name: str,
    command: CommandBase,
    *,
    amend: int | None = None,
    json: bool = False,
    command_id: str | None = None,
    check: Precheck | None = None,
) -> Executed | Amended:
    """Run (or amend with) one command and show what it did. `check` looks at the session's
    state first, to refuse an argument that makes no sense there."""
    result = service(db, name).execute(name, command, amend=amend, command_id=command_id, check=check)
    show(result, json=json)
    return result


def show(result: Executed | Amended, *, json: bool) -> None:
    if isinstance(result, Amended):
        show_amendment(result, json=json)
    elif json:
        emit_json(
            {
                "events": events_json(result.events, result.first),
                "turn": result.turn,
                "command_id": result.command_id,
            }
        )
    else:
        render_events(result.events, result.first)


def show_amendment(result: Amended, *, json: bool) -> None:
    if json:
        emit_json(
            {
                "changes": result.changes,
                "old_events": [e.explain() for e in result.old_events],
                "new_events": events_json(result.new_events, result.first + 1),
                "command_id": result.command_id,
            }
        )
        return
    console.print("[bold]amended[/bold] — what changed:")
    for line in result.changes or ["nothing in the state"]:
        console.print(f"  {shown(line)}", markup=False)
    console.print("[bold]before[/bold]:")
    for e in result.old_events:
        if not isinstance(e, CommandRecorded):
            console.print(f"  {shown(e.explain())}", markup=False, style="strike dim")
    console.print("[bold]after[/bold]:")
    render_events(result.new_events, result.first + 1)


def show_marker(result: Marked, *, json: bool) -> None:
    if json:
        emit_json(
            {
                "events": events_json(result.events, result.first),
                "changes": result.changes,
                "command_id": result.command_id,
            }
        )
        return
    render_events(result.events, result.first)
    for line in result.changes:
        console.print(f"  {shown(line)}", markup=False)
