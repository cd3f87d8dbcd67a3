"""Weapons as data (C2-7, C2-9): tags decide the hand-to-hand bonus; guns carry a damage cap."""

from typing import Annotated, Literal

import msgspec

WeaponKind = Literal["unarmed", "melee", "firearm"]

#: C2-7: +3 for each of big, heavy, penetrating.
BONUS_PER_TAG = 3


class Weapon(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """One weapon. `skill` names the skill that attacks with it: `hand_to_hand` means the
    wielder's own hand-to-hand skill (C2-1); otherwise a skill name such as `Firearms`.
    `house` marks values the seeds do not give (a table's own numbers)."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=60)]
    kind: WeaponKind
    big: bool = False
    heavy: bool = False
    penetrating: bool = False
    cap: Annotated[int, msgspec.Meta(ge=1, le=1000)] | None = None
    skill: str = "hand_to_hand"
    skill_stat: Literal["body", "speed", "mind", "soul"] = "body"
    nonlethal: bool = False
    throwable: bool = False
    house: bool = False
    note: str = ""

    @property
    def bonus(self) -> int:
        """C2-7: the hand-to-hand weapon bonus (0 for fists and guns)."""
        if self.kind == "firearm":
            return 0
        return BONUS_PER_TAG * (self.big + self.heavy + self.penetrating)

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(t for t in ("big", "heavy", "penetrating") if getattr(self, t))

    @property
    def hand_to_hand(self) -> bool:
        return self.kind != "firearm"

    @property
    def harmful_thrown(self) -> bool:
        """C2-20: only big, heavy or penetrating objects do damage when thrown."""
        return self.big or self.heavy or self.penetrating


FISTS = Weapon(name="fists", kind="unarmed", note="bare hands, +0 (C2-7)")
