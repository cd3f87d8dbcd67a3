"""Healing (H2-1…H2-5): first aid, medical care, convalescence — per injury, never the last point."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from engine.commands.healing import Convalesce, FirstAid, MedicalCare
from engine.dice.checks import CheckSpec, Shift, resolve
from engine.dice.source import DiceSource, roll_percentile, rolling
from engine.errors import Refused
from engine.events import combat as ev
from engine.events.healing import Convalesced, InjuryTreated
from engine.rules.common import require_started
from engine.rules.ua2.combat.situation import combatant, roll_shifts
from engine.rules.ua2.combat.turns import end_turn, open_turn
from engine.rules.ua2.sink import Sink
from engine.rules.ua2.table import Row, Table
from engine.state.encounter import Injury

MINOR_FRACTION = Fraction(1, 10)  # H2-1: exactly 10% is minor (a decision)
CONVALESCENCE_LINE = Fraction(6, 10)  # H2-5
PER_DAY = {"doctor": 2, "bed_rest": 2, "easy": 1, "pushing": 0}


def is_minor(injury: Injury, maximum: int) -> bool:
    """H2-1: an injury of at most 10% of maximum wound points is minor; more is major."""
    return injury.amount <= MINOR_FRACTION * maximum


def _injury(patient: Row, injury_id: int) -> Injury:
    for injury in patient.injuries:
        if injury.id == injury_id:
            return injury
    known = ", ".join(f"#{i.id}" for i in patient.injuries) or "none"
    raise Refused(f"{patient.id} has no injury #{injury_id}", hint=f"injuries: {known}")


def _healing_check(
    t: Table, healer: Row, skill: str, kind: str, shifts: tuple[Shift, ...], trained_only: bool
) -> CheckSpec:
    found = healer.skill(skill)
    extra = (*shifts, *roll_shifts(t, healer.id))
    if found is None or found.rating <= 0:
        if trained_only:
            raise Refused(
                f"{healer.id} has no {skill} skill",
                hint="medical care needs someone medically trained (H2-3)",
            )
        stat = healer.sheet.stats.mind
        return CheckSpec(kind=kind, untrained=True, stat=stat, rating=stat, shifts=extra, label=f"{skill} (Mind)")  # type: ignore[arg-type]
    return CheckSpec(
        kind=kind,  # type: ignore[arg-type]
        rating=found.rating,
        stat=healer.sheet.stats.of(found.stat),
        shifts=extra,
        flip=healer.sheet.is_obsession(found.name),
        label=found.name,
    )


def _treat(
    sink: Sink,
    healer_id: str,
    patient_id: str,
    injury_id: int,
    dice: DiceSource,
    *,
    treatment: str,
    skill: str,
    kind: str,
    shifts: tuple[Shift, ...],
    rule: str,
    within_hour: bool = False,
) -> None:
    t = sink.table
    require_started(t)
    in_fight = t.phase in ("ambush", "declare", "acting")
    if in_fight and rule == "H2-3":
        raise Refused("medical care waits until the fight is over")
    if in_fight:
        open_turn(sink, healer_id, dice=dice)  # first aid in a fight is the healer's action
    healer = combatant(t, healer_id)
    patient = combatant(t, patient_id)
    if healer.status != "active":
        raise Refused(f"{healer_id} is {healer.status} and cannot heal")
    if patient.status == "dead":
        raise Refused(f"{patient_id} is dead")
    injury = _injury(patient, injury_id)
    minor = is_minor(injury, patient.max_wounds)
    if rule == "H2-2":
        if not minor:
            raise Refused(f"injury #{injury_id} ({injury.amount}) is major: it needs medical care (H2-1, H2-3)")
        if injury.first_aid_tried:
            raise Refused(f"first aid was already tried on injury #{injury_id} (H2-2: once per injury)")
    else:
        if minor:
            raise Refused(f"injury #{injury_id} ({injury.amount}) is minor: first aid treats it (H2-1, H2-2)")
        if injury.medical_tried:
            raise Refused(f"injury #{injury_id} has had its medical care (H2-3)")
    room = injury.amount - 1 - injury.healed  # H2-4: the last point heals only with time
    spec = _healing_check(t, healer, skill, kind, shifts, trained_only=rule == "H2-3")
    # C-11: an obsession healer flips for the better outcome; on a tie, the higher value when the
    # roll value itself heals (medical care within the hour), else as rolled (a digit sum).
    by_value = rule == "H2-3" and within_hour
    rolling(dice, healer.id, spec.label or "healing", rule=rule, spec=spec)
    result = resolve(spec, roll_percentile(dice), prefer="high" if by_value else "as_rolled")
    roll = result.roll
    assert roll is not None
    if rule == "H2-3" and within_hour:
        base, limit = roll.value, f"up to the roll {roll.value}, within the hour"
    else:
        late = " (after the hour)" if rule == "H2-3" else ""
        base, limit = roll.digit_sum, f"up to the digit sum {roll.digit_sum}{late}"
    healed = max(0, min(base, room)) if result.success else 0
    limit += f", at most {max(room, 0)} (amount − 1, H2-4)"
    after = min(patient.max_wounds, patient.wounds + healed)
    sink.emit(
        InjuryTreated(
            healer=healer_id,
            patient=patient_id,
            injury_id=injury_id,
            treatment=treatment,
            result=result,
            healed=healed,
            limit=limit,
            rule=rule,
            wounds_after=after,
        )
    )
    recover(sink, patient_id)
    if in_fight:
        end_turn(sink, dice)


def recover(sink: Sink, patient_id: str) -> None:
    """An incapacitated patient healed above the line is able again (C2-31)."""
    c = sink.table.by_id.get(patient_id)
    if c is not None and c.status == "incapacitated" and c.wounds > sink.table.settings.incapacitated_at:
        sink.emit(
            ev.StatusChanged(
                id=patient_id,
                status="active",
                cause=f"healed to {c.wounds} wound points",
                rule="C2-31",
            )
        )


def first_aid(sink: Sink, command: FirstAid, dice: DiceSource) -> None:
    _treat(
        sink,
        command.healer,
        command.patient,
        command.injury,
        dice,
        treatment="first aid",
        skill=command.skill,
        kind=command.kind,
        shifts=command.shifts,
        rule="H2-2",
    )


def medical_care(sink: Sink, command: MedicalCare, dice: DiceSource) -> None:
    _treat(
        sink,
        command.healer,
        command.patient,
        command.injury,
        dice,
        treatment="medical care",
        skill=command.skill,
        kind=command.kind,
        shifts=command.shifts,
        rule="H2-3",
        within_hour=command.within_hour,
    )


def day_points(current: int, maximum: int, care: str) -> int:
    """H2-5: below 60% only a doctor's care heals (2 a day); at or above, by activity."""
    if current < CONVALESCENCE_LINE * maximum:
        return PER_DAY["doctor"] if care == "doctor" else 0
    return PER_DAY[care] if care != "doctor" else PER_DAY["bed_rest"]


def spread(injuries: Iterable[Injury], points: int) -> tuple[tuple[int, int], ...]:
    """(injury id, points) healing up to `points` across `injuries` in order, at most what each
    has open (H2: healing is per injury)."""
    healed: list[tuple[int, int]] = []
    left = points
    for injury in injuries:
        take = min(left, injury.open)
        if take > 0:
            healed.append((injury.id, take))
            left -= take
    return tuple(healed)


def convalesce(sink: Sink, command: Convalesce, dice: DiceSource) -> None:
    t = sink.table
    require_started(t)
    if t.phase in ("ambush", "declare", "acting"):
        raise Refused("convalescence is for after the fight")
    if not 1 <= command.days <= 365:
        raise Refused(f"convalescence is 1–365 days at a time, not {command.days} (H2-5)")
    c = combatant(t, command.patient)
    if c.status == "dead":
        raise Refused(f"{command.patient} is dead")
    for day in range(1, command.days + 1):
        points = min(day_points(c.wounds, c.max_wounds, command.care), c.max_wounds - c.wounds)
        healed = spread(c.injuries, points)  # oldest first
        points = sum(take for _, take in healed)
        sink.emit(
            Convalesced(
                patient=command.patient,
                day=day,
                care=command.care,
                points=points,
                healed=healed,
                wounds_after=c.wounds + points,
            )
        )
        recover(sink, command.patient)
