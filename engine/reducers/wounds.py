"""Applying wounds and healing to a combatant: shared by every reducer that hurts or heals."""

from __future__ import annotations

import msgspec

from engine.state.encounter import Combatant, Encounter, Injury


def wound(state: Encounter, target: str, amount: int, source: str, injury_id: int, round_: int) -> Encounter:
    """C2-32: a new injury of `amount` on `target`; wound points drop by it."""
    c = state.combatant(target)
    if c is None:
        return state
    injury = Injury(id=injury_id, amount=amount, source=source, round=round_)
    hurt = msgspec.structs.replace(c, wounds=c.wounds - amount, injuries=(*c.injuries, injury))
    state = state.replace_combatant(hurt)
    return msgspec.structs.replace(state, next_injury_id=max(state.next_injury_id, injury_id + 1))


def heal(combatant: Combatant, healed: tuple[tuple[int, int], ...]) -> Combatant:
    """Heal (injury id, points) pairs; wound points rise by the total, never above the maximum."""
    by_id = dict(healed)
    injuries = tuple(
        msgspec.structs.replace(i, healed=i.healed + by_id[i.id]) if i.id in by_id else i for i in combatant.injuries
    )
    wounds = min(combatant.max_wounds, combatant.wounds + sum(by_id.values()))
    return msgspec.structs.replace(combatant, injuries=injuries, wounds=wounds)
