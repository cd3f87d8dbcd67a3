"""What changed between two states, per combatant and for the fight: the lines an amend, an
undo or a redo leads with (DESIGN: the audit shows what changed and by how much)."""

from __future__ import annotations

from engine.state.encounter import Encounter
from engine.state.sheet import METERS


def state_diff(before: Encounter, after: Encounter) -> list[str]:
    """What differs for each combatant (wounds, status, reaction, meters, weapon) and the fight."""
    out = []
    old = {c.id: c for c in before.combatants}
    for c in after.combatants:
        b = old.get(c.id)
        if b is None:
            out.append(f"{c.id} joined")
            continue
        if b.wounds != c.wounds:
            out.append(f"{c.id}: wounds {b.wounds} → {c.wounds} ({c.wounds - b.wounds:+d})")
        if b.status != c.status:
            out.append(f"{c.id}: {b.status} → {c.status}")
        if b.reaction != c.reaction:
            was = b.reaction.kind if b.reaction else "none"
            now = c.reaction.kind if c.reaction else "none"
            out.append(f"{c.id}: reaction {was} → {now}")
        for m in METERS:
            if b.meters.of(m) != c.meters.of(m):
                bm, cm = b.meters.of(m), c.meters.of(m)
                out.append(f"{c.id}: {m} {bm.hardened}/{bm.failed} → {cm.hardened}/{cm.failed} (hardened/failed)")
        bf, cf = before.fighter(c.id), after.fighter(c.id)
        if bf.in_hand != cf.in_hand:
            out.append(f"{c.id}: in hand {bf.in_hand} → {cf.in_hand}")
    if before.fight.phase != after.fight.phase or before.fight.round != after.fight.round:
        out.append(
            f"fight: {before.fight.phase} round {before.fight.round} → {after.fight.phase} round {after.fight.round}"
        )
    if before.fight.result != after.fight.result:

        def res(e: Encounter) -> str:
            r = e.fight.result
            return "going on" if r is None else (f"side {r.winner} wins" if r.winner else "draw")

        out.append(f"result: {res(before)} → {res(after)}")
    return out
