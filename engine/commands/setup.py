"""Setup, ruling and plain-check commands (shared by every ruleset)."""

from __future__ import annotations

from engine.commands.base import CommandBase
from engine.dice.checks import CheckSpec
from engine.settings import Settings
from engine.state.sheet import Sheet


class StartEncounter(CommandBase, frozen=True, kw_only=True, tag="start"):
    ruleset: str = "ua2"
    title: str = ""
    seed: int | None = None
    settings: Settings = Settings()


class AddCombatant(CommandBase, frozen=True, kw_only=True, tag="add_combatant"):
    id: str
    side: str
    sheet: Sheet


class Ruling(CommandBase, frozen=True, kw_only=True, tag="ruling"):
    note: str
    about: str = ""


class RollCheck(CommandBase, frozen=True, kw_only=True, tag="check"):
    """Roll a check. `flipped` is a person's stated orientation (C-11); None: the engine picks."""

    spec: CheckSpec
    actor: str = ""
    purpose: str = ""
    flipped: bool | None = None
