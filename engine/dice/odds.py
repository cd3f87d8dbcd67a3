"""Exact odds of a check: every one of the 100 outcomes counted, never sampled."""

from __future__ import annotations

from fractions import Fraction

from engine.dice.checks import OUTCOMES, CheckSpec, Outcome, resolve
from engine.dice.percentile import Percentile


def exact_odds(spec: CheckSpec) -> dict[Outcome, Fraction]:
    """Probability of each outcome class (C-13), flip-flop taken as an automated actor would."""
    counts: dict[Outcome, int] = dict.fromkeys(OUTCOMES, 0)
    if spec.automatic:
        counts["success"] = 100
    else:
        for tens in range(10):
            for ones in range(10):
                counts[resolve(spec, Percentile(tens=tens, ones=ones)).outcome] += 1
    return {name: Fraction(n, 100) for name, n in counts.items()}


def success_chance(spec: CheckSpec) -> Fraction:
    """Probability of any success (crit, matched success, success, weak success)."""
    odds = exact_odds(spec)
    return odds["crit"] + odds["matched_success"] + odds["success"] + odds["weak_success"]
