"""Harm (U-2): wounds count up toward the wound threshold; at 90% of it a character is
unconscious, at 100% dead. The first two levels (50%, 75%) are descriptive."""

from __future__ import annotations

from engine.events.base import EventBase
from engine.events.ua3 import StatusChanged, WoundsTaken
from engine.rules.ua3.table import Row, Table
from engine.state.ua3.encounter import Status

#: U-2: (percent of the threshold, what it means), lowest first.
LEVELS = ((50, "sore and exhausted"), (75, "badly beaten"), (90, "unconscious"), (100, "dead"))


def at_percent(threshold: int, percent: int) -> int:
    """Wounds at `percent` of `threshold`, rounded up (75% of 50 is 38)."""
    return -(-threshold * percent // 100)


def level(wounds: int, threshold: int) -> str:
    """U-2: the wound level `wounds` reach ("" below the first)."""
    reached = ""
    for percent, words in LEVELS:
        if wounds >= at_percent(threshold, percent):
            reached = words
    return reached


def wound_events(
    t: Table, row: Row, amount: int, cause: str, *, faces: tuple[int, ...] = (), rule: str
) -> list[EventBase]:
    """The wounds and, when they reach 90% or 100% of the threshold, the status they bring."""
    threshold = row.threshold(t.settings)
    events: list[EventBase] = [
        WoundsTaken(
            actor=row.id, amount=amount, before=row.wounds, threshold=threshold, cause=cause, faces=faces, rule=rule
        )
    ]
    after = row.wounds + amount
    status = wound_status(row.status, after, threshold)
    if status == "dead":
        events.append(StatusChanged(actor=row.id, status="dead", cause=f"{after} wounds of {threshold}", rule="U-2"))
    elif status == "unconscious":
        events.append(
            StatusChanged(actor=row.id, status="unconscious", cause=f"{after} wounds, 90% of {threshold}", rule="U-2")
        )
    return events


def wound_status(status: Status, after: int, threshold: int) -> Status | None:
    """U-2: the status wounds reaching `after` bring one of `status` (None: no change) — dead at
    100% of the threshold, unconscious at 90% (an active one)."""
    if after >= threshold and status != "dead":
        return "dead"
    if after >= at_percent(threshold, 90) and status == "active":
        return "unconscious"
    return None
