"""A tactic rule's conditions (`When`) compiled once into a predicate over the working table.

Every condition given must hold; they are tried in a fixed order, and `chance` — the only one
that draws, from the AI stream — last, so a rule that fails on the state never draws a choice.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from engine.dice.source import DiceSource
from engine.rules.ua2.combat.situation import helpless
from engine.rules.ua2.table import Row, Table
from engine.tactics.rules import When

Test = Callable[[Table, Row], bool]
Predicate = Callable[[Table, Row, DiceSource], bool]


def _enemies(t: Table, me: Row) -> int:
    return sum(1 for c in t.rows if c.side != me.side and c.status == "active")


def _helpless_enemies(t: Table, me: Row) -> int:
    return sum(1 for c in t.rows if c.side != me.side and helpless(c))


def _allies_down(t: Table, me: Row) -> bool:
    return any(c.side == me.side and c.id != me.id and c.status != "active" for c in t.rows)


def _fraction(me: Row) -> float:
    return me.wounds / me.max_wounds if me.max_wounds else 0.0


def _tests(w: When) -> list[Test]:
    """One test per condition given, in the order they are checked."""
    tests: list[Test] = []
    if w.wounds_below is not None:
        below = w.wounds_below
        tests.append(lambda t, me: _fraction(me) < below)
    if w.wounds_at_least is not None:
        least = w.wounds_at_least
        tests.append(lambda t, me: _fraction(me) >= least)
    if w.enemies_at_least is not None:
        at_least = w.enemies_at_least
        tests.append(lambda t, me: _enemies(t, me) >= at_least)
    if w.enemies_at_most is not None:
        at_most = w.enemies_at_most
        tests.append(lambda t, me: _enemies(t, me) <= at_most)
    if w.allies_down is not None:
        down = w.allies_down
        tests.append(lambda t, me: _allies_down(t, me) == down)
    if w.armed is not None:
        armed = w.armed
        tests.append(lambda t, me: (me.in_hand != "fists") == armed)
    if w.holding_weapon is not None:
        named = w.holding_weapon.casefold()
        tests.append(lambda t, me: me.in_hand.casefold() == named)
    if w.jammed is not None:
        jammed = w.jammed
        tests.append(lambda t, me: ((held := me.held) is not None and held.name in me.jammed) == jammed)
    if w.round_at_least is not None:
        first = w.round_at_least
        tests.append(lambda t, me: t.round >= first)
    if w.round_at_most is not None:
        last = w.round_at_most
        tests.append(lambda t, me: t.round <= last)
    if w.reaction is not None:
        reaction = w.reaction
        tests.append(lambda t, me: (me.reaction.kind if me.reaction else "none") == reaction)
    if w.held is not None:
        held = w.held
        tests.append(lambda t, me: bool(me.held_by) == held)
    if w.holding is not None:
        holding = w.holding
        tests.append(lambda t, me: bool(me.holding) == holding)
    if w.prone is not None:
        prone = w.prone
        tests.append(lambda t, me: me.prone == prone)
    if w.dodged_last_round is not None:
        dodged = w.dodged_last_round
        tests.append(lambda t, me: me.dodged_last_round == dodged)
    if w.helpless_enemies_at_least is not None:
        least_helpless = w.helpless_enemies_at_least
        tests.append(lambda t, me: _helpless_enemies(t, me) >= least_helpless)
    return tests


def _always(t: Table, me: Row, ai: DiceSource) -> bool:
    return True


def _never(t: Table, me: Row, ai: DiceSource) -> bool:
    return False


@cache
def compile_when(when: When, at_range: bool) -> Predicate:
    """The predicate of `when` for a combatant at range or not (a scenario's position)."""
    if when.at_range is not None and when.at_range != at_range:
        return _never
    tests = tuple(_tests(when))
    if when.chance is None:
        if not tests:
            return _always
        if len(tests) == 1:
            only = tests[0]
            return lambda t, me, ai: only(t, me)
        return lambda t, me, ai: all(test(t, me) for test in tests)
    threshold = round(when.chance * 1000)

    def with_chance(t: Table, me: Row, ai: DiceSource) -> bool:
        for test in tests:
            if not test(t, me):
                return False
        return ai.choose(1000) < threshold

    return with_chance


def holds(when: When, t: Table, me: Row, ai: DiceSource, *, at_range: bool = False) -> bool:
    """Every condition given in `when` holds (`chance` draws from the AI stream, last)."""
    return compile_when(when, at_range)(t, me, ai)
