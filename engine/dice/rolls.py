"""Every percentile roll there can be, built once: a roll is frozen and equal by value, so the
engine shares one of each (tens, ones, read flipped or not) instead of building one per roll."""

from __future__ import annotations

from typing import Final

import msgspec

from engine.dice.faces import digit_sum, read_value
from engine.dice.percentile import Percentile

_ROLLS: Final[list[Percentile]] = [
    Percentile(tens=t, ones=o, flipped=f) for t in range(10) for o in range(10) for f in (False, True)
]


#: (Final: a compiled build calls it from a C variable; it reads a roll's faces in one call, where
#: reading a struct's fields one by one is slow)
astuple: Final = msgspec.structs.astuple


def roll_of(tens: int, ones: int, flipped: bool = False) -> Percentile:
    """The roll of these faces, read as rolled or flip-flopped (D-1, D-4)."""
    return _ROLLS[tens * 20 + ones * 2 + flipped]


def value_of(roll: Percentile) -> int:
    """`roll.value` (D-1), for compiled callers (they call no interpreted property)."""
    tens, ones, flipped = astuple(roll)
    return read_value(tens, ones, flipped)


def digit_sum_of(roll: Percentile) -> int:
    """`roll.digit_sum` (D-5), for compiled callers."""
    tens, ones, _ = astuple(roll)
    return digit_sum(tens, ones)
