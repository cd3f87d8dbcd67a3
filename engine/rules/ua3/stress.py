"""Stress checks (U-23), burnout (U-24) and the end of reactions.

`stress_events` is the rule the command handler, coercion (U-15) and a recorded fight's stress
checks (U-25) call; it decides everything before returning, so a refusal changes nothing. A
batch fight's checks take `counted_stress`: the same decisions (`_decide`), each fact applied by
its applier's function and counted, no event built.
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
from engine.events.ua3.mind import PassionSpent, ReactionChooser, RolledWith, StressOutcome
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
from engine.rules.ua3.apply import failed_notch_marked, hardened_notch_marked, reaction_taken, stress_checked
from engine.rules.ua3.people import able, person, rated_options, require_passion, roll, spec_for, with_passion
from engine.rules.ua3.samples import find_sample
from engine.rules.ua3.table import Row, Table
from engine.state.ua3.settings import Reaction
from engine.state.ua3.sheet import GAUGES, MAX_FAILED, MAX_HARDENED, U18, Gauge, GaugeName, Passion

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
    row, gauge, kind, chooser = _asked(t, actor, gauge_name, rank, reaction)
    spent = require_passion(t, row, passion) if passion is not None else None
    held = gauge_in(row.gauges, gauge)
    cause = cause or source or sample_text(sample) or f"{gauge} {rank}"
    out = _Recorded(row, gauge, rank, held, chooser, source, sample, low, high, cause)
    _decide(t, row, gauge, rank, held, kind, out, dice, roll_with, involves, shifts, flipped, spent, passion_mode)
    return out.events


def counted_stress(
    sink: Sink[Table], actor: str, gauge_name: str, rank: int, dice: DiceSource, source: str
) -> StressOutcome:
    """One stress check (U-23) a counting sink's rules take (a batch fight's, U-25): the same
    decisions as `stress_events`' (refusals too), each fact applied by its applier's function and
    counted, no event built. Returns how it came out."""
    t = sink.table
    row, gauge, kind, _ = _asked(t, actor, gauge_name, rank, None)
    held = gauge_in(row.gauges, gauge)
    out = _Counted(sink, row, gauge, source)
    return _decide(t, row, gauge, rank, held, kind, out, dice, "", (), (), None, None, "reroll")


def _asked(
    t: Table, actor: str, gauge_name: str, rank: int, stated: Reaction | None
) -> tuple[Row, GaugeName, Reaction, ReactionChooser]:
    """A stress check asked of `actor` (or `Refused`): its row, gauge and the reaction a failure brings."""
    row = able(t, actor, "take a stress check")
    gauge = gauge_of(gauge_name)
    if not MIN_RANK <= rank <= MAX_RANK:
        raise Refused(f"a stress check's rank is 1–10, got {rank}", hint="U-23")
    kind, chooser = reaction_for(row, stated, t)
    return row, gauge, kind, chooser


def _decide(
    t: Table,
    row: Row,
    gauge: GaugeName,
    rank: int,
    held: Gauge,
    kind: Reaction,
    out: _Facts,
    dice: DiceSource,
    roll_with: str,
    involves: tuple[str, ...],
    shifts: tuple[Shift, ...],
    flipped: bool | None,
    spent: Passion | None,
    passion_mode: Mode,
) -> StressOutcome:
    """U-23: how the check comes out, each fact handed to `out` in the order the log holds them.
    Everything read of the table is read before `out` applies a fact (a counting one applies at once)."""
    if hardened_against(held, rank):  # 1. immune: no roll, nothing marked
        out.checked("hardened", None, "ability", None)
        return "hardened"
    if held.failed >= MAX_FAILED:  # 2. five failed and rank above hardened: automatic failure
        out.checked("automatic_failure", None, "ability", kind)
        out.reaction(kind)
        return "automatic_failure"
    # 3. the resisting ability (U-18), a `resists` identity, a relationship where it fits: the best
    options, best_option = rated_options(row, U18[gauge].resisted_with, "resists", gauge, involves)
    option = pick(options, roll_with, f"resist a {gauge} stress check") if roll_with.strip() else best_option
    spec = spec_for(row, option, shifts=shifts)
    result = roll(spec, dice, flipped, row.id, "U-23")
    passions, result = with_passion(row, spent, passion_mode, result, dice)
    if passions:
        out.passions(passions)
    if result.success:
        out.checked("success", result, option.source, None)
        # one hardened notch (at most 9), U-18 recomputing the two abilities at once; U-24 when
        # the notches in all gauges reach the burnout setting (the total read before the notch)
        if held.hardened < MAX_HARDENED:
            total, threshold = row.hardened_total(), t.settings.burnout_hardened
            out.hardened_notch(held.hardened)
            if burns_out(total, threshold):
                out.burned_out(total + 1, threshold)
        return "success"
    out.checked("failure", result, option.source, kind)
    out.failed_notch(held.failed)
    if held.failed + 1 == MAX_FAILED:
        out.trauma()
    out.reaction(kind)
    return "failure"


def hardened_against(held: Gauge, rank: int) -> bool:
    """U-23, 1.: hardened notches in the gauge at or above the rank: immune (no roll, nothing
    marked, its `StressChecked` changing nothing on the table)."""
    return held.hardened >= rank


def burns_out(total: int, threshold: int) -> bool:
    """U-24: one more hardened notch on `total` in all gauges reaches the burnout `threshold`."""
    return total < threshold <= total + 1


def hardened_notch_event(actor: str, gauge: GaugeName, before: int, cause: str) -> HardenedNotchMarked:
    """U-23: one hardened notch on `before`, U-18 recomputing the gauge's two abilities at once."""
    rules = U18[gauge]
    return HardenedNotchMarked(
        actor=actor,
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


def burned_out_event(row: Row, hardened: int, threshold: int) -> BurnedOut:
    """U-24: `row` burns out at `hardened` notches in all, losing its passions (U-21)."""
    kinds = tuple(p.kind for p in row.sheet.passions)
    return BurnedOut(actor=row.id, hardened=hardened, threshold=threshold, passions=kinds)


class _Facts:
    """Where one stress check's facts go: `_Recorded` builds their events (for the log; the
    caller emits them once all is decided, so a refusal changes nothing), `_Counted` applies
    each at once with its applier's function and counts it (a batch)."""

    def checked(
        self, outcome: StressOutcome, result: CheckResult | None, rolled_with: RolledWith, reaction: Reaction | None
    ) -> None:
        raise NotImplementedError

    def passions(self, spent: list[PassionSpent]) -> None:
        raise NotImplementedError

    def hardened_notch(self, before: int) -> None:
        raise NotImplementedError

    def burned_out(self, hardened: int, threshold: int) -> None:
        raise NotImplementedError

    def failed_notch(self, before: int) -> None:
        raise NotImplementedError

    def trauma(self) -> None:
        raise NotImplementedError

    def reaction(self, kind: Reaction) -> None:
        raise NotImplementedError


class _Recorded(_Facts):
    """A stress check's events, and what every one of them records."""

    def __init__(
        self,
        row: Row,
        gauge: GaugeName,
        rank: int,
        held: Gauge,
        chooser: ReactionChooser,
        source: str,
        sample: str,
        low: int,
        high: int,
        cause: str,
    ) -> None:
        self.row, self.gauge, self.rank, self.held, self.chooser = row, gauge, rank, held, chooser
        self.source, self.sample, self.low, self.high, self.cause = source, sample, low, high, cause
        self.events: list[EventBase] = []

    def checked(
        self, outcome: StressOutcome, result: CheckResult | None, rolled_with: RolledWith, reaction: Reaction | None
    ) -> None:
        self.events.append(
            StressChecked(
                actor=self.row.id,
                gauge=self.gauge,
                rank=self.rank,
                outcome=outcome,
                hardened=self.held.hardened,
                failed=self.held.failed,
                result=result,
                rolled_with=rolled_with,
                reaction=reaction,
                source=self.source,
                sample=self.sample,
                low=self.low,
                high=self.high,
                cause=self.cause,
            )
        )

    def passions(self, spent: list[PassionSpent]) -> None:
        self.events += spent

    def hardened_notch(self, before: int) -> None:
        self.events.append(hardened_notch_event(self.row.id, self.gauge, before, self.cause))

    def burned_out(self, hardened: int, threshold: int) -> None:
        self.events.append(burned_out_event(self.row, hardened, threshold))

    def failed_notch(self, before: int) -> None:
        self.events.append(
            FailedNotchMarked(actor=self.row.id, gauge=self.gauge, before=before, after=before + 1, cause=self.cause)
        )

    def trauma(self) -> None:
        self.events.append(TraumaMarked(actor=self.row.id, gauge=self.gauge, cause=self.cause))

    def reaction(self, kind: Reaction) -> None:
        self.events.append(
            ReactionTaken(
                actor=self.row.id, reaction=kind, source=self.source, gauge=self.gauge, chosen_by=self.chooser
            )
        )


class _Counted(_Facts):
    """A stress check's facts applied to the row and counted, no event built."""

    def __init__(self, sink: Sink[Table], row: Row, gauge: GaugeName, source: str) -> None:
        self.sink, self.row, self.gauge, self.source = sink, row, gauge, source

    def checked(
        self, outcome: StressOutcome, result: CheckResult | None, rolled_with: RolledWith, reaction: Reaction | None
    ) -> None:
        stress_checked(self.row, result is not None)
        self.sink.applied(None)

    def passions(self, spent: list[PassionSpent]) -> None:
        self.sink.emit_all(spent)

    def hardened_notch(self, before: int) -> None:
        hardened_notch_marked(self.row, self.gauge, before + 1)
        self.sink.applied(None)

    def burned_out(self, hardened: int, threshold: int) -> None:
        self.sink.applied(None)  # read off the gauges: its fact changes nothing on the table

    def failed_notch(self, before: int) -> None:
        failed_notch_marked(self.row, self.gauge, before + 1)
        self.sink.applied(None)

    def trauma(self) -> None:
        self.sink.applied(None)  # read off the gauges: its fact changes nothing on the table

    def reaction(self, kind: Reaction) -> None:
        reaction_taken(self.row, kind, self.source, self.gauge)
        self.sink.applied(None)


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
