"""Events of the mind: madness checks, notches, reactions and therapy (M2-*), passions (C-10).

Every notch event names its `cause`: the trigger text, or the event or command that raised it.
"""

from typing import Annotated, Literal

import msgspec

from engine.dice.checks import CheckResult
from engine.events.base import EventBase, describe_result
from engine.state.encounter import Reaction
from engine.state.sheet import MeterName, PassionKind, PassionMode

Rank = Annotated[int, msgspec.Meta(ge=1, le=10)]
HardenedCount = Annotated[int, msgspec.Meta(ge=0, le=10)]
FailedCount = Annotated[int, msgspec.Meta(ge=0, le=5)]

#: How a madness check resolved: M2-2 no roll; M2-3 automatic failure; M2-4 a rolled Mind check.
MadnessOutcome = Literal["hardened", "automatic_failure", "success", "failure"]
NotchKind = Literal["hardened", "failed"]
#: The outcomes of a madness check with a Mind roll (M2-4).
ROLLED: tuple[MadnessOutcome, ...] = ("success", "failure")
#: Who chose a reaction (M2-4): the person, the combatant's default, the `default_reaction` setting.
ReactionChooser = Literal["stated", "combatant_default", "setting"]


def _cause(cause: str) -> str:
    return f", cause: {cause}" if cause else ""


class MadnessCheckResolved(EventBase, frozen=True, kw_only=True, tag="madness_check_resolved"):
    """How one madness check came out and why; `hardened`/`failed` are the meter before it."""

    actor: str
    meter: MeterName
    rank: Rank
    outcome: MadnessOutcome
    hardened: HardenedCount
    failed: FailedCount
    cause: str = ""

    @property
    def rolled(self) -> bool:
        return self.outcome in ROLLED

    def explain(self) -> str:
        check = f"{self.actor}'s {self.meter} {self.rank} check"
        if self.outcome == "hardened":
            return (
                f"{check}: {self.hardened} hardened notches ≥ rank {self.rank}, "
                f"no roll and nothing marked (M2-2{_cause(self.cause)})."
            )
        if self.outcome == "automatic_failure":
            return (
                f"{check}: {self.failed} failed notches and rank {self.rank} above "
                f"{self.hardened} hardened, an automatic failure with no roll "
                f"(M2-3{_cause(self.cause)})."
            )
        return f"{check}: the Mind roll is a {self.outcome} (M2-4{_cause(self.cause)})."


class NotchMarked(EventBase, frozen=True, kw_only=True, tag="notch_marked"):
    """M2-4: one hardened (max 10) or failed (max 5) notch on a meter."""

    actor: str
    meter: MeterName
    kind: NotchKind
    cause: str = ""

    def explain(self) -> str:
        cap = 10 if self.kind == "hardened" else 5
        return f"{self.actor} marks one {self.kind} {self.meter} notch (at most {cap}; M2-4{_cause(self.cause)})."


class NeurosisMarked(EventBase, frozen=True, kw_only=True, tag="neurosis_marked"):
    """M2-5: the fifth failed notch on a meter marks a neurosis on it."""

    actor: str
    meter: MeterName
    cause: str = ""

    def explain(self) -> str:
        return (
            f"{self.actor} has all 5 failed {self.meter} notches marked and develops a "
            f"{self.meter} neurosis (M2-5{_cause(self.cause)})."
        )


class ReactionTaken(EventBase, frozen=True, kw_only=True, tag="reaction_taken"):
    """M2-4: after a failed madness check the actor flees, freezes or frenzies until `source`
    is gone (M2-7 for what each means in combat)."""

    actor: str
    reaction: Reaction
    source: str
    meter: MeterName
    chosen_by: ReactionChooser = "stated"

    def explain(self) -> str:
        why = {
            "stated": "as stated",
            "combatant_default": "its default",
            "setting": "the default_reaction setting",
        }[self.chosen_by]
        return (
            f"{self.actor} reacts to the failed {self.meter} check with {self.reaction} "
            f"({why}) until {self.source or 'the source'} is gone (M2-4, M2-7)."
        )


class ReactionEnded(EventBase, frozen=True, kw_only=True, tag="reaction_ended"):
    """M2-4: the source of a reaction is gone, so the reaction ends."""

    actor: str
    reaction: Reaction
    source: str
    meter: MeterName

    def explain(self) -> str:
        return (
            f"{self.source or 'The source'} is gone: {self.actor} no longer reacts with "
            f"{self.reaction} to the {self.meter} check (M2-4)."
        )


class TherapyGiven(EventBase, frozen=True, kw_only=True, tag="therapy_given"):
    """M2-6: notches removed from one meter — the counts actually removed, never more than
    were marked."""

    actor: str
    meter: MeterName
    hardened_removed: HardenedCount = 0
    failed_removed: FailedCount = 0
    note: str = ""

    def explain(self) -> str:
        note = f": {self.note}" if self.note else ""
        return (
            f"Therapy removes {self.hardened_removed} hardened and {self.failed_removed} failed "
            f"{self.meter} notches from {self.actor} (M2-6){note}."
        )


class PassionSpent(EventBase, frozen=True, kw_only=True, tag="passion_spent"):
    """C-10: a triggered passion rerolls or flip-flops a failed check; both results are kept."""

    actor: str
    passion: PassionKind
    mode: PassionMode
    trigger: str
    before: CheckResult
    after: CheckResult

    def explain(self) -> str:
        how = "reroll" if self.mode == "reroll" else "flip-flop (D-4)"
        label = self.before.spec.label or self.before.spec.kind
        return (
            f"{self.actor} spends the {self.passion} passion (“{self.trigger}”) to {how} "
            f"the failed {label} check: {describe_result(self.before)} → "
            f"{describe_result(self.after)} (C-10)."
        )
