"""Third edition (`ua3`) commands: every command type the ua3 rules decide, its own (`ua3`,
`ua3_combat`) and the shared ones (the registry's plug-in names this module;
`engine.rules.registry.command_types("ua3")`)."""

from engine.commands import ua3 as _ua3
from engine.commands import ua3_combat as _ua3c
from engine.commands.base import CommandBase
from engine.commands.setup import RollCheck, Ruling, StartEncounter

COMMANDS: tuple[type[CommandBase], ...] = (
    StartEncounter,
    Ruling,
    RollCheck,
    _ua3.AddCharacter,
    _ua3.StartHelpless,
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
