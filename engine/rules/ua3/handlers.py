"""Every ua3 command and the rule that decides it, in plain sight (STYLE: a dispatch table)."""

from __future__ import annotations

from engine.commands import RollCheck, Ruling, StartEncounter
from engine.commands import ua3 as cmd
from engine.commands.base import CommandBase
from engine.rules import common
from engine.rules.ruleset import Handler
from engine.rules.ua3 import checks, coercion, gridiron, ruling, setup, stress
from engine.rules.ua3.combat.handlers import COMBAT_HANDLERS
from engine.state.ua3.settings import Ua3Settings

HANDLERS: dict[type[CommandBase], Handler] = {
    StartEncounter: common.starter(Ua3Settings),
    cmd.AddCharacter: setup.add_character,
    cmd.StartHelpless: setup.start_helpless,
    Ruling: ruling.ruling,
    RollCheck: common.check,
    cmd.AbilityCheck: checks.ability_check,
    cmd.SpendPassion: checks.spend_passion,
    cmd.StressCheck: stress.stress_check,
    cmd.ThreatGone: stress.threat_gone,
    cmd.Coerce: coercion.coerce,
    cmd.AnswerCoercion: coercion.answer,
    cmd.StartConflict: gridiron.start_conflict,
    cmd.GridironRoll: gridiron.gridiron_roll,
    cmd.EndConflict: gridiron.end_conflict,
    **COMBAT_HANDLERS,
}
