"""Healing events (H2-*)."""

from engine.dice.checks import CheckResult
from engine.events.base import EventBase, describe_result, describe_target


class InjuryTreated(EventBase, frozen=True, kw_only=True, tag="injury_treated"):
    """H2-2/H2-3: first aid or medical care on one injury; at most its amount − 1 (H2-4)."""

    healer: str
    patient: str
    injury_id: int
    treatment: str
    result: CheckResult
    healed: int
    limit: str
    rule: str
    wounds_after: int

    def checks(self) -> list[tuple[str, CheckResult]]:
        return [(self.healer, self.result)]

    def explain(self) -> str:
        return (
            f"{self.healer} gives {self.treatment} to {self.patient} for injury #{self.injury_id} "
            f"({describe_target(self.result.spec)}): {describe_result(self.result)}; heals {self.healed} "
            f"({self.limit}); {self.patient} now {self.wounds_after} wound points ({self.rule})."
        )


class Convalesced(EventBase, frozen=True, kw_only=True, tag="convalesced"):
    """H2-5: a day of rest heals points by wound level and care; oldest injuries first."""

    patient: str
    day: int
    care: str
    points: int
    healed: tuple[tuple[int, int], ...]
    wounds_after: int

    def explain(self) -> str:
        spread = ", ".join(f"#{i} {p}" for i, p in self.healed) or "nothing open"
        return (
            f"{self.patient} convalesces day {self.day} ({self.care.replace('_', ' ')}): heals "
            f"{self.points} ({spread}); now {self.wounds_after} wound points (H2-5)."
        )
