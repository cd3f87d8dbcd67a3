"""Reducers of setup, ruling and check events."""

from __future__ import annotations

import msgspec

from engine.events.checks import CheckRolled
from engine.events.commands import CommandRecorded
from engine.events.setup import CombatantJoined, EncounterStarted, GmRuling
from engine.reducers.fold import reducer
from engine.state.encounter import Combatant, Encounter, Injury
from engine.state.fight import Fighter
from engine.state.weapons import FISTS


@reducer(EncounterStarted)
def _started(state: Encounter, event: EncounterStarted) -> Encounter:
    return msgspec.structs.replace(
        state,
        ruleset=event.ruleset,
        title=event.title,
        seed=event.seed,
        settings=event.settings,
        scenario=event.scenario,
    )


@reducer(CombatantJoined)
def _joined(state: Encounter, event: CombatantJoined) -> Encounter:
    sheet = event.sheet
    combatant = Combatant(
        id=event.id,
        side=event.side,
        sheet=sheet,
        wounds=sheet.current_wounds,
        max_wounds=sheet.max_wounds,
        meters=sheet.meters,
    )
    fighter = Fighter(
        id=event.id,
        arsenal=(FISTS, *(w for w in event.arsenal if w.name != FISTS.name)),
        in_hand=event.in_hand,
        ambusher=event.ambusher,
        default_reaction=event.reaction,
    )
    fight = msgspec.structs.replace(state.fight, fighters=(*state.fight.fighters, fighter))
    next_injury = state.next_injury_id
    if combatant.wounds < combatant.max_wounds:  # wounds from before: one injury, so time can heal it (H2-5)
        earlier = Injury(
            id=next_injury, amount=combatant.max_wounds - combatant.wounds, source="wounds before the encounter"
        )
        combatant = msgspec.structs.replace(combatant, injuries=(earlier,))
        next_injury += 1
    return msgspec.structs.replace(
        state, combatants=(*state.combatants, combatant), fight=fight, next_injury_id=next_injury
    )


@reducer(GmRuling)
def _ruling(state: Encounter, event: GmRuling) -> Encounter:
    return state


@reducer(CheckRolled)
def _check(state: Encounter, event: CheckRolled) -> Encounter:
    # C-10: remember the actor's most recent check, for a passion to reroll or flip.
    combatant = state.combatant(event.actor) if event.actor else None
    if combatant is None:
        return state
    return state.replace_combatant(msgspec.structs.replace(combatant, last_check=event.result))


@reducer(CommandRecorded)
def _command(state: Encounter, event: CommandRecorded) -> Encounter:
    return state  # the session keeps the command and dice cursors (engine.session.history)
