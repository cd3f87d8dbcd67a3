"""`ua session` commands about the history: undo, redo, amend and what-if forks."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from engine.cli.common import JsonOption
from engine.cli.precision import PrecisionOfOpt, PrecisionOpt
from engine.cli.session.options import DEFAULT_DB, CommandIdOpt, Db, Full, Name, service
from engine.cli.session.run import act, show_marker
from engine.cli.workers import OversubscribeOpt, note_clamp
from engine.errors import InvalidInput

#: --simulate without --precision.
FORK_FIGHTS = 1000


def undo(name: Name, command_id: CommandIdOpt = None, db: Db = Path(DEFAULT_DB), json: JsonOption = False) -> None:
    """Undo the latest command that counts (its events stay in the log, struck out)."""
    show_marker(service(db, name).undo(name, command_id=command_id), json=json)


def redo(name: Name, command_id: CommandIdOpt = None, db: Db = Path(DEFAULT_DB), json: JsonOption = False) -> None:
    """Redo the most recently undone command."""
    show_marker(service(db, name).redo(name, command_id=command_id), json=json)


def amend_json(
    name: Name,
    number: Annotated[int, typer.Argument(help="The command to replace.")],
    command: Annotated[str, typer.Option("--command", help="The corrected command as JSON.")],
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Replace command N with a corrected one given as JSON (or use --amend N on any action)."""
    from engine.commands import COMMAND_TYPES, command_decoder
    from engine.nesting import check_depth

    check_depth(command, where="--command")
    try:
        corrected = command_decoder.decode(command)
    except Exception as exc:  # msgspec's errors carry the $.path
        names = ", ".join(str(t.__struct_config__.tag) for t in COMMAND_TYPES)
        raise InvalidInput(
            f"not a command: {exc}",
            where="--command",
            hint=f'{{"command": NAME, …}} with NAME one of: {names} (see `ua session log --json`)',
        ) from None
    act(db, name, corrected, amend=number, json=json, full=full, command_id=command_id)


def fork(
    name: Name,
    at: Annotated[str, typer.Argument(help="Start from the state after event N, or after command #N ('#9').")],
    simulate: Annotated[
        int | None,
        typer.Option(
            "--simulate",
            help="How many times to fight it out from there (default 1,000); with --precision, the most "
            "(default 1,000,000).",
        ),
    ] = None,
    precision: PrecisionOpt = None,
    precision_figures: PrecisionOfOpt = None,
    seed: Annotated[int | None, typer.Option("--seed")] = None,
    workers: Annotated[
        int, typer.Option("--workers", help="Processes (at most the usable CPUs unless --oversubscribe).")
    ] = 1,
    oversubscribe: OversubscribeOpt = False,
    scenario: Annotated[
        Path | None,
        typer.Option("--scenario", help="Take the tactics from this file (default: the scenario the session stores)."),
    ] = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """What if: fight the rest of the encounter from event N many times with the scenario's tactics
    (the scenario stored in the session's own log when it was started, or --scenario FILE).

    N must be an event of the history that counts now (not one an undo or amend took out) after
    the fight began. The report is `ua simulate`'s, from that point on (--precision as there)."""
    from engine.cli.report import render, to_csv
    from engine.cli.simulate import emit_report, stopped_early
    from engine.simulate.batch import check_size
    from engine.simulate.executors import open_executor
    from engine.simulate.precision import BATCH_FIGURES, most_fights, precision_of
    from engine.simulate.whatif import fork_batch

    precise = precision_of(precision, precision_figures, BATCH_FIGURES)
    simulate = most_fights(simulate, precise, FORK_FIGHTS)
    sessions = service(db, name)
    position = sessions.position(name, at, where="AT")
    state, loaded = sessions.fork_point(name, position, scenario=scenario, check=lambda: check_size(simulate, workers))
    batch_seed = seed if seed is not None else 0
    note_clamp(workers, oversubscribe=oversubscribe)
    with open_executor("local", workers=workers, oversubscribe=oversubscribe) as executor:
        report = fork_batch(
            state, loaded, simulate, batch_seed, workers=workers, from_event=position, interruptible=True,
            executor=executor, precision=precise,
        )
    stopped_early(report["fights"], simulate)
    emit_report(report, json=json, as_csv=False, text=render, table=to_csv)
