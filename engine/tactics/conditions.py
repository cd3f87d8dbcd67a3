"""A tactic rule's conditions (`When`) compiled once into a predicate over the working table.

Every condition given must hold; they are tried in a fixed order, and `chance` — the only one
that draws, from the AI stream — last, so a rule that fails on the state never draws a choice.
"""

from __future__ import annotations

from functools import cache

from engine.dice.source import DiceSource
from engine.rules.ua2.combat.situation import helpless
from engine.rules.ua2.table import Row, Table
from engine.tactics.rules import When


def _enemies(t: Table, me: Row) -> int:
    return sum(1 for c in t.rows if c.side != me.side and c.status == "active")


def _helpless_enemies(t: Table, me: Row) -> int:
    return sum(1 for c in t.rows if c.side != me.side and helpless(c))


def _allies_down(t: Table, me: Row) -> bool:
    return any(c.side == me.side and c.id != me.id and c.status != "active" for c in t.rows)


def _fraction(me: Row) -> float:
    return me.wounds / me.max_wounds if me.max_wounds else 0.0


class Condition:
    """The conditions of one `When`, read once into plain fields (None: not given), tested in
    a fixed order by `holds`; `never` when the rule's position rules it out."""

    __slots__ = (
        "allies_down",
        "armed",
        "chance",
        "dodged_last_round",
        "enemies_at_least",
        "enemies_at_most",
        "held",
        "helpless_enemies_at_least",
        "holding",
        "holding_weapon",
        "jammed",
        "never",
        "prone",
        "reaction",
        "round_at_least",
        "round_at_most",
        "wounds_at_least",
        "wounds_below",
    )

    def __init__(self, w: When, at_range: bool) -> None:
        self.never: bool = w.at_range is not None and w.at_range != at_range
        self.wounds_below: float | None = w.wounds_below
        self.wounds_at_least: float | None = w.wounds_at_least
        self.enemies_at_least: int | None = w.enemies_at_least
        self.enemies_at_most: int | None = w.enemies_at_most
        self.allies_down: bool | None = w.allies_down
        self.armed: bool | None = w.armed
        self.holding_weapon: str | None = None if w.holding_weapon is None else w.holding_weapon.casefold()
        self.jammed: bool | None = w.jammed
        self.round_at_least: int | None = w.round_at_least
        self.round_at_most: int | None = w.round_at_most
        self.reaction: str | None = w.reaction
        self.held: bool | None = w.held
        self.holding: bool | None = w.holding
        self.prone: bool | None = w.prone
        self.dodged_last_round: bool | None = w.dodged_last_round
        self.helpless_enemies_at_least: int | None = w.helpless_enemies_at_least
        #: `chance` in thousandths (None: no chance)
        self.chance: int | None = None if w.chance is None else round(w.chance * 1000)

    def holds(self, t: Table, me: Row, ai: DiceSource) -> bool:
        """Every condition given holds (`chance` draws from the AI stream, last)."""
        if self.never:
            return False
        if self.wounds_below is not None and not _fraction(me) < self.wounds_below:
            return False
        if self.wounds_at_least is not None and not _fraction(me) >= self.wounds_at_least:
            return False
        if self.enemies_at_least is not None and not _enemies(t, me) >= self.enemies_at_least:
            return False
        if self.enemies_at_most is not None and not _enemies(t, me) <= self.enemies_at_most:
            return False
        if self.allies_down is not None and _allies_down(t, me) != self.allies_down:
            return False
        if self.armed is not None and (me.in_hand != "fists") != self.armed:
            return False
        if self.holding_weapon is not None and me.in_hand.casefold() != self.holding_weapon:
            return False
        if self.jammed is not None:
            held = me.held
            if (held is not None and held.name in me.jammed) != self.jammed:
                return False
        if self.round_at_least is not None and not t.round >= self.round_at_least:
            return False
        if self.round_at_most is not None and not t.round <= self.round_at_most:
            return False
        if self.reaction is not None and (me.reaction.kind if me.reaction else "none") != self.reaction:
            return False
        if self.held is not None and bool(me.held_by) != self.held:
            return False
        if self.holding is not None and bool(me.holding) != self.holding:
            return False
        if self.prone is not None and me.prone != self.prone:
            return False
        if self.dodged_last_round is not None and me.dodged_last_round != self.dodged_last_round:
            return False
        least = self.helpless_enemies_at_least
        if least is not None and not _helpless_enemies(t, me) >= least:
            return False
        chance = self.chance
        return chance is None or ai.choose(1000) < chance


@cache
def compile_when(when: When, at_range: bool) -> Condition:
    """The conditions of `when` for a combatant at range or not (a scenario's position)."""
    return Condition(when, at_range)


def holds(when: When, t: Table, me: Row, ai: DiceSource, *, at_range: bool = False) -> bool:
    """Every condition given in `when` holds (`chance` draws from the AI stream, last)."""
    return compile_when(when, at_range).holds(t, me, ai)
