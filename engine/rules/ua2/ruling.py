"""GM rulings in ua2 (T-5: the GM may overrule any result): the note, then the effects it
carries, in order — wounds dealt (one injury, with C2-31's and C2-32's consequences) or taken off
injuries (H2), notches marked (M2-4, M2-5) or erased (M2-6), conditions set or cleared. Every
effect is decided on a copy of the table and handed to the sink only when all are, so a refused
ruling changes nothing. A crash or a fall is ua3's (U-13): ua2's seeds name falling but give no
rule, so a ruling gives a fall's wounds as wounds."""

from __future__ import annotations

from typing import cast

from engine.commands.setup import Ruling, RulingCondition, RulingNotch, RulingWounds
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.madness import NeurosisMarked, NotchMarked, TherapyGiven
from engine.events.ruling import CONDITION_RULES, CONDITION_SHIFTS, ConditionRuled, RuledCondition, RulingHealed
from engine.rules.common import each_effect, ruling_note
from engine.rules.ua2.combat.aftermath import inflict
from engine.rules.ua2.combat.cherries import CONDITION_ROUNDS
from engine.rules.ua2.combat.healing import recover, spread
from engine.rules.ua2.combat.situation import frozen, wound_shift_of
from engine.rules.ua2.combat.turns import fight_over
from engine.rules.ua2.madness import check_meter
from engine.rules.ua2.sink import Sink, recording_sink
from engine.rules.ua2.table import Row
from engine.state.sheet import MAX_FAILED, MAX_HARDENED

#: Who or what a ruling's wounds and notches are from, as their events name it.
CAUSE = "a GM ruling"
FIGHTING = ("ambush", "declare", "acting")


def ruling(sink: Sink, command: Ruling, dice: DiceSource) -> None:
    draft = recording_sink(sink.table.clone())
    ruling_note(draft, command)
    wounds, falls, notches, conditions = command.effects()
    if falls:
        raise Refused(
            "a crash or a fall is a ua3 rule (U-13); ua2's seeds give none",
            where="$.falls[0]",
            hint="give its wounds as wounds: --wounds WHO=N",
        )
    each_effect(wounds, "wounds", lambda w: _wounds(draft, w))
    each_effect(notches, "notches", lambda n: _notches(draft, n))
    each_effect(conditions, "conditions", lambda c: _condition(draft, c))
    if draft.table.phase in FIGHTING:
        fight_over(draft)  # C2-33: a ruling may leave one side standing
    sink.emit_all(draft.recorded)


def _alive(sink: Sink, who: str) -> Row:
    row = sink.table.by_id.get(who)
    if row is None:
        raise Refused(f"no combatant {who!r} in this encounter", hint=f"combatants: {', '.join(sink.table.by_id)}")
    if row.status == "dead":
        raise Refused(f"{who} is dead", hint="undo or amend what killed them")
    return row


def _wounds(sink: Sink, change: RulingWounds) -> None:
    """Wounds dealt are one injury (C2-32: over 50 is permanent damage; C2-31 as any wound);
    wounds taken off come off the most recent injury first, or the one named (H2)."""
    row = _alive(sink, change.who)
    if change.amount == 0:
        raise Refused("wounds are +N (dealt) or −N (taken off), not 0")
    if change.amount > 0:
        if change.injury is not None:
            raise Refused("wounds dealt are a new injury", hint="name an injury only for wounds taken off (H2)")
        inflict(sink, row.id, change.amount, CAUSE, "C2-32, T-5")
        return
    healed = _healing(row, -change.amount, change.injury)
    after = min(row.max_wounds, row.wounds + sum(points for _, points in healed))
    sink.emit(
        RulingHealed(
            patient=row.id,
            healed=healed,
            wounds_before=row.wounds,
            wounds_after=after,
            shift_after=wound_shift_of(row, after, sink.table),
        )
    )
    recover(sink, row.id)  # C2-31: able again above the line


def _healing(row: Row, amount: int, injury: int | None) -> tuple[tuple[int, int], ...]:
    """(injury id, points) taking `amount` off `row`'s open injuries, the most recent first (or
    only `injury`), at most what each has open — its last point too (H2-4; T-5)."""
    injuries = [i for i in reversed(row.injuries) if injury is None or i.id == injury]
    if injury is not None and not injuries:
        known = ", ".join(f"#{i.id}" for i in row.injuries) or "none"
        raise Refused(f"{row.id} has no injury #{injury}", hint=f"injuries: {known}")
    healed = spread(injuries, amount)
    if not healed:
        which = f"injury #{injury} is" if injury is not None else "its injuries are"
        raise Refused(f"{row.id} has no wounds to take off: {which} healed", hint="see `state` for injuries")
    return healed


def _notches(sink: Sink, change: RulingNotch) -> None:
    """Marked as any notch is (M2-4; the fifth failed one a neurosis, M2-5), erased as therapy
    does (M2-6)."""
    row = _alive(sink, change.who)
    meter = check_meter(change.meter)
    held = row.meters.of(meter)
    have, cap = (held.hardened, MAX_HARDENED) if change.kind == "hardened" else (held.failed, MAX_FAILED)
    if change.change == 0:
        raise Refused("a notch change is +N (marked) or −N (erased), not 0")
    if change.change < 0:
        if have < -change.change:
            raise Refused(f"{row.id}'s {meter} meter has {have} {change.kind} notches, not {-change.change} to erase")
        erased = -change.change
        sink.emit(
            TherapyGiven(
                actor=row.id,
                meter=meter,
                hardened_removed=erased if change.kind == "hardened" else 0,
                failed_removed=erased if change.kind == "failed" else 0,
                note=CAUSE,
            )
        )
        return
    if have + change.change > cap:
        raise Refused(
            f"{row.id}'s {meter} meter has {have} of {cap} {change.kind} notches: no room for {change.change}"
        )
    for marked in range(have + 1, have + change.change + 1):
        sink.emit(NotchMarked(actor=row.id, meter=meter, kind=change.kind, cause=CAUSE))
        if change.kind == "failed" and marked == MAX_FAILED and not held.neurosis:
            sink.emit(NeurosisMarked(actor=row.id, meter=meter, cause=CAUSE))


def _condition(sink: Sink, change: RulingCondition) -> None:
    t = sink.table
    name = change.condition.strip().casefold()
    if name not in CONDITION_RULES:
        raise Refused(f"unknown condition {change.condition!r}", hint=f"ua2 conditions: {', '.join(CONDITION_RULES)}")
    row = _alive(sink, change.who)
    held = _holds(row, name, t.round)
    if change.clear and not held:
        raise Refused(f"{row.id} is not {name}")
    if not change.clear and held:
        raise Refused(f"{row.id} is already {name}")
    if name == "unconscious" and not change.clear and row.status != "active":
        raise Refused(f"{row.id} is {row.status}")
    if name == "unconscious" and change.clear and row.wounds <= t.limits.incapacitated_at:
        raise Refused(
            f"{row.id} has {row.wounds} wound points and stays out of the fight (C2-31)",
            hint=f"heal first, in the same ruling: --wounds {row.id}=-N",
        )
    until = t.round + CONDITION_ROUNDS if name in CONDITION_SHIFTS and not change.clear else 0
    sink.emit(ConditionRuled(id=row.id, condition=cast(RuledCondition, name), clear=change.clear, until_round=until))


def _holds(row: Row, name: str, round_: int) -> bool:
    """Whether `row` is `name` now (a ruled condition's name)."""
    if name == "unconscious":
        return row.status == "unconscious"
    if name == "frozen":
        return frozen(row)
    if name == "prone":
        return row.prone
    return any(c.name == name and round_ <= c.until_round for c in row.conditions)
