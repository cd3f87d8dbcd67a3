"""Second edition (`ua2`) commands: every command type the ua2 rules decide, the shared ones too
(the registry's plug-in names this module; `engine.rules.registry.command_types("ua2")`)."""

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
from engine.commands.setup import AddCombatant, RollCheck, Ruling, StartEncounter, StartHelpless

COMMANDS: tuple[type[CommandBase], ...] = (
    StartEncounter,
    AddCombatant,
    StartHelpless,
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
)
