"""Checks (C-1…C-13), shared by both editions: what a check is (`engine.dice.spec`) and how it
is judged (`engine.dice.judge`), in one place to import them from."""

from engine.dice.judge import (
    choose_orientation,
    classify,
    major_outcome,
    resolve,
    roll_check,
    takes_flip,
)
from engine.dice.spec import (
    MINOR_AUTOMATIC_RATING,
    OUTCOMES,
    RANK,
    SUCCESSES,
    CheckResult,
    CheckSpec,
    Kind,
    Outcome,
    Prefer,
    Shift,
    is_success,
)

__all__ = [
    "MINOR_AUTOMATIC_RATING",
    "OUTCOMES",
    "RANK",
    "SUCCESSES",
    "CheckResult",
    "CheckSpec",
    "Kind",
    "Outcome",
    "Prefer",
    "Shift",
    "choose_orientation",
    "classify",
    "is_success",
    "major_outcome",
    "resolve",
    "roll_check",
    "takes_flip",
]
