"""ua3 keeps the ruleset contract (DESIGN's laws as Hypothesis properties, `tests/rulesets/contract.py`):
characters, ability checks (U-1), stress checks (U-23, U-25), burnout (U-24), passions (U-21),
coercion (U-15) and the gridiron (U-16) at the table; batches of the shipped ua3 scenarios
(fought by the ua3 Script; fights themselves: `test_ua3_combat_contract.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from engine.commands.base import CommandBase
from tests.rulesets.contract import RulesetContract
from tests.rulesets.ua3_play import LOADED, commands_for, setup_commands, wild_commands

ROOT = Path(__file__).resolve().parents[2]


class TestUa3(RulesetContract):
    ruleset = "ua3"

    def setup(self, seed: int) -> list[CommandBase]:
        return setup_commands(LOADED["the-hollow-church.toml"], seed)

    def commands(self, state: Any) -> st.SearchStrategy[CommandBase]:
        return commands_for(state, self.setup(0))

    def mistakes(self, state: Any) -> st.SearchStrategy[CommandBase]:
        return wild_commands(state)

    def scenarios(self) -> Sequence[Path]:
        return sorted((ROOT / "scenarios" / "ua3").glob("*.toml"))

    def goldens(self) -> Sequence[Path]:
        return sorted((ROOT / "replays" / "ua3").glob("*.jsonl"))
