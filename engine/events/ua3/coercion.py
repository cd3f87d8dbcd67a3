"""Coercion (U-15): the coercer's roll, and the target's answer."""

from typing import Literal

from engine.dice.checks import CheckResult
from engine.events.base import EventBase
from engine.events.ua3.words import a_or_an, gauge_title, rolled
from engine.state.ua3.conflict import Demand
from engine.state.ua3.sheet import GaugeName

#: U-15: what each demand asks of the target, in words.
DEMAND_WORDS: dict[str, str] = {
    "surrender": "give up",
    "flee": "flee",
    "drop": "drop its weapon",
    "release": "let go of the one it holds",
}
RolledWith = Literal["ability", "identity", "relationship", "rating"]
PassionKind = Literal["rage", "fear", "noble"]
Answer = Literal["acquiesce", "refuse"]


def _passions(whose: str, kinds: tuple[str, ...]) -> str:
    return f"+{len(kinds)} for {whose} passions in play ({', '.join(kinds)})" if kinds else ""


class CoercionRolled(EventBase, frozen=True, kw_only=True, tag="ua3_coercion"):
    """U-15 (1, 2, 4): a credible threat and the coercer's roll with the gauge's coercing rating
    (or a `coerces` identity, or a relationship with the target). On a success, `rank` is the
    stress check the target takes if it refuses: 1, or 2 for a matched success or a crit, +1 for
    each passion in play on either side; on a failure the target is unconvinced (rank 0)."""

    coercer: str
    target: str
    gauge: GaugeName
    result: CheckResult
    rolled_with: RolledWith = "ability"
    threat: str = ""
    coercer_passions: tuple[PassionKind, ...] = ()
    target_passions: tuple[PassionKind, ...] = ()
    rank: int = 0
    #: U-15 in a fight: what the threat demands (surrender unless it names another)
    demand: Demand = "surrender"

    def checks(self) -> list[tuple[str, CheckResult]]:
        return [(self.coercer, self.result)]

    def explain(self) -> str:
        threat = f" (“{self.threat}”)" if self.threat else ""
        threat += f", demanding that {self.target} {DEMAND_WORDS[self.demand]}" if self.demand != "surrender" else ""
        head = f"{self.coercer} coerces {self.target} on {self.gauge}{threat} with {rolled(self.result)}"
        if not self.rank:
            return (
                f"{head}: {self.target} is unconvinced; {self.coercer} may still carry out the threat, "
                f"but {self.target} is unfazed until a coercion succeeds (U-15)."
            )
        base = (
            "2 for a matched success or a crit"
            if self.result.outcome in ("crit", "matched_success")
            else "1 for a success"
        )
        parts = [
            base,
            _passions(f"{self.coercer}'s", self.coercer_passions),
            _passions(f"{self.target}'s", self.target_passions),
        ]
        why = ", ".join(p for p in parts if p)
        return (
            f"{head}: convinced — {self.target} acquiesces or takes {a_or_an(gauge_title(self.gauge))} {self.rank} "
            f"stress check (rank {why}; U-15)."
        )


class CoercionAnswered(EventBase, frozen=True, kw_only=True, tag="ua3_coercion_answered"):
    """U-15 (3): the convinced target acquiesces (its gauge stays intact) or refuses and takes
    the stress check (its events follow)."""

    target: str
    coercer: str
    gauge: GaugeName
    rank: int
    answer: Answer

    def explain(self) -> str:
        if self.answer == "acquiesce":
            return (
                f"{self.target} gives in to {self.coercer}: acquiesces, and the {self.gauge} gauge stays intact (U-15)."
            )
        return (
            f"{self.target} refuses {self.coercer} and takes the {gauge_title(self.gauge)} {self.rank} stress "
            "check (U-15, U-23)."
        )
