"""What a ua3 encounter and a ua3 sheet look like to a GM, as plain data (`engine.rules.view`)
and as JSON: abilities derived from the gauges (U-18), wound levels (U-2), burnout (U-24),
traumas (U-23), where each conflict's token stands (U-16), coercions waiting (U-15)."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.events.ua3.words import a_or_an
from engine.rules.ua3.abilities import abilities, initiative, label, linked_gauge, wound_threshold
from engine.rules.ua3.harm import level
from engine.rules.view import Section, View, listed_change, person_changes
from engine.state.ua3.conflict import SPACES, Conflict, ConflictSide
from engine.state.ua3.encounter import Ua3Combatant, Ua3Encounter
from engine.state.ua3.settings import Ua3Settings
from engine.state.ua3.sheet import ABILITIES, GAUGES, MAX_FAILED, MAX_HARDENED, U18, Gauge, Gauges, Ua3Sheet

SPACE_NAMES = {
    "end_zone_a": "end zone A",
    "advantage_a": "advantage A",
    "balance": "balance",
    "advantage_b": "advantage B",
    "end_zone_b": "end zone B",
}


def notches(marked: int, total: int) -> str:
    """`■■■□□□□□□` for 3 of 9."""
    marked = max(0, min(marked, total))
    return "■" * marked + "□" * (total - marked)


def gauge_cell(gauge: Gauge) -> str:
    """`3/1` (hardened/failed), with `trauma` at five failed."""
    return f"{gauge.hardened}/{gauge.failed}" + (" trauma" if gauge.trauma else "")


def gridiron(conflict: Conflict) -> str:
    """`A [ ][ ][●][ ][ ] B`: the five spaces and the token (U-16)."""
    cells = "".join("[●]" if s == conflict.token else "[ ]" for s in SPACES)
    return f"A {cells} B"


def derived(c: Ua3Combatant, settings: Ua3Settings) -> dict[str, Any]:
    """What a GM reads off a character that is not stored: abilities, threshold, level, burnout."""
    threshold = wound_threshold(c.sheet, settings.wound_threshold)
    return {
        "abilities": abilities(c.gauges),
        "wound_threshold": threshold,
        "wound_level": level(c.wounds, threshold),
        "burned_out": c.gauges.hardened_total >= settings.burnout_hardened,
        "hardened_total": c.gauges.hardened_total,
        "traumas": [g for g in GAUGES if c.gauges.of(g).trauma],
        "initiative": initiative(c.sheet),
    }


def state_json(state: Ua3Encounter, turn: str | None) -> dict[str, Any]:
    """The state as JSON, with what a GM reads off it added (abilities, levels, whose roll, the
    gridiron's spaces in order from side A's end zone to side B's, U-16)."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["turn"] = turn
    for c, out in zip(state.combatants, data["combatants"], strict=True):
        out.update(derived(c, state.settings))
    for conflict, out in zip(state.conflicts, data["conflicts"], strict=True):
        out["to_roll"] = None if conflict.over else conflict.to_roll
        out["spaces"] = [{"space": s, "name": SPACE_NAMES[s]} for s in SPACES]
    return data


def _status(c: Ua3Combatant) -> str:
    held = f", restrained by {c.restrained_by}" if c.restrained_by and c.status == "active" else ""
    if c.reaction is None:
        return c.status + held
    return f"{c.status}{held}, {c.reaction.kind} ({c.reaction.source or 'the threat'})"


def _rolling(side: ConflictSide) -> str:
    """What a side rolls: `Connect`, or a fixed rating."""
    return side.roll if side.actor else f"rating {side.rating}"


def _conflict_row(conflict: Conflict) -> tuple[str, ...]:
    a, b = conflict.sides
    if conflict.result is not None:
        winner = conflict.result.winner
        now = f"over: side {winner.upper()} wins" if winner else "over: neither wins"
    else:
        side = conflict.side(conflict.to_roll)
        now = f"side {side.key.upper()} ({side.name}) to roll"
    length = f"compressed, {conflict.exchanges} each" if conflict.compressed else "open-ended"
    return (
        conflict.id + (f" ({conflict.about})" if conflict.about else ""),
        f"{a.name}: {a.stake} ({_rolling(a)}; {a.rolls} rolled)",
        f"{b.name}: {b.stake} ({_rolling(b)}; {b.rolls} rolled)",
        f"{gridiron(conflict)} {SPACE_NAMES[conflict.token]}",
        length,
        now,
    )


def state_view(state: Ua3Encounter, *, title: str = "") -> View:
    settings = state.settings
    running = [c for c in state.conflicts if not c.over]
    headline = f" — {len(state.combatants)} characters"
    if running:
        headline += f", {len(running)} conflict{'s' if len(running) > 1 else ''} running"
    people = Section(
        columns=("character", "side", "wounds", "status", *GAUGES),
        rows=tuple(
            (
                c.id,
                c.side,
                _wounds(c, settings),
                _status(c),
                *(gauge_cell(c.gauges.of(g)) for g in GAUGES),
            )
            for c in state.combatants
        ),
    )
    sections = [people]
    fight = _fight_section(state)
    if fight is not None:
        sections.append(fight)
    if state.combatants:
        sections.append(
            Section(
                title="abilities (U-18)",
                columns=("character", *(label(a) for a in ABILITIES)),
                rows=tuple((c.id, *(str(v) for v in abilities(c.gauges).values())) for c in state.combatants),
            )
        )
    if state.conflicts:
        sections.append(
            Section(
                title="conflicts (U-16)",
                columns=("conflict", "side A (rolls)", "side B (rolls)", "token", "length", "now"),
                rows=tuple(_conflict_row(c) for c in state.conflicts),
            )
        )
    return View(
        title=title or state.title or "encounter",
        headline=headline,
        sections=tuple(sections),
        notes=tuple(_notes(state)),
    )


PHASE_WORDS = {
    "declare": "declarations open",
    "acting": "actions in declared order",
    "ended": "the fight is over",
}


def _fight_section(state: Ua3Encounter) -> Section | None:
    """The fight as an initiative tracker (U-22): the round's order (those not in it after), who
    acts now (▶), each one's declared action and rating, weapon in hand, armor and conditions."""
    fight = state.fight
    if fight.phase == "setup":
        return None
    now = fight.order[fight.turn] if fight.phase == "acting" and 0 <= fight.turn < len(fight.order) else None
    by_id = {c.id: c for c in state.combatants}
    ids = [*fight.order, *(c.id for c in state.combatants if c.id not in fight.order)]
    rows = []
    for cid in ids:
        c = by_id[cid]
        d = c.declared
        declared = "—"
        if d is not None:
            declared = d.action.replace("_", " ") + (f" → {', '.join(d.targets)}" if d.targets else "")
            declared += f" ({d.weapon})" if d.weapon else ""
        rating = f"{d.rating} {d.rated_by}".strip() if d is not None and d.rating else ""
        hand = c.in_hand + (" (jammed)" if c.jammed else "")
        armor = c.armor.describe() + (" (helmet spent)" if c.helmet_spent else "")
        rows.append(("▶" if cid == now else "", cid, declared, rating, hand, armor or "—", _conditions(c)))
    title = f"round {fight.round}: {PHASE_WORDS.get(fight.phase, fight.phase)}"
    if fight.result is not None:
        winner = fight.result.winner
        title += f" — {'side ' + winner + ' wins' if winner else 'no winner'} ({fight.result.reason})"
    return Section(
        title=title,
        columns=("", "character", "declared (U-22)", "rating", "in hand", "armor (U-13)", "conditions"),
        rows=tuple(rows),
    )


def _conditions(c: Ua3Combatant) -> str:
    """What weighs on a character in the fight, in words (U-8, U-9, U-10, U-17, U-3)."""
    out = []
    if c.suppressed_until:
        out.append(f"suppressed by {c.suppressed_by} to round {c.suppressed_until} (U-8)")
    if c.aim is not None:
        out.append(f"aiming at {c.aim.target}, {c.aim.rounds} round{'s' if c.aim.rounds != 1 else ''} (U-9)")
    if c.loses_action:
        out.append("thrown down: loses its next action (U-9)")
    if c.movement_halved:
        out.append("movement halved by a limb shot (U-9)")
    if c.restrained_by:
        out.append(f"restrained by {c.restrained_by} (U-17)")
    if c.believed_dead_by:
        out.append(f"believed dead by side {c.believed_dead_by} (U-10)")
    if c.openings:
        out.append(f"open to {', '.join(c.openings)}: +10 (U-3)")
    return "; ".join(out) or "—"


def _wounds(c: Ua3Combatant, settings: Ua3Settings) -> str:
    threshold = wound_threshold(c.sheet, settings.wound_threshold)
    words = level(c.wounds, threshold)
    return f"{c.wounds}/{threshold}" + (f" {words}" if words else "")


def _notes(state: Ua3Encounter) -> list[str]:
    notes = []
    for p in state.coercions:
        notes.append(
            f"{p.target} must answer {p.coercer}'s {p.gauge} threat: acquiesce, or {a_or_an(p.gauge.title())} {p.rank} "
            "stress check (U-15)"
        )
    for c in state.combatants:
        if c.gauges.hardened_total >= state.settings.burnout_hardened:
            notes.append(f"{c.id} is burned out: {c.gauges.hardened_total} hardened notches, no passions (U-24)")
        for shift in c.next_roll:
            notes.append(f"{c.id}: {shift.amount:+d} on the next roll ({shift.source})")
        if c.passions_spent:
            notes.append(f"{c.id} has spent: {', '.join(c.passions_spent)} (U-21)")
    for conflict in state.conflicts:
        for side in conflict.sides:
            for shift in side.next_roll:
                notes.append(
                    f"conflict {conflict.id}, {side.name}: {shift.amount:+d} on the next roll ({shift.source})"
                )
    return notes


def _gauges_diff(who: str, before: Gauges, after: Gauges) -> list[str]:
    out = []
    for g in GAUGES:
        b, a = before.of(g), after.of(g)
        if b != a:
            out.append(f"{who}: {g} {b.hardened}/{b.failed} → {a.hardened}/{a.failed} (hardened/failed)")
    old, new = abilities(before), abilities(after)
    changed = [f"{label(k)} {old[k]} → {new[k]}" for k in ABILITIES if old[k] != new[k]]
    if changed:
        out.append(f"{who}: {', '.join(changed)} (U-18)")
    return out


def state_diff(before: Ua3Encounter, after: Ua3Encounter) -> list[str]:
    """What differs for each character (wounds, status, reaction, gauges and abilities), each
    conflict (token, end) and each coercion waiting."""
    out = []
    old = {c.id: c for c in before.combatants}
    for c in after.combatants:
        b = old.get(c.id)
        if b is None:
            out.append(f"{c.id} joined")
            continue
        out += person_changes(b, c)
        out += _gauges_diff(c.id, b.gauges, c.gauges)
        out += listed_change(c.id, "in hand", b.in_hand, c.in_hand)
        out += listed_change(c.id, "weapons", tuple(w.name for w in b.weapons), tuple(w.name for w in c.weapons))
        out += listed_change(c.id, "jammed", b.jammed, c.jammed)
        out += listed_change(
            c.id, "next roll", tuple(s.source for s in b.next_roll), tuple(s.source for s in c.next_roll)
        )
    out += _conflicts_diff(before.conflicts, after.conflicts)
    if before.coercions != after.coercions:
        out.append(f"coercions waiting: {len(before.coercions)} → {len(after.coercions)}")
    return out


def _conflicts_diff(before: tuple[Conflict, ...], after: tuple[Conflict, ...]) -> list[str]:
    out = []
    old = {c.id: c for c in before}
    for c in after:
        b = old.get(c.id)
        if b is None:
            out.append(f"conflict {c.id} started at {SPACE_NAMES[c.token]}")
            continue
        if b.token != c.token:
            out.append(f"conflict {c.id}: token {SPACE_NAMES[b.token]} → {SPACE_NAMES[c.token]}")
        if b.result != c.result and c.result is not None:
            winner = f"side {c.result.winner.upper()} wins" if c.result.winner else "neither wins"
            out.append(f"conflict {c.id}: over, {winner}")
    return out


def sheet_json(sheet: Ua3Sheet, settings: Ua3Settings | None = None) -> dict[str, Any]:
    """A sheet as JSON, with its abilities (U-18), threshold (U-2) and burnout (U-24)."""
    settings = settings or Ua3Settings()
    data: dict[str, Any] = msgspec.to_builtins(sheet)
    data["abilities"] = abilities(sheet.gauges)
    data["wound_threshold"] = wound_threshold(sheet, settings.wound_threshold)
    data["hardened_total"] = sheet.gauges.hardened_total
    data["burned_out"] = sheet.gauges.hardened_total >= settings.burnout_hardened
    return data


def sheet_view(sheet: Ua3Sheet, settings: Ua3Settings | None = None) -> View:
    """The sheet for a reader: each gauge as its notches with the two abilities it sets (U-18),
    every identity's features (U-19), relationships (U-20), passions (U-21), the threshold (U-2)."""
    settings = settings or Ua3Settings()
    values = abilities(sheet.gauges)
    gauges = Section(
        title="shock gauges (U-18): hardened of 9, failed of 5, and the abilities they set",
        columns=("gauge", "hardened", "failed", "upbeat", "downbeat", ""),
        rows=tuple(
            (
                g,
                notches(sheet.gauges.of(g).hardened, MAX_HARDENED),
                notches(sheet.gauges.of(g).failed, MAX_FAILED),
                f"{label(U18[g].upbeat)} {values[U18[g].upbeat]}",
                f"{label(U18[g].downbeat)} {values[U18[g].downbeat]}",
                "trauma (U-23)" if sheet.gauges.of(g).trauma else "",
            )
            for g in GAUGES
        ),
    )
    identities = Section(
        title="identities (U-19)",
        columns=("identity", "rating", "features"),
        rows=tuple((i.name, str(i.rating), "; ".join(i.features()) or "—") for i in sheet.identities),
    )
    relationships = Section(
        title="relationships (U-20)",
        columns=("person", "rating", "linked to"),
        rows=tuple(
            (r.person, str(r.rating), f"{linked_gauge(r.gauge)} ({U18[str(linked_gauge(r.gauge))].relationship})")
            for r in sheet.relationships
        ),
    )
    total = sheet.gauges.hardened_total
    burned = total >= settings.burnout_hardened
    passions = Section(
        title="passions (U-21)" + (" — lost: burned out (U-24)" if burned else ""),
        columns=("passion", "trigger"),
        rows=tuple((p.kind + (f" ({p.gauge})" if p.gauge else ""), p.trigger) for p in sheet.passions),
    )
    threshold = wound_threshold(sheet, settings.wound_threshold)
    lines = [
        f"wound threshold {threshold} (U-2); wounds {sheet.wounds}"
        + (f", {level(sheet.wounds, threshold)}" if level(sheet.wounds, threshold) else ""),
        f"hardened notches in all: {total}"
        + (" — burned out (U-24)" if burned else f" (burnout at {settings.burnout_hardened}, U-24)"),
    ]
    found = initiative(sheet)
    if found is not None:
        lines.append(f"initiative {found} for any action (U-19, U-22)")
    sections = [gauges, identities]
    sections += [s for s in (relationships, passions) if s.rows]
    return View(
        title=sheet.name,
        headline="  (ua3)",
        lines=tuple(lines),
        sections=tuple(sections),
        notes=(f"notes: {sheet.notes}",) if sheet.notes else (),
    )
