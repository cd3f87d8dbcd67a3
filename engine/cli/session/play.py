"""`ua session play`: replay what happened at the table from a file of commands with their dice."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer

from engine.cli.common import JsonOption, emit_json
from engine.cli.session.options import DEFAULT_DB, Db, Name, service
from engine.cli.views import events_json, render_events
from engine.commands import Command
from engine.errors import InvalidInput


class CommandScript(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """A file of commands, in order, as a GM played them at the table (dice included)."""

    commands: tuple[Command, ...]


def read_script(path: Path) -> list[Command]:
    """Commands from TOML/YAML/JSON (`commands = [...]`) or JSON lines (one command a line)."""
    from engine.commands import command_decoder
    from engine.nesting import check_depth
    from engine.scenario.files import load_document, read_limited

    if path.suffix != ".jsonl":
        return list(
            load_document(path, CommandScript, hint="each command as in `ua session log --commands --json`").commands
        )
    out = []
    text = read_limited(path, any_format=True).decode("utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            check_depth(line, where=f"{path}:{number}")
            try:
                out.append(command_decoder.decode(line))
            except msgspec.ValidationError as exc:
                raise InvalidInput(f"not a command: {exc}", where=f"{path}:{number}") from None
            except msgspec.DecodeError as exc:
                raise InvalidInput(f"not JSON: {exc}", where=f"{path}:{number}") from None
    return out


def play(
    name: Name,
    script: Annotated[Path, typer.Argument(help="A file of commands with their dice (TOML, YAML, JSON or JSONL).")],
    command_id: Annotated[
        str | None,
        typer.Option(
            "--command-id",
            help="Name this run (command N is ID.N): run it again with the same id to go on where it stopped.",
        ),
    ] = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Replay what happened at the table: run a file of commands in order, each with its dice.

    Each command is its own transaction; the first one the rules refuse stops the run (what went
    before stays) with an error naming it. With --command-id, the commands already done by a run
    of that id are not done again."""
    commands = read_script(script)
    out: list[dict[str, Any]] = []
    for done in service(db, name).play(name, commands, command_id=command_id, where=str(script)):
        if json:
            out.extend(events_json(done.events, done.first))
        else:
            render_events(done.events, done.first)
    if json:
        emit_json({"session": name, "commands": len(commands), "events": out})
