"""Reducers of healing events (H2-*)."""

from __future__ import annotations

import msgspec

from engine.events.healing import Convalesced, InjuryTreated
from engine.reducers.fold import reducer
from engine.reducers.wounds import heal
from engine.state.encounter import Encounter


@reducer(InjuryTreated)
def _treated(state: Encounter, e: InjuryTreated) -> Encounter:
    c = state.combatant(e.patient)
    if c is None:
        return state
    flag = "first_aid_tried" if e.rule == "H2-2" else "medical_tried"
    injuries = tuple(msgspec.structs.replace(i, **{flag: True}) if i.id == e.injury_id else i for i in c.injuries)
    c = msgspec.structs.replace(c, injuries=injuries)
    return state.replace_combatant(heal(c, ((e.injury_id, e.healed),) if e.healed else ()))


@reducer(Convalesced)
def _convalesced(state: Encounter, e: Convalesced) -> Encounter:
    c = state.combatant(e.patient)
    return state if c is None else state.replace_combatant(heal(c, e.healed))
