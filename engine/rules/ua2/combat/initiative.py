"""Initiative (I2-1…I2-5): roll, default or ambush; successes first, higher first; ties by a die."""

from __future__ import annotations

from engine.commands.combat import BeginFight
from engine.dice.percentile import face_value
from engine.dice.source import DiceSource, roll_percentile
from engine.errors import Refused
from engine.events import combat as ev
from engine.events.combat import StatusName
from engine.rules.common import require_started
from engine.rules.ua2.combat.situation import able_to_act, roll_shifts
from engine.rules.ua2.combat.turns import fight_over, start_first_turn
from engine.rules.ua2.sink import Sink
from engine.rules.ua2.table import Row, Table
from engine.settings import Settings
from engine.state.fight import InitiativeMethod

MAX_TIE_ROUNDS = 50


def automatic_method(c: Row, ambusher: bool) -> InitiativeMethod:
    """An automated combatant's choice: ambush if ambushing, default (a sure success at the
    Initiative skill) when it has that skill, else roll (I2-1)."""
    if ambusher:
        return "ambush"
    return "default" if c.skill("Initiative") is not None else "roll"


def initiative_event(t: Table, c: Row, method: InitiativeMethod, dice: DiceSource) -> ev.InitiativeSet:
    """I2-1…I2-3 for one combatant."""
    speed = c.sheet.stats.speed
    if method == "ambush":
        return ev.InitiativeSet(id=c.id, method=method, value=speed, success=True, speed=speed)
    if method == "default":
        # S2-4: Initiative starts at half Speed when the sheet does not list it.
        skill = c.skill("Initiative")
        value = skill.rating if skill is not None else speed // 2
        return ev.InitiativeSet(id=c.id, method=method, value=value, success=True, speed=speed)
    roll = roll_percentile(dice)
    # C2-31: wound shifts apply to every roll; last round's suppression does not reach round start.
    shift = sum(s.amount for s in roll_shifts(t, c.id, suppression=False))
    target = speed + shift
    # I2-2: crits, fumbles and matches mean nothing; a fumble is a failure of value 100.
    return ev.InitiativeSet(
        id=c.id,
        method=method,
        value=roll.value,
        success=roll.value <= target,
        speed=speed,
        roll=roll,
        shift=shift,
    )


def ranked_order(sink: Sink, dice: DiceSource) -> None:
    """I2-2 and I2-4: sort by (success, value), break ties with dice, emit the order.

    I2-4: each tied fighter rolls a die; those below the best die drop one point, just below the
    winner; those sharing the best die are still tied and roll again (the losers, now tied one
    point lower, roll among themselves next). Only fighters still in the fight roll."""
    t = sink.table
    ranks: dict[str, tuple[bool, float]] = {}
    for f in t.rows:
        if f.initiative is not None:
            ranks[f.id] = (f.initiative.success, f.initiative.rank)
    rolling = {c.id for c in t.rows if c.status == "active"}
    for _ in range(MAX_TIE_ROUNDS):
        groups: dict[tuple[bool, float], list[str]] = {}
        for fid, key in ranks.items():
            if fid in rolling:
                groups.setdefault(key, []).append(fid)
        tied = sorted((k for k, ids in groups.items() if len(ids) > 1), reverse=True)
        if not tied:
            break
        key = tied[0]
        ids = groups[key]
        faces = tuple(dice.d10() for _ in ids)
        values = [face_value(f) for f in faces]
        best = max(values)
        winners = [i for i, v in zip(ids, values, strict=True) if v == best]
        winner = winners[0] if len(winners) == 1 else ""
        sink.emit(ev.TieBroken(ids=tuple(ids), faces=faces, winner=winner, value=key[1]))
        for fid, value in zip(ids, values, strict=True):
            if value < best:
                ranks[fid] = (key[0], key[1] - 1)
    order = sorted(ranks, key=lambda fid: (ranks[fid][0], ranks[fid][1]), reverse=True)
    sink.emit(ev.OrderSet(order=tuple(order), ranks=tuple(ranks[fid][1] for fid in order)))


def _out_already(c: Row, settings: Settings) -> StatusName | None:
    """C2-31: a fighter who joined at or below the lines is out before the fight begins."""
    if c.status != "active":
        return None
    if c.wounds <= settings.dead_at:
        return "dead"
    if c.wounds <= settings.incapacitated_at:
        return "incapacitated"
    return None


def begin_fight(sink: Sink, command: BeginFight, dice: DiceSource) -> None:
    """I2-1…I2-4 for everyone able to act, then the ambush (I2-3) or round 1. Everything that can
    refuse is checked first (a refused command changes nothing)."""
    t = sink.table
    require_started(t)
    if t.phase != "setup":
        raise Refused("the fight has already begun")
    if len({c.side for c in t.rows if c.status == "active"}) < 2:
        raise Refused("a fight needs combatants standing on at least two sides (C2-33)")
    chosen = {choice.id: choice.method for choice in command.initiative}
    for fid in chosen:
        if fid not in t.by_id:
            raise Refused(f"no combatant {fid!r} in this encounter")
    out = [
        ev.StatusChanged(id=c.id, status=status, cause=f"{c.wounds} wound points", rule="C2-31")
        for c in t.rows
        if (status := _out_already(c, t.settings))
    ]
    gone = {e.id for e in out}
    # Every combatant standing takes a place: a frozen one is helpless, not gone (C2-33, M2-7).
    fighting = [c for c in t.rows if c.status == "active" and c.id not in gone]
    if len({c.side for c in fighting}) < 2:
        raise Refused("a fight needs combatants standing on at least two sides", hint="C2-31, C2-33")
    methods = {c.id: chosen.get(c.id) or automatic_method(c, c.ambusher) for c in fighting}
    for c in fighting:
        if methods[c.id] == "ambush" and not c.ambusher:
            raise Refused(f"{c.id} is not ambushing", hint="the scenario says who ambushes (I2-3)")
    sink.emit(*out)
    for c in fighting:
        sink.emit(initiative_event(t, c, methods[c.id], dice))
    ranked_order(sink, dice)
    if fight_over(sink):  # no one standing can act at all (C2-33): over before it starts
        return
    ambushers = tuple(fid for fid in t.order if (i := t.by_id[fid].initiative) and i.method == "ambush")
    if ambushers:
        sink.emit(ev.AmbushStarted(order=ambushers))
        start_first_turn(sink, dice)
    else:
        sink.emit(ev.RoundStarted(round=1, order=t.order))


def reinitiative(sink: Sink, dice: DiceSource) -> None:
    """I2-5: those who spent a round doing nothing set initiative again, then the order is re-ranked."""
    t = sink.table
    again = [(c, c.reinitiative) for c in t.rows if c.reinitiative is not None and able_to_act(c)]
    if not again:
        return  # no one able to act asked for it (one who dropped since keeps the old place)
    for c, asked in again:
        method: InitiativeMethod = "default" if asked == "ambush" else asked  # type: ignore[assignment]
        sink.emit(initiative_event(t, c, method, dice))
    ranked_order(sink, dice)
