"""The ua3 encounter's state: what folding its events gives. Frozen; replaced, never mutated.

Combat (U-3…U-13, U-17, U-22): `Ua3Fight` holds where a fight stands (phase, round, order,
turn, result); each combatant's combat fields (weapons, armor, its declared action, …) follow
its other fields, with defaults.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.dice.checks import CheckResult, Shift
from engine.state.ua3.combat import NO_ARMOR, Aim, Armor, Declared, Ua3Weapon
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
    # -- combat (U-3…U-13, U-17, U-22); fields added at the end, with defaults ------------------
    #: the weapons carried (fists are always at hand) and the one in hand ("fists": none)
    weapons: tuple[Ua3Weapon, ...] = ()
    in_hand: str = "fists"
    armor: Armor = NO_ARMOR
    #: U-13: a helmet turns a gun wound once, then is spent
    helmet_spent: bool = False
    #: U-22: this round's declared action (None: none declared yet, or nothing)
    declared: Declared | None = None
    #: U-9: rounds spent aiming, for the next attack on that target
    aim: Aim | None = None
    #: U-5, U-7, U-8: the gun in hand is jammed until an action clears it
    jammed: bool = False
    #: U-8: suppressed up to the end of this round (0: not suppressed), and by whom
    suppressed_until: int = 0
    suppressed_by: str = ""
    #: wounds this combatant has dealt in this fight
    dealt: int = 0
    #: U-3: opponents who get +10 on their next attack on this combatant
    openings: tuple[str, ...] = ()
    #: U-25: the combat stress checks already raised in this combatant this fight
    triggered: tuple[str, ...] = ()
    #: U-9: thrown to the ground, it loses its next action
    loses_action: bool = False
    #: U-17: restrained by (the grappler's id), helpless until released
    restrained_by: str = ""
    #: U-10: the side that believes it dead (it is unconscious)
    believed_dead_by: str = ""
    #: U-9: a limb shot halved its movement (no movement is modelled: a condition a GM reads)
    movement_halved: bool = False

    @property
    def name(self) -> str:
        return self.sheet.name


class FightResult(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    winner: str | None
    reason: str


class Ua3Fight(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """Where a fight stands (U-22): declarations, then the order of the round's actions."""

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
