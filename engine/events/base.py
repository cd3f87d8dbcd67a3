"""The frozen base every event derives from, and helpers events use to explain themselves."""

from typing import ClassVar

import msgspec

from engine.dice.checks import CheckResult, CheckSpec


class EventBase(msgspec.Struct, frozen=True, gc=False, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """An immutable fact. Subclasses give an explicit stable `tag=` and a `schema_version`.

    `command` is the id of the command that produced it (0 for setup events), so undo can
    skip every event of a command at once.
    """

    schema_version: ClassVar[int] = 1
    #: A fact a fight's setup may state with no command recorded (beside the start and the
    #: joins): what the scenario says of a combatant already joined, e.g. a helpless start.
    of_setup: ClassVar[bool] = False
    command: int = 0

    def explain(self) -> str:
        """One sentence for a GM, citing the rule id (every event type says its own)."""
        return f"{type(self).__name__.replace('_', ' ')}."

    def checks(self) -> list[tuple[str, CheckResult]]:
        """(who rolled, result) for every check this fact records (the audit's odds and luck)."""
        return []

    def opens_round(self) -> int | None:
        """The round this fact starts (0: the ambush before round 1), or None: each ruleset's
        round events say, so a log's reader follows rounds without naming an edition."""
        return None


def describe_target(spec: CheckSpec) -> str:
    """`Fighting 45, focus +10 = 55` — the rating and every named shift (C-12)."""
    label = spec.label or spec.kind
    if spec.untrained:
        stat = spec.rating if spec.stat is None else spec.stat
        base = f"{label} untrained, stat {stat}" + (" −30" if spec.kind != "major" else "")
    else:
        base = f"{label} {spec.rating}"
    parts = [base, *(s.describe() for s in spec.shifts)]
    text = ", ".join(parts)
    if spec.shifts or spec.untrained:
        text += f" = {spec.target}"
    if spec.resolves_as == "significant" and spec.stat is not None:
        text += f"; weak success up to stat {spec.stat_target} (C-4)"
    if spec.minimum is not None:
        text += f", minimum {spec.minimum}"
    return text


OUTCOME_WORDS = {
    "crit": "crit",
    "matched_success": "matched success",
    "success": "success",
    "weak_success": "weak success",
    "failure": "failure",
    "matched_failure": "matched failure",
    "fumble": "fumble",
}


def describe_result(result: CheckResult) -> str:
    """`rolled 4,7 = 47, success` or `no roll needed, success`."""
    word = OUTCOME_WORDS[result.outcome]
    if result.roll is None:
        return f"no roll needed (C-3), {word}"
    return f"rolled {result.roll.describe()}, {word}"
