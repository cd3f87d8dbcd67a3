"""The gridiron (U-16): a conflict token on five spaces between two sides, and coercions
waiting for the target's answer (U-15)."""

from typing import Literal

import msgspec

from engine.dice.checks import Shift
from engine.state.ua3.sheet import GaugeName
from engine.state.ua3.spaces import SPACES, SideKey, Space, half_of, space_index, step_toward

__all__ = [
    "SIDES",
    "SPACES",
    "Conflict",
    "ConflictKind",
    "ConflictResult",
    "ConflictSide",
    "PendingCoercion",
    "SideKey",
    "Space",
    "half_of",
    "space_index",
    "step_toward",
]

SIDES: tuple[SideKey, SideKey] = ("a", "b")
#: U-16 (and U-17, later): a general conflict, or a grapple.
ConflictKind = Literal["conflict", "grapple"]


class ConflictSide(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """One side of a conflict: who rolls (a combatant, or a name with a fixed rating), what it
    rolls (an ability, identity or relationship of the combatant), and its stake."""

    key: SideKey
    name: str
    stake: str
    actor: str = ""
    roll: str = ""
    rating: int | None = None
    #: rolls made so far (exchanges)
    rolls: int = 0
    #: shifts on the side's next roll when no combatant rolls for it (U-16 matched failure)
    next_roll: tuple[Shift, ...] = ()

    def describe_roll(self) -> str:
        if self.actor:
            return f"{self.actor} rolls {self.roll}" if self.roll else f"{self.actor} rolls"
        return f"{self.name} rolls {self.rating}"


class ConflictResult(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """How a conflict ended: the winning side (None: neither) and why."""

    winner: SideKey | None
    reason: str


class Conflict(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """U-16: where the token stands, whose roll is next, and how it ends."""

    id: str
    sides: tuple[ConflictSide, ConflictSide]
    token: Space = "balance"
    start: Space = "balance"
    about: str = ""
    kind: ConflictKind = "conflict"
    compressed: bool = False
    #: U-16: exchanges each side rolls in a compressed conflict
    exchanges: int = 3
    #: the side that rolls first in each exchange (U-22 order)
    first: SideKey = "a"
    result: ConflictResult | None = None

    @property
    def over(self) -> bool:
        return self.result is not None

    def side(self, key: str) -> ConflictSide:
        return self.sides[0] if key == "a" else self.sides[1]

    @property
    def to_roll(self) -> SideKey:
        """The side whose roll is next: in turn, the first side of each exchange first."""
        a, b = self.sides[0].rolls, self.sides[1].rolls
        second: SideKey = "b" if self.first == "a" else "a"
        first_rolls = a if self.first == "a" else b
        second_rolls = b if self.first == "a" else a
        return self.first if first_rolls <= second_rolls else second


#: U-15 (Decision): what a threat in a fight demands of its target — that it gives up (C2-33:
#: surrendered, gone), flees, drops its weapon, or lets go of the one it holds.
Demand = Literal["surrender", "flee", "drop", "release"]


class PendingCoercion(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """U-15 (3): a convinced target's choice still to be made: acquiesce (in a fight: do what
    was demanded), or take the stress check of `rank` on `gauge`."""

    coercer: str
    target: str
    gauge: GaugeName
    rank: int
    threat: str = ""
    demand: Demand = "surrender"
