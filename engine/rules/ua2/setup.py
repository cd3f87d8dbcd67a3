"""Adding a ua2 combatant: its sheet, its weapons from the catalog, the one in hand."""

from __future__ import annotations

from engine.catalog import find_weapon
from engine.commands.setup import AddCombatant
from engine.dice.source import DiceSource
from engine.errors import NotFound, Refused
from engine.events.setup import CombatantJoined
from engine.rules.common import require_started
from engine.rules.ua2.sink import Sink
from engine.state.weapons import FISTS


def add_combatant(sink: Sink, command: AddCombatant, dice: DiceSource) -> None:
    t = sink.table
    require_started(t)
    if not command.id.strip():
        raise Refused("a combatant needs a non-empty id")
    if command.id in t.by_id:
        raise Refused(f"{command.id} is already in the encounter", hint="give each combatant a unique id")
    try:
        arsenal = command.weapons or tuple(find_weapon(name) for name in command.sheet.weapons)
    except NotFound as exc:
        raise Refused(exc.message, hint=exc.hint) from None
    in_hand = command.in_hand or FISTS.name
    known = {w.name.casefold(): w.name for w in (FISTS, *arsenal)}
    if in_hand.casefold() not in known:
        raise Refused(
            f"{command.id} does not carry a {in_hand}",
            hint=f"carried: {', '.join(sorted(known.values()))}",
        )
    sink.emit(
        CombatantJoined(
            id=command.id,
            side=command.side,
            sheet=command.sheet,
            arsenal=arsenal,
            in_hand=known[in_hand.casefold()],
            ambusher=command.ambusher,
            reaction=command.reaction,
        )
    )
