"""Commands: intents (who does what), msgspec structs in one closed tagged union.

A command may carry dice a person rolled at the table (`dice`: d10 faces, tens first); when it
does, those faces are used before any drawn from the seeded source.
"""

from __future__ import annotations

import msgspec

from engine.commands import ua3 as _ua3
from engine.commands import ua3_combat as _ua3c
from engine.commands.base import CommandBase
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
from engine.commands.setup import AddCombatant, RollCheck, Ruling, StartEncounter

Command = (
    StartEncounter
    | AddCombatant
    | Ruling
    | RollCheck
    | SkillCheck
    | SpendPassion
    | MadnessCheck
    | Therapy
    | SourceGone
    | BeginFight
    | Declare
    | Attack
    | Dodge
    | Draw
    | ClearJam
    | StandUp
    | DoNothing
    | SuppressiveFire
    | BreakFree
    | Squeeze
    | Flee
    | Surrender
    | EndFight
    | FirstAid
    | MedicalCare
    | Convalesce
    | _ua3.AddCharacter
    | _ua3.AbilityCheck
    | _ua3.StressCheck
    | _ua3.Coerce
    | _ua3.AnswerCoercion
    | _ua3.StartConflict
    | _ua3.GridironRoll
    | _ua3.EndConflict
    | _ua3.SpendPassion
    | _ua3.ThreatGone
    | _ua3c.BeginFight
    | _ua3c.Declare
    | _ua3c.Attack
    | _ua3c.FullAuto
    | _ua3c.Suppress
    | _ua3c.Aim
    | _ua3c.Dodge
    | _ua3c.Grapple
    | _ua3c.Finish
    | _ua3c.Ready
    | _ua3c.ClearJam
    | _ua3c.Flee
    | _ua3c.Surrender
    | _ua3c.DoNothing
    | _ua3c.EndFight
)

COMMAND_TYPES: tuple[type[CommandBase], ...] = (
    StartEncounter,
    AddCombatant,
    Ruling,
    RollCheck,
    SkillCheck,
    SpendPassion,
    MadnessCheck,
    Therapy,
    SourceGone,
    BeginFight,
    Declare,
    Attack,
    Dodge,
    Draw,
    ClearJam,
    StandUp,
    DoNothing,
    SuppressiveFire,
    BreakFree,
    Squeeze,
    Flee,
    Surrender,
    EndFight,
    FirstAid,
    MedicalCare,
    Convalesce,
    _ua3.AddCharacter,
    _ua3.AbilityCheck,
    _ua3.StressCheck,
    _ua3.Coerce,
    _ua3.AnswerCoercion,
    _ua3.StartConflict,
    _ua3.GridironRoll,
    _ua3.EndConflict,
    _ua3.SpendPassion,
    _ua3.ThreatGone,
    _ua3c.BeginFight,
    _ua3c.Declare,
    _ua3c.Attack,
    _ua3c.FullAuto,
    _ua3c.Suppress,
    _ua3c.Aim,
    _ua3c.Dodge,
    _ua3c.Grapple,
    _ua3c.Finish,
    _ua3c.Ready,
    _ua3c.ClearJam,
    _ua3c.Flee,
    _ua3c.Surrender,
    _ua3c.DoNothing,
    _ua3c.EndFight,
)

command_encoder = msgspec.json.Encoder()
command_decoder = msgspec.json.Decoder(Command)

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
]
