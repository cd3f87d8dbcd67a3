"""Harm in a ua3 fight: wounds dealt (U-2), armor (U-13), the stress checks combat raises
(U-25, U-8, U-10) and the reactions they bring in a fight (U-23)."""

from __future__ import annotations

from engine.dice.percentile import face_value
from engine.dice.source import DiceSource, rolling
from engine.events.base import EventBase
from engine.events.ua3 import StatusChanged, StressChecked
from engine.rules.sink import Sink
from engine.rules.ua3.apply import status_changed, wounds_taken
from engine.rules.ua3.combat.situation import grapple_of, present, standing
from engine.rules.ua3.harm import wound_events, wound_status
from engine.rules.ua3.stress import counted_stress, stress_events
from engine.rules.ua3.table import Row, Table


def wound(sink: Sink[Table], row: Row, amount: int, cause: str, rule: str, faces: tuple[int, ...] = ()) -> None:
    """U-2: wounds count up; 90% of the threshold knocks out, 100% kills."""
    if amount <= 0 or row.status == "dead":
        return
    if sink.recording:
        sink.emit_all(wound_events(sink.table, row, amount, cause, faces=faces, rule=rule))
        return
    # counting: the same facts (`wound_events`'), applied with no event built
    threshold = row.threshold(sink.table.settings)
    status = wound_status(row.status, row.wounds + amount, threshold)
    wounds_taken(row, amount)
    sink.applied(None)
    if status is not None:
        status_changed(row, status)
        sink.applied(None)


def d10s(dice: DiceSource, n: int, who: str, what: str = "wound dice", rule: str = "") -> tuple[int, ...]:
    """`n` ten-sided dice `who` rolls (T-1)."""
    rolling(dice, who, what, rule=rule, faces=n)
    return tuple(dice.d10() for _ in range(n))


def d10(dice: DiceSource, who: str, what: str, rule: str = "") -> int:
    """One ten-sided die `who` rolls (T-1)."""
    rolling(dice, who, what, rule=rule, faces=1)
    return dice.d10()


def total(faces: tuple[int, ...]) -> int:
    """D-7: the sum of ten-sided dice, 0 counting as 10."""
    return sum(face_value(f) for f in faces)


def stress(sink: Sink[Table], row: Row, rank: int, source: str, cause: str, dice: DiceSource) -> str:
    """A Violence stress check of `rank` a fight raises (U-25, U-8, U-10), for a conscious
    combatant there (`present`: a surrendered one too); a failure's reaction to flee takes a
    standing one out of the fight at once (U-23, U-22). Returns the check's outcome ("" when
    none was taken)."""
    if rank <= 0 or not present(row):
        return ""
    outcome: str
    if sink.recording:
        events: list[EventBase] = stress_events(sink.table, row.id, "violence", rank, dice, source=source, cause=cause)
        sink.emit_all(events)
        outcome = next(e.outcome for e in events if isinstance(e, StressChecked))
    else:  # counting: the same facts (`stress_events`'), applied with no event built
        outcome = counted_stress(sink, row.id, "violence", rank, dice, source)
    reaction = row.reaction
    if reaction is not None and reaction.source == source:
        flee_if_free(sink, row)
    return outcome


def flee_if_free(sink: Sink[Table], row: Row) -> None:
    """U-23, U-22: a reaction to flee takes a standing combatant out of the fight at once — once
    it can go (Decision, as U-17 holds it: not while in a grapple or restrained; it struggles
    in the grapple, and flees the moment it is free)."""
    reaction = row.reaction
    if (
        reaction is not None
        and reaction.kind == "flee"
        and standing(row)
        and not row.restrained_by
        and grapple_of(sink.table, row.id) is None
    ):
        sink.emit(StatusChanged(actor=row.id, status="fled", cause=f"flees {reaction.source} (U-23)", rule="U-23"))


def failed(outcome: str) -> bool:
    return outcome in ("failure", "automatic_failure")
