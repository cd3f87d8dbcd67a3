"""What a ruleset shows of its state, as plain data (no terminal, no markup): a headline, lines,
tables and notes. Each ruleset builds its own (`Ruleset.view`); the CLI renders any of them the
same way, so shared parts know no edition."""

from __future__ import annotations

from typing import Any

import msgspec


class Section(msgspec.Struct, frozen=True):
    """A table: its title ("" for none), its columns and its rows of text."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    title: str = ""


class View(msgspec.Struct, frozen=True):
    """A state as a GM reads it: `title` (shown bold) and the rest of the headline, lines before
    the tables, the tables, and notes after them."""

    title: str
    headline: str = ""
    lines: tuple[str, ...] = ()
    sections: tuple[Section, ...] = ()
    notes: tuple[str, ...] = ()


def person_changes(before: Any, after: Any) -> list[str]:
    """What differs in a combatant that every edition has: wounds, status, reaction, the
    passions spent (C-10, U-21)."""
    out = []
    who = after.id
    if before.wounds != after.wounds:
        out.append(f"{who}: wounds {before.wounds} → {after.wounds} ({after.wounds - before.wounds:+d})")
    if before.status != after.status:
        out.append(f"{who}: {before.status} → {after.status}")
    if before.reaction != after.reaction:
        was = before.reaction.kind if before.reaction else "none"
        now = after.reaction.kind if after.reaction else "none"
        out.append(f"{who}: reaction {was} → {now}")
    if before.passions_spent != after.passions_spent:
        was, now = ", ".join(before.passions_spent) or "none", ", ".join(after.passions_spent) or "none"
        out.append(f"{who}: passions spent {was} → {now}")
    return out


def listed_change(who: str, what: str, before: Any, after: Any) -> list[str]:
    """`WHO: what BEFORE → AFTER` when they differ (a tuple shown as its items, or "none")."""
    if before == after:
        return []

    def shown(value: Any) -> str:
        if isinstance(value, tuple):
            return ", ".join(str(getattr(v, "name", v)) for v in value) or "none"
        return str(value)

    return [f"{who}: {what} {shown(before)} → {shown(after)}"]
