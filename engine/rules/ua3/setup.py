"""A ua3 character joins: its sheet checked as a sheet file would be (U-18…U-21, U-2)."""

from __future__ import annotations

from engine.commands.ua3 import AddCharacter, StartHelpless
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.ua3 import CharacterJoined, StartedHelpless
from engine.rules.common import helpless_at_setup, require_started
from engine.rules.sink import Sink
from engine.rules.ua3.sheet_check import sheet_problems
from engine.rules.ua3.table import Table


def add_character(sink: Sink[Table], command: AddCharacter, dice: DiceSource) -> None:
    t = sink.table
    require_started(t)
    if not command.id.strip():
        raise Refused("a character needs a non-empty id")
    if command.id in t.by_id:
        raise Refused(f"{command.id} is already in the encounter", hint="give each character a unique id")
    problems = sheet_problems(command.sheet, default_threshold=t.settings.wound_threshold)
    if problems:
        first = problems[0]
        raise Refused(f"{command.id}'s sheet: {first.message} at {first.path}", hint=first.hint)
    names = {"fists": "fists", **{w.name.casefold(): w.name for w in command.weapons}}
    if len(names) != len(command.weapons) + 1:
        raise Refused(f"{command.id} carries two weapons of one name (or one named fists)")
    for i, weapon in enumerate(command.weapons):
        if weapon.kind == "firearm" and weapon.cap is None:
            raise Refused(
                f"{command.id}'s {weapon.name} is a gun without a damage cap at $.weapons[{i}].cap",
                hint="U-5: a gun deals the roll up to its cap, a crit the cap",
            )
    held = names.get((command.in_hand or "fists").casefold())
    if held is None:
        raise Refused(f"{command.id} does not carry a {command.in_hand}", hint=f"carried: {', '.join(names.values())}")
    sink.emit(
        CharacterJoined(
            id=command.id,
            side=command.side,
            sheet=command.sheet,
            reaction=command.reaction,
            weapons=command.weapons,
            in_hand=held,
            armor=command.armor,
        )
    )


def start_helpless(sink: Sink[Table], command: StartHelpless, dice: DiceSource) -> None:
    """C2-33, U-10, U-22: a scenario's prisoner or guard starts restrained, unconscious or frozen."""
    t = sink.table
    row = t.by_id.get(command.actor)
    helpless_at_setup(t, command.actor, already=row is not None and bool(row.restrained_by))
    sink.emit(StartedHelpless(actor=command.actor, condition=command.condition))
