"""Reducers of madness (M2-*) and passion (C-10) events: notches stay within 0–10 and 0–5."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from engine.events.madness import (
    MadnessCheckResolved,
    NeurosisMarked,
    NotchMarked,
    PassionSpent,
    ReactionEnded,
    ReactionTaken,
    TherapyGiven,
)
from engine.reducers.fold import reducer
from engine.state.encounter import Combatant, Encounter, ReactionState
from engine.state.sheet import MAX_FAILED, MAX_HARDENED, Meter


def _update(state: Encounter, actor: str, change: Callable[[Combatant], Combatant]) -> Encounter:
    combatant = state.combatant(actor)
    if combatant is None:
        return state
    return state.replace_combatant(change(combatant))


def _update_meter(state: Encounter, actor: str, meter: str, change: Callable[[Meter], Meter]) -> Encounter:
    def on(c: Combatant) -> Combatant:
        return msgspec.structs.replace(c, meters=c.meters.with_meter(meter, change(c.meters.of(meter))))

    return _update(state, actor, on)


@reducer(MadnessCheckResolved)
def _resolved(state: Encounter, event: MadnessCheckResolved) -> Encounter:
    # A rolled Mind check's notches are marked at once, so no passion can reroll it (C-10):
    # it is no longer the actor's "last check".
    if not event.rolled:
        return state
    return _update(state, event.actor, lambda c: msgspec.structs.replace(c, last_check=None))


@reducer(NotchMarked)
def _notch(state: Encounter, event: NotchMarked) -> Encounter:
    def mark(m: Meter) -> Meter:
        if event.kind == "hardened":
            return msgspec.structs.replace(m, hardened=min(MAX_HARDENED, m.hardened + 1))
        return msgspec.structs.replace(m, failed=min(MAX_FAILED, m.failed + 1))

    return _update_meter(state, event.actor, event.meter, mark)


@reducer(NeurosisMarked)
def _neurosis(state: Encounter, event: NeurosisMarked) -> Encounter:
    return _update_meter(state, event.actor, event.meter, lambda m: msgspec.structs.replace(m, neurosis=True))


@reducer(ReactionTaken)
def _reaction(state: Encounter, event: ReactionTaken) -> Encounter:
    kept = ReactionState(kind=event.reaction, source=event.source, meter=event.meter)
    return _update(state, event.actor, lambda c: msgspec.structs.replace(c, reaction=kept))


@reducer(ReactionEnded)
def _reaction_ended(state: Encounter, event: ReactionEnded) -> Encounter:
    return _update(state, event.actor, lambda c: msgspec.structs.replace(c, reaction=None))


@reducer(TherapyGiven)
def _therapy(state: Encounter, event: TherapyGiven) -> Encounter:
    def treat(m: Meter) -> Meter:
        return msgspec.structs.replace(
            m,
            hardened=max(0, m.hardened - event.hardened_removed),
            failed=max(0, m.failed - event.failed_removed),
        )

    return _update_meter(state, event.actor, event.meter, treat)


@reducer(PassionSpent)
def _passion(state: Encounter, event: PassionSpent) -> Encounter:
    return _update(
        state,
        event.actor,
        lambda c: msgspec.structs.replace(c, passions_spent=(*c.passions_spent, event.passion), last_check=event.after),
    )
