"""ua3 with combat keeps the ruleset contract (DESIGN's laws, `tests/rulesets/contract.py`):
sessions of its shipped fights played by the tactics presets, GM commands and mistakes; batches
of every shipped ua3 scenario (counting and recording sinks, 1 and 2 workers)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from engine.commands.base import CommandBase
from tests.rulesets.contract import RulesetContract
from tests.rulesets.ua3_fight_play import fight_commands, fight_mistakes
from tests.rulesets.ua3_play import LOADED, setup_commands

ROOT = Path(__file__).resolve().parents[2]


class TestUa3Combat(RulesetContract):
    ruleset = "ua3"

    def setup(self, seed: int) -> list[CommandBase]:
        return setup_commands(LOADED["full-auto-ambush.toml"], seed)

    def commands(self, state: Any) -> st.SearchStrategy[CommandBase]:
        return fight_commands(state, self.setup(0))

    def mistakes(self, state: Any) -> st.SearchStrategy[CommandBase]:
        return fight_mistakes(state)

    def scenarios(self) -> Sequence[Path]:
        return sorted((ROOT / "scenarios" / "ua3").glob("*.toml"))

    def goldens(self) -> Sequence[Path]:
        return sorted((ROOT / "replays" / "ua3").glob("*.jsonl"))


class TestUa3Brawl(TestUa3Combat):
    """The same laws over a brawl with a grapple (U-17) and a cellar where the helpless die (U-10)."""

    def setup(self, seed: int) -> list[CommandBase]:
        return setup_commands(LOADED["back-alley-brawl.toml" if seed % 2 else "cellar-execution.toml"], seed)
