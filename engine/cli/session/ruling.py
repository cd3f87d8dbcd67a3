"""`ua session ruling`: a GM ruling — a note, and the effects it carries (U-26, T-5): wounds
dealt or taken off, a crash or a fall (ua3, U-13), notches marked or erased, conditions set or
cleared. Each option is repeatable and parsed here into the command's fields."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from engine.cli.common import JsonOption
from engine.cli.session.options import DEFAULT_DB, Amend, CommandIdOpt, Db, Name
from engine.cli.session.run import act
from engine.commands.setup import Ruling, RulingCondition, RulingFall, RulingNotch, RulingWounds
from engine.errors import InvalidInput

Many = list[str] | None


def ruling(
    name: Name,
    text: Annotated[str | None, typer.Argument(help="What the GM rules (or --note).", show_default=False)] = None,
    note: Annotated[str, typer.Option("--note", help="What the GM rules.")] = "",
    about: Annotated[str, typer.Option("--about", help="Who or what it concerns.")] = "",
    wounds: Annotated[
        Many,
        typer.Option(
            "--wounds",
            help="WHO=+N deals N wounds (in ua2 one injury, C2-32), WHO=-N takes N off (repeatable).",
        ),
    ] = None,
    injury: Annotated[
        int | None,
        typer.Option("--injury", help="ua2: the injury --wounds WHO=-N come off (default: the most recent first, H2)."),
    ] = None,
    fall: Annotated[
        Many, typer.Option("--fall", help="WHO=N: a crash or a fall of N wounds; armor takes 10 off (ua3, U-13).")
    ] = None,
    notch: Annotated[
        Many,
        typer.Option(
            "--notch", help="WHO:METER:hardened|failed:±N marks (+) or erases (−) notches on a meter or gauge."
        ),
    ] = None,
    condition: Annotated[
        Many, typer.Option("--condition", help="WHO=NAME sets a condition, WHO=-NAME clears it (repeatable).")
    ] = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A GM ruling with a note (what the seeds leave to the GM) and the effects it carries, applied
    in the order wounds, falls, notches, conditions."""
    if text is not None and note:
        raise InvalidInput("the note is given twice", where="--note", hint="give it as --note TEXT only")
    command = Ruling(
        note=note or text or "",
        about=about,
        wounds=_wounds(wounds or [], injury),
        falls=tuple(_fall(raw) for raw in fall or []),
        notches=tuple(_notch(raw) for raw in notch or []),
        conditions=tuple(_condition(raw) for raw in condition or []),
    )
    act(db, name, command, amend=amend, json=json, command_id=command_id)


def _pair(raw: str, option: str, shape: str) -> tuple[str, str]:
    who, sep, value = raw.rpartition("=")
    if not sep or not who.strip() or not value.strip():
        raise InvalidInput(f"bad value {raw!r}", where=option, hint=f"give {shape}")
    return who.strip(), value.strip()


def _number(value: str, raw: str, option: str, shape: str) -> int:
    try:
        return int(value.replace("−", "-"))
    except ValueError:
        raise InvalidInput(
            f"bad value {raw!r}: {value!r} is not a whole number", where=option, hint=f"give {shape}"
        ) from None


def _wounds(texts: list[str], injury: int | None) -> tuple[RulingWounds, ...]:
    shape = "WHO=+N or WHO=-N, e.g. --wounds Vic=-10"
    changes = []
    for raw in texts:
        who, value = _pair(raw, "--wounds", shape)
        changes.append((who, _number(value, raw, "--wounds", shape)))
    if injury is not None and [amount < 0 for _, amount in changes].count(True) != 1:
        raise InvalidInput(
            "--injury names the injury of one --wounds WHO=-N",
            where="--injury",
            hint="give exactly one --wounds WHO=-N",
        )
    return tuple(RulingWounds(who=who, amount=n, injury=injury if n < 0 else None) for who, n in changes)


def _fall(raw: str) -> RulingFall:
    shape = "WHO=N, e.g. --fall Vic=15"
    who, value = _pair(raw, "--fall", shape)
    wounds = _number(value, raw, "--fall", shape)
    if wounds < 1:
        raise InvalidInput(f"bad value {raw!r}: a fall deals 1 wound or more", where="--fall", hint=f"give {shape}")
    return RulingFall(who=who, wounds=wounds)


def _notch(raw: str) -> RulingNotch:
    shape = "WHO:METER:hardened|failed:±N, e.g. --notch Vic:violence:hardened:+1"
    parts = raw.rsplit(":", 3)
    if len(parts) != 4 or parts[2].strip() not in ("hardened", "failed"):
        raise InvalidInput(f"bad value {raw!r}", where="--notch", hint=f"give {shape}")
    who, meter, kind, value = (p.strip() for p in parts)
    change = _number(value, raw, "--notch", shape)
    return RulingNotch(who=who, meter=meter, kind="hardened" if kind == "hardened" else "failed", change=change)


def _condition(raw: str) -> RulingCondition:
    who, value = _pair(raw, "--condition", "WHO=NAME or WHO=-NAME, e.g. --condition Vic=prone")
    clear = value.startswith(("-", "−"))
    return RulingCondition(who=who, condition=value.lstrip("-−").strip(), clear=clear)
