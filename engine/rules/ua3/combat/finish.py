"""Finishing the helpless (U-10): automatic with a weapon; without one a Struggle roll whose
matched failure or fumble leaves the victim only seeming dead; the stress checks of doing it
(Violence 7) and of seeing it (Violence 3, every conscious combatant on either side), raised
when the finisher believes it killed: a kill (a failure's wounds that kill, too) or the seeming one."""

from __future__ import annotations

from engine.commands.ua3_combat import Finish
from engine.dice.checks import roll_check
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.ua3 import StatusChanged
from engine.events.ua3 import combat as ev
from engine.rules.sink import Sink
from engine.rules.ua3.combat.harm import stress, wound
from engine.rules.ua3.combat.rounds import end_turn, suppressed_may_act, turn_of
from engine.rules.ua3.combat.situation import dead, helpless, struggle, weapon_of
from engine.rules.ua3.people import check_flip, spec_for
from engine.rules.ua3.table import Table


def finish(sink: Sink[Table], command: Finish, dice: DiceSource) -> None:
    t = sink.table
    row = turn_of(t, command.actor, "finish")
    declared = row.declared
    assert declared is not None
    if command.target not in declared.targets:
        raise Refused(f"{row.id} declared finishing {', '.join(declared.targets)}, not {command.target}")
    target = t.by_id[command.target]
    if not helpless(target) or target.status == "dead":
        raise Refused(f"{target.id} is not helpless (U-10: unconscious, restrained or frozen)")
    weapon = weapon_of(row)
    armed = weapon.name != "fists" and not (weapon.kind == "firearm" and row.jammed)
    if not armed:
        check_flip(struggle(row), command.flipped)
    if not suppressed_may_act(sink, row, dice):
        return
    option = struggle(row)  # read after the check: a notch it marked counts at once (U-18)
    believes = True
    if armed:
        cause = f"{row.id} finishes it with the {weapon.name}, automatically"
        sink.emit(StatusChanged(actor=target.id, status="dead", cause=cause, rule="U-10"))
    else:
        result = roll_check(spec_for(row, option), dice, flipped=command.flipped, who=row.id, rule="U-10")
        roll = result.roll
        assert roll is not None
        outcome = result.outcome
        wounds = 0 if result.success or outcome in ("matched_failure", "fumble") else roll.value
        sink.emit(
            ev.AttackRolled(
                round=t.round,
                attacker=row.id,
                targets=(target.id,),
                weapon="fists",
                kind="unarmed",
                mode="finish",
                result=result,
                wounds=(wounds,),
                breakdown=f"a failure: the roll {roll.value}" if wounds else "",
                rule="U-10",
            )
        )
        if result.success:
            sink.emit(
                StatusChanged(actor=target.id, status="dead", cause=f"{row.id} finishes it bare-handed", rule="U-10")
            )
        elif outcome in ("matched_failure", "fumble"):
            if target.status == "active":
                cause = f"{row.id} leaves it for dead"
                sink.emit(StatusChanged(actor=target.id, status="unconscious", cause=cause, rule="U-10"))
            sink.emit(ev.ThoughtDead(actor=target.id, by_side=row.side))
        else:
            wound(sink, target, wounds, f"{row.id}'s attempt to finish it", "U-10")
            # a failure that kills raises what a finish raises (and, like one, not U-25's kill)
            believes = dead(target)
    if believes:
        settings = t.settings
        cause = f"finished {target.id}, a helpless target (U-10)"
        stress(sink, row, settings.finish_rank, target.id, cause, dice)
        for witness in t.rows:
            if witness.id not in (row.id, target.id):
                stress(
                    sink, witness, settings.witness_finish_rank, row.id, f"saw {row.id} finish {target.id} (U-10)", dice
                )
    end_turn(sink, row.id, dice)
