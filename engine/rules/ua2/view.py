"""What a ua2 encounter looks like to a GM, as plain data (`engine.rules.view`) and as JSON:
wound shifts (C2-31), whose turn, conditions, madness meters, injuries."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.rules.ua2.combat.situation import wound_shift
from engine.rules.view import Section, View, person_changes
from engine.state.encounter import Encounter
from engine.state.sheet import METERS


def state_json(state: Encounter, turn: str | None) -> dict[str, Any]:
    """The state as JSON, with what a GM reads off it (wound shift, whose turn) added."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["turn"] = turn
    for c, out in zip(state.combatants, data["combatants"], strict=True):
        out["wound_shift"] = wound_shift(c.wounds, c.max_wounds, state.settings)
    return data


def state_view(state: Encounter, turn: str | None, *, title: str = "") -> View:
    fight = state.fight
    headline = f" — {fight.phase}"
    if fight.phase not in ("setup",):
        headline += f", round {fight.round}"
    if turn:
        headline += f", {turn} to act"
    if fight.result is not None:
        winner = f"side {fight.result.winner} wins" if fight.result.winner else "draw"
        headline += f" — {winner} ({fight.result.reason})"
    rows = []
    for c in state.combatants:
        f = state.fighter(c.id)
        shift = wound_shift(c.wounds, c.max_wounds, state.settings)
        status = c.status if c.reaction is None else f"{c.status}, {c.reaction.kind} ({c.reaction.source})"
        notes = [cond.name for cond in f.conditions if fight.round <= cond.until_round]
        flags = {
            "dodging": f.dodging,
            "prone": f.prone,
            f"holds {f.holding}": f.holding,
            f"held by {f.held_by}": f.held_by,
        }
        notes += [flag for flag, on in flags.items() if on]
        if f.focus is not None:
            notes.append(f"focus +{f.focus.amount} on {f.focus.target}")
        hand = f.in_hand + (" (jammed)" if f.in_hand in f.jammed else "")
        meters = " ".join(
            f"{m[:3]} {c.meters.of(m).hardened}/{c.meters.of(m).failed}"
            for m in METERS
            if c.meters.of(m).hardened or c.meters.of(m).failed
        )
        rows.append(
            (
                c.id,
                c.side,
                f"{c.wounds}/{c.max_wounds}",
                f"{shift:+d}" if shift else "",
                status,
                hand,
                ", ".join(notes),
                meters,
            )
        )
    table = Section(
        columns=("combatant", "side", "wounds", "shift", "status", "in hand", "conditions", "madness"),
        rows=tuple(rows),
    )
    injuries = [(c.id, i) for c in state.combatants for i in c.injuries]
    notes = []
    if injuries:
        notes.append(
            "injuries: " + "; ".join(f"{who} #{i.id} {i.amount} ({i.source}), healed {i.healed}" for who, i in injuries)
        )
    return View(
        title=title or state.title or "encounter",
        headline=headline,
        lines=("order: " + ", ".join(fight.order),) if fight.order else (),
        sections=(table,),
        notes=tuple(notes),
    )


def state_diff(before: Encounter, after: Encounter) -> list[str]:
    """What differs for each combatant (wounds, status, reaction, meters, weapon) and the fight."""
    out = []
    old = {c.id: c for c in before.combatants}
    for c in after.combatants:
        b = old.get(c.id)
        if b is None:
            out.append(f"{c.id} joined")
            continue
        out += person_changes(b, c)
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
