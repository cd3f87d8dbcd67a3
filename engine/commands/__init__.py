"""Commands: intents (who does what), msgspec structs tagged by `command`.

Each ruleset names every command it decides (its plug-in in `engine.rules.registry`: ua2's are
listed in `engine.commands.ua2`, ua3's in `engine.commands.ua3_all`); `command_union(ruleset)`
is the closed tagged union of one ruleset's, or of every ruleset's. `Command`, `COMMAND_TYPES`
and `command_decoder` are every ruleset's (for what takes any command: a script of commands, the
HTTP API, `engine.api`); they, and the ua2 commands' names below, load on first use (PEP 562), so
a command on a session of one ruleset never loads the other's commands.

A command may carry dice a person rolled at the table (`dice`: d10 faces, tens first); when it
does, those faces are used before any drawn from the seeded source.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, Union

import msgspec

from engine.commands.base import CommandBase
from engine.commands.setup import AddCombatant, RollCheck, Ruling, StartEncounter
from engine.rules.registry import command_types

if TYPE_CHECKING:
    from typing import TypeAlias

    from engine.commands.checks import SkillCheck, SpendPassion
    from engine.commands.combat import (
        Attack,
        BeginFight,
        BreakFree,
        ClearJam,
        Declare,
        Dodge,
        DoNothing,
        Draw,
        EndFight,
        Flee,
        Squeeze,
        StandUp,
        SuppressiveFire,
        Surrender,
    )
    from engine.commands.healing import Convalesce, FirstAid, MedicalCare
    from engine.commands.madness import MadnessCheck, SourceGone, Therapy

    #: Any command of any ruleset (at run time, the union of them all; to the type checker,
    #: what every one of them is).
    Command: TypeAlias = CommandBase
    #: Every ruleset's command types.
    COMMAND_TYPES: tuple[type[CommandBase], ...]
    #: Decodes any ruleset's command.
    command_decoder: msgspec.json.Decoder[Any]

#: The module of each ua2 command (loaded on first use).
_WHERE = {
    "SkillCheck": "engine.commands.checks",
    "SpendPassion": "engine.commands.checks",
    "MadnessCheck": "engine.commands.madness",
    "Therapy": "engine.commands.madness",
    "SourceGone": "engine.commands.madness",
    "BeginFight": "engine.commands.combat",
    "Declare": "engine.commands.combat",
    "Attack": "engine.commands.combat",
    "Dodge": "engine.commands.combat",
    "Draw": "engine.commands.combat",
    "ClearJam": "engine.commands.combat",
    "StandUp": "engine.commands.combat",
    "DoNothing": "engine.commands.combat",
    "SuppressiveFire": "engine.commands.combat",
    "BreakFree": "engine.commands.combat",
    "Squeeze": "engine.commands.combat",
    "Flee": "engine.commands.combat",
    "Surrender": "engine.commands.combat",
    "EndFight": "engine.commands.combat",
    "FirstAid": "engine.commands.healing",
    "MedicalCare": "engine.commands.healing",
    "Convalesce": "engine.commands.healing",
}


@cache
def command_union(ruleset: str | None = None) -> Any:
    """The tagged union of the commands ruleset `ruleset` decides (of every ruleset's: None)."""
    return union_of(command_types(ruleset))


def union_of(types: Iterable[Any]) -> Any:
    """The union of `types`, made at run time in one step (`A | B | …`, pairwise, would flatten
    it again at each step: a few million instructions for an edition's events)."""
    members: Any = tuple(types)
    return Union[members]  # noqa: UP007  (one union of them all, not `|` pair by pair)


@cache
def _command_decoder() -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(command_union())


def __getattr__(name: str) -> Any:
    if name == "Command":
        return command_union()
    if name == "COMMAND_TYPES":
        return command_types()
    if name == "command_decoder":
        return _command_decoder()
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'engine.commands' has no attribute {name!r}")


command_encoder = msgspec.json.Encoder()

__all__ = [
    "COMMAND_TYPES",
    "AddCombatant",
    "Attack",
    "BeginFight",
    "BreakFree",
    "ClearJam",
    "Command",
    "CommandBase",
    "Convalesce",
    "Declare",
    "DoNothing",
    "Dodge",
    "Draw",
    "EndFight",
    "FirstAid",
    "Flee",
    "MadnessCheck",
    "MedicalCare",
    "RollCheck",
    "Ruling",
    "SkillCheck",
    "SourceGone",
    "SpendPassion",
    "Squeeze",
    "StandUp",
    "StartEncounter",
    "SuppressiveFire",
    "Surrender",
    "Therapy",
    "command_decoder",
    "command_encoder",
    "command_union",
    "union_of",
]
