"""Setup, ruling and plain-check commands (shared by every ruleset)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from engine.commands.base import CommandBase
from engine.dice.checks import CheckSpec
from engine.settings import Settings
from engine.state.sheet import Sheet
from engine.state.weapons import Weapon


class StartEncounter(CommandBase, frozen=True, kw_only=True, tag="start"):
    """Start an encounter. `scenario` names the file it came from (for people); `scenario_document`
    is that scenario itself, every sheet inline (`engine.scenario.scenario.scenario_document`), so
    a what-if fork of the session reads its tactics from the session's own log, never a file."""

    ruleset: str = "ua2"
    title: str = ""
    seed: int | None = None
    settings: Settings = Settings()
    scenario: str = ""
    scenario_document: dict[str, Any] | msgspec.UnsetType = msgspec.UNSET
    #: The combatants players run (ids); unset: the scenario's players' side (or, with no
    #: scenario, everyone). The rest act by the scenario's tactics (`engine.session.roster`).
    players: tuple[str, ...] | msgspec.UnsetType = msgspec.UNSET


class AddCombatant(CommandBase, frozen=True, kw_only=True, tag="add_combatant"):
    """A character joins. `weapons` (catalog entries) default to the sheet's weapon names."""

    id: str
    side: str
    sheet: Sheet
    weapons: tuple[Weapon, ...] = ()
    in_hand: str = ""
    ambusher: bool = False
    reaction: Literal["flee", "freeze", "frenzy"] | None = None
    #: A tactics preset: set, the combatant is an NPC that acts by it (`ua session npc`); the
    #: rules ignore it.
    tactics: str | msgspec.UnsetType = msgspec.UNSET


class Ruling(CommandBase, frozen=True, kw_only=True, tag="ruling"):
    note: str
    about: str = ""


class RollCheck(CommandBase, frozen=True, kw_only=True, tag="check"):
    """Roll a check. `flipped` is a person's stated orientation (C-11); None: the engine picks."""

    spec: CheckSpec
    actor: str = ""
    purpose: str = ""
    flipped: bool | None = None
