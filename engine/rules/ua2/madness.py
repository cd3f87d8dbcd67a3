"""Madness (M2-1…M2-7): checks on a meter, notches, neuroses, reactions and therapy.

`require_check` and `check_madness` are what the combat rules call to raise checks (M2-8),
`end_reactions` to end them; the command handlers below wrap them.
"""

from __future__ import annotations

from typing import Final, cast, get_args

from engine.commands.madness import MadnessCheck, SourceGone, Therapy
from engine.dice.checks import CheckSpec, Shift, roll_check
from engine.dice.judge import succeeded
from engine.dice.source import Choice, DiceSource, SeededDice, choosing
from engine.errors import Refused
from engine.events.base import EventBase
from engine.events.checks import CheckRolled
from engine.events.combat import StatusChanged
from engine.events.madness import (
    MadnessCheckResolved,
    MadnessOutcome,
    NeurosisMarked,
    NotchKind,
    NotchMarked,
    ReactionChooser,
    ReactionEnded,
    ReactionTaken,
    TherapyGiven,
)
from engine.rules.common import require_started
from engine.rules.ua2.apply import (
    check_rolled,
    madness_resolved,
    neurosis_marked,
    notch_marked,
    passion_spent,
    reaction_ended,
    reaction_taken,
    status_changed,
)
from engine.rules.ua2.passion import passion_on_failure, require_passion
from engine.rules.ua2.sink import Sink, recording_sink
from engine.rules.ua2.table import Row, Table
from engine.state.encounter import Reaction
from engine.state.sheet import (
    MAX_FAILED,
    MAX_RANK,
    METER_FIELDS,
    METERS,
    MIN_RANK,
    Meter,
    MeterName,
    PassionKind,
    PassionMode,
)

REACTIONS: tuple[Reaction, ...] = get_args(Reaction)


def _combatant(t: Table, actor_id: str) -> Row:
    combatant = t.by_id.get(actor_id)
    if combatant is None:
        raise Refused(f"no combatant {actor_id!r} in this encounter")
    return combatant


def check_meter(meter: str) -> MeterName:
    for name in METERS:
        if name == meter:
            return name
    raise Refused(f"unknown madness meter {meter!r}", hint=f"use one of {', '.join(METERS)} (M2-1)")


def _check_reaction(stated: Reaction | None) -> None:
    if stated is not None and stated not in REACTIONS:
        raise Refused(f"unknown reaction {stated!r}", hint="flee, freeze or frenzy (M2-4)")


def _reaction_for(t: Table, actor_id: str, stated: Reaction | None) -> tuple[Reaction, ReactionChooser]:
    """M2-4: the person's choice, else the combatant's default, else the setting."""
    if stated is not None:
        _check_reaction(stated)
        return stated, "stated"
    fighter = t.by_id.get(actor_id)
    if fighter is not None and fighter.default_reaction is not None:
        return fighter.default_reaction, "combatant_default"  # type: ignore[return-value]
    return t.settings.default_reaction, "setting"


_REACTIONS_SAY: Final = {
    "flee": "flee: leave the fight (counts as fled, not defeated; M2-7)",
    "freeze": "freeze: no actions and no dodging until the source is gone (M2-7)",
    "frenzy": "frenzy: attack the source every action, no dodging, no other target (M2-7)",
}


def _reaction_choice(who: str, meter: MeterName, rank: int, automatic: Reaction) -> Choice:
    """M2-4: the reaction to a failed check, each option with what it does (`automatic` first)."""
    order = (automatic, *(r for r in _REACTIONS_SAY if r != automatic))
    options = tuple((r, _REACTIONS_SAY[r]) for r in order)
    return Choice(who, "reaction", f"reaction to a failed {meter} {rank} check", options, "M2-4")


def require_check(
    t: Table, actor_id: str, meter: str, rank: int, reaction: Reaction | None = None
) -> tuple[Row, MeterName]:
    """The combatant and meter of a madness check it can take, or `Refused` with the reason."""
    combatant = _combatant(t, actor_id)
    if combatant.status in ("dead", "fled"):
        raise Refused(f"{actor_id} is {combatant.status} and takes no madness check")
    name = check_meter(meter)
    if not MIN_RANK <= rank <= MAX_RANK:
        raise Refused(f"a madness check's rank is 1–10, got {rank}", hint="M2-1")
    _check_reaction(reaction)
    return combatant, name


def check_madness(
    sink: Sink,
    combatant: Row,
    name: MeterName,
    rank: int,
    cause: str,
    dice: DiceSource,
    reaction: Reaction | None = None,
    *,
    source: str | None = None,
    shifts: tuple[Shift, ...] = (),
    passion: PassionKind | None = None,
    passion_mode: PassionMode = "reroll",
) -> bool:
    """One madness check (M2-2…M2-5, M2-7) that `require_check` allowed: each fact applied as it
    is decided, its event built only when the sink records. Whether a passion was spent (C-10).

    `cause` names what raised the check (trigger text, or the event/command; only the events
    hold it); `source` is what a reaction lasts until (default: the cause). Draws dice only for
    an M2-4 roll."""
    t = sink.table
    recording = sink.recording
    actor_id = combatant.id
    held: Meter = getattr(combatant.meters, METER_FIELDS[name])  # Meters.of, compiled
    hardened, failed = held.hardened, held.failed
    if hardened >= rank:  # M2-2
        _resolved(sink, combatant, name, rank, "hardened", hardened, failed, cause)
        return False
    kind, chooser = _reaction_for(t, actor_id, reaction)
    spent = False
    if failed >= MAX_FAILED:  # M2-3
        _resolved(sink, combatant, name, rank, "automatic_failure", hardened, failed, cause)
    else:  # M2-4
        spec = CheckSpec(kind="major", rating=combatant.sheet.stats.mind, shifts=shifts, label="Mind")
        result = roll_check(spec, dice, who=actor_id, rule="M2-4")
        check_rolled(combatant, result)
        purpose = f"resist a {name} {rank} madness check" if recording else ""
        sink.applied(CheckRolled(actor=actor_id, result=result, purpose=purpose) if recording else None)
        used = passion_on_failure(combatant, passion, passion_mode, result, dice) if passion else None
        if used is not None:  # C-10: a triggered passion changes the failed Mind roll
            passion_spent(combatant, used.passion, used.after)
            sink.applied(used)
            result, spent = used.after, True
        success = succeeded(result)
        outcome: MadnessOutcome = "success" if success else "failure"
        _resolved(sink, combatant, name, rank, outcome, hardened, failed, cause)
        if success:
            _notch(sink, combatant, name, "hardened", cause)
            return spent
        _notch(sink, combatant, name, "failed", cause)
        if failed + 1 == MAX_FAILED and not held.neurosis:  # M2-5
            neurosis_marked(combatant, name)
            sink.applied(NeurosisMarked(actor=actor_id, meter=name, cause=cause) if recording else None)
    if chooser != "stated" and type(dice) is not SeededDice:  # M2-4: the character's player chooses (T-1)
        picked = choosing(dice, _reaction_choice(actor_id, name, rank, kind), kind)
        if picked != kind:
            kind, chooser = cast(Reaction, picked), "stated"
    lasts_until = cause if source is None else source
    reaction_taken(combatant, kind, lasts_until, name)
    sink.applied(
        ReactionTaken(actor=actor_id, reaction=kind, source=lasts_until, meter=name, chosen_by=chooser)
        if recording
        else None
    )
    if kind == "flee":  # M2-7: a character who flees leaves the fight (fled, not defeated)
        status_changed(t, combatant, "fled")
        sink.applied(
            StatusChanged(id=actor_id, status="fled", cause="flees in terror", rule="M2-7") if recording else None
        )
    return spent


def madness_check_events(
    t: Table,
    actor_id: str,
    meter: str,
    rank: int,
    cause: str,
    dice: DiceSource,
    reaction: Reaction | None = None,
    *,
    source: str | None = None,
    shifts: tuple[Shift, ...] = (),
) -> list[EventBase]:
    """The events of one madness check, decided on a copy of `t` (which stays as it is), or
    `Refused` with the reason."""
    _, name = require_check(t, actor_id, meter, rank, reaction)
    sink = recording_sink(t.clone())
    check_madness(sink, sink.table.by_id[actor_id], name, rank, cause, dice, reaction, source=source, shifts=shifts)
    return sink.recorded


def _resolved(
    sink: Sink,
    row: Row,
    meter: MeterName,
    rank: int,
    outcome: MadnessOutcome,
    hardened: int,
    failed: int,
    cause: str,
) -> None:
    """How the check came out; `hardened` and `failed`: the meter's notches before it."""
    madness_resolved(row, outcome)
    sink.applied(
        MadnessCheckResolved(
            actor=row.id, meter=meter, rank=rank, outcome=outcome, hardened=hardened, failed=failed, cause=cause
        )
        if sink.recording
        else None
    )


def _notch(sink: Sink, row: Row, meter: MeterName, kind: NotchKind, cause: str) -> None:
    notch_marked(row, meter, kind)
    sink.applied(NotchMarked(actor=row.id, meter=meter, kind=kind, cause=cause) if sink.recording else None)


def _same_source(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


def end_reactions(sink: Sink, source: str, actor: str = "") -> int:
    """M2-4: every reaction kept for `source` ends (only `actor`'s when named); how many did."""
    recording = sink.recording
    ended = 0
    for row in sink.table.rows:
        kept = row.reaction
        if kept is None or not _same_source(kept.source, source) or (actor and row.id != actor):
            continue
        reaction_ended(row)
        sink.applied(
            ReactionEnded(actor=row.id, reaction=kept.kind, source=kept.source, meter=check_meter(kept.meter))
            if recording
            else None
        )
        ended += 1
    return ended


def madness_check(sink: Sink, command: MadnessCheck, dice: DiceSource) -> None:
    """M2-2…M2-5 for a check a person (the GM) calls; the source names the cause."""
    t = sink.table
    require_started(t)
    cause = command.source.strip() or f"{command.meter} {command.rank}"
    if command.passion is not None:
        require_passion(t, _combatant(t, command.actor), command.passion)
    combatant, name = require_check(t, command.actor, command.meter, command.rank, command.reaction)
    check_madness(
        sink,
        combatant,
        name,
        command.rank,
        cause,
        dice,
        command.reaction,
        shifts=command.shifts,
        passion=command.passion,
        passion_mode=command.passion_mode,
    )


def therapy(sink: Sink, command: Therapy, dice: DiceSource) -> None:
    """M2-6: remove notches, never more than are marked (the event records what was removed)."""
    require_started(sink.table)
    combatant = _combatant(sink.table, command.actor)
    name = check_meter(command.meter)
    if command.hardened < 0 or command.failed < 0:
        raise Refused("therapy removes notches: give counts of 0 or more", hint="M2-6")
    if command.hardened == 0 and command.failed == 0:
        raise Refused("therapy must name notches to remove", hint="give hardened or failed (M2-6)")
    held = combatant.meters.of(name)
    sink.emit(
        TherapyGiven(
            actor=command.actor,
            meter=name,
            hardened_removed=min(command.hardened, held.hardened),
            failed_removed=min(command.failed, held.failed),
            note=command.note,
        )
    )


def source_gone(sink: Sink, command: SourceGone, dice: DiceSource) -> None:
    """M2-4: the source is gone; reactions kept for it end."""
    t = sink.table
    require_started(t)
    if command.actor:
        _combatant(t, command.actor)
    if not end_reactions(sink, command.source, command.actor):  # none ended: nothing changed
        whose = f"{command.actor} has" if command.actor else "no one has"
        raise Refused(
            f"{whose} a reaction kept for {command.source!r}",
            hint="name the source as the reaction recorded it (M2-4)",
        )
