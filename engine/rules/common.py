"""Rules every ruleset shares: starting an encounter, adding combatants, rulings, checks."""

from __future__ import annotations

from collections.abc import Sequence

from engine.catalog import find_weapon
from engine.commands.setup import AddCombatant, RollCheck, Ruling, StartEncounter
from engine.dice.checks import roll_check
from engine.dice.source import DiceSource
from engine.errors import NotFound, Refused
from engine.events.base import EventBase
from engine.events.checks import CheckRolled
from engine.events.setup import CombatantJoined, EncounterStarted, GmRuling
from engine.rules.decide import handles
from engine.state.encounter import Encounter
from engine.state.weapons import FISTS

RULESETS = ("ua2", "ua3")


def require_started(state: Encounter) -> None:
    if state.version == 0:
        raise Refused("the encounter has not started", hint="start it first")


@handles(StartEncounter)
def start(state: Encounter, command: StartEncounter, dice: DiceSource) -> Sequence[EventBase]:
    if state.version != 0:
        raise Refused("the encounter has already started")
    if command.ruleset not in RULESETS:
        raise Refused(f"unknown ruleset {command.ruleset!r}", hint="use ua2 or ua3")
    return [
        EncounterStarted(
            ruleset=command.ruleset,
            title=command.title,
            seed=command.seed,
            settings=command.settings,
            scenario=command.scenario,
        )
    ]


@handles(AddCombatant)
def add_combatant(state: Encounter, command: AddCombatant, dice: DiceSource) -> Sequence[EventBase]:
    require_started(state)
    if not command.id.strip():
        raise Refused("a combatant needs a non-empty id")
    if state.combatant(command.id) is not None:
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
    return [
        CombatantJoined(
            id=command.id,
            side=command.side,
            sheet=command.sheet,
            arsenal=arsenal,
            in_hand=known[in_hand.casefold()],
            ambusher=command.ambusher,
            reaction=command.reaction,
        )
    ]


@handles(Ruling)
def ruling(state: Encounter, command: Ruling, dice: DiceSource) -> Sequence[EventBase]:
    require_started(state)
    if not command.note.strip():
        raise Refused("a ruling needs a note saying what was ruled")
    return [GmRuling(note=command.note, about=command.about)]


@handles(RollCheck)
def check(state: Encounter, command: RollCheck, dice: DiceSource) -> Sequence[EventBase]:
    require_started(state)
    if command.actor and state.combatant(command.actor) is None:
        raise Refused(f"no combatant {command.actor!r} in this encounter")
    spec = command.spec
    if command.flipped is not None and not spec.flip:
        raise Refused(
            "this check may not be flip-flopped",
            hint="only obsession or passion rolls flip (C-9, C-10)",
        )
    result = roll_check(spec, dice, flipped=command.flipped)
    return [CheckRolled(actor=command.actor, result=result, purpose=command.purpose)]
