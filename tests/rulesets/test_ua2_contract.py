"""ua2 keeps the ruleset contract (DESIGN's laws, `tests/rulesets/contract.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from engine.commands.base import CommandBase
from tests.rulesets.contract import RulesetContract
from tests.rulesets.ua2_play import LOADED, commands_for, setup_commands, wild_commands

ROOT = Path(__file__).resolve().parents[2]


class TestUa2(RulesetContract):
    ruleset = "ua2"
    #: In the declare phase an action first ends the declarations (a turn starts) and may then be
    #: refused (not this combatant's turn, a weapon not carried): harmless in a session, which
    #: decides on a copy, and never met in batches, whose scripts declare first.
    refusals_change_nothing = False

    def setup(self, seed: int) -> list[CommandBase]:
        return setup_commands(LOADED["bar-brawl.toml"], seed)

    def commands(self, state: Any) -> st.SearchStrategy[CommandBase]:
        return commands_for(state, self.setup(0))

    def mistakes(self, state: Any) -> st.SearchStrategy[CommandBase]:
        return wild_commands(state)

    def scenarios(self) -> Sequence[Path]:
        return sorted((ROOT / "scenarios").glob("*.toml"))

    def goldens(self) -> Sequence[Path]:
        return sorted((ROOT / "replays").glob("*.jsonl"))
