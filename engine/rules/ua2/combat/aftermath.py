"""What follows wounds and deaths: status changes (C2-31, C2-32), combat-raised madness (M2-8),
reactions in a fight (M2-7), and reactions ending when their source is gone (M2-4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.dice.source import DiceSource
from engine.events import combat as ev
from engine.rules.ua2.apply import made_permanent, status_changed
from engine.rules.ua2.combat.situation import wound_shift_of
from engine.rules.ua2.madness import check_madness, end_reactions, require_check
from engine.rules.ua2.passion import RollPassionUse
from engine.rules.ua2.sink import Sink
from engine.rules.ua2.table import Table
from engine.state.encounter import Reaction

PERMANENT_OVER: Final = 50  # C2-32
FIGHT_SOURCE: Final = "the fight"


def hit_numbers(t: Table, target: str, amount: int) -> tuple[int, int, int, int]:
    """(injury id, wounds before, wounds after, wound shift after) for `amount` on `target`."""
    c = t.by_id[target]
    after = c.wounds - amount
    return t.next_injury_id, c.wounds, after, wound_shift_of(c, after, t)


def inflict(sink: Sink, target: str, amount: int, source: str, rule: str) -> None:
    """Wounds outside an attack's hit (fumbles, matched failures, knife cuts, grips, blades)."""
    if amount <= 0:
        return
    injury, before, after, shift = hit_numbers(sink.table, target, amount)
    sink.emit(
        ev.WoundsInflicted(
            target=target,
            amount=amount,
            source=source,
            rule=rule,
            injury_id=injury,
            wounds_before=before,
            wounds_after=after,
            shift_after=shift,
        )
    )
    settle_wounds(sink, target, amount, injury, cause=source)


def settle_wounds(sink: Sink, target: str, amount: int, injury_id: int, *, cause: str) -> None:
    """C2-31 status from wound points; C2-32 permanent damage over 50 in one blow. `cause`: what
    dealt the wounds (only the events hold it: "" when counting will do)."""
    t = sink.table
    c = t.by_id.get(target)
    if c is None:
        return
    recording = sink.recording
    if amount > PERMANENT_OVER:
        made_permanent(c, injury_id)
        sink.applied(ev.PermanentDamage(id=target, injury_id=injury_id, amount=amount) if recording else None)
    if c.status in ("dead",):
        return
    limits = t.limits
    status: ev.StatusName
    if c.wounds <= limits.dead_at:
        status = "dead"
    elif c.wounds <= limits.incapacitated_at and c.status == "active":
        status = "incapacitated"
    else:
        return
    status_changed(t, c, status)
    sink.applied(
        ev.StatusChanged(id=target, status=status, cause=f"{c.wounds} wound points after {cause}", rule="C2-31")
        if recording
        else None
    )
    left_fight(sink, target)


def left_fight(sink: Sink, who: str) -> None:
    """M2-4: reactions whose source was `who` end now that it is out of the fight."""
    end_reactions(sink, who)


def madness(
    sink: Sink,
    who: str,
    rank: int,
    cause: str,
    source: str,
    dice: DiceSource,
    reactions: Mapping[str, Reaction] | None = None,
    passions: RollPassionUse | None = None,
) -> None:
    """M2-8: a violence check raised by the fight; a `flee` reaction leaves the fight (M2-7).
    `reactions`: the reaction a person chose for a combatant, should its check fail (M2-4);
    `passions`: a passion a person chose to spend on a combatant's failed Mind roll (C-10)."""
    c = sink.table.by_id.get(who)
    if rank <= 0 or c is None or c.status != "active":
        return
    stated = reactions.get(who) if reactions else None
    use = passions.due(who, "madness") if passions is not None else None
    row, name = require_check(sink.table, who, "violence", rank, stated)
    spent = check_madness(
        sink,
        row,
        name,
        rank,
        cause,
        dice,
        stated,
        source=source,
        passion=use.passion if use is not None else None,
        passion_mode=use.mode if use is not None else "reroll",
    )
    if spent and passions is not None:
        passions.spent = True
    if row.status == "fled":  # the check's reaction sent it running
        left_fight(sink, who)


def violence_after_attack(
    sink: Sink,
    attacker: str,
    target: str,
    *,
    weapon_kind: str,
    first_trigger: bool,
    killed: bool,
    helpless: bool,
    dice: DiceSource,
    reactions: Mapping[str, Reaction] | None = None,
    passions: RollPassionUse | None = None,
) -> None:
    """M2-8 default triggers, in order: the target's first weapon attack or first shot, then the
    killer's check, then each ally who saw the kill (`reactions`, `passions`: as `madness`)."""
    settings = sink.table.limits
    recording = sink.recording  # a check's cause is read only by the events a recording sink keeps
    if first_trigger and weapon_kind == "firearm":
        cause = f"shot at by {attacker} for the first time (M2-8)" if recording else ""
        madness(sink, target, settings.violence_first_shot_at, cause, attacker, dice, reactions, passions)
    elif first_trigger and weapon_kind == "melee":
        cause = f"attacked with a weapon by {attacker} for the first time (M2-8)" if recording else ""
        madness(sink, target, settings.violence_first_weapon_attack, cause, attacker, dice, reactions, passions)
    if not killed:
        return
    if helpless:
        cause = f"killed the helpless {target} (M2-8)" if recording else ""
        madness(sink, attacker, settings.violence_kill_helpless, cause, FIGHT_SOURCE, dice, reactions, passions)
    else:
        cause = f"killed {target} (M2-8)" if recording else ""
        madness(sink, attacker, settings.violence_kill, cause, FIGHT_SOURCE, dice, reactions, passions)
    victim = sink.table.by_id[target]
    for ally in sink.table.rows:
        if ally.id not in (target, attacker) and ally.side == victim.side and ally.status == "active":
            cause = f"saw {target} killed by {attacker} (M2-8)" if recording else ""
            madness(sink, ally.id, settings.violence_ally_killed, cause, attacker, dice, passions=passions)


def knock_down(sink: Sink, target: str) -> None:
    """C2-29 / I2-6: the target falls and goes to the end of the initiative order.

    The fighter acting now keeps its turn in the new order, so no one is skipped; a target that
    has already acted this round does not act again at the end of it (turns skips it). During
    an ambush (I2-3) the order holds only the ambushers: a fallen victim is not added to it,
    and takes its place at the end from round 1. Whom a fallen fighter can reach until it
    stands (C2-29) is not modelled: the engine has no map, so that is the GM's call (a ruling).
    """
    t = sink.table
    ranks = [f.initiative.rank for f in t.rows if f.initiative is not None]
    rank = (min(ranks) if ranks else 0) - 1
    if t.phase == "ambush" and target not in t.order:
        order = t.order
    else:
        order = (*(fid for fid in t.order if fid != target), target)
    current = t.current
    turn = order.index(current) if current is not None and current in order else t.turn
    sink.emit(ev.KnockedDown(id=target, order=order, rank=rank, turn=turn))
