"""Checks in ua3 (U-1, C-*): an ability — or the best identity standing in for it (U-19) — an
identity, or a relationship (U-20), rolled as every check; a passion spent on it (U-21)."""

from __future__ import annotations

from engine.commands.ua3 import AbilityCheck, SpendPassion
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.ua3 import AbilityChecked, PassionSpent
from engine.rules.common import require_started
from engine.rules.passions import changed
from engine.rules.sink import Sink
from engine.rules.ua3.abilities import named_rating
from engine.rules.ua3.people import able, require_passion, roll, spec_for
from engine.rules.ua3.table import Table


def ability_check(sink: Sink[Table], command: AbilityCheck, dice: DiceSource) -> None:
    """U-1: a check with what the sheet gives for `name` (U-18 abilities from the gauges now)."""
    t = sink.table
    require_started(t)
    row = able(t, command.actor, "roll")
    option = named_rating(row.sheet, row.gauges, command.name)
    spec = spec_for(
        row, option, kind=command.kind, shifts=command.shifts, minimum=command.minimum, roll_anyway=command.roll_anyway
    )
    result = roll(spec, dice, command.flipped, row.id, "U-1")
    sink.emit(AbilityChecked(actor=row.id, result=result, rolled_with=option.source, purpose=command.purpose))


def spend_passion(sink: Sink[Table], command: SpendPassion, dice: DiceSource) -> None:
    """U-21 (as C-10): a passion in play rerolls or flip-flops the actor's most recent failed
    check, each passion `passion_uses_per_session` times; none once burned out (U-24)."""
    t = sink.table
    require_started(t)
    row = able(t, command.actor, "spend a passion")
    passion = require_passion(t, row, command.passion)
    last = row.last_check
    if last is None or last.roll is None:
        raise Refused(
            f"{command.actor} has no rolled check for a passion to change (U-21)",
            hint="a stress check, coercion or gridiron roll takes its passion in the same command",
        )
    if last.success:
        raise Refused(
            f"{command.actor}'s last check was a {last.outcome.replace('_', ' ')}, not a failure",
            hint="a passion changes a failed roll only (U-21)",
        )
    after = changed(last, command.mode, command.flipped, dice, row.id)
    sink.emit(
        PassionSpent(
            actor=row.id, passion=passion.kind, mode=command.mode, trigger=passion.trigger, before=last, after=after
        )
    )
