"""Stress checks (U-23), burnout (U-24) and the end of reactions.

`stress_events` is the rule the command handler, coercion (U-15) and — later — combat's
stress checks (U-25) call; it decides everything before returning, so a refusal changes nothing.
"""

from __future__ import annotations

from typing import get_args

from engine.commands.ua3 import StressCheck, ThreatGone
from engine.dice.checks import CheckResult, Shift
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.base import EventBase
from engine.events.ua3 import (
    BurnedOut,
    FailedNotchMarked,
    HardenedNotchMarked,
    ReactionEnded,
    ReactionTaken,
    StressChecked,
    TraumaMarked,
)
from engine.events.ua3.mind import ReactionChooser, RolledWith, StressOutcome
from engine.events.ua3.words import sample_text
from engine.rules.common import require_started
from engine.rules.passions import Mode
from engine.rules.sink import Sink
from engine.rules.ua3.abilities import (
    downbeat,
    gauge_in,
    gauge_named,
    label,
    pick,
    upbeat,
)
from engine.rules.ua3.people import able, person, rated_options, require_passion, roll, spec_for, with_passion
from engine.rules.ua3.samples import find_sample
from engine.rules.ua3.table import Row, Table
from engine.state.ua3.settings import Reaction
from engine.state.ua3.sheet import GAUGES, MAX_FAILED, MAX_HARDENED, U18, Gauge, GaugeName

REACTIONS: tuple[Reaction, ...] = get_args(Reaction)
MIN_RANK, MAX_RANK = 1, 10


def gauge_of(name: str) -> GaugeName:
    for gauge in GAUGES:  # a gauge's own name (the rules' checks name it so)
        if gauge == name:
            return gauge
    found = gauge_named(name)
    for gauge in GAUGES:
        if gauge == found:
            return gauge
    raise Refused(f"unknown shock gauge {name!r}", hint=f"use one of {', '.join(GAUGES)} (U-18)")


def reaction_for(row: Row, stated: Reaction | None, t: Table) -> tuple[Reaction, ReactionChooser]:
    """U-23: the person's choice, else the character's default, else the setting."""
    if stated is not None:
        if stated not in REACTIONS:
            raise Refused(f"unknown reaction {stated!r}", hint="flee, freeze or frenzy (U-23)")
        return stated, "stated"
    if row.default_reaction is not None:
        return row.default_reaction, "combatant_default"
    return t.settings.default_reaction, "setting"


def stress_events(
    t: Table,
    actor: str,
    gauge_name: str,
    rank: int,
    dice: DiceSource,
    *,
    source: str = "",
    sample: str = "",
    low: int = 0,
    high: int = 0,
    roll_with: str = "",
    involves: tuple[str, ...] = (),
    shifts: tuple[Shift, ...] = (),
    reaction: Reaction | None = None,
    flipped: bool | None = None,
    passion: str | None = None,
    passion_mode: Mode = "reroll",
    cause: str = "",
) -> list[EventBase]:
    """The events of one stress check (U-23), or `Refused`. Draws dice only for a rolled check."""
    row = able(t, actor, "take a stress check")
    gauge = gauge_of(gauge_name)
    if not MIN_RANK <= rank <= MAX_RANK:
        raise Refused(f"a stress check's rank is 1–10, got {rank}", hint="U-23")
    kind, chooser = reaction_for(row, reaction, t)
    spent = require_passion(t, row, passion) if passion is not None else None
    held = gauge_in(row.gauges, gauge)
    cause = cause or source or sample_text(sample) or f"{gauge} {rank}"
    how = _Check(actor, gauge, rank, held.hardened, held.failed, source, sample, low, high, cause)
    if hardened_against(held, rank):  # 1. immune: no roll, nothing marked
        return [how.checked("hardened")]
    failing: list[EventBase] = [
        ReactionTaken(actor=actor, reaction=kind, source=source, gauge=gauge, chosen_by=chooser)
    ]
    if held.failed >= MAX_FAILED:  # 2. five failed and rank above hardened: automatic failure
        return [how.checked("automatic_failure", reaction=kind), *failing]
    # 3. the resisting ability (U-18), a `resists` identity, a relationship where it fits: the best
    options, best_option = rated_options(row, U18[gauge].resisted_with, "resists", gauge, involves)
    option = pick(options, roll_with, f"resist a {gauge} stress check") if roll_with.strip() else best_option
    spec = spec_for(row, option, shifts=shifts)
    result = roll(spec, dice, flipped)
    passions, result = with_passion(row, spent, passion_mode, result, dice)
    events: list[EventBase] = [*passions]
    if result.success:
        events.append(how.checked("success", result=result, rolled_with=option.source))
        events += hardened_events(t, row, gauge, cause)
        return events
    events.append(how.checked("failure", result=result, rolled_with=option.source, reaction=kind))
    events.append(FailedNotchMarked(actor=actor, gauge=gauge, before=held.failed, after=held.failed + 1, cause=cause))
    if held.failed + 1 == MAX_FAILED:
        events.append(TraumaMarked(actor=actor, gauge=gauge, cause=cause))
    return [*events, *failing]


def hardened_against(held: Gauge, rank: int) -> bool:
    """U-23, 1.: hardened notches in the gauge at or above the rank: immune (no roll, nothing
    marked, its `StressChecked` changing nothing on the table)."""
    return held.hardened >= rank


class _Check:
    """What every outcome of one stress check records (`checked` adds how it came out)."""

    __slots__ = ("actor", "cause", "failed", "gauge", "hardened", "high", "low", "rank", "sample", "source")

    def __init__(
        self,
        actor: str,
        gauge: GaugeName,
        rank: int,
        hardened: int,
        failed: int,
        source: str,
        sample: str,
        low: int,
        high: int,
        cause: str,
    ) -> None:
        self.actor, self.gauge, self.rank, self.hardened, self.failed = actor, gauge, rank, hardened, failed
        self.source, self.sample, self.low, self.high, self.cause = source, sample, low, high, cause

    def checked(
        self,
        outcome: StressOutcome,
        *,
        result: CheckResult | None = None,
        rolled_with: RolledWith = "ability",
        reaction: Reaction | None = None,
    ) -> StressChecked:
        return StressChecked(
            actor=self.actor,
            gauge=self.gauge,
            rank=self.rank,
            outcome=outcome,
            hardened=self.hardened,
            failed=self.failed,
            result=result,
            rolled_with=rolled_with,
            reaction=reaction,
            source=self.source,
            sample=self.sample,
            low=self.low,
            high=self.high,
            cause=self.cause,
        )


def hardened_events(t: Table, row: Row, gauge: GaugeName, cause: str) -> list[EventBase]:
    """U-23: one hardened notch (at most 9), U-18 recomputing the two abilities at once; U-24
    when the notches in all gauges reach the burnout setting."""
    before = gauge_in(row.gauges, gauge).hardened
    if before >= MAX_HARDENED:
        return []
    rules = U18[gauge]
    events: list[EventBase] = [
        HardenedNotchMarked(
            actor=row.id,
            gauge=gauge,
            before=before,
            after=before + 1,
            upbeat=label(rules.upbeat),
            upbeat_before=upbeat(before),
            upbeat_after=upbeat(before + 1),
            downbeat=label(rules.downbeat),
            downbeat_before=downbeat(before),
            downbeat_after=downbeat(before + 1),
            cause=cause,
        )
    ]
    total, threshold = row.hardened_total(), t.settings.burnout_hardened
    if total < threshold <= total + 1:
        kinds = tuple(p.kind for p in row.sheet.passions)
        events.append(BurnedOut(actor=row.id, hardened=total + 1, threshold=threshold, passions=kinds))
    return events


def stress_check(sink: Sink[Table], command: StressCheck, dice: DiceSource) -> None:
    """U-23 for a check a person (the GM) calls: a gauge and rank, or a sample check by its text
    (rank: the sample's lower bound unless one within its range is named, U-25)."""
    t = sink.table
    require_started(t)
    person(t, command.actor)
    sample, low, high = "", 0, 0
    gauge, rank = command.gauge, command.rank
    if command.sample.strip():
        found = find_sample(command.sample)
        if gauge and gauge_of(gauge) != found.gauge:
            raise Refused(
                f"the sample {found.text!r} is a {found.gauge} check, not {gauge}",
                hint="leave the gauge out when naming a sample",
            )
        gauge, sample, low, high = found.gauge, found.text, found.low, found.high
        if rank is None:
            rank = low
        elif not low <= rank <= high:
            raise Refused(
                f"the sample {found.text!r} is {found.gauge} {low}–{high}, not rank {rank}",
                hint="name a rank within the sample's range, or the gauge and rank alone",
            )
    if not gauge:
        raise Refused("a stress check names a gauge and rank, or a sample", hint="e.g. violence 3 (U-23)")
    if rank is None:
        raise Refused(f"a {gauge} stress check needs a rank 1–10", hint="U-23")
    events = stress_events(
        t,
        command.actor,
        gauge,
        rank,
        dice,
        source=command.source.strip(),
        sample=sample,
        low=low,
        high=high,
        roll_with=command.roll_with,
        involves=command.involves,
        shifts=command.shifts,
        reaction=command.reaction,
        flipped=command.flipped,
        passion=command.passion,
        passion_mode=command.passion_mode,
    )
    sink.emit_all(events)


def _same(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


def threat_gone(sink: Sink[Table], command: ThreatGone, dice: DiceSource) -> None:
    """U-23: the threat is gone; reactions kept for it end."""
    t = sink.table
    require_started(t)
    if command.actor:
        person(t, command.actor)
    events: list[EventBase] = []
    for row in t.rows:
        kept = row.reaction
        if kept is None or not _same(kept.source, command.source) or (command.actor and row.id != command.actor):
            continue
        events.append(ReactionEnded(actor=row.id, reaction=kept.kind, source=kept.source, gauge=kept.gauge))
    if not events:
        whose = f"{command.actor} has" if command.actor else "no one has"
        raise Refused(
            f"{whose} a reaction kept for {command.source!r}",
            hint="name the threat as the reaction recorded it (U-23)",
        )
    sink.emit_all(events)
