"""The fight's state: initiative, rounds and turns, and each fighter's tactical situation.

A `Combatant` is the character (sheet, wounds, meters); its `Fighter` is where it stands in
this fight (weapon in hand, dodging, focus, conditions, holds). Both are frozen.
"""

from typing import Literal

import msgspec

from engine.dice.percentile import Percentile
from engine.state.weapons import FISTS, Weapon

Phase = Literal["setup", "ambush", "declare", "acting", "ended"]
InitiativeMethod = Literal["roll", "default", "ambush"]


class Initiative(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """I2-1…I2-4: how a fighter's place was set. `rank` is the value after tie-breaks."""

    method: InitiativeMethod
    value: int
    success: bool
    rank: float
    roll: Percentile | None = None


class Condition(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """A status effect with a shift to all rolls (Blind −30, Dazed −10, …) until a round ends."""

    name: str
    shift: int
    until_round: int
    source: str = ""


class Focus(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """C2-5: a focus shift on one target for this round."""

    target: str
    amount: int


class Fighter(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """One combatant's situation in the fight."""

    id: str
    arsenal: tuple[Weapon, ...] = (FISTS,)
    in_hand: str = "fists"
    #: C2-3: the round a weapon was drawn in (it cannot be used that round).
    drawn_round: int = -1
    jammed: tuple[str, ...] = ()
    ambusher: bool = False
    initiative: Initiative | None = None
    #: I2-5: spent a round doing nothing; re-sets initiative (this method) at the next round.
    reinitiative: InitiativeMethod | None = None
    prone: bool = False
    dodging: bool = False
    continued_dodge: bool = False
    focus: Focus | None = None
    conditions: tuple[Condition, ...] = ()
    held_by: str = ""
    holding: str = ""
    #: C2-28: the next attack declared against this fighter is redirected.
    monkey_dodge: bool = False
    monkey_redirect: str = ""
    #: C2-30 Turning Tide: no benefit from matches for the rest of the fight.
    no_match_benefits: bool = False
    attacks_this_round: int = 0
    acted_round: int = -1
    #: C2-30 Second Helping: may attack again at once this turn.
    extra_attack: bool = False
    suppressing: int = 0
    #: C2-18: the field of this fighter's latest suppressive fire (kept into the next round so
    #: that the fire can be continued at its start).
    suppress_field: tuple[str, ...] = ()
    dodged_last_round: bool = False
    #: M2-8 first-time triggers already raised for this fighter.
    triggered: tuple[str, ...] = ()
    default_reaction: Literal["flee", "freeze", "frenzy"] | None = None
    #: C2-18: shots this fighter laid down as suppressive fire last round (0: none), so that it
    #: may declare continuing it (C2-4).
    suppressed_last_round: int = 0
    #: C2-33: bound from the start (a scenario's prisoner): standing, helpless, it cannot act
    bound: bool = False

    def weapon(self, name: str | None = None) -> Weapon | None:
        wanted = (name or self.in_hand).casefold()
        for w in self.arsenal:
            if w.name.casefold() == wanted:
                return w
        return FISTS if wanted == "fists" else None


class Suppression(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """C2-18: suppressive fire this round: shots in the air and who is in the field of fire."""

    shots: int = 0
    field: tuple[str, ...] = ()


class FightResult(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """C2-33: how the fight ended."""

    winner: str | None
    reason: str
    round: int


class Fight(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    phase: Phase = "setup"
    round: int = 0
    order: tuple[str, ...] = ()
    turn: int = 0
    fighters: tuple[Fighter, ...] = ()
    suppression: Suppression = Suppression()
    result: FightResult | None = None

    def fighter(self, fighter_id: str) -> Fighter | None:
        for f in self.fighters:
            if f.id == fighter_id:
                return f
        return None

    @property
    def current(self) -> str | None:
        """Whose turn it is, or None outside the acting phases."""
        if self.phase not in ("acting", "ambush") or not 0 <= self.turn < len(self.order):
            return None
        return self.order[self.turn]

    def replace_fighter(self, fighter: Fighter) -> "Fight":
        fighters = tuple(fighter if f.id == fighter.id else f for f in self.fighters)
        return msgspec.structs.replace(self, fighters=fighters)
