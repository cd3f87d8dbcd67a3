"""C-10 in a fight: a triggered passion spent on a failed attack roll — rerolled, or flip-flopped."""

from __future__ import annotations

import msgspec

from engine.commands.combat import Attack
from engine.dice.checks import CheckResult, resolve
from engine.dice.source import DiceSource, roll_percentile
from engine.errors import Refused
from engine.events.madness import PassionSpent
from engine.rules.batch import Batch
from engine.state.encounter import Combatant, Encounter


def check_passion(state: Encounter, attacker: Combatant, command: Attack) -> None:
    """Refuse up front a passion the sheet lacks or that is spent this session."""
    if command.passion is None:
        return
    if not any(p.kind == command.passion for p in attacker.sheet.passions):
        raise Refused(f"{attacker.id} has no {command.passion} passion on the sheet (C-10)")
    allowed = state.settings.passion_uses_per_session
    if attacker.passions_spent.count(command.passion) >= allowed:
        raise Refused(
            f"{attacker.id}'s {command.passion} passion is already spent this session",
            hint=f"each passion {allowed}× per session (setting passion_uses_per_session, C-10)",
        )


def spend_on_failure(
    batch: Batch, attacker: Combatant, command: Attack, result: CheckResult, dice: DiceSource, *, prefer_high: bool
) -> CheckResult:
    """The attack roll after the passion: spent once per attack, on the first failure it can change."""
    if command.passion is None or result.success or result.roll is None:
        return result
    if any(isinstance(e, PassionSpent) for e in batch.events):
        return result  # one failed roll per passion (C-10)
    roll, spec = result.roll, result.spec
    if command.passion_mode == "flip":
        if roll.tens == roll.ones or spec.flip:
            return result  # the other reading is the same value, or was already weighed (C-9, C-11)
        after = resolve(msgspec.structs.replace(spec, flip=True), roll, orientation=not roll.flipped)
    else:
        after = resolve(spec, roll_percentile(dice), prefer="high" if prefer_high else "as_rolled")
    trigger = next(p.trigger for p in attacker.sheet.passions if p.kind == command.passion)
    batch.emit(
        PassionSpent(
            actor=attacker.id,
            passion=command.passion,
            mode=command.passion_mode,
            trigger=trigger,
            before=result,
            after=after,
        )
    )
    return after
