"""Judging checks (C-1…C-13), shared by both editions: outcome class, flip choice, rolling.

Everything here is a pure function of its arguments; dice come in as a `Percentile` or from a
`DiceSource` passed by the caller.
"""

from __future__ import annotations

from engine.dice.percentile import Percentile, percentile
from engine.dice.source import DiceSource, roll_percentile
from engine.dice.spec import RANK, SUCCESSES, CheckResult, CheckSpec, Outcome, Prefer


def major_outcome(value: int, matched: bool, target: int, *, untrained: bool = False) -> Outcome:
    """C-13 for a major check with no minimum roll (what attacks, dodges and madness checks are)."""
    if value == 1:
        return "crit"
    if value == 100:
        return "fumble"
    if untrained:
        if matched and value <= target:
            return "success"
        return "matched_failure" if matched else "failure"
    if value <= target:
        return "matched_success" if matched else "success"
    return "matched_failure" if matched else "failure"


def classify(spec: CheckSpec, value: int, matched: bool) -> Outcome:
    """C-13: the outcome class of a rolled value under a spec."""
    if value == 1:
        return "crit"
    if value == 100:
        return "fumble"
    if spec.minimum is not None and value < spec.minimum:
        return "failure"
    target = spec.target
    if spec.kind == "major":  # every combat roll: the short way to `resolves_as`'s major branches
        return major_outcome(value, matched, target, untrained=spec.untrained)
    branch = spec.resolves_as
    if branch == "significant":
        if value <= target:
            return "matched_success" if matched else "success"
        if value <= spec.stat_target:
            return "weak_success"
        return "matched_failure" if matched else "failure"
    if branch == "untrained":
        if value <= target:
            return "weak_success"
        return "matched_failure" if matched else "failure"
    # minor_quality: never a failure once past steps 1–2
    return "success" if value <= target else "weak_success"


def _outcome_of(spec: CheckSpec, roll: Percentile) -> Outcome:
    tens, ones = roll.tens, roll.ones
    value = (ones * 10 + tens if roll.flipped else tens * 10 + ones) or 100
    return classify(spec, value, tens == ones and value != 100)


def _major(spec: CheckSpec, tens: int, ones: int, flipped: bool) -> Outcome:
    """C-13 for a major check of these faces (what every combat roll is), the short way."""
    value = (ones * 10 + tens if flipped else tens * 10 + ones) or 100
    if value == 1:
        return "crit"
    if value == 100:
        return "fumble"
    minimum = spec.minimum
    if minimum is not None and value < minimum:
        return "failure"
    return major_outcome(value, tens == ones, spec.target, untrained=spec.untrained)


def choose_orientation(spec: CheckSpec, roll: Percentile, prefer: Prefer = "as_rolled") -> Percentile:
    """C-11: an automated actor takes the better outcome; on a tie, the purpose decides."""
    if not spec.flip:
        return roll
    flipped = roll.flip()
    as_rolled = _outcome_of(spec, roll)
    if takes_flip(as_rolled, _outcome_of(spec, flipped), roll.value, flipped.value, prefer):
        return flipped
    return roll


def takes_flip(as_rolled: Outcome, flipped: Outcome, value: int, flipped_value: int, prefer: Prefer) -> bool:
    """C-11 for an automated actor: read the dice the other way round when that gives the better
    outcome; on a tie of successes, when the purpose prefers the other value."""
    a, b = RANK[as_rolled], RANK[flipped]
    if a != b:
        return b < a
    if as_rolled not in SUCCESSES:
        return False  # a failure's value serves no purpose: keep the dice as rolled
    if prefer == "high":
        return flipped_value > value
    if prefer == "low":
        return flipped_value < value
    return False


def resolve(
    spec: CheckSpec,
    roll: Percentile,
    *,
    prefer: Prefer = "as_rolled",
    orientation: bool | None = None,
) -> CheckResult:
    """Resolve rolled dice. `orientation` (flipped or not) is a person's stated choice (C-11)."""
    if orientation is not None:
        chosen = percentile(roll.tens, roll.ones, orientation and spec.flip)
    elif spec.flip:
        chosen = choose_orientation(spec, roll, prefer)
    else:
        chosen = roll
    if spec.kind == "major":
        return CheckResult(spec=spec, roll=chosen, outcome=_major(spec, chosen.tens, chosen.ones, chosen.flipped))
    return CheckResult(spec=spec, roll=chosen, outcome=_outcome_of(spec, chosen))


def roll_check(
    spec: CheckSpec, dice: DiceSource, *, prefer: Prefer = "as_rolled", flipped: bool | None = None
) -> CheckResult:
    """Roll a check from the dice source, or succeed without a roll (C-3). `flipped` is the
    orientation a person states (C-11); without it the engine takes the better one."""
    if spec.kind == "minor" and spec.automatic:
        return CheckResult(spec=spec, roll=None, outcome="success")
    return resolve(spec, roll_percentile(dice), prefer=prefer, orientation=flipped)
