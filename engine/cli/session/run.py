"""Running a session command through the service and rendering its result (rich or JSON)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.cli.common import console, emit_json
from engine.cli.output import safe
from engine.cli.session.options import ask_dice, ask_reaction, service
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
    draw_rest: bool = False,
    full: bool = False,
    given: dict[str, tuple[int, ...]] | None = None,
) -> Executed | Amended:
    """Run (or amend with) one command and show what it did. `check` looks at the session's
    state first, to refuse an argument that makes no sense there. Faces given with --dice must
    cover every roll: a terminal asks for the rest, elsewhere it is refused unless `draw_rest`.
    At a table (played characters), a played character's roll not given is requested instead
    (`engine.cli.session.requests.answered`); `given`: the faces given for a character by name."""
    from engine.cli.session.requests import answered

    result = answered(
        db,
        name,
        lambda: service(db, name).execute(
            name,
            command,
            amend=amend,
            command_id=command_id,
            check=check,
            draw_rest=draw_rest,
            ask=ask_dice(),
            strict=True,
            ask_reaction=ask_reaction(),
            given=given or None,
        ),
        json=json,
    )
    show(result, json=json, full=full)
    return result


def result_json(result: Executed) -> dict[str, Any]:
    return {
        "command": result.number,
        "events": events_json(result.events, result.first),
        "turn": result.turn,
        "command_id": result.command_id,
        "dice": [{"roll": what, "faces": list(faces)} for what, faces in result.faces],
        "table_dice": result.table_dice,
        "then": [result_json(t) for t in result.then],
    }


def render_result(result: Executed) -> None:
    render_events(result.events, result.first)
    if result.faces:
        console.print(f"  [dim]dice[/dim] {safe(describe_dice(result))}")
    for then in result.then:
        render_result(then)


def describe_dice(result: Executed) -> str:
    """`Rosa's attack 4,7 · Vic's dodge 2,2 (rolled) · damage 6 (drawn)`: which faces went where,
    and which were rolled at the table and which drawn from the seed."""
    out, read = [], 0
    for what, faces in result.faces:
        rolled = read + len(faces) <= result.table_dice
        drawn = read >= result.table_dice
        how = "" if not result.table_dice else (" (rolled)" if rolled else " (drawn)" if drawn else "")
        out.append(f"{what} {','.join(map(str, faces))}{how}")
        read += len(faces)
    return " · ".join(out)


def show(result: Executed | Amended, *, json: bool, full: bool = False) -> None:
    if isinstance(result, Amended):
        show_amendment(result, json=json, full=full)
    elif json:
        emit_json(result_json(result))
    else:
        render_result(result)


def show_amendment(result: Amended, *, json: bool, full: bool = False) -> None:
    """What changed per combatant first; with `full`, every event before and after."""
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
    records = [e for e in result.new_events if isinstance(e, CommandRecorded)]
    numbers = ", ".join(f"#{r.id}" for r in records)
    now = numbers or "nothing"
    console.print(f"[bold]amended command #{result.number}[/bold] (now {now}; at event {result.first}) — what changed:")
    for line in result.changes or ["nothing in the state"]:
        console.print(f"  {shown(line)}", markup=False)
    if not full:
        console.print(f"  [dim]({len(result.old_events)} events before, {len(result.new_events)} after: --full)[/dim]")
        return
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
