"""Reducers of setup, ruling and check events."""

from __future__ import annotations

import msgspec

from engine.events.checks import CheckRolled
from engine.events.commands import CommandRecorded
from engine.events.setup import CombatantJoined, EncounterStarted, GmRuling
from engine.reducers.fold import reducer
from engine.state.encounter import Combatant, Encounter


@reducer(EncounterStarted)
def _started(state: Encounter, event: EncounterStarted) -> Encounter:
    return msgspec.structs.replace(
        state, ruleset=event.ruleset, title=event.title, seed=event.seed, settings=event.settings
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
    return msgspec.structs.replace(state, combatants=(*state.combatants, combatant))


@reducer(GmRuling)
def _ruling(state: Encounter, event: GmRuling) -> Encounter:
    return state


@reducer(CheckRolled)
def _check(state: Encounter, event: CheckRolled) -> Encounter:
    return state


@reducer(CommandRecorded)
def _command(state: Encounter, event: CommandRecorded) -> Encounter:
    return msgspec.structs.replace(
        state,
        last_command=event.id,
        dice_position=max(state.dice_position, event.seeded_from + event.seeded_count),
    )
