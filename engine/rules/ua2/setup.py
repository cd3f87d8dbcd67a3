"""Adding a ua2 combatant: its sheet, its weapons from the catalog, the one in hand."""

from __future__ import annotations

from engine.catalog import find_weapon
from engine.commands.setup import AddCombatant, StartHelpless
from engine.dice.source import DiceSource
from engine.errors import NotFound, Refused
from engine.events.setup import CombatantJoined, StartedHelpless
from engine.rules.common import helpless_at_setup, require_started
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
    if t.phase in ("ambush", "declare", "acting"):
        # Joining a fight under way: no turn this round; initiative is set at the next round's
        # start, as for one who spent a round doing nothing (I2-5; default with an Initiative
        # skill, else a roll — as an automated combatant chooses, I2-1).
        from engine.events.combat import DidNothing
        from engine.rules.ua2.combat.ranking import automatic_method

        method = automatic_method(t.by_id[command.id], False)
        sink.emit(DidNothing(id=command.id, reinitiative=method))


def start_helpless(sink: Sink, command: StartHelpless, dice: DiceSource) -> None:
    """C2-33: a scenario's prisoner or guard starts bound, unconscious or frozen."""
    t = sink.table
    row = t.by_id.get(command.actor)
    helpless_at_setup(t, command.actor, already=row is not None and row.bound)
    sink.emit(StartedHelpless(actor=command.actor, condition=command.condition))
