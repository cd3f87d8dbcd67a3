"""What a ua2 encounter looks like to a GM, as plain data (`engine.rules.view`) and as JSON:
wound shifts (C2-31), whose turn, conditions, madness meters, injuries."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.rules.ua2.combat.situation import wound_shift
from engine.rules.view import Section, View, listed_change, person_changes
from engine.state.encounter import Encounter
from engine.state.sheet import METERS


def state_json(state: Encounter, turn: str | None, up_next: str | None) -> dict[str, Any]:
    """The state as JSON, with what a GM reads off it (wound shift, whose turn, who acts next,
    also while declarations are open) added."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["turn"] = turn
    data["up_next"] = turn or up_next
    for c, out in zip(state.combatants, data["combatants"], strict=True):
        out["wound_shift"] = wound_shift(c.wounds, c.max_wounds, state.settings)
    return data


def state_view(state: Encounter, turn: str | None, up_next: str | None, *, title: str = "") -> View:
    """An initiative tracker: combatants in initiative order with their values, ▶ at who acts now
    (or first, while declarations are open), every shift in force, the dead and fled apart,
    injuries as a table."""
    fight = state.fight
    headline = f" — {fight.phase}"
    if fight.phase not in ("setup",):
        headline += f", round {fight.round}"
    up = turn or up_next
    if turn:
        headline += f", {turn} to act"
    elif up and fight.phase == "declare":
        headline += f", declarations open ({up} acts first)"
    if fight.result is not None:
        winner = f"side {fight.result.winner} wins" if fight.result.winner else "draw"
        headline += f" — {winner} ({fight.result.reason})"
    rank = {fid: i for i, fid in enumerate(fight.order)}
    standing = [c for c in state.combatants if c.status not in ("dead", "fled", "surrendered")]
    gone = [c for c in state.combatants if c not in standing]
    standing.sort(key=lambda c: rank.get(c.id, len(rank)))
    rows = []
    for c in standing:
        f = state.fighter(c.id)
        shifts = []
        wounds_shift = wound_shift(c.wounds, c.max_wounds, state.settings)
        if wounds_shift:
            shifts.append(f"{wounds_shift:+d} wounds")
        live = [cond for cond in f.conditions if fight.round <= cond.until_round]
        shifts += [f"{cond.shift:+d} {cond.name}" for cond in live if cond.shift]
        status = c.status + (", bound" if f.bound and c.status == "active" else "")
        status += f", {c.reaction.kind} ({c.reaction.source or 'until calmed'})" if c.reaction is not None else ""
        notes = [f"{cond.name} to round {cond.until_round}" for cond in live]
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
        init = ""
        if f.initiative is not None:
            init = f"{f.initiative.value}" + ("" if f.initiative.success else " (failed)")
        rows.append(
            (
                "▶" if c.id == up else "",
                c.id,
                init,
                c.side,
                f"{c.wounds}/{c.max_wounds}",
                ", ".join(shifts),
                status,
                hand,
                ", ".join(notes),
                meters,
            )
        )
    sections = [
        Section(
            columns=("", "combatant", "init", "side", "wounds", "shifts", "status", "in hand", "conditions", "madness"),
            rows=tuple(rows),
        )
    ]
    out = []
    if gone:
        out.append("out of the fight: " + ", ".join(f"{c.id} ({c.status})" for c in gone))
    injuries = [(c.id, i) for c in state.combatants for i in c.injuries]
    if injuries:
        hurt = []
        for who, i in injuries:
            amount = f"{i.amount}" + (" permanent" if i.permanent else "")
            hurt.append((who, str(i.id), amount, str(i.healed), i.source, str(i.round)))
        sections.append(
            Section(
                columns=("combatant", "#", "amount", "healed", "source", "round"), rows=tuple(hurt), title="injuries"
            )
        )
    return View(
        title=title or state.title or "encounter",
        headline=headline,
        sections=tuple(sections),
        notes=tuple(out),
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
        out += listed_change(c.id, "conditions", bf.conditions, cf.conditions)
        out += listed_change(c.id, "weapons", tuple(w.name for w in bf.arsenal), tuple(w.name for w in cf.arsenal))
        out += listed_change(c.id, "jammed", bf.jammed, cf.jammed)
        for flag in ("prone", "held_by", "holding"):
            out += listed_change(c.id, flag.replace("_", " "), getattr(bf, flag), getattr(cf, flag))
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
