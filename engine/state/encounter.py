"""The encounter's state: what folding its events gives. Frozen; replaced, never mutated."""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.dice.checks import CheckResult
from engine.settings import Settings
from engine.state.fight import Fight, Fighter
from engine.state.sheet import Meters, Sheet

Status = Literal["active", "incapacitated", "unconscious", "dead", "fled", "surrendered"]
Reaction = Literal["flee", "freeze", "frenzy"]


class Injury(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """C2-32: one separate source of damage; healing is per injury (H2-*)."""

    id: int
    amount: int
    source: str
    round: int = 0
    healed: int = 0
    first_aid_tried: bool = False
    medical_tried: bool = False
    permanent: bool = False

    @property
    def open(self) -> int:
        """Points of this injury not yet healed."""
        return self.amount - self.healed


class ReactionState(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """M2-4/M2-7: a failed madness check's reaction, kept until its source is gone."""

    kind: Reaction
    source: str
    meter: str


class Combatant(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """One character taking part in an encounter. `id` is unique and also how events name it."""

    id: str
    side: str
    sheet: Sheet
    wounds: int
    max_wounds: int
    meters: Meters
    injuries: tuple[Injury, ...] = ()
    status: Status = "active"
    reaction: ReactionState | None = None
    passions_spent: tuple[str, ...] = ()
    #: C-10: the combatant's most recent check, which a passion may reroll or flip if failed.
    last_check: CheckResult | None = None

    @property
    def name(self) -> str:
        return self.sheet.name


class Encounter(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """The whole encounter: setup, combatants and where the fight stands."""

    version: int = 0
    ruleset: str = "ua2"
    title: str = ""
    seed: int | None = None
    scenario: str = ""
    settings: Settings = Settings()
    combatants: tuple[Combatant, ...] = ()
    next_injury_id: int = 1
    fight: Fight = Fight()

    def combatant(self, combatant_id: str) -> Combatant | None:
        for c in self.combatants:
            if c.id == combatant_id:
                return c
        return None

    def index_of(self, combatant_id: str) -> int:
        for i, c in enumerate(self.combatants):
            if c.id == combatant_id:
                return i
        return -1

    def fighter(self, combatant_id: str) -> Fighter:
        """The fight situation of a combatant (a fresh one if it has none yet)."""
        found = self.fight.fighter(combatant_id)
        return Fighter(id=combatant_id) if found is None else found

    def replace_fighter(self, fighter: Fighter) -> Encounter:
        return msgspec.structs.replace(self, fight=self.fight.replace_fighter(fighter))

    def replace_combatant(self, combatant: Combatant) -> Encounter:
        i = self.index_of(combatant.id)
        combatants = (*self.combatants[:i], combatant, *self.combatants[i + 1 :])
        return msgspec.structs.replace(self, combatants=combatants)
