"""GM rulings in ua3 (U-26): the note, then the effects it carries, in order — wounds dealt or
taken off (U-2: healing is not in the seed, a ruling is how wounds come off), crashes and falls
(U-13: bulletproof armor or a helmet takes 10 off), notches marked (U-23, U-18, U-24) or erased,
conditions set or cleared. Every effect is decided on a copy of the table and handed to the sink
only when all are, so a refused ruling changes nothing."""

from __future__ import annotations

from typing import cast

from engine.commands.setup import Ruling, RulingCondition, RulingFall, RulingNotch, RulingWounds
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.ua3 import FailedNotchMarked, TraumaMarked
from engine.events.ua3.ruling import (
    CONDITION_RULES,
    RULED_BY,
    ConditionRuled,
    Fell,
    NotchErased,
    RuledCondition,
    WoundsRemoved,
)
from engine.rules.common import each_effect, ruling_note
from engine.rules.sink import Sink
from engine.rules.ua3.abilities import downbeat, gauge_in, label, upbeat
from engine.rules.ua3.apply import APPLIERS
from engine.rules.ua3.combat.harm import wound
from engine.rules.ua3.combat.rounds import close_grapples, fight_over, in_fight
from engine.rules.ua3.combat.situation import frozen
from engine.rules.ua3.harm import at_percent
from engine.rules.ua3.people import person
from engine.rules.ua3.stress import burned_out_event, burns_out, gauge_of, hardened_notch_event
from engine.rules.ua3.table import Row, Table
from engine.state.ua3.sheet import MAX_FAILED, MAX_HARDENED, U18, GaugeName


def ruling(sink: Sink[Table], command: Ruling, dice: DiceSource) -> None:
    draft = Sink(sink.table.clone(), APPLIERS)
    ruling_note(draft, command)
    wounds, falls, notches, conditions = command.effects()
    each_effect(wounds, "wounds", lambda w: _wounds(draft, w))
    each_effect(falls, "falls", lambda f: _fall(draft, f))
    each_effect(notches, "notches", lambda n: _notches(draft, n))
    each_effect(conditions, "conditions", lambda c: _condition(draft, c))
    if in_fight(draft.table):  # as after any harm: grapples and restraints close, the fight may end
        close_grapples(draft)
        fight_over(draft)
    sink.emit_all(draft.recorded)


def _alive(t: Table, who: str) -> Row:
    row = person(t, who)
    if row.status == "dead":
        raise Refused(f"{who} is dead", hint="undo or amend what killed them")
    return row


def _wounds(sink: Sink[Table], change: RulingWounds) -> None:
    """Wounds dealt count up as any wounds (U-2: 90% of the threshold knocks out, 100% kills);
    wounds taken off count down, never below 0."""
    t = sink.table
    row = _alive(t, change.who)
    if change.injury is not None:
        raise Refused("ua3 wounds are one count, not injuries (U-2)", hint="leave the injury out")
    if change.amount == 0:
        raise Refused("wounds are +N (dealt) or −N (taken off), not 0")
    if change.amount > 0:
        wound(sink, row, change.amount, RULED_BY, "U-26")
        return
    if row.wounds == 0:
        raise Refused(f"{row.id} has no wounds to take off")
    taken = min(-change.amount, row.wounds)
    sink.emit(WoundsRemoved(actor=row.id, amount=taken, before=row.wounds, threshold=row.threshold(t.settings)))


def _fall(sink: Sink[Table], fall: RulingFall) -> None:
    """U-13: a crash or a fall; bulletproof armor or a helmet (spent or not: spending is for a
    gun wound) takes 10 off, once."""
    row = _alive(sink.table, fall.who)
    armor = "bulletproof armor" if row.armor.bulletproof else "helmet" if row.armor.helmet else ""
    event = Fell(actor=row.id, wounds=fall.wounds, armor=armor)
    sink.emit(event)
    wound(sink, row, event.taken, "the crash or fall", "U-13, U-26")


def _notches(sink: Sink[Table], change: RulingNotch) -> None:
    """Marked as a stress check marks them (U-23; U-18's abilities at once, U-24's burnout, a
    trauma at the fifth failed one), erased as therapy erases them (M2-6)."""
    t = sink.table
    row = _alive(t, change.who)
    gauge = gauge_of(change.meter)
    held = gauge_in(row.gauges, gauge)
    hardened = change.kind == "hardened"
    have, cap = (held.hardened, MAX_HARDENED) if hardened else (held.failed, MAX_FAILED)
    if change.change == 0:
        raise Refused("a notch change is +N (marked) or −N (erased), not 0")
    if change.change < 0:
        if have < -change.change:
            raise Refused(f"{row.id}'s {gauge} gauge has {have} {change.kind} notches, not {-change.change} to erase")
        sink.emit(_erased(row.id, gauge, change.kind, have, have + change.change))
        return
    if have + change.change > cap:
        raise Refused(
            f"{row.id}'s {gauge} gauge has {have} of {cap} {change.kind} notches: no room for {change.change}"
        )
    for before in range(have, have + change.change):
        if hardened:
            total, threshold = row.hardened_total(), t.settings.burnout_hardened
            sink.emit(hardened_notch_event(row.id, gauge, before, RULED_BY))
            if burns_out(total, threshold):
                sink.emit(burned_out_event(row, total + 1, threshold))
        else:
            sink.emit(FailedNotchMarked(actor=row.id, gauge=gauge, before=before, after=before + 1, cause=RULED_BY))
            if before + 1 == MAX_FAILED:
                sink.emit(TraumaMarked(actor=row.id, gauge=gauge, cause=RULED_BY))


def _erased(actor: str, gauge: GaugeName, kind: str, before: int, after: int) -> NotchErased:
    if kind == "failed":
        return NotchErased(actor=actor, gauge=gauge, kind="failed", before=before, after=after)
    rules = U18[gauge]
    return NotchErased(
        actor=actor,
        gauge=gauge,
        kind="hardened",
        before=before,
        after=after,
        upbeat=label(rules.upbeat),
        upbeat_before=upbeat(before),
        upbeat_after=upbeat(after),
        downbeat=label(rules.downbeat),
        downbeat_before=downbeat(before),
        downbeat_after=downbeat(after),
    )


def _condition(sink: Sink[Table], change: RulingCondition) -> None:
    t = sink.table
    name = change.condition.strip().casefold()
    if name not in CONDITION_RULES:
        raise Refused(f"unknown condition {change.condition!r}", hint=f"ua3 conditions: {', '.join(CONDITION_RULES)}")
    row = _alive(t, change.who)
    held = _holds(row, name)
    if change.clear and not held:
        raise Refused(f"{row.id} is not {name}")
    if not change.clear and held:
        raise Refused(f"{row.id} is already {name}")
    if not change.clear and row.status != "active":
        raise Refused(f"{row.id} is {row.status}")
    threshold = row.threshold(t.settings)
    if name == "unconscious" and change.clear and row.wounds >= at_percent(threshold, 90):
        raise Refused(
            f"{row.id} has {row.wounds} wounds of {threshold} and stays unconscious (U-2)",
            hint=f"take wounds off first, in the same ruling: --wounds {row.id}=-N",
        )
    sink.emit(ConditionRuled(actor=row.id, condition=cast(RuledCondition, name), clear=change.clear))


def _holds(row: Row, name: str) -> bool:
    """Whether `row` is `name` now (a ruled condition's name)."""
    if name == "unconscious":
        return row.status == "unconscious"
    if name == "frozen":
        return frozen(row)
    return bool(row.restrained_by)
