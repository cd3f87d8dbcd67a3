"""`ua session` healing (H2-*)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from engine.cli.common import JsonOption
from engine.cli.session.options import (
    DEFAULT_DB,
    Amend,
    CommandIdOpt,
    Db,
    Dice,
    DrawRest,
    Full,
    Name,
    owned_dice,
    parse_dice,
)
from engine.cli.session.run import act
from engine.commands import Convalesce, FirstAid, MedicalCare
from engine.commands.base import CommandBase
from engine.commands.healing import Care


def heal(
    name: Name,
    healer: Annotated[str, typer.Argument()],
    patient: Annotated[str, typer.Argument()],
    injury: Annotated[int, typer.Argument(help="The injury number (see `state`).")],
    medical: Annotated[bool, typer.Option("--medical", help="Medical care for a major injury (H2-3).")] = False,
    late: Annotated[bool, typer.Option("--late", help="Medical care after the first hour (H2-3).")] = False,
    dice: Dice = None,
    draw_rest: DrawRest = False,
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """First aid on a minor injury (H2-2), or --medical care on a major one (H2-3). Dice: the
    healer's First Aid or Medicine roll (2 faces, the healer's player); the healing is read off it."""
    command: CommandBase
    if medical:
        command = MedicalCare(
            healer=healer, patient=patient, injury=injury, within_hour=not late, dice=parse_dice(dice)
        )
    else:
        command = FirstAid(healer=healer, patient=patient, injury=injury, dice=parse_dice(dice))
    act(
        db,
        name,
        command,
        amend=amend,
        json=json,
        full=full,
        command_id=command_id,
        draw_rest=draw_rest,
        given=owned_dice(dice),
    )


def rest(
    name: Name,
    patient: Annotated[str, typer.Argument()],
    days: Annotated[int, typer.Option("--days")] = 1,
    care: Annotated[Care, typer.Option("--care", help="doctor, bed_rest, easy or pushing (H2-5).")] = "bed_rest",
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Convalescence, day by day (H2-5)."""
    act(db, name, Convalesce(patient=patient, days=days, care=care), json=json, command_id=command_id)
