"""Every ua2 command and the rule that decides it, in plain sight (STYLE: a dispatch table)."""

from __future__ import annotations

from engine.commands import (
    AddCombatant,
    Attack,
    BeginFight,
    BreakFree,
    ClearJam,
    Convalesce,
    Declare,
    Dodge,
    DoNothing,
    Draw,
    EndFight,
    FirstAid,
    Flee,
    MadnessCheck,
    MedicalCare,
    RollCheck,
    Ruling,
    SkillCheck,
    SourceGone,
    SpendPassion,
    Squeeze,
    StandUp,
    StartEncounter,
    SuppressiveFire,
    Surrender,
    Therapy,
)
from engine.commands.base import CommandBase
from engine.commands.setup import StartHelpless
from engine.rules import common
from engine.rules.ruleset import Handler
from engine.rules.ua2 import madness, ruling, setup, skills
from engine.rules.ua2.combat import actions, attack, healing, initiative, turns
from engine.settings import Settings

HANDLERS: dict[type[CommandBase], Handler] = {
    StartEncounter: common.starter(Settings),
    AddCombatant: setup.add_combatant,
    StartHelpless: setup.start_helpless,
    Ruling: ruling.ruling,
    RollCheck: common.check,
    SkillCheck: skills.skill_check,
    SpendPassion: skills.spend_passion,
    MadnessCheck: madness.madness_check,
    Therapy: madness.therapy,
    SourceGone: madness.source_gone,
    BeginFight: initiative.begin_fight,
    Declare: turns.declare,
    Attack: attack.attack,
    Dodge: actions.dodge,
    Draw: actions.draw,
    ClearJam: actions.clear_jam,
    StandUp: actions.stand_up,
    DoNothing: actions.do_nothing,
    SuppressiveFire: actions.suppressive_fire,
    BreakFree: actions.break_free,
    Squeeze: actions.squeeze,
    Flee: actions.flee,
    Surrender: actions.surrender,
    EndFight: turns.end_fight,
    FirstAid: healing.first_aid,
    MedicalCare: healing.medical_care,
    Convalesce: healing.convalesce,
}
