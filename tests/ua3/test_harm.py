"""Harm (U-2): wounds count up toward the threshold: 50%, 75% (rounded up), 90% unconscious,
100% dead; an identity may set the threshold (U-19)."""

from __future__ import annotations

import pytest

from engine.rules.ua3.harm import at_percent, level


@pytest.mark.parametrize(
    ("wounds", "words"),
    [(24, ""), (25, "sore and exhausted"), (37, "sore and exhausted"), (38, "badly beaten"), (44, "badly beaten"),
     (45, "unconscious"), (49, "unconscious"), (50, "dead"), (80, "dead")],
)  # fmt: skip
def test_u2_the_levels_of_a_threshold_of_50_are_25_38_45_and_50(wounds: int, words: str) -> None:
    assert level(wounds, 50) == words


def test_u2_levels_scale_with_the_threshold_rounded_up() -> None:
    assert [at_percent(70, p) for p in (50, 75, 90, 100)] == [35, 53, 63, 70]
