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
        """A full-auto ambush (U-7, U-8), a brawl with a grapple (U-17), or a cellar where the
        helpless are finished (U-10), by the seed."""
        fights = ("full-auto-ambush.toml", "back-alley-brawl.toml", "cellar-execution.toml")
        return setup_commands(LOADED[fights[seed % len(fights)]], seed)

    def commands(self, state: Any) -> st.SearchStrategy[CommandBase]:
        return fight_commands(state, _setup_of(state))

    def mistakes(self, state: Any) -> st.SearchStrategy[CommandBase]:
        return fight_mistakes(state)

    def scenarios(self) -> Sequence[Path]:
        return sorted((ROOT / "scenarios" / "ua3").glob("*.toml"))

    def goldens(self) -> Sequence[Path]:
        return sorted((ROOT / "replays" / "ua3").glob("*.jsonl"))


def _setup_of(state: Any) -> list[CommandBase]:
    """The setup of the scenario `state` was started from (by its title)."""
    for loaded in LOADED.values():
        if loaded.scenario.title == state.title:
            return setup_commands(loaded, 0)
    return setup_commands(LOADED["full-auto-ambush.toml"], 0)
