"""What a check is (C-1…C-13): its spec, the shifts on it, the result of rolling it."""

from typing import Literal

import msgspec

from engine.dice.percentile import Percentile

Kind = Literal["minor", "significant", "major"]
Outcome = Literal["crit", "matched_success", "success", "weak_success", "failure", "matched_failure", "fumble"]
Prefer = Literal["high", "low", "as_rolled"]

#: C-6 order, best first.
OUTCOMES: tuple[Outcome, ...] = (
    "crit",
    "matched_success",
    "success",
    "weak_success",
    "failure",
    "matched_failure",
    "fumble",
)
RANK: dict[str, int] = {name: i for i, name in enumerate(OUTCOMES)}
SUCCESSES: frozenset[str] = frozenset({"crit", "matched_success", "success", "weak_success"})

MINOR_AUTOMATIC_RATING = 15  # C-3


class Shift(msgspec.Struct, frozen=True, gc=False):
    """A signed modifier to a target and where it came from (C-12): ("focus on Vic", +10)."""

    source: str
    amount: int

    def describe(self) -> str:
        return f"{self.source} {self.amount:+d}"


class CheckSpec(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """Everything that decides a check's outcome except the dice.

    `rating` is the skill (or the stat, when a stat is rolled directly). `stat` is the skill's tied
    stat for the weak band of a significant check (C-4), or the stat used untrained (C-7).
    """

    kind: Kind
    rating: int = 0
    stat: int | None = None
    untrained: bool = False
    shifts: tuple[Shift, ...] = ()
    minimum: int | None = None
    flip: bool = False
    roll_anyway: bool = False
    label: str = ""

    @property
    def total_shift(self) -> int:
        total = 0
        for s in self.shifts:
            total += s.amount
        return total

    @property
    def base_rating(self) -> int:
        """C-7: untrained minor/significant use stat − 30; untrained major the stat itself."""
        if self.untrained:
            stat = self.rating if self.stat is None else self.stat
            return stat if self.kind == "major" else stat - 30
        return self.rating

    @property
    def target(self) -> int:
        """C-1: rating + shifts, never clamped."""
        return _judge.target_of(self)

    @property
    def stat_target(self) -> int:
        """C-4: the tied stat with the same shifts, bounding a weak success."""
        stat = self.rating if self.stat is None else self.stat
        return stat + self.total_shift

    @property
    def automatic(self) -> bool:
        """C-3: a trained minor check at 15 or more succeeds without a roll unless rolled anyway."""
        return (
            self.kind == "minor"
            and not self.untrained
            and self.rating >= MINOR_AUTOMATIC_RATING
            and not self.roll_anyway
        )

    @property
    def resolves_as(self) -> str:
        """Which branch of C-13 applies (after the crit/fumble/minimum steps)."""
        if self.untrained:
            return "major_untrained" if self.kind == "major" else "untrained"
        if self.kind == "major":
            return "major"
        if self.kind == "minor" and self.rating >= MINOR_AUTOMATIC_RATING:
            return "minor_quality"
        return "significant"  # C-3: a minor check under 15 resolves as significant


def is_success(outcome: str) -> bool:
    return outcome in SUCCESSES


class CheckResult(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """A resolved check: the spec, the dice as rolled with the orientation used, the outcome."""

    spec: CheckSpec
    roll: Percentile | None
    outcome: Outcome

    @property
    def value(self) -> int | None:
        return None if self.roll is None else self.roll.value

    @property
    def success(self) -> bool:
        return self.outcome in SUCCESSES

    @property
    def target(self) -> int:
        return self.spec.target


from engine.dice import judge as _judge  # noqa: E402  (it judges these specs; imported last)
