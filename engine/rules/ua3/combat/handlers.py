"""The ua3 fight commands and the rules deciding them (U-3…U-13, U-15 in a fight, U-17, U-22)."""

from __future__ import annotations

from engine.commands import ua3 as cmd
from engine.commands import ua3_combat as fight
from engine.commands.base import CommandBase
from engine.rules.ruleset import Handler
from engine.rules.ua3.combat import attack, finish, grapple, rounds

COMBAT_HANDLERS: dict[type[CommandBase], Handler] = {
    fight.BeginFight: rounds.begin_fight,
    fight.Declare: rounds.declare,
    fight.Attack: attack.attack,
    fight.FullAuto: attack.full_auto,
    fight.Suppress: attack.suppress,
    fight.Aim: rounds.aim,
    fight.Dodge: rounds.dodge,
    fight.Grapple: grapple.grapple,
    fight.Finish: finish.finish,
    fight.Ready: rounds.ready,
    fight.ClearJam: rounds.clear_jam,
    fight.Flee: rounds.flee,
    fight.Surrender: rounds.surrender,
    fight.DoNothing: rounds.do_nothing,
    fight.EndFight: rounds.end_fight,
    # coercion is its own rule (U-15); in a fight it is a declared action, and acquiescing gives up
    cmd.Coerce: rounds.coerce,
    cmd.AnswerCoercion: rounds.answer,
}
