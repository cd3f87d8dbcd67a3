"""The gridiron's five spaces (U-16) and moving the token on them: pure functions of names,
compiled with the rules (a grapple moves the token on every roll; `engine.state.ua3.conflict`
re-exports them)."""

from __future__ import annotations

from typing import Literal

Space = Literal["end_zone_a", "advantage_a", "balance", "advantage_b", "end_zone_b"]
#: U-16: the five spaces, from side A's end zone to side B's.
SPACES: tuple[Space, ...] = ("end_zone_a", "advantage_a", "balance", "advantage_b", "end_zone_b")
SideKey = Literal["a", "b"]


#: Each space's place in `SPACES` (a lookup, not a search: a grapple roll reads it).
INDEX: dict[str, int] = {space: i for i, space in enumerate(SPACES)}


def space_index(space: str) -> int:
    index = INDEX.get(space)
    if index is None:
        raise ValueError(f"{space!r} is not a space of the gridiron")
    return index


def step_toward(space: str, side: str, steps: int) -> Space:
    """The space `steps` steps toward `side`'s end zone (negative: away), at most to an end zone."""
    toward = -1 if side == "a" else 1
    index = min(len(SPACES) - 1, max(0, space_index(space) + toward * steps))
    return SPACES[index]


def half_of(space: str) -> SideKey | None:
    """The side whose half the token is in (balance: neither)."""
    index = space_index(space)
    if index < 2:
        return "a"
    if index > 2:
        return "b"
    return None
