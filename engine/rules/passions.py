"""What a spent passion does to a failed roll (C-10; ua3's U-21 the same): a reroll with fresh
dice and the same spec, or the same dice read the other way round (D-4). Shared by every
ruleset; each says who has which passion and records the fact in its own event."""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.dice.checks import CheckResult, resolve
from engine.dice.source import DiceSource, roll_percentile, rolling
from engine.errors import Refused

Mode = Literal["reroll", "flip"]


def on_failure(
    result: CheckResult, mode: Mode, dice: DiceSource, *, prefer_high: bool = False, who: str = ""
) -> CheckResult | None:
    """The roll a passion makes of `result` in the same command, if it failed and the change can
    help; None otherwise (a success, or a flip that reads the same value or was already weighed,
    C-9/C-11)."""
    if result.success or result.roll is None:
        return None
    roll, spec = result.roll, result.spec
    if mode == "flip":
        if roll.tens == roll.ones or spec.flip:
            return None
        return resolve(msgspec.structs.replace(spec, flip=True), roll, orientation=not roll.flipped)
    rolling(dice, who, f"{spec.label or spec.kind} passion reroll", rule="C-10", spec=spec)
    return resolve(spec, roll_percentile(dice), prefer="high" if prefer_high else "as_rolled")


def changed(last: CheckResult, mode: Mode, flipped: bool | None, dice: DiceSource, who: str = "") -> CheckResult:
    """A passion spent on a roll already made (`last`, failed): reroll — fresh dice, the same spec
    (`flipped`: a person's stated orientation of an obsession roll); flip — the same dice read the
    other way. `Refused` when a flip cannot help (the passion is not spent)."""
    spec, roll = last.spec, last.roll
    assert roll is not None  # a check with no roll (C-3) is a success, refused before
    if mode == "flip":
        if flipped is not None:
            raise Refused("a passion flip reads the dice the other way round; give no orientation")
        if roll.tens == roll.ones:
            raise Refused(
                f"flip-flopping {roll.tens},{roll.ones} reads the same value (D-4)",
                hint="a reroll may help; the passion is not spent",
            )
        if spec.flip:
            raise Refused(
                "this obsession roll was already read the better way round (C-9, C-11)",
                hint="a reroll may help; the passion is not spent",
            )
        return resolve(msgspec.structs.replace(spec, flip=True), roll, orientation=not roll.flipped)
    if flipped is not None and not spec.flip:
        raise Refused(
            "this check may not be flip-flopped",
            hint="only obsession rolls flip (C-9); a passion flip is mode flip",
        )
    rolling(dice, who, f"{spec.label or spec.kind} passion reroll", rule="C-10", spec=spec)
    return resolve(spec, roll_percentile(dice), orientation=flipped)
