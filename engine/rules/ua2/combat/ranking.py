"""Initiative (I2-1…I2-5): roll, default or ambush for one combatant; the order, successes first,
higher first, ties by a die; initiative re-set after a round of doing nothing."""

from __future__ import annotations

from engine.dice.checks import CheckSpec
from engine.dice.percentile import face_value
from engine.dice.source import DiceSource, SeededDice, roll_percentile, rolling
from engine.events import combat as ev
from engine.rules.ua2.combat.situation import able_to_act, roll_shifts
from engine.rules.ua2.sink import Sink
from engine.rules.ua2.table import Row, Table
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
    # C2-31: wound shifts apply to every roll; last round's suppression does not reach round start.
    shift = sum(s.amount for s in roll_shifts(t, c.id, suppression=False))
    target = speed + shift
    if type(dice) is not SeededDice:  # whose roll, and its odds: a success is a value within Speed (I2-2)
        rolling(dice, c.id, "initiative", rule="I2-1", spec=CheckSpec(kind="major", rating=target, label="Speed"))
    roll = roll_percentile(dice)
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


def _tie_die(dice: DiceSource, who: str) -> int:
    """I2-4: the die `who` rolls to break a tie."""
    rolling(dice, who, "tie-breaking die", rule="I2-4", faces=1)
    return dice.d10()


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
        faces = tuple(_tie_die(dice, fid) for fid in ids)
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
