"""Events of the mind in ua3: stress checks, notches, traumas, burnout, reactions, passions and
ability checks (U-18, U-21, U-23, U-24). Every notch event names its `cause`."""

from typing import Literal

from engine.dice.checks import CheckResult
from engine.events.base import EventBase, describe_result
from engine.events.ua3.words import a_or_an, gauge_title, notches, reaction_words, rolled, sample_words
from engine.state.ua3.sheet import MAX_HARDENED, GaugeName

#: U-23: 1. no roll (hardened ≥ rank); 2. automatic failure; 3. a rolled check.
StressOutcome = Literal["hardened", "automatic_failure", "success", "failure"]
#: What a stress check's resisting rating was (U-23): an ability, a `resists` identity, a relationship.
RolledWith = Literal["ability", "identity", "relationship", "rating"]
Reaction = Literal["flee", "freeze", "frenzy"]
ReactionChooser = Literal["stated", "combatant_default", "setting"]
PassionKind = Literal["rage", "fear", "noble"]


def _cause(cause: str) -> str:
    return f"; cause: {cause}" if cause else ""


class StressChecked(EventBase, frozen=True, kw_only=True, tag="ua3_stress_check"):
    """How one stress check came out and why (U-23). `hardened` and `failed` are the gauge's
    notches before it; `result` is the rolled check (none for 1 and 2); `reaction` is the one
    a failure brings, kept until `source` is gone."""

    actor: str
    gauge: GaugeName
    rank: int
    outcome: StressOutcome
    hardened: int
    failed: int
    result: CheckResult | None = None
    rolled_with: RolledWith = "ability"
    reaction: Reaction | None = None
    source: str = ""
    #: the sample stress check of the catalog it was named by, and that sample's range
    sample: str = ""
    low: int = 0
    high: int = 0
    cause: str = ""

    def checks(self) -> list[tuple[str, CheckResult]]:
        return [(self.actor, self.result)] if self.result is not None else []

    def explain(self) -> str:
        check = f"{gauge_title(self.gauge)} {self.rank} stress check{sample_words(self.sample, self.low, self.high)}"
        after = f"; {reaction_words(self.actor, self.reaction, self.source)}" if self.reaction else ""
        if self.outcome == "hardened":
            return (
                f"{self.actor} takes {a_or_an(check)}: {notches(self.hardened, 'hardened', self.gauge)} ≥ rank "
                f"{self.rank}, no roll and nothing marked (U-23)."
            )
        if self.outcome == "automatic_failure":
            return (
                f"{self.actor} takes {a_or_an(check)}: {notches(self.failed, 'failed', self.gauge)} and rank "
                f"{self.rank} above {self.hardened} hardened, an automatic failure with no roll{after} (U-23)."
            )
        roll = rolled(self.result) if self.result is not None else "no roll recorded"
        if self.outcome == "success":
            notch = (
                f"a hardened notch on {self.gauge}"
                if self.hardened < MAX_HARDENED
                else f"{self.gauge} already has all 9 hardened notches"
            )
            return f"{self.actor} resists {a_or_an(check)} with {roll} — {notch} (U-23)."
        return f"{self.actor} resists {a_or_an(check)} with {roll} — a failed notch on {self.gauge}{after} (U-23)."


class HardenedNotchMarked(EventBase, frozen=True, kw_only=True, tag="ua3_hardened_notch"):
    """U-23: one hardened notch (at most 9); U-18 recomputes the gauge's two abilities at once —
    the event shows them before and after."""

    actor: str
    gauge: GaugeName
    before: int
    after: int
    upbeat: str
    upbeat_before: int
    upbeat_after: int
    downbeat: str
    downbeat_before: int
    downbeat_after: int
    cause: str = ""

    def explain(self) -> str:
        return (
            f"{self.actor} marks a hardened {self.gauge} notch ({self.before} → {self.after} of 9): "
            f"{self.upbeat} {self.upbeat_before} → {self.upbeat_after}, {self.downbeat} "
            f"{self.downbeat_before} → {self.downbeat_after} at once (U-18, U-23{_cause(self.cause)})."
        )


class FailedNotchMarked(EventBase, frozen=True, kw_only=True, tag="ua3_failed_notch"):
    """U-23: one failed notch (at most 5)."""

    actor: str
    gauge: GaugeName
    before: int
    after: int
    cause: str = ""

    def explain(self) -> str:
        return (
            f"{self.actor} marks a failed {self.gauge} notch ({self.before} → {self.after} of 5; "
            f"U-23{_cause(self.cause)})."
        )


class TraumaMarked(EventBase, frozen=True, kw_only=True, tag="ua3_trauma"):
    """U-23: five failed notches on one gauge mark a trauma (as M2-5)."""

    actor: str
    gauge: GaugeName
    cause: str = ""

    def explain(self) -> str:
        return (
            f"{self.actor} has all 5 failed {self.gauge} notches marked: {a_or_an(self.gauge)} trauma "
            f"(U-23{_cause(self.cause)})."
        )


class BurnedOut(EventBase, frozen=True, kw_only=True, tag="ua3_burned_out"):
    """U-24: 25 or more hardened notches in all gauges together (the setting `burnout_hardened`);
    the character loses its passions (U-21)."""

    actor: str
    hardened: int
    threshold: int
    passions: tuple[PassionKind, ...] = ()

    def explain(self) -> str:
        lost = ", ".join(self.passions) if self.passions else "none left"
        return (
            f"{self.actor} has {self.hardened} hardened notches in all (burnout at {self.threshold}): "
            f"burned out, the passions are lost ({lost}; U-24, U-21)."
        )


class ReactionTaken(EventBase, frozen=True, kw_only=True, tag="ua3_reaction_taken"):
    """U-23: after a failed stress check the character flees, freezes or frenzies until the
    threat (`source`) is gone."""

    actor: str
    reaction: Reaction
    source: str
    gauge: GaugeName
    chosen_by: ReactionChooser = "stated"

    def explain(self) -> str:
        why = {"stated": "as stated", "combatant_default": "its default", "setting": "the default_reaction setting"}
        return f"{reaction_words(self.actor, self.reaction, self.source)} ({why[self.chosen_by]}; U-23)."


class ReactionEnded(EventBase, frozen=True, kw_only=True, tag="ua3_reaction_ended"):
    """U-23: the threat is gone, so the reaction kept for it ends."""

    actor: str
    reaction: Reaction
    source: str
    gauge: GaugeName

    def explain(self) -> str:
        return f"{self.source or 'The threat'} is gone: {self.actor} no longer {self.reaction}s (U-23)."


class PassionSpent(EventBase, frozen=True, kw_only=True, tag="ua3_passion_spent"):
    """U-21 (as C-10): a passion in play rerolls or flip-flops a failed roll; both results kept."""

    actor: str
    passion: PassionKind
    mode: Literal["reroll", "flip"]
    trigger: str
    before: CheckResult
    after: CheckResult

    def explain(self) -> str:
        how = "reroll" if self.mode == "reroll" else "flip-flop (D-4)"
        label = self.before.spec.label or "the"
        return (
            f"{self.actor} spends the {self.passion} passion (“{self.trigger}”) to {how} the failed {label} "
            f"roll: {describe_result(self.before)} → {describe_result(self.after)} (U-21, C-10)."
        )


class AbilityChecked(EventBase, frozen=True, kw_only=True, tag="ua3_check"):
    """U-1: a check with an ability, an identity standing in for it (U-19) or a relationship
    (U-20), judged as every check (C-*)."""

    actor: str
    result: CheckResult
    rolled_with: RolledWith = "ability"
    purpose: str = ""

    def checks(self) -> list[tuple[str, CheckResult]]:
        return [(self.actor, self.result)]

    def explain(self) -> str:
        why = f" to {self.purpose}" if self.purpose else ""
        rule = {"minor": "C-3", "significant": "C-4", "major": "C-5"}[self.result.spec.kind]
        return (
            f"{self.actor} rolls a {self.result.spec.kind} check{why} with {rolled(self.result)} (U-1, {rule}, C-13)."
        )
