"""C-10 where a roll is made: a triggered passion spent on a failed roll in the same command
(an attack, a madness check) — rerolled, or flip-flopped. `SpendPassion` covers a roll already made."""

from __future__ import annotations

from engine.commands.combat import RollPassion
from engine.dice.checks import CheckResult
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.madness import PassionSpent
from engine.rules.passions import on_failure
from engine.rules.ua2.table import Row, Table
from engine.state.sheet import Passion, PassionKind, PassionMode


def require_passion(t: Table, combatant: Row, kind: str) -> Passion:
    """The sheet's passion of that kind, unless it is missing or spent this session (refused)."""
    passion = next((p for p in combatant.sheet.passions if p.kind == kind), None)
    if passion is None:
        raise Refused(f"{combatant.id} has no {kind} passion on the sheet (C-10)")
    allowed = t.settings.passion_uses_per_session
    if combatant.passions_spent.count(kind) >= allowed:
        raise Refused(
            f"{combatant.id}'s {kind} passion is already spent this session",
            hint=f"each passion {allowed}× per session (setting passion_uses_per_session, C-10)",
        )
    return passion


class RollPassionUse:
    """C-10 in an attack: the passion it names for a roll it makes someone roll
    (`Attack.roll_passion`), spent at most once, on that combatant's first such roll it can change."""

    __slots__ = ("spent", "use")

    def __init__(self, use: RollPassion | None) -> None:
        self.use = use
        self.spent = False

    def due(self, who: str, roll: str) -> RollPassion | None:
        """The passion to spend on `who`'s failed `roll` ("dodge", "madness") now, if any."""
        use = self.use
        if use is None or self.spent or use.actor != who or use.roll != roll:
            return None
        return use


def passion_on_failure(
    combatant: Row,
    kind: PassionKind,
    mode: PassionMode,
    result: CheckResult,
    dice: DiceSource,
    *,
    prefer_high: bool = False,
) -> PassionSpent | None:
    """The passion spent on `result` if it failed and the change can help; None otherwise
    (a success, or a flip that reads the same value or was already weighed, C-9/C-11)."""
    after = on_failure(result, mode, dice, prefer_high=prefer_high, who=combatant.id)
    if after is None:
        return None
    trigger = next(p.trigger for p in combatant.sheet.passions if p.kind == kind)
    return PassionSpent(
        actor=combatant.id,
        passion=kind,
        mode=mode,
        trigger=trigger,
        before=result,
        after=after,
    )
