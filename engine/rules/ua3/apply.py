"""What each ua3 fact does to the working table: one small function per event type, no dice,
no judgement (DESIGN: reducers). The rules apply every event they decide through these, and
folding a stored log applies the same ones."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from engine.events import EventBase
from engine.events import ua3 as ev
from engine.events.checks import CheckRolled
from engine.events.commands import CommandAmended, CommandRecorded, CommandRedone, CommandUndone
from engine.events.setup import EncounterStarted, GmRuling
from engine.events.ua3.ruling import RULED_BY, ConditionRuled, Fell, NotchErased, WoundsRemoved
from engine.rules.settings import read_settings
from engine.rules.ua3.combat.apply import APPLIERS as COMBAT_APPLIERS
from engine.rules.ua3.table import Row, Table
from engine.state.ua3.conflict import Conflict, ConflictResult, PendingCoercion
from engine.state.ua3.encounter import ReactionState, Status, Ua3Combatant
from engine.state.ua3.settings import Reaction, Ua3Settings
from engine.state.ua3.sheet import GaugeName

replace = msgspec.structs.replace
Applier = Callable[[Table, Any], None]


def _started(t: Table, e: EncounterStarted) -> None:
    t.ruleset, t.title, t.seed, t.scenario = e.ruleset, e.title, e.seed, e.scenario
    t.settings = read_settings(e.settings, Ua3Settings)


def _joined(t: Table, e: ev.CharacterJoined) -> None:
    sheet = e.sheet
    combatant = Ua3Combatant(
        id=e.id,
        side=e.side,
        sheet=sheet,
        gauges=sheet.gauges,
        wounds=sheet.wounds,
        default_reaction=e.reaction,
        weapons=e.weapons,
        in_hand=e.in_hand,
        armor=e.armor,
    )
    t.add(Row.thaw(combatant))


#: Whom a bound prisoner is restrained by: no combatant, so no one's fall frees it (U-17).
BONDS = "bonds"
#: A frozen start's threat: none in the fight, so it lasts until the GM says it is gone (U-23).
FROZEN_START = ReactionState(kind="freeze", source="", gauge="helplessness")


def _started_helpless(t: Table, e: ev.StartedHelpless) -> None:
    row = t.by_id[e.actor]
    if e.condition == "unconscious":
        row.status = "unconscious"
    elif e.condition == "restrained":
        row.restrained_by = BONDS
    else:
        row.reaction = FROZEN_START


def _nothing(t: Table, e: EventBase) -> None:
    """Facts that change nothing the rules read (a ruling, a command's record, a trauma or a
    burnout — both read off the gauges)."""


def _rolled(t: Table, actor: str, last: Any = None) -> Row | None:
    """A roll by `actor`: its next-roll shifts were on it (U-16), so they are used up."""
    row = t.by_id.get(actor) if actor else None
    if row is not None:
        row.next_roll = ()
        row.last_check = last
    return row


def _check(t: Table, e: CheckRolled) -> None:
    row = t.by_id.get(e.actor) if e.actor else None
    if row is not None:  # a plain check by rating: remembered for a passion (U-21)
        row.last_check = e.result


def _ability_check(t: Table, e: ev.AbilityChecked) -> None:
    _rolled(t, e.actor, e.result)


def _stress(t: Table, e: ev.StressChecked) -> None:
    row = t.by_id.get(e.actor) if e.actor else None
    if row is not None:
        stress_checked(row, e.result is not None)


def stress_checked(row: Row, rolled: bool) -> None:
    """`StressChecked`'s fact (a counting sink's rules apply it with no event): a rolled stress
    check's notches are marked at once, so no passion rerolls it later (U-21), and its roll used
    up the next-roll shifts (U-16)."""
    if rolled:
        row.next_roll = ()
        row.last_check = None


def _gauge(row: Row, gauge: str, **change: int) -> None:
    row.gauges = row.gauges.with_gauge(gauge, replace(row.gauges.of(gauge), **change))


def _hardened(t: Table, e: ev.HardenedNotchMarked) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        hardened_notch_marked(row, e.gauge, e.after)


def hardened_notch_marked(row: Row, gauge: str, after: int) -> None:
    """`HardenedNotchMarked`'s fact (a counting sink's rules apply it with no event)."""
    _gauge(row, gauge, hardened=after)


def _failed(t: Table, e: ev.FailedNotchMarked) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        failed_notch_marked(row, e.gauge, e.after)


def failed_notch_marked(row: Row, gauge: str, after: int) -> None:
    """`FailedNotchMarked`'s fact (a counting sink's rules apply it with no event)."""
    _gauge(row, gauge, failed=after)


def _reaction(t: Table, e: ev.ReactionTaken) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        reaction_taken(row, e.reaction, e.source, e.gauge)


def reaction_taken(row: Row, kind: Reaction, source: str, gauge: GaugeName) -> None:
    """`ReactionTaken`'s fact (a counting sink's rules apply it with no event)."""
    row.reaction = ReactionState(kind=kind, source=source, gauge=gauge)


def _reaction_ended(t: Table, e: ev.ReactionEnded) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        row.reaction = None


def _passion(t: Table, e: ev.PassionSpent) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        row.passions_spent = (*row.passions_spent, e.passion)
        row.last_check = e.after


def _coercion(t: Table, e: ev.CoercionRolled) -> None:
    _rolled(t, e.coercer)
    if e.rank:
        t.coercions.append(
            PendingCoercion(
                coercer=e.coercer, target=e.target, gauge=e.gauge, rank=e.rank, threat=e.threat, demand=e.demand
            )
        )


def _answered(t: Table, e: ev.CoercionAnswered) -> None:
    t.coercions = [c for c in t.coercions if c.target != e.target]


def _conflict_started(t: Table, e: ev.ConflictStarted) -> None:
    t.add_conflict(
        Conflict(
            id=e.id,
            sides=e.sides,
            token=e.start,
            start=e.start,
            about=e.about,
            kind=e.kind,
            compressed=e.compressed,
            exchanges=e.exchanges,
            first=e.first,
        )
    )


def _side_change(t: Table, conflict_id: str, key: str, **change: Any) -> Conflict | None:
    conflict = t.conflict(conflict_id)
    if conflict is None:
        return None
    a, b = conflict.sides
    if key == "a":
        a = replace(a, **change)
    else:
        b = replace(b, **change)
    conflict = replace(conflict, sides=(a, b))
    t.replace_conflict(conflict)
    return conflict


def _gridiron(t: Table, e: ev.GridironRolled) -> None:
    gridiron_rolled(t, e.conflict, e.side, e.after, e.actor)


def gridiron_rolled(t: Table, conflict_id: str, side: str, after: str, actor: str) -> None:
    """A roll on a conflict's gridiron (`GridironRolled`'s fact; a counting sink's grapple rules
    apply it with no event): the roller's side one roll on, its next-roll shifts used up, the
    token `after` the move, the actor's roll."""
    conflict = t.conflict(conflict_id)
    if conflict is None:
        return
    sides = conflict.sides
    a, b = sides[0], sides[1]  # indexed, not unpacked (a compiled unpacking iterates)
    if side == "a":
        a = replace(a, rolls=a.rolls + 1, next_roll=())
    else:
        b = replace(b, rolls=b.rolls + 1, next_roll=())
    t.moved(conflict, replace(conflict, sides=(a, b), token=after))
    _rolled(t, actor)


def _penalty(t: Table, e: ev.PenaltyTaken) -> None:
    row = t.by_id.get(e.actor) if e.actor else None
    if row is not None:
        row.next_roll = (*row.next_roll, e.shift)
    elif e.side is not None:
        conflict = t.conflict(e.conflict)
        if conflict is not None:
            side = conflict.side(e.side)
            _side_change(t, e.conflict, e.side, next_roll=(*side.next_roll, e.shift))


def _conflict_ended(t: Table, e: ev.ConflictEnded) -> None:
    conflict = t.conflict(e.conflict)
    if conflict is not None:
        t.replace_conflict(replace(conflict, result=ConflictResult(winner=e.winner, reason=e.reason)))


def _wounds(t: Table, e: ev.WoundsTaken) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        wounds_taken(row, e.amount)


def wounds_taken(row: Row, amount: int) -> None:
    """`WoundsTaken`'s fact (a counting sink's rules apply it with no event)."""
    row.wounds += amount


def _status(t: Table, e: ev.StatusChanged) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        status_changed(row, e.status)


def status_changed(row: Row, status: Status) -> None:
    """`StatusChanged`'s fact (a counting sink's rules apply it with no event)."""
    row.status = status


def _wounds_removed(t: Table, e: WoundsRemoved) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        row.wounds -= e.amount


def _notch_erased(t: Table, e: NotchErased) -> None:
    row = t.by_id.get(e.actor)
    if row is not None:
        _gauge(row, e.gauge, **{e.kind: e.after})


def _condition_ruled(t: Table, e: ConditionRuled) -> None:
    row = t.by_id.get(e.actor)
    if row is None:
        return
    if e.condition == "unconscious":
        status_changed(row, "active" if e.clear else "unconscious")
    elif e.condition == "frozen":
        row.reaction = None if e.clear else ReactionState(kind="freeze", source=RULED_BY, gauge="violence")
    else:
        row.restrained_by = "" if e.clear else RULED_BY


#: Every event type of the ua3 encounter and what it does, in plain sight. Session markers
#: (undo, redo, amend) change which commands count, not the table: the fold skips them.
APPLIERS: dict[type[EventBase], Applier] = {
    EncounterStarted: _started,
    GmRuling: _nothing,
    CheckRolled: _check,
    CommandRecorded: _nothing,
    CommandUndone: _nothing,
    CommandRedone: _nothing,
    CommandAmended: _nothing,
    ev.CharacterJoined: _joined,
    ev.StartedHelpless: _started_helpless,
    ev.AbilityChecked: _ability_check,
    ev.StressChecked: _stress,
    ev.HardenedNotchMarked: _hardened,
    ev.FailedNotchMarked: _failed,
    ev.TraumaMarked: _nothing,
    ev.BurnedOut: _nothing,
    ev.ReactionTaken: _reaction,
    ev.ReactionEnded: _reaction_ended,
    ev.PassionSpent: _passion,
    ev.CoercionRolled: _coercion,
    ev.CoercionAnswered: _answered,
    ev.ConflictStarted: _conflict_started,
    ev.GridironRolled: _gridiron,
    ev.PenaltyTaken: _penalty,
    ev.ConflictEnded: _conflict_ended,
    ev.WoundsTaken: _wounds,
    ev.StatusChanged: _status,
    WoundsRemoved: _wounds_removed,
    Fell: _nothing,
    NotchErased: _notch_erased,
    ConditionRuled: _condition_ruled,
    **COMBAT_APPLIERS,
}
