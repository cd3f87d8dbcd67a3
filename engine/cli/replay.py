"""`ua replay FILE` and `ua audit`: narrate a JSONL log, verify it re-decides, report the dice."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from engine.cli.common import JsonOption, RecoverOpt, UncheckedOpt, console, emit_json, emit_json_streaming, warn
from engine.cli.output import escape
from engine.errors import CorruptLog, InvalidInput
from engine.text import shown

if TYPE_CHECKING:
    from engine.session.replayfile import ReplayLog

FileArg = Annotated[Path, typer.Argument(help="A JSONL log (a replay file or an export).", show_default=False)]


def read_log(path: Path, stream: str | None = None, *, recover: bool = False, unchecked: bool = False) -> "ReplayLog":
    """One stream of a JSONL log, every line checked; a torn tail is refused, or with `recover`
    left out with one warning."""
    from engine.session.replayfile import read_replay

    log = read_replay(path, stream, recover=recover, unchecked=unchecked)
    if log.dropped is not None:
        torn = log.dropped
        warn(f"warning: {torn.where}: {torn.message}; read the whole commands before it")
    return log


def replay(
    file: FileArg,
    verify_: Annotated[
        bool, typer.Option("--verify", help="Re-decide every command with its dice and compare.")
    ] = False,
    stream: Annotated[str | None, typer.Option("--stream", help="Which stream, if the file holds several.")] = None,
    combatant: Annotated[str | None, typer.Option("--combatant")] = None,
    round_: Annotated[int | None, typer.Option("--round")] = None,
    type_: Annotated[list[str] | None, typer.Option("--type")] = None,
    recover: RecoverOpt = False,
    unchecked: UncheckedOpt = False,
    json: JsonOption = False,
) -> None:
    """Narrate a log event by event (rule ids, exact odds, undone work struck out) and its end state."""
    from engine.cli.views import line_json, render_lines, render_state, state_json
    from engine.session.audit import narration
    from engine.session.history import effective_fold
    from engine.session.verify import verify

    log = read_log(file, stream, recover=recover, unchecked=unchecked)
    name, records = log.stream, log.records
    result = verify(records, log.command_ids()) if verify_ else None
    if result is not None and not result.ok:
        raise CorruptLog(
            result.mismatch, where=f"{file} event {result.position}", hint="the log was edited or the rules changed"
        )
    state = effective_fold(records)
    lines = narration(records, combatant=combatant, round_=round_, types=type_ or ())
    if json:
        out: dict[str, Any] = {"stream": name, "events": len(records), "state": state_json(state)}
        if result is not None:
            out["verified"] = {"ok": result.ok, "commands": result.commands, "mismatch": result.mismatch}
        emit_json_streaming(out, "lines", (line_json(x) for x in lines))
    else:
        render_lines(lines)
        render_state(state, title=f"{file.name}: end")
        if result is not None:
            console.print(f"verified: {result.commands} commands re-decided with their dice give the same events")


def audit(
    name: Annotated[str | None, typer.Argument(help="A session name (or use --file).")] = None,
    file: Annotated[Path | None, typer.Option("--file", help="A JSONL log instead of a session.")] = None,
    recover: RecoverOpt = False,
    unchecked: UncheckedOpt = False,
    db: Annotated[Path, typer.Option("--db", envvar="UA_DB")] = Path("ua-sessions.sqlite"),
    json: JsonOption = False,
) -> None:
    """Dice report: each combatant's luck (expected vs actual successes) and a fairness test of the dice."""
    from engine.session.audit import chi_square_faces, luck, table_faces

    if (name is None) == (file is None):
        raise InvalidInput("give a session name or --file LOG", where="ua audit")
    if file is not None:
        records = read_log(file, recover=recover, unchecked=unchecked).records
    else:
        from engine.cli.session.options import open_session

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
            escape(shown(who)),
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
