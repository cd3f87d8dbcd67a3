"""Questions the combat rules ask of the state: who can act, which shifts apply, which skill."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Final

from engine.dice.checks import CheckSpec, Shift
from engine.dice.judge import target_of
from engine.errors import Refused
from engine.rules.ua2.table import NO_SUPPRESSION, Row, Table
from engine.settings import Settings
from engine.state.weapons import Weapon

OUT_OF_FIGHT: Final = ("dead", "incapacitated", "unconscious", "fled", "surrendered")


def wound_shift(current: int, maximum: int, settings: Settings) -> int:
    """C2-31: the shift to all rolls from current wound points (thresholds are a setting)."""
    return shift_at(current, wound_cuts(maximum, settings.wound_shift_thresholds))


def shift_at(current: int, cuts: tuple[tuple[int, int], ...]) -> int:
    """The wound shift at `current` points: the lowest shift whose cut it is at or below."""
    shift = 0
    for cut, amount in cuts:
        if current <= cut and amount < shift:
            shift = amount
    return shift


@cache
def wound_cuts(maximum: int, thresholds: tuple[tuple[float, int], ...]) -> tuple[tuple[int, int], ...]:
    """C2-31 for a maximum: each threshold as the most wound points at which it applies
    (current ≤ fraction × maximum, exactly: the fraction as a ratio)."""
    cuts = []
    for fraction, amount in thresholds:
        num, den = _ratio(fraction)
        cuts.append(((num * maximum) // den, amount))
    return tuple(cuts)


def wound_shift_of(c: Row, current: int, t: Table) -> int:
    """`wound_shift` for a combatant, its cuts worked out once per maximum (kept on the limits every
    copy of its table shares; its maximum does not change)."""
    limits = t.limits
    thresholds = limits.wound_shift_thresholds
    if c.cuts_of is not thresholds:
        known = limits.wound_cuts
        cuts = known.get(c.max_wounds)
        if cuts is None:
            cuts = known[c.max_wounds] = wound_cuts(c.max_wounds, thresholds)
        c.cuts, c.cuts_of = cuts, thresholds
    return shift_at(current, c.cuts)


@cache
def _wounds(amount: int) -> Shift:
    """The wound shift as it is named in a check (one value per amount, shared)."""
    return Shift("wounds (C2-31)", amount)


@cache
def _ratio(fraction: float) -> tuple[int, int]:
    """A threshold as an exact ratio (2/3 stays 2/3, not 0.666…), computed once per value."""
    exact = Fraction(fraction).limit_denominator(1000)
    return exact.numerator, exact.denominator


def combatant(t: Table, combatant_id: str) -> Row:
    c = t.by_id.get(combatant_id)
    if c is None:
        raise Refused(f"no combatant {combatant_id!r} in this encounter")
    return c


def frozen(c: Row) -> bool:
    """M2-7: a frozen combatant takes no actions and cannot dodge."""
    return c.reaction is not None and c.reaction.kind == "freeze"


def stuck(c: Row) -> bool:
    """C2-33: standing but unable to act at all — frozen (M2-7) or bound from the start."""
    return c.bound or frozen(c)


def able_to_act(c: Row) -> bool:
    """C2-33: not dead, incapacitated, unconscious, fled, surrendered, frozen or bound."""
    return c.status == "active" and not stuck(c)


def can_dodge(c: Row) -> bool:
    """C2-15, C2-27, M2-7: the held, the holders, the frozen and the frenzied cannot dodge."""
    frenzied = c.reaction is not None and c.reaction.kind == "frenzy"
    return able_to_act(c) and not c.held_by and not c.holding and not frenzied


def helpless(c: Row) -> bool:
    """Standing but unable to defend itself: frozen (M2-7, C2-33), bound or held in a grip (C2-27)."""
    return c.status == "active" and (stuck(c) or bool(c.held_by))


def verdict(t: Table) -> tuple[str | None, str] | None:
    """C2-33: (the winning side or None for a draw, why) when the fight is over; None while it
    goes on. Standing is not dead, incapacitated, unconscious, fled or surrendered; a frozen
    combatant is standing, helpless, so the fight goes on while one side can act against it."""
    first = None
    for c in t.rows:  # the usual case, quickly: combatants of two sides can still act
        if c.status == "active" and (first is None or c.side != first) and not stuck(c):
            if first is None:
                first = c.side
            else:
                return None
    standing: dict[str, bool] = {}  # side → whether one of its standing combatants can act
    for c in t.rows:
        if c.status == "active":
            standing[c.side] = standing.get(c.side, False) or not stuck(c)
    if len(standing) <= 1:
        if not standing:
            return None, "no one is left standing"
        (side,) = standing
        return side, f"only side {side} is still standing"
    able = [side for side, acts in standing.items() if acts]
    if not able:
        return None, "no one standing can act: everyone left is frozen (M2-7) or bound"
    if len(able) == 1 and t.settings.spare_helpless:
        return able[0], f"every standing opponent of side {able[0]} is frozen, and it spares them (spare_helpless)"
    return None


def roll_shifts(t: Table, who: str, *, suppression: bool = True) -> list[Shift]:
    """Shifts on every roll `who` makes: wounds (C2-31), conditions (C2-24, C2-25), suppression
    (C2-18). Conditions and suppression are the fight's: once it has ended they no longer apply."""
    c = combatant(t, who)
    shifts = []
    w = wound_shift_of(c, c.wounds, t)
    if w:
        shifts.append(_wounds(w))
    if t.phase in ("setup", "ended"):
        return shifts
    for cond in c.conditions:
        if t.round <= cond.until_round:
            shifts.append(Shift(f"{cond.name}", cond.shift))
    s = t.suppression
    if suppression and s is not NO_SUPPRESSION and s.shots and who in s.field:
        amount = suppression_shift(s.shots, t.settings)
        if amount:
            shifts.append(Shift(f"suppressed, {s.shots} shots (C2-18)", amount))
    return shifts


def suppression_shift(shots: int, settings: Settings) -> int:
    """C2-18: the shift from the total shots in the air this round (a setting)."""
    shift = 0
    for step in settings.suppression_shift:
        if shots >= step.shots:
            shift = step.shift
    return shift


def skill_spec(
    c: Row,
    skill: str,
    stat: str,
    shifts: list[Shift] | tuple[Shift, ...],
    *,
    minimum: int | None = None,
) -> CheckSpec:
    """A major check with a sheet's skill — untrained on `stat` when the sheet lacks it (C-7) —
    flip-flop allowed when it is the obsession skill (C-9)."""
    sheet = c.sheet
    found = c.skill(skill)
    if found is None or found.rating <= 0:
        return CheckSpec(
            kind="major",
            rating=sheet.stats.of(stat),
            stat=sheet.stats.of(stat),
            untrained=True,
            shifts=tuple(shifts),
            minimum=minimum,
            label=f"{skill} ({stat.title()})",
        )
    return CheckSpec(
        kind="major",
        rating=found.rating,
        shifts=tuple(shifts),
        minimum=minimum,
        flip=sheet.is_obsession(found.name),
        label=found.name,
    )


def attack_spec(c: Row, weapon: Weapon, mode: str, override: str = "") -> tuple[CheckSpec, int]:
    """The attack check with `weapon` in `mode` (C2-1, C2-20), before shifts and minimum, and its
    target (C-1); worked out once per combatant and weapon (the sheet does not change)."""
    key = (id(weapon), mode, override)
    found = c.memo.get(key)
    if found is None:
        skill, stat = attack_skill(c, weapon, mode, override)
        spec = skill_spec(c, skill, stat, ())
        found = c.memo[key] = (spec, target_of(spec), weapon)  # the weapon keeps its id unique
    check: CheckSpec = found[0]  # type: ignore[index]
    target: int = found[1]  # type: ignore[index]
    return check, target


def attack_skill(c: Row, weapon: Weapon, mode: str, override: str = "") -> tuple[str, str]:
    """C2-1, C2-20: (skill name, stat used untrained) for an attack."""
    sheet = c.sheet
    if override:
        found = c.skill(override)
        return override, found.stat if found is not None else weapon.skill_stat
    if mode == "throw":
        if sheet.is_obsession(sheet.hand_to_hand):
            return sheet.hand_to_hand, "body"
        return "General Athletics", "body"
    if weapon.skill == "hand_to_hand" or mode in ("disarm", "throw_person"):
        return sheet.hand_to_hand, "body"
    return weapon.skill, weapon.skill_stat


def hand_to_hand_rating(c: Row) -> int:
    return c.rating(c.sheet.hand_to_hand)
