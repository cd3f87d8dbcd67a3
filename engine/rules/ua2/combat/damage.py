"""Damage arithmetic (C2-7, C2-9, C2-12, C2-20, C2-23, C2-30): pure functions of dice and weapon.

Each returns the amount, a breakdown a GM can check ("damage 4+7 = 11 + 6 (heavy, penetrating)
= 17") and the rule; with `describe=False` (a batch, where no event is written) the breakdown is
left empty and never built.
"""

from __future__ import annotations

from functools import cache

from engine.dice.percentile import Percentile, face_value
from engine.dice.rolls import digit_sum_of, value_of
from engine.rules.ua2.table import Arm

Damage = tuple[int, str, str]  # amount, breakdown, rule


@cache
def _faces(roll: Percentile) -> str:
    """D-5 shown in full: `47 → 4+7`, `07 → 10+7` (a 0 counts as 10)."""
    return f"{roll.value:02d} → {face_value(roll.read_tens)}+{face_value(roll.read_ones)}"


def _bonus_text(arm: Arm) -> str:
    return f"{arm.bonus} ({', '.join(arm.weapon.tags)})"


def digit_sum_amount(digit_sum: int, bonus: int) -> int:
    """C2-7: digit sum + the weapon bonus."""
    return digit_sum + bonus


def firearm_style_amount(value: int, bonus: int) -> int:
    """C2-12/C2-23: the roll value + the weapon bonus."""
    return value + bonus


def firearm_amount(value: int, cap: int | None) -> int:
    """C2-9: the roll value, capped by the gun."""
    return cap if cap is not None and value > cap else value


def digit_sum_damage(roll: Percentile, arm: Arm, *, thrown: bool = False, describe: bool = True) -> Damage:
    """C2-7: digit sum (D-5) + weapon bonus; C2-20: thrown — no bonus, and only big, heavy or
    penetrating objects hurt."""
    total = digit_sum_of(roll)
    if thrown:
        if not arm.harmful_thrown:
            text = f"a thrown {arm.name} is not big, heavy or penetrating: no damage" if describe else ""
            return 0, text, "C2-20"
        return total, f"damage {_faces(roll)} = {total} (thrown, no weapon bonus)" if describe else "", "C2-20"
    bonus = arm.bonus
    if bonus:
        amount = digit_sum_amount(total, bonus)
        return amount, f"damage {_faces(roll)} = {total} + {_bonus_text(arm)} = {amount}" if describe else "", "C2-7"
    return total, f"damage {_faces(roll)} = {total}" if describe else "", "C2-7"


def firearm_style_damage(
    roll: Percentile, arm: Arm, reason: str, *, thrown: bool = False, describe: bool = True
) -> Damage:
    """C2-12/C2-23: the roll value (uncapped) + the weapon bonus (not for a throw, C2-20)."""
    value, bonus = value_of(roll), arm.bonus
    if thrown or not bonus:
        return value, f"{reason}: damage = roll {value}" if describe else "", "C2-12"
    amount = firearm_style_amount(value, bonus)
    return amount, f"{reason}: damage = roll {value} + {_bonus_text(arm)} = {amount}" if describe else "", "C2-12"


def firearm_damage(roll: Percentile, arm: Arm, *, describe: bool = True) -> Damage:
    """C2-9: the roll value, capped by the gun."""
    value = value_of(roll)
    amount = firearm_amount(value, arm.cap)
    if not describe:
        return amount, "", "C2-9"
    if amount != value:
        return amount, f"damage {value}, capped at {amount} by the {arm.name}", "C2-9"
    return amount, f"damage {value} ({arm.name}, cap {arm.cap})", "C2-9"


def half_of(amount: int) -> int:
    """C2-15: half, rounded up."""
    return (amount + 1) // 2


def halve(damage: Damage) -> Damage:
    """C2-15: a partial dodge halves damage, rounded up (an undescribed damage stays so)."""
    amount, text, rule = damage
    half = half_of(amount)
    return half, f"{text}, halved by the dodge (rounded up) = {half}" if text else "", f"{rule}, C2-15"


def add(damage: Damage, extra: int, text: str, rule: str) -> Damage:
    amount, before, rules = damage
    total = amount + extra
    return total, f"{before}; {text} +{extra} = {total}" if before else "", f"{rules}, {rule}"
