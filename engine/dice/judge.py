"""Judging checks (C-1…C-13), shared by both editions: outcome class, flip choice, rolling.

Everything here is a pure function of its arguments; dice come in as a `Percentile` or from a
`DiceSource` passed by the caller.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from engine.dice.percentile import Percentile
from engine.dice.rolls import roll_of, value_of
from engine.dice.source import Choice, DiceSource, SeededDice, choosing, roll_percentile, rolling
from engine.dice.spec import RANK, SUCCESSES, CheckResult, CheckSpec, Outcome, Prefer

#: The spec module's tables as Final names here: a compiled build reads them from C variables, not
#: from the module's globals by name on every check.
_RANK: Final = RANK
_SUCCESSES: Final = SUCCESSES

astuple: Final = msgspec.structs.astuple
#: Where a CheckSpec's fields are in `astuple(spec)`: a check reads its spec with one call (a
#: compiled build reads a struct's fields one by one, slowly).
_KIND: Final = 0
_RATING: Final = 1
_STAT: Final = 2
_UNTRAINED: Final = 3
_SHIFTS: Final = 4
_MINIMUM: Final = 5
_FLIP: Final = 6
if CheckSpec.__struct_fields__[:7] != ("kind", "rating", "stat", "untrained", "shifts", "minimum", "flip"):
    raise ImportError("CheckSpec's fields moved: update the positions in engine.dice.judge")


def target_of(spec: CheckSpec) -> int:
    """C-1: the rating plus every shift, never clamped; C-7: untrained, the stat (major) or the
    stat − 30 (minor and significant)."""
    return _target(astuple(spec))


def _target(fields: tuple[Any, ...]) -> int:
    """`target_of` a spec, on its fields."""
    total: int = fields[_RATING]
    if fields[_UNTRAINED]:
        stat: int | None = fields[_STAT]
        if stat is not None:
            total = stat
        if fields[_KIND] != "major":
            total -= 30
    for shift in fields[_SHIFTS]:
        total += shift.amount
    return total


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
    target = target_of(spec)
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


def outcome_of_faces(spec: CheckSpec, tens: int, ones: int, flipped: bool) -> Outcome:
    """C-13 for these faces, read as rolled or flip-flopped (D-4)."""
    if spec.kind != "major":
        value = (ones * 10 + tens if flipped else tens * 10 + ones) or 100
        return classify(spec, value, tens == ones and value != 100)
    return _major_faces(tens, ones, flipped, target_of(spec), spec.minimum, spec.untrained)


def _major_faces(tens: int, ones: int, flipped: bool, target: int, minimum: int | None, untrained: bool) -> Outcome:
    """C-13 for a major check (every combat roll) on these faces, its spec read once by the
    caller (a compiled build reads a struct's fields slowly: the hot path reads each one once)."""
    value = (ones * 10 + tens if flipped else tens * 10 + ones) or 100
    if value == 1:
        return "crit"
    if value == 100:
        return "fumble"
    if minimum is not None and value < minimum:
        return "failure"
    return major_outcome(value, tens == ones, target, untrained=untrained)


def reads_flipped(spec: CheckSpec, tens: int, ones: int, flipped: bool, prefer: Prefer) -> bool:
    """C-11: whether an automated actor reads these faces flip-flopped (given they may be)."""
    if spec.kind == "major":
        return _major_reads_flipped(tens, ones, flipped, prefer, target_of(spec), spec.minimum, spec.untrained)
    as_read = outcome_of_faces(spec, tens, ones, flipped)
    return _takes(as_read, outcome_of_faces(spec, tens, ones, not flipped), tens, ones, flipped, prefer)


def _major_reads_flipped(
    tens: int, ones: int, flipped: bool, prefer: Prefer, target: int, minimum: int | None, untrained: bool
) -> bool:
    as_read = _major_faces(tens, ones, flipped, target, minimum, untrained)
    other = _major_faces(tens, ones, not flipped, target, minimum, untrained)
    return _takes(as_read, other, tens, ones, flipped, prefer)


def _takes(as_read: Outcome, other: Outcome, tens: int, ones: int, flipped: bool, prefer: Prefer) -> bool:
    """`flipped` turned round when C-11 takes the other reading of these faces."""
    if as_read == other and (prefer == "as_rolled" or as_read not in _SUCCESSES):
        return flipped  # the same outcome, and no purpose that prefers a value (the usual case)
    read, value = (tens * 10 + ones) or 100, (ones * 10 + tens) or 100
    if flipped:
        read, value = value, read
    if takes_flip(as_read, other, read, value, prefer):
        return not flipped
    return flipped


def choose_orientation(spec: CheckSpec, roll: Percentile, prefer: Prefer = "as_rolled") -> Percentile:
    """C-11: an automated actor takes the better outcome; on a tie, the purpose decides."""
    if not spec.flip:
        return roll
    return roll_of(roll.tens, roll.ones, reads_flipped(spec, roll.tens, roll.ones, roll.flipped, prefer))


def takes_flip(as_rolled: Outcome, flipped: Outcome, value: int, flipped_value: int, prefer: Prefer) -> bool:
    """C-11 for an automated actor: read the dice the other way round when that gives the better
    outcome; on a tie of successes, when the purpose prefers the other value."""
    a, b = _RANK[as_rolled], _RANK[flipped]
    if a != b:
        return b < a
    if as_rolled not in _SUCCESSES:
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
    return resolve_faces(spec, roll.tens, roll.ones, roll.flipped, prefer, orientation, roll)


def resolve_faces(
    spec: CheckSpec,
    tens: int,
    ones: int,
    flipped: bool,
    prefer: Prefer = "as_rolled",
    orientation: bool | None = None,
    roll: Percentile | None = None,
) -> CheckResult:
    """`resolve` on the faces of a roll (`roll`, when the caller has it, read `flipped`)."""
    return _resolve(spec, astuple(spec), tens, ones, flipped, prefer, orientation, roll)


def _resolve(
    spec: CheckSpec,
    fields: tuple[Any, ...],
    tens: int,
    ones: int,
    flipped: bool,
    prefer: Prefer,
    orientation: bool | None,
    roll: Percentile | None,
) -> CheckResult:
    """`resolve_faces`, the spec's `fields` (`astuple(spec)`) read by the caller."""
    if fields[_KIND] == "major":  # every combat roll: the spec read once
        target, minimum, untrained, flip = _target(fields), fields[_MINIMUM], fields[_UNTRAINED], fields[_FLIP]
        read = flipped
        if orientation is not None:
            read = orientation and flip
        elif flip:
            read = _major_reads_flipped(tens, ones, flipped, prefer, target, minimum, untrained)
        outcome = _major_faces(tens, ones, read, target, minimum, untrained)
    else:
        read = flipped
        if orientation is not None:
            read = orientation and fields[_FLIP]
        elif fields[_FLIP]:
            read = reads_flipped(spec, tens, ones, flipped, prefer)
        outcome = outcome_of_faces(spec, tens, ones, read)
    chosen = roll if roll is not None and read == flipped else roll_of(tens, ones, read)
    return CheckResult(spec=spec, roll=chosen, outcome=outcome)


def roll_check(
    spec: CheckSpec,
    dice: DiceSource,
    *,
    prefer: Prefer = "as_rolled",
    flipped: bool | None = None,
    who: str = "",
    rule: str = "",
    what: str = "",
) -> CheckResult:
    """Roll a check from the dice source, or succeed without a roll (C-3). `flipped` is the
    orientation a person states (C-11); without it the engine takes the better one. `who` rolls
    it, for `rule` (T-1: a live table takes the faces from their owner), `what` naming the roll
    (default: the check's label)."""
    fields = astuple(spec)
    if fields[_KIND] == "minor" and spec.automatic:
        return CheckResult(spec=spec, roll=None, outcome="success")
    if isinstance(dice, SeededDice):  # the batch's source: its faces straight from the stream
        tens, ones = dice.two_d10()
        return _resolve(spec, fields, tens, ones, False, prefer, flipped, None)
    named = _roll_name(what, spec)
    rolling(dice, who, named, rule=rule, spec=spec)
    roll = roll_percentile(dice)
    if flipped is None and fields[_FLIP] and roll.tens != roll.ones and who:
        flipped = _stated_orientation(spec, fields, roll, prefer, dice, who, named)
    return _resolve(spec, fields, roll.tens, roll.ones, roll.flipped, prefer, flipped, roll)


def _roll_name(what: str, spec: CheckSpec) -> str:
    """How a request names a roll: `attack (Fighting)`, `dodge`, or the check's label."""
    label = spec.label
    if what and label and label.lower() not in what:
        return f"{what} ({label})"
    return what or label or str(spec.kind)


def _stated_orientation(
    spec: CheckSpec, fields: tuple[Any, ...], roll: Percentile, prefer: Prefer, dice: DiceSource, who: str, what: str
) -> bool | None:
    """C-11: the roller states how a roll that may flip is read — at a live table its player is
    asked (T-1), each reading with what it comes to; elsewhere the better one (None)."""
    t, o = roll.tens, roll.ones
    readings = [(False, f"{t}{o}"), (True, f"{o}{t}")]
    outcomes = {r: _resolve(spec, fields, t, o, roll.flipped, prefer, r, roll).outcome for r, _ in readings}
    better = _resolve(spec, fields, t, o, roll.flipped, prefer, None, roll)
    automatic = "flipped" if better.roll is not None and better.roll.flipped != roll.flipped else "as_rolled"
    options = tuple(
        ("flipped" if r else "as_rolled", f"read {shown}: {outcomes[r].replace('_', ' ')}") for r, shown in readings
    )
    picked = choosing(dice, Choice(who, "flip", f"{what} — how it is read", options, "C-11"), automatic)
    return None if picked == automatic else picked == "flipped"


def succeeded(result: CheckResult) -> bool:
    """`result.success`, for compiled callers (they call no interpreted property)."""
    return result.outcome in _SUCCESSES


def value_read(result: CheckResult) -> int | None:
    """`result.value`, for compiled callers."""
    roll = result.roll
    return None if roll is None else value_of(roll)
