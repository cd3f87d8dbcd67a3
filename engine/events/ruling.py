"""Effects a GM ruling carries in ua2 (T-5: the GM may overrule any result): wounds taken off
injuries (C2-32, H2) and conditions set or cleared. Wounds a ruling deals are `WoundsInflicted`,
notches marked `NotchMarked`, notches erased `TherapyGiven` (M2-6): the events any other cause
of them writes."""

from typing import Final, Literal

from engine.events.base import EventBase
from engine.events.combat import signed

#: The conditions a ua2 ruling sets or clears, and the rule each one is (C2-10, M2-7, C2-29,
#: C2-24, C2-25).
RuledCondition = Literal["unconscious", "frozen", "prone", "blind", "dazed"]
CONDITION_RULES: Final[dict[str, str]] = {
    "unconscious": "C2-10",
    "frozen": "M2-7",
    "prone": "C2-29",
    "blind": "C2-24",
    "dazed": "C2-25",
}
#: C2-24, C2-25: the shift of a condition that carries one.
CONDITION_SHIFTS: Final[dict[str, int]] = {"blind": -30, "dazed": -10}
#: What a ruled freeze lasts until (M2-4: `calm` with this source ends it too).
RULED_SOURCE: Final = "a GM ruling"


class RulingHealed(EventBase, frozen=True, kw_only=True, tag="ruling_healed"):
    """Wounds a GM ruling takes off, per injury (C2-32, H2): (injury id, points) pairs, the most
    recent injury first unless the ruling named one. A ruling may heal an injury's last point,
    which otherwise heals only with time (H2-4; T-5)."""

    patient: str
    healed: tuple[tuple[int, int], ...]
    wounds_before: int
    wounds_after: int
    shift_after: int

    def explain(self) -> str:
        spread = ", ".join(f"#{i} {p}" for i, p in self.healed)
        shift = f"now {signed(self.shift_after)} on all rolls" if self.shift_after else "no wound shift"
        return (
            f"A GM ruling heals {self.patient} {self.wounds_after - self.wounds_before} ({spread}): "
            f"{self.wounds_before} → {self.wounds_after} wound points, {shift} (C2-31, C2-32, H2-4, T-5)."
        )


class ConditionRuled(EventBase, frozen=True, kw_only=True, tag="condition_ruled"):
    """A condition a GM ruling sets on a combatant, or clears (`clear`). Blind and dazed last
    through `until_round`, as the cherries do (C2-24, C2-25), unless cleared sooner."""

    id: str
    condition: RuledCondition
    clear: bool = False
    until_round: int = 0

    def explain(self) -> str:
        rule = CONDITION_RULES[self.condition]
        if self.clear:
            return f"A GM ruling: {self.id} is no longer {self.condition} ({rule}, T-5)."
        shift = CONDITION_SHIFTS.get(self.condition)
        lasts = f": {signed(shift)} on everything through round {self.until_round}" if shift else ""
        return f"A GM ruling: {self.id} is {self.condition}{lasts} ({rule}, T-5)."
