"""Effects a GM ruling carries in ua3 (U-26: healing is not in the seed, so wounds come off only
by a ruling): wounds taken off, a crash or a fall (U-13), a notch erased, a condition set or
cleared. Wounds a ruling deals are `WoundsTaken`, notches it marks `HardenedNotchMarked` and
`FailedNotchMarked`: the events any other cause of them writes."""

from typing import Final, Literal

from engine.events.base import EventBase
from engine.state.ua3.sheet import GaugeName

#: The conditions a ua3 ruling sets or clears, and the rule each one is.
RuledCondition = Literal["unconscious", "frozen", "restrained"]
CONDITION_RULES: Final[dict[str, str]] = {"unconscious": "U-2", "frozen": "U-23", "restrained": "U-17"}
#: Who restrains a combatant a ruling restrains (a bound prisoner: no grappler lets go of it).
RULED_BY: Final = "a GM ruling"
#: U-13: what armor takes off a crash or a fall.
FALL_ARMOR: Final = 10


class WoundsRemoved(EventBase, frozen=True, kw_only=True, tag="ua3_wounds_removed"):
    """U-26: wounds a GM ruling takes off (first aid, a night's rest), never below 0."""

    actor: str
    amount: int
    before: int
    threshold: int

    def explain(self) -> str:
        return (
            f"A GM ruling takes {self.amount} wounds off {self.actor}: {self.before} → "
            f"{self.before - self.amount} of {self.threshold} (U-26, U-2)."
        )


class Fell(EventBase, frozen=True, kw_only=True, tag="ua3_fell"):
    """U-13: a crash or a fall of `wounds`; bulletproof armor or a helmet (`armor`) takes 10
    off. The wounds it leaves follow as `WoundsTaken`."""

    actor: str
    wounds: int
    armor: str = ""

    @property
    def taken(self) -> int:
        return max(0, self.wounds - FALL_ARMOR) if self.armor else self.wounds

    def explain(self) -> str:
        armor = f" − {FALL_ARMOR} for the {self.armor} = {self.taken}" if self.armor else ", no armor to soften it"
        return f"A GM ruling: {self.actor} takes a crash or a fall of {self.wounds} wounds{armor} (U-13, U-26)."


class NotchErased(EventBase, frozen=True, kw_only=True, tag="ua3_notch_erased"):
    """U-26: a GM ruling erases a notch (as therapy, M2-6); an erased hardened notch
    recomputes the gauge's two abilities at once (U-18), shown before and after."""

    actor: str
    gauge: GaugeName
    kind: Literal["hardened", "failed"]
    before: int
    after: int
    upbeat: str = ""
    upbeat_before: int = 0
    upbeat_after: int = 0
    downbeat: str = ""
    downbeat_before: int = 0
    downbeat_after: int = 0

    def explain(self) -> str:
        of = 9 if self.kind == "hardened" else 5
        text = f"A GM ruling erases {self.before - self.after} {self.kind} {self.gauge} notch"
        text += (
            f"{'es' if self.before - self.after != 1 else ''} from {self.actor} ({self.before} → {self.after} of {of}"
        )
        if self.kind == "hardened":
            text += (
                f"): {self.upbeat} {self.upbeat_before} → {self.upbeat_after}, {self.downbeat} "
                f"{self.downbeat_before} → {self.downbeat_after} at once (U-18, U-26, M2-6)."
            )
        else:
            text += "; U-26, M2-6)."
        return text


class ConditionRuled(EventBase, frozen=True, kw_only=True, tag="ua3_condition_ruled"):
    """A condition a GM ruling sets on a character, or clears (`clear`): unconscious (U-2),
    frozen (U-23: kept until the GM clears it or `threat-gone` names the ruling), restrained
    (U-17: helpless, it can be finished, U-10)."""

    actor: str
    condition: RuledCondition
    clear: bool = False

    def explain(self) -> str:
        rule = CONDITION_RULES[self.condition]
        if self.clear:
            return f"A GM ruling: {self.actor} is no longer {self.condition} ({rule}, U-26)."
        return f"A GM ruling: {self.actor} is {self.condition} ({rule}, U-26)."
