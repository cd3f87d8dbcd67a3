"""The gridiron (U-16): a conflict's start, each roll, a roll's penalty, and its end."""

from typing import Literal

from engine.dice.checks import CheckResult, Shift
from engine.events.base import EventBase
from engine.events.ua3.words import rolled, signed
from engine.state.ua3.conflict import ConflictKind, ConflictSide, SideKey, Space

MOVES = {2: "two steps toward its end zone", 1: "one step toward its end zone", 0: "no move", -1: "one step back"}
RULE_OF = {
    "crit": "crit: two steps",
    "matched_success": "success: one step",
    "success": "success: one step",
    "weak_success": "success: one step",
    "failure": "failure: no move",
    "matched_failure": "matched failure: no move",
    "fumble": "fumble: one step back",
}


def space_words(space: str) -> str:
    """`advantage A`, `balance`, `end zone B`."""
    if space == "balance":
        return "balance"
    kind, _, side = space.rpartition("_")
    return f"{kind.replace('_', ' ')} {side.upper()}"


def side_words(side: ConflictSide) -> str:
    rating = f" {side.rating}" if side.rating is not None and not side.actor else ""
    what = f" with {side.roll}" if side.roll else rating
    return f"{side.key.upper()}: {side.name}{what}, for “{side.stake}”"


class ConflictStarted(EventBase, frozen=True, kw_only=True, tag="ua3_conflict_started"):
    """U-16: a conflict's sides (stake, who rolls what), where the token starts, compressed
    (`exchanges` each) or open-ended, and which side rolls first (U-22 order; `faces` are the
    dice that broke a tie of ratings, I2-4)."""

    id: str
    sides: tuple[ConflictSide, ConflictSide]
    start: Space = "balance"
    about: str = ""
    kind: ConflictKind = "conflict"
    compressed: bool = False
    exchanges: int = 3
    first: SideKey = "a"
    order: str = ""
    faces: tuple[int, ...] = ()

    def explain(self) -> str:
        about = f" ({self.about})" if self.about else ""
        length = f"compressed, {self.exchanges} exchanges each" if self.compressed else "open-ended"
        sides = "; ".join(side_words(s) for s in self.sides)
        order = f" ({self.order})" if self.order else ""
        return (
            f"Conflict {self.id}{about} on the gridiron — {sides}; the token starts at "
            f"{space_words(self.start)}, {length}; side {self.first.upper()} rolls first{order} (U-16)."
        )


class GridironRolled(EventBase, frozen=True, kw_only=True, tag="ua3_gridiron_rolled"):
    """U-16: one side's roll and how the token moved (`steps` toward its end zone; back is
    negative), from `before` to `after`."""

    conflict: str
    side: SideKey
    roller: str
    result: CheckResult
    before: Space
    after: Space
    steps: int
    exchange: int
    actor: str = ""

    def checks(self) -> list[tuple[str, CheckResult]]:
        return [(self.actor or self.roller, self.result)]

    def explain(self) -> str:
        moved = "stays" if self.before == self.after else f"{space_words(self.before)} → {space_words(self.after)}"
        return (
            f"Conflict {self.conflict}, exchange {self.exchange}: {self.roller} (side {self.side.upper()}) rolls "
            f"{rolled(self.result)} — {RULE_OF[self.result.outcome]}; the token {moved} (U-16)."
        )


class PenaltyTaken(EventBase, frozen=True, kw_only=True, tag="ua3_penalty_taken"):
    """U-16: a matched failure's −10 on the roller's next roll (a combatant's, or a side's when
    no combatant rolls for it)."""

    shift: Shift
    actor: str = ""
    conflict: str = ""
    side: SideKey | None = None
    rule: str = "U-16"

    def explain(self) -> str:
        who = self.actor or f"side {str(self.side).upper()} of conflict {self.conflict}"
        return f"{who} takes {signed(self.shift.amount)} on the next roll ({self.shift.source}; {self.rule})."


class ConflictEnded(EventBase, frozen=True, kw_only=True, tag="ua3_conflict_ended"):
    """U-16: the conflict is over: a side reached its end zone and wins its stake, a compressed
    conflict ran its exchanges (won by the side whose half the token is in; balance: neither),
    or the GM ended it."""

    conflict: str
    winner: SideKey | None
    token: Space
    reason: str
    stake: str = ""
    how: Literal["end_zone", "compressed", "gm"] = "end_zone"

    def explain(self) -> str:
        if self.winner is None:
            return f"Conflict {self.conflict} ends with neither side winning: {self.reason} (U-16)."
        return (
            f"Conflict {self.conflict} ends: side {self.winner.upper()} wins “{self.stake}” — {self.reason} "
            f"(token at {space_words(self.token)}; U-16)."
        )
