"""`ua replay FILE` and `ua audit`: narrate a JSONL log, verify it re-decides, report the dice."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from engine.cli.common import JsonOption, console, emit_json, err_console
from engine.cli.views import lines_json, render_lines, render_state, state_json
from engine.errors import CorruptLog, InvalidInput, NotFound
from engine.session.audit import chi_square_faces, luck, narrate, table_faces
from engine.session.history import Record, effective_fold
from engine.session.live import stored_events
from engine.session.verify import verify
from engine.store.jsonl import JsonlStore

FileArg = Annotated[Path, typer.Argument(help="A JSONL log (a replay file or an export).", show_default=False)]


def read_log(path: Path, stream: str | None = None) -> tuple[str, list[Record]]:
    """The records of one stream of a JSONL log; a torn tail is reported, never glued."""
    if not path.is_file():
        raise NotFound(f"no file {path}", hint="give a JSONL log written by --save, --keep or session export")
    store = JsonlStore(path)
    if store.torn_tail is not None:
        err_console.print(f"warning: {store.torn_tail}", markup=False)
    streams = store.streams()
    if stream is None:
        if len(streams) != 1:
            raise InvalidInput(f"{path} holds {len(streams)} streams", where=str(path), hint="name one with --stream")
        stream = streams[0]
    elif stream not in streams:
        raise NotFound(f"no stream {stream!r} in {path}", hint=f"streams: {', '.join(streams)}")
    return stream, list(stored_events(store, stream))


def replay(
    file: FileArg,
    verify_: Annotated[
        bool, typer.Option("--verify", help="Re-decide every command with its dice and compare.")
    ] = False,
    stream: Annotated[str | None, typer.Option("--stream", help="Which stream, if the file holds several.")] = None,
    combatant: Annotated[str | None, typer.Option("--combatant")] = None,
    round_: Annotated[int | None, typer.Option("--round")] = None,
    type_: Annotated[list[str] | None, typer.Option("--type")] = None,
    json: JsonOption = False,
) -> None:
    """Narrate a log event by event (rule ids, exact odds, undone work struck out) and its end state."""
    name, records = read_log(file, stream)
    state = effective_fold(records)
    result = verify(records) if verify_ else None
    lines = narrate(records, combatant=combatant, round_=round_, types=type_ or ())
    if json:
        out: dict[str, Any] = {
            "stream": name,
            "events": len(records),
            "lines": lines_json(lines),
            "state": state_json(state),
        }
        if result is not None:
            out["verified"] = {"ok": result.ok, "commands": result.commands, "mismatch": result.mismatch}
        emit_json(out)
    else:
        render_lines(lines)
        render_state(state, title=f"{file.name}: end")
        if result is not None and result.ok:
            console.print(f"verified: {result.commands} commands re-decided with their dice give the same events")
    if result is not None and not result.ok:
        raise CorruptLog(
            result.mismatch, where=f"{file} event {result.position}", hint="the log was edited or the rules changed"
        )


def audit(
    name: Annotated[str | None, typer.Argument(help="A session name (or use --file).")] = None,
    file: Annotated[Path | None, typer.Option("--file", help="A JSONL log instead of a session.")] = None,
    db: Annotated[Path, typer.Option("--db", envvar="UA_DB")] = Path("ua-sessions.sqlite"),
    json: JsonOption = False,
) -> None:
    """Dice report: each combatant's luck (expected vs actual successes) and a fairness test of the dice."""
    if (name is None) == (file is None):
        raise InvalidInput("give a session name or --file LOG", where="ua audit")
    if file is not None:
        _, records = read_log(file)
    else:
        from engine.cli.session import open_session

        assert name is not None
        records = open_session(db, name).records
    people = luck(records)
    table_dice = table_faces(records)
    all_dice = table_faces(records, only_table=False)
    report: dict[str, Any] = {
        "luck": {
            who: {
                "checks": x.checks,
                "expected_successes": round(x.expected, 4),
                "successes": x.successes,
                "difference": round(x.successes - x.expected, 4),
                "z": round(x.z, 4),
            }
            for who, x in sorted(people.items())
        },
        "fairness": {
            label: {
                "faces": len(faces),
                "counts": [faces.count(d) for d in range(10)],
                "chi_square": round(chi_square_faces(faces)[0], 4),
                "p_value": round(chi_square_faces(faces)[1], 6),
            }
            for label, faces in (("table_dice", table_dice), ("all_dice", all_dice))
        },
    }
    if json:
        emit_json(report)
        return
    t = Table(title="luck: successes against the exact odds")
    for column in ("combatant", "checks", "expected", "actual", "difference", "z"):
        t.add_column(column, justify="left" if column == "combatant" else "right")
    for who, x in report["luck"].items():
        t.add_row(
            who,
            str(x["checks"]),
            f"{x['expected_successes']:.2f}",
            str(x["successes"]),
            f"{x['difference']:+.2f}",
            f"{x['z']:+.2f}",
        )
    console.print(t)
    for label, f in report["fairness"].items():
        if f["faces"]:
            verdict = "suspicious (p < 0.01)" if f["p_value"] < 0.01 else "consistent with fair d10s"
            console.print(
                f"{label.replace('_', ' ')}: {f['faces']} faces, counts {f['counts']}, "
                f"chi-square {f['chi_square']:.2f} (9 df), p = {f['p_value']:.4f} — {verdict}"
            )
        else:
            console.print(f"{label.replace('_', ' ')}: none recorded")
