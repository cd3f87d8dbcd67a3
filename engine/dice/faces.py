"""Reading d10 faces (D-1, D-5, D-7) as plain numbers: one implementation for the percentile
roll's values and for the rules that read faces in hot paths (compiled with them)."""

from __future__ import annotations


def face_value(face: int) -> int:
    """A single d10 face counted for sums (D-5, D-7): 0 counts as 10."""
    return 10 if face == 0 else face


def percentile_value(tens: int, ones: int) -> int:
    """D-1: 10·tens + ones, except 0,0 which is 100."""
    value = 10 * tens + ones
    return 100 if value == 0 else value


def read_value(tens: int, ones: int, flipped: bool) -> int:
    """D-1 on the orientation used (D-4: flipped reads the ones die as the tens)."""
    return percentile_value(ones, tens) if flipped else percentile_value(tens, ones)


def digit_sum(tens: int, ones: int) -> int:
    """D-5: each face counted with 0 as 10; range 2–20 (47 → 11, 07 → 17, 00 → 20)."""
    return face_value(tens) + face_value(ones)
