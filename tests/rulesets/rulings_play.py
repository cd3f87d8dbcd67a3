"""GM rulings with effects as a Hypothesis strategy, for every ruleset's contract (U-26, T-5)."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.commands import Ruling
from engine.commands.base import CommandBase
from engine.commands.setup import RulingCondition, RulingFall, RulingNotch, RulingWounds


def ruled(
    ids: list[str], meters: tuple[str, ...] | list[str], conditions: tuple[str, ...], falls: bool = False
) -> st.SearchStrategy[CommandBase]:
    """A GM ruling with effects (U-26, T-5): wounds dealt or taken off, falls (ua3), notches
    marked or erased, conditions set or cleared; some refused (a dead target, a full meter)."""
    who = st.sampled_from(ids)
    wounds = st.builds(RulingWounds, who=who, amount=st.integers(-20, -1) | st.integers(1, 30))
    notch = st.builds(
        RulingNotch,
        who=who,
        meter=st.sampled_from(meters),
        kind=st.sampled_from(["hardened", "failed"]),
        change=st.sampled_from([-1, 1, 2]),
    )
    condition = st.builds(RulingCondition, who=who, condition=st.sampled_from(conditions), clear=st.booleans())
    fall = st.builds(RulingFall, who=who, wounds=st.integers(1, 25))
    return st.builds(
        Ruling,
        note=st.just("the GM rules"),
        wounds=st.lists(wounds, max_size=2).map(tuple),
        falls=st.lists(fall, max_size=1).map(tuple) if falls else st.just(()),
        notches=st.lists(notch, max_size=2).map(tuple),
        conditions=st.lists(condition, max_size=2).map(tuple),
    )
