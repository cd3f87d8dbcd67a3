"""Initiative (I2-1…I2-5): roll, default or ambush; successes first, higher first; ties by a die."""

from __future__ import annotations

from collections.abc import Sequence

from engine.commands.combat import BeginFight
from engine.dice.percentile import face_value
from engine.dice.source import DiceSource, roll_percentile
from engine.errors import Refused
from engine.events import combat as ev
from engine.events.base import EventBase
from engine.rules.batch import Batch
from engine.rules.common import require_started
from engine.rules.decide import handles
from engine.rules.ua2.combat.situation import able_to_act, roll_shifts
from engine.rules.ua2.combat.turns import start_first_turn
from engine.state.encounter import Combatant, Encounter
from engine.state.fight import InitiativeMethod

MAX_TIE_ROUNDS = 50


def automatic_method(c: Combatant, ambusher: bool) -> InitiativeMethod:
    """An automated combatant's choice: ambush if ambushing, default (a sure success at the
    Initiative skill) when it has that skill, else roll (I2-1)."""
    if ambusher:
        return "ambush"
    return "default" if c.sheet.skill("Initiative") is not None else "roll"


def initiative_event(state: Encounter, c: Combatant, method: InitiativeMethod, dice: DiceSource) -> ev.InitiativeSet:
    """I2-1…I2-3 for one combatant."""
    speed = c.sheet.stats.speed
    if method == "ambush":
        return ev.InitiativeSet(id=c.id, method=method, value=speed, success=True, speed=speed)
    if method == "default":
        # S2-4: Initiative starts at half Speed when the sheet does not list it.
        skill = c.sheet.skill("Initiative")
        value = skill.rating if skill is not None else speed // 2
        return ev.InitiativeSet(id=c.id, method=method, value=value, success=True, speed=speed)
    roll = roll_percentile(dice)
    # C2-31: wound shifts apply to every roll; last round's suppression does not reach round start.
    shift = sum(s.amount for s in roll_shifts(state, c.id, suppression=False))
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


def ranked_order(state: Encounter, dice: DiceSource, batch: Batch) -> None:
    """I2-2 and I2-4: sort by (success, value), break ties with dice, emit the order.

    I2-4: each tied fighter rolls a die; those below the best die drop one point, just below the
    winner; those sharing the best die are still tied and roll again (the losers, now tied one
    point lower, roll among themselves next). Only fighters still in the fight roll."""
    ranks: dict[str, tuple[bool, float]] = {}
    for f in batch.state.fight.fighters:
        if f.initiative is not None:
            ranks[f.id] = (f.initiative.success, f.initiative.rank)
    rolling = {c.id for c in batch.state.combatants if c.status == "active"}
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
        batch.emit(ev.TieBroken(ids=tuple(ids), faces=faces, winner=winner, value=key[1]))
        for fid, value in zip(ids, values, strict=True):
            if value < best:
                ranks[fid] = (key[0], key[1] - 1)
    order = sorted(ranks, key=lambda fid: (ranks[fid][0], ranks[fid][1]), reverse=True)
    batch.emit(ev.OrderSet(order=tuple(order), ranks=tuple(ranks[fid][1] for fid in order)))


@handles(BeginFight)
def begin_fight(state: Encounter, command: BeginFight, dice: DiceSource) -> Sequence[EventBase]:
    require_started(state)
    if state.fight.phase != "setup":
        raise Refused("the fight has already begun")
    if len({c.side for c in state.combatants if able_to_act(c)}) < 2:
        raise Refused("a fight needs combatants able to act on at least two sides")
    chosen = {choice.id: choice.method for choice in command.initiative}
    for fid in chosen:
        if state.combatant(fid) is None:
            raise Refused(f"no combatant {fid!r} in this encounter")
    batch = Batch(state)
    for c in state.combatants:  # C2-31: a fighter who joined at or below the lines is out already
        if c.status == "active" and c.wounds <= state.settings.dead_at:
            batch.emit(ev.StatusChanged(id=c.id, status="dead", cause=f"{c.wounds} wound points", rule="C2-31"))
        elif c.status == "active" and c.wounds <= state.settings.incapacitated_at:
            batch.emit(
                ev.StatusChanged(id=c.id, status="incapacitated", cause=f"{c.wounds} wound points", rule="C2-31")
            )
    if len({c.side for c in batch.state.combatants if able_to_act(c)}) < 2:
        raise Refused("a fight needs combatants able to act on at least two sides", hint="C2-31, C2-33")
    state = batch.state
    for c in state.combatants:
        if not able_to_act(c):
            continue
        fighter = state.fighter(c.id)
        method = chosen.get(c.id) or automatic_method(c, fighter.ambusher)
        if method == "ambush" and not fighter.ambusher:
            raise Refused(f"{c.id} is not ambushing", hint="the scenario says who ambushes (I2-3)")
        batch.emit(initiative_event(state, c, method, dice))
    ranked_order(state, dice, batch)
    ambushers = tuple(
        fid for fid in batch.state.fight.order if (i := batch.state.fighter(fid).initiative) and i.method == "ambush"
    )
    if ambushers:
        batch.emit(ev.AmbushStarted(order=ambushers))
        start_first_turn(batch, dice)
    else:
        batch.emit(ev.RoundStarted(round=1, order=batch.state.fight.order))
    return batch


def reinitiative(batch: Batch, dice: DiceSource) -> None:
    """I2-5: those who spent a round doing nothing set initiative again, then the order is re-ranked."""
    state = batch.state
    again = [
        (c, f.reinitiative)
        for f in state.fight.fighters
        if f.reinitiative is not None and (c := state.combatant(f.id)) is not None and able_to_act(c)
    ]
    if not again:
        return  # no one able to act asked for it (one who dropped since keeps the old place)
    for c, asked in again:
        method: InitiativeMethod = "default" if asked == "ambush" else asked
        batch.emit(initiative_event(state, c, method, dice))
    ranked_order(state, dice, batch)
