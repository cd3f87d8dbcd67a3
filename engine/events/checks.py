"""Check events (C-*)."""

from engine.dice.checks import CheckResult
from engine.events.base import EventBase, describe_result, describe_target

_RULE_OF_KIND = {"minor": "C-3", "significant": "C-4", "major": "C-5"}


class CheckRolled(EventBase, frozen=True, kw_only=True, tag="check_rolled"):
    """A check resolved: the dice as rolled, the orientation used, the target and its shifts."""

    actor: str = ""
    result: CheckResult
    purpose: str = ""

    def checks(self) -> list[tuple[str, CheckResult]]:
        return [(self.actor, self.result)]

    def explain(self) -> str:
        spec = self.result.spec
        rule = "C-7" if spec.untrained else _RULE_OF_KIND[spec.kind]
        who = f"{self.actor} rolls " if self.actor else "Roll "
        why = f" to {self.purpose}" if self.purpose else ""
        flip = ""
        if spec.flip:  # a named skill flips because it is the obsession; a bare roll may be a passion's
            flip = ", obsession (C-9): flip-flop allowed" if spec.label else ", flip-flop allowed (C-9, C-10)"
        return (
            f"{who}{spec.kind} check{why} ({describe_target(spec)}{flip}): "
            f"{describe_result(self.result)} ({rule}, C-13)."
        )
