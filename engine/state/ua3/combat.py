"""Combat in ua3 as data (U-3…U-13, U-17, U-22): weapons and armor, what a combatant declared
for the round, what it is aiming at. Frozen; a fact replaces them, never mutates them."""

from typing import Annotated, Literal

import msgspec

WeaponKind = Literal["unarmed", "melee", "firearm"]
#: U-4: +3 wounds for each of cleaves, big, heavy.
BONUS_PER_TAG = 3

#: U-22: what a combatant may declare for a round.
Action = Literal[
    "attack",  # fists, a melee weapon or a gun (U-3…U-6), a throw (U-9) or a disarm (U-11)
    "full_auto",  # U-7
    "suppress",  # U-8
    "aim",  # U-9
    "dodge",  # U-12
    "grapple",  # U-17: grab, or roll in the grapple one is in
    "finish",  # U-10
    "coerce",  # U-15 in a fight
    "ready",  # take another weapon in hand
    "clear_jam",  # U-5
    "flee",
    "surrender",
    "nothing",
]
ACTIONS: tuple[str, ...] = Action.__args__  # type: ignore[attr-defined]
AttackMode = Literal["strike", "throw", "throw_person", "disarm"]
Called = Literal["", "limb", "head"]
#: U-9: what a limb shot does, the shooter's choice — the opponent drops what it holds, or its
#: movement is halved (automated shooters: the drop).
LimbEffect = Literal["drop", "halve_movement"]
#: U-7: a three-round burst (+10 to hit), a long burst (+10, +5 wounds; Decision), the clip
#: emptied (+20, +10 wounds).
Burst = Literal["three_round", "long", "clip"]


class Ua3Weapon(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """One weapon (U-4, U-5): melee tags add wounds; a gun has a damage cap; `edged` (edged or
    pointy) cuts a disarmer (U-11) and a grappler's opponent (U-17); `full_auto` guns can fire
    bursts (U-7). `house` marks a table's own numbers (the seed gives none per weapon)."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=60)]
    kind: WeaponKind
    cleaves: bool = False
    big: bool = False
    heavy: bool = False
    edged: bool = False
    cap: Annotated[int, msgspec.Meta(ge=1, le=1000)] | None = None
    full_auto: bool = False
    house: bool = False
    note: str = ""

    @property
    def bonus(self) -> int:
        """U-4: +3 for each of cleaves, big, heavy (0 for fists and guns)."""
        if self.kind != "melee":
            return 0
        return BONUS_PER_TAG * (self.cleaves + self.big + self.heavy)

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(t for t in ("cleaves", "big", "heavy", "edged") if getattr(self, t))


FISTS = Ua3Weapon(name="fists", kind="unarmed", note="fists and feet: the digit sum (U-3)")


class Armor(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """U-13: bulletproof (gun wounds become melee wounds), a helmet (the same, once), thick
    jackets or protective gear (no matched-success damage from melee weapons)."""

    bulletproof: bool = False
    helmet: bool = False
    thick: bool = False

    def describe(self) -> str:
        return ", ".join(
            t.replace("thick", "thick jacket") for t in ("bulletproof", "helmet", "thick") if getattr(self, t)
        )


NO_ARMOR = Armor()


class Declared(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """U-22: one combatant's declared action for the round and the rating that orders it."""

    action: Action
    targets: tuple[str, ...] = ()
    weapon: str = ""
    rating: int = 0
    rated_by: str = ""


class Aim(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """U-9: rounds spent aiming at `target` (+10 each, at most +20) for the next attack on it."""

    target: str
    rounds: int
