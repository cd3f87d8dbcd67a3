"""Harm in ua3 (U-2): wounds count up toward the wound threshold; a character's status."""

from typing import Literal

from engine.events.base import EventBase

Status = Literal["active", "unconscious", "dead", "fled", "surrendered"]


class WoundsTaken(EventBase, frozen=True, kw_only=True, tag="ua3_wounds_taken"):
    """U-2: wounds counted up toward the threshold; `faces` are the dice rolled for them."""

    actor: str
    amount: int
    before: int
    threshold: int
    cause: str
    faces: tuple[int, ...] = ()
    rule: str = "U-2"

    @property
    def after(self) -> int:
        return self.before + self.amount

    def explain(self) -> str:
        shown = "+".join(str(10 if f == 0 else f) for f in self.faces)
        dice = f" ({len(self.faces)}d10: {shown})" if self.faces else ""
        return (
            f"{self.actor} takes {self.amount} wounds{dice} — {self.cause}: {self.before} → {self.after} "
            f"of {self.threshold} ({self.rule}, U-2)."
        )


class StatusChanged(EventBase, frozen=True, kw_only=True, tag="ua3_status_changed"):
    """A character drops unconscious, dies, flees or surrenders (U-2, U-22)."""

    actor: str
    status: Status
    cause: str
    rule: str

    def explain(self) -> str:
        return f"{self.actor} is now {self.status}: {self.cause} ({self.rule})."
