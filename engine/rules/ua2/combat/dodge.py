"""Dodging (C2-15, C2-16): a Dodge roll against each successful attack on a dodger."""

from __future__ import annotations

from engine.commands.combat import RollPassion
from engine.dice.checks import SUCCESSES, CheckResult, roll_check
from engine.dice.judge import value_read
from engine.dice.source import DiceSource
from engine.events.combat import DodgeOutcome
from engine.events.madness import PassionSpent
from engine.rules.ua2.combat.situation import can_dodge, combatant, roll_shifts, skill_spec
from engine.rules.ua2.passion import passion_on_failure
from engine.rules.ua2.table import Table


def dodge_effect(outcome: str, value: int, attack_value: int, dodge_skill: int) -> str:
    """C2-15: value ≤ Dodge target and above the attack's value → no damage; else, if the attack's
    value is below the Dodge skill → half; else full. Decision: a crit dodge is a full dodge (C-6:
    a crit is always the best success)."""
    if outcome == "crit" or (outcome in SUCCESSES and value > attack_value):
        return "full"
    if attack_value < dodge_skill:
        return "half"
    return "none"


def dodge_outcome(t: Table, target: str, attack: CheckResult, dice: DiceSource) -> DodgeOutcome | None:
    """The target's Dodge roll if it is dodging and able to; None otherwise (no die drawn).

    An obsession Dodge may flip-flop (C-9); an automated dodger takes the better outcome and, on a
    tie, the higher value, which is what must beat the attack's value (C-11, a decision)."""
    c = combatant(t, target)
    if not c.dodging or not can_dodge(c):
        return None
    spec = skill_spec(c, "Dodge", "speed", roll_shifts(t, target))
    result = roll_check(spec, dice, prefer="high", who=target, rule="C2-15", what="dodge")
    skill = c.rating("Dodge")
    effect = dodge_effect(result.outcome, value_read(result) or 0, value_read(attack) or 0, skill)
    return DodgeOutcome(dodger=target, result=result, effect=effect, dodge_skill=skill)  # type: ignore[arg-type]


def dodge_with_passion(
    t: Table, dodge: DodgeOutcome, attack: CheckResult, use: RollPassion, dice: DiceSource
) -> tuple[PassionSpent, DodgeOutcome] | None:
    """C-10 on a failed dodge: the dodger's passion rerolls or flips it, and the dodge is judged
    again (C2-15) on the new roll; None when the roll succeeded or the change cannot help."""
    spent = passion_on_failure(t.by_id[dodge.dodger], use.passion, use.mode, dodge.result, dice, prefer_high=True)
    if spent is None:
        return None
    result = spent.after
    effect = dodge_effect(result.outcome, value_read(result) or 0, value_read(attack) or 0, dodge.dodge_skill)
    return spent, DodgeOutcome(dodger=dodge.dodger, result=result, effect=effect, dodge_skill=dodge.dodge_skill)  # type: ignore[arg-type]
