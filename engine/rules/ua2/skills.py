"""Checks rolled from the sheet (C-7, C-9, S2-3) and passions spent on them (C-10)."""

from __future__ import annotations

from typing import get_args

import msgspec

from engine.commands.checks import SkillCheck, SpendPassion
from engine.commands.setup import RollCheck
from engine.dice.checks import CheckSpec
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.madness import PassionSpent
from engine.rules.common import check, require_started
from engine.rules.passions import changed
from engine.rules.ua2.passion import require_passion
from engine.rules.ua2.sink import Sink
from engine.rules.ua2.table import Row, Table
from engine.state.sheet import Sheet, StatName

STATS: tuple[str, ...] = get_args(StatName)


def _living(t: Table, actor_id: str) -> Row:
    combatant = t.by_id.get(actor_id)
    if combatant is None:
        raise Refused(f"no combatant {actor_id!r} in this encounter")
    if combatant.status == "dead":
        raise Refused(f"{actor_id} is dead and rolls nothing")
    return combatant


def skill_spec(sheet: Sheet, command: SkillCheck) -> CheckSpec:
    """The check a sheet gives a skill: its rating, its tied stat for the weak band (S2-3, C-4),
    flip-flop when it is the obsession skill (C-9); a skill the sheet lacks is rolled untrained
    on the stat the command names (C-7)."""
    if command.stat is not None and command.stat not in STATS:
        raise Refused(f"unknown stat {command.stat!r}", hint=f"use one of {', '.join(STATS)}")
    if command.minimum is not None and not 1 <= command.minimum <= 100:
        raise Refused(f"a minimum roll is 1–100, got {command.minimum}", hint="C-8")
    base = CheckSpec(
        kind=command.kind,
        shifts=command.shifts,
        minimum=command.minimum,
        flip=sheet.is_obsession(command.skill),
        roll_anyway=command.roll_anyway,
        label=command.skill,
    )
    skill = sheet.skill(command.skill)
    if skill is not None:
        if command.stat is not None and command.stat != skill.stat:
            raise Refused(
                f"{skill.name} is tied to {skill.stat.title()}, not {command.stat.title()} (S2-3)",
                hint="leave the stat out for a skill on the sheet",
            )
        tied = sheet.stats.of(skill.stat)
        return msgspec.structs.replace(base, rating=skill.rating, stat=tied, label=skill.name)
    if command.stat is None:
        raise Refused(
            f"{sheet.name} has no skill {command.skill!r}",
            hint="name the stat to roll it untrained, if the GM rules that possible (C-7)",
        )
    stat = sheet.stats.of(command.stat)
    return msgspec.structs.replace(base, rating=stat, stat=stat, untrained=True)


def skill_check(sink: Sink, command: SkillCheck, dice: DiceSource) -> None:
    """A check built from the actor's sheet, rolled as any other check (C-1…C-13)."""
    require_started(sink.table)
    combatant = _living(sink.table, command.actor)
    spec = skill_spec(combatant.sheet, command)
    check(sink, RollCheck(spec=spec, actor=command.actor, purpose=command.purpose, flipped=command.flipped), dice)


def spend_passion(sink: Sink, command: SpendPassion, dice: DiceSource) -> None:
    """C-10: a triggered passion rerolls or flip-flops the actor's most recent failed check,
    each passion `passion_uses_per_session` times (the encounter's log is the session)."""
    t = sink.table
    require_started(t)
    combatant = _living(t, command.actor)
    passion = require_passion(t, combatant, command.passion)
    last = combatant.last_check
    if last is None or last.roll is None:
        raise Refused(f"{command.actor} has no rolled check for a passion to change (C-10)")
    if last.success:
        raise Refused(
            f"{command.actor}'s last check was a {last.outcome.replace('_', ' ')}, not a failure",
            hint="a passion changes a failed roll only (C-10)",
        )
    after = changed(last, command.mode, command.flipped, dice, command.actor)
    sink.emit(
        PassionSpent(
            actor=command.actor,
            passion=command.passion,
            mode=command.mode,
            trigger=passion.trigger,
            before=last,
            after=after,
        )
    )
