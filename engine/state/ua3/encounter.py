"""The ua3 encounter's state: what folding its events gives. Frozen; replaced, never mutated.

Combat (U-3…U-13, U-22) comes later: `Ua3Fight` already holds where a fight stands (phase,
round, order, turn) so its facts can be added as new fields with defaults.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.dice.checks import CheckResult, Shift
from engine.state.ua3.conflict import Conflict, PendingCoercion
from engine.state.ua3.settings import Reaction, Ua3Settings
from engine.state.ua3.sheet import GaugeName, Gauges, Ua3Sheet

#: U-2, U-22: active, or out of it (unconscious, dead, fled, surrendered).
Status = Literal["active", "unconscious", "dead", "fled", "surrendered"]
Phase = Literal["setup", "declare", "acting", "ended"]


class ReactionState(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """U-23: a failed stress check's reaction, kept until the threat is gone."""

    kind: Reaction
    source: str
    gauge: GaugeName


class Ua3Combatant(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """One character in a ua3 encounter: its sheet, its gauges now (U-18) and wounds counted
    up (U-2). Abilities are derived from `gauges`, never stored."""

    id: str
    side: str
    sheet: Ua3Sheet
    gauges: Gauges
    wounds: int = 0
    status: Status = "active"
    reaction: ReactionState | None = None
    #: the reaction a failed stress check brings when the person does not say (U-23)
    default_reaction: Reaction | None = None
    passions_spent: tuple[str, ...] = ()
    #: U-21 (as C-10): the most recent check, which a passion may reroll or flip if it failed
    last_check: CheckResult | None = None
    #: shifts on the next roll (U-16: a matched failure's −10)
    next_roll: tuple[Shift, ...] = ()

    @property
    def name(self) -> str:
        return self.sheet.name


class FightResult(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    winner: str | None
    reason: str


class Ua3Fight(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """Where a fight stands (U-22); combat itself is not modelled yet."""

    phase: Phase = "setup"
    round: int = 0
    order: tuple[str, ...] = ()
    turn: int = 0
    result: FightResult | None = None


class Ua3Encounter(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """The whole ua3 encounter: setup, characters, conflicts on the gridiron, coercions waiting
    for an answer, and where a fight stands."""

    version: int = 0
    ruleset: str = "ua3"
    title: str = ""
    seed: int | None = None
    scenario: str = ""
    settings: Ua3Settings = Ua3Settings()
    combatants: tuple[Ua3Combatant, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    coercions: tuple[PendingCoercion, ...] = ()
    fight: Ua3Fight = Ua3Fight()

    def combatant(self, combatant_id: str) -> Ua3Combatant | None:
        return next((c for c in self.combatants if c.id == combatant_id), None)

    def conflict(self, conflict_id: str) -> Conflict | None:
        return next((c for c in self.conflicts if c.id == conflict_id), None)
