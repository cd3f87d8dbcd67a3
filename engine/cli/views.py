"""Rendering shared by session and replay commands: state tables, narrated logs, diffs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec
from rich.markup import escape
from rich.table import Table

from engine.cli.common import console
from engine.events.base import EventBase
from engine.events.commands import CommandRecorded
from engine.rules.registry import ruleset_of
from engine.rules.ua2.combat.situation import wound_shift
from engine.session.audit import Line
from engine.state.encounter import Encounter
from engine.state.sheet import METERS
from engine.text import shown


def _safe(text: str) -> str:
    """Text from a log or a file, fit for rich markup: control characters and bidirectional
    controls escaped (engine.text.shown), brackets too."""
    return escape(shown(text))


def state_json(state: Encounter) -> dict[str, Any]:
    """The state as JSON, with what a GM reads off it (wound shift, whose turn) added."""
    data: dict[str, Any] = msgspec.to_builtins(state)
    data["turn"] = ruleset_of(state).acting_now(state)
    from engine.session.service import SessionService

    data["up_next"] = data["turn"] or SessionService.up_next(state)  # also while declarations are open
    for c, out in zip(state.combatants, data["combatants"], strict=True):
        out["wound_shift"] = wound_shift(c.wounds, c.max_wounds, state.settings)
    return data


def render_state(state: Encounter, *, title: str = "") -> None:
    """An initiative tracker: combatants in initiative order with their values, ▶ at who acts now
    (or first, while declarations are open), every shift in force, the dead and fled apart,
    injuries as a table."""
    from engine.session.service import SessionService

    fight = state.fight
    head = f"[bold]{_safe(title or state.title or 'encounter')}[/bold] — {fight.phase}"
    if fight.phase not in ("setup",):
        head += f", round {fight.round}"
    actor = ruleset_of(state).acting_now(state)
    up = actor or SessionService.up_next(state)
    if actor:
        head += f", {_safe(actor)} to act"
    elif up and fight.phase == "declare":
        head += f", declarations open ({_safe(up)} acts first)"
    if fight.result is not None:
        winner = f"side {fight.result.winner} wins" if fight.result.winner else "draw"
        head += f" — {_safe(winner)} ({_safe(fight.result.reason)})"
    console.print(head)
    rank = {fid: i for i, fid in enumerate(fight.order)}
    standing = [c for c in state.combatants if c.status not in ("dead", "fled", "surrendered")]
    gone = [c for c in state.combatants if c not in standing]
    standing.sort(key=lambda c: rank.get(c.id, len(rank)))
    table = Table()
    for column in ("", "combatant", "init", "side", "wounds", "shifts", "status", "in hand", "conditions", "madness"):
        table.add_column(column)
    for c in standing:
        f = state.fighter(c.id)
        shifts = []
        wounds_shift = wound_shift(c.wounds, c.max_wounds, state.settings)
        if wounds_shift:
            shifts.append(f"{wounds_shift:+d} wounds")
        live = [cond for cond in f.conditions if fight.round <= cond.until_round]
        shifts += [f"{cond.shift:+d} {cond.name}" for cond in live if cond.shift]
        status = c.status if c.reaction is None else f"{c.status}, {c.reaction.kind} ({c.reaction.source})"
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
        table.add_row(
            "▶" if c.id == up else "",
            _safe(c.id),
            init,
            _safe(c.side),
            f"{c.wounds}/{c.max_wounds}",
            _safe(", ".join(shifts)),
            _safe(status),
            _safe(hand),
            _safe(", ".join(notes)),
            meters,
        )
    console.print(table)
    if gone:
        console.print("out of the fight: " + _safe(", ".join(f"{c.id} ({c.status})" for c in gone)))
    injuries = [(c.id, i) for c in state.combatants for i in c.injuries]
    if injuries:
        hurt = Table(title="injuries")
        for column in ("combatant", "#", "amount", "healed", "source", "round"):
            hurt.add_column(column)
        for who, i in injuries:
            amount = f"{i.amount}" + (" permanent" if i.permanent else "")
            hurt.add_row(_safe(who), str(i.id), amount, str(i.healed), _safe(i.source), str(i.round))
        console.print(hurt)


def render_lines(lines: Iterable[Line]) -> None:
    for line in lines:
        text = _safe(line.text)
        if line.struck:
            text = f"[strike]{text}[/strike] [dim]({_safe(line.note)})[/dim]"
        odds = f" [dim]({_safe(line.odds)})[/dim]" if line.odds else ""
        if line.type == "command_recorded":  # a command's header: its number, as --amend and undo take it
            console.print(f"[bold]{text}[/bold]{odds}")
        else:
            console.print(f"  [dim]e{line.position}[/dim] {text}{odds}")


def lines_json(lines: Sequence[Line]) -> list[dict[str, Any]]:
    return [line_json(x) for x in lines]


def line_json(x: Line) -> dict[str, Any]:
    return {
        "position": x.position,
        "round": x.round,
        "type": x.type,
        "command": x.command,
        "explanation": x.text,
        "struck": x.struck,
        "note": x.note,
        "odds": x.odds,
    }


def render_events(events: Sequence[EventBase], first_position: int) -> None:
    for offset, event in enumerate(events):
        if not isinstance(event, CommandRecorded):
            console.print(f"  [dim]e{first_position + offset}[/dim] {_safe(event.explain())}")
        else:
            console.print(f"[bold]{_safe(event.explain())}[/bold]")


def events_json(events: Sequence[EventBase], first_position: int) -> list[dict[str, Any]]:
    return [
        {
            "position": first_position + i,
            "type": type(e).__struct_config__.tag,
            "explanation": e.explain(),
            "event": msgspec.to_builtins(e),
        }
        for i, e in enumerate(events)
    ]
