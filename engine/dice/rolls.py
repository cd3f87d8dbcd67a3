"""Every percentile roll there can be, built once: a roll is frozen and equal by value, so the
engine shares one of each (tens, ones, read flipped or not) instead of building one per roll."""

from __future__ import annotations

from typing import Final

from engine.dice.faces import digit_sum, read_value
from engine.dice.percentile import Percentile

_ROLLS: Final[list[Percentile]] = [
    Percentile(tens=t, ones=o, flipped=f) for t in range(10) for o in range(10) for f in (False, True)
]


def roll_of(tens: int, ones: int, flipped: bool = False) -> Percentile:
    """The roll of these faces, read as rolled or flip-flopped (D-1, D-4)."""
    return _ROLLS[tens * 20 + ones * 2 + flipped]


def value_of(roll: Percentile) -> int:
    """`roll.value` (D-1), for compiled callers (they call no interpreted property)."""
    return read_value(roll.tens, roll.ones, roll.flipped)


def digit_sum_of(roll: Percentile) -> int:
    """`roll.digit_sum` (D-5), for compiled callers."""
    return digit_sum(roll.tens, roll.ones)
