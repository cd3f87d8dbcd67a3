"""Tactic rules compiled for the kernel: `tactics.choose.holds` as quick tests over a fight."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.tactics.rules import TacticRule

if TYPE_CHECKING:
    from engine.simulate.kernel.combatants import FighterState
    from engine.simulate.kernel.fight import _Fight

Test = Callable[["_Fight", "FighterState"], bool]


@dataclass(frozen=True, slots=True)
class Rule:
    """A tactic rule and its conditions as one test (None: it always holds); `chance`, an AI
    draw, is taken last, only when every other condition holds."""

    rule: TacticRule
    holds: Test | None
    chance: bool


def compile_rule(rule: TacticRule, at_range: bool) -> Rule | None:
    """`tactics.choose.holds` as tests over a kernel fight, without those that cannot change in
    one; None when the rule can never hold in it (held, holding, prone never happen here)."""
    w = rule.when
    if (w.at_range is not None and at_range != w.at_range) or w.held or w.holding:
        return None
    tests: list[Test] = []
    if w.wounds_below is not None:
        below = w.wounds_below
        tests.append(lambda fight, me: wound_fraction(me) < below)
    if w.wounds_at_least is not None:
        least = w.wounds_at_least
        tests.append(lambda fight, me: wound_fraction(me) >= least)
    if w.enemies_at_least is not None:
        at_least = w.enemies_at_least
        tests.append(lambda fight, me: len(fight.enemies(me)) >= at_least)
    if w.enemies_at_most is not None:
        at_most = w.enemies_at_most
        tests.append(lambda fight, me: len(fight.enemies(me)) <= at_most)
    if w.allies_down is not None:
        down = w.allies_down
        tests.append(lambda fight, me: fight.allies_down(me) == down)
    if w.armed is not None:
        armed = w.armed
        tests.append(lambda fight, me: (me.in_hand.name != "fists") == armed)
    if w.holding_weapon is not None:
        name = w.holding_weapon.casefold()
        tests.append(lambda fight, me: me.in_hand.name.casefold() == name)
    if w.jammed is not None:
        jammed = w.jammed
        tests.append(lambda fight, me: (me.in_hand.name in me.jammed) == jammed)
    if w.round_at_least is not None:
        first = w.round_at_least
        tests.append(lambda fight, me: fight.round >= first)
    if w.round_at_most is not None:
        last = w.round_at_most
        tests.append(lambda fight, me: fight.round <= last)
    if w.reaction is not None:
        reaction = w.reaction
        tests.append(lambda fight, me: (me.reaction or "none") == reaction)
    if w.prone is not None:
        prone = w.prone
        tests.append(lambda fight, me: me.prone == prone)
    if w.dodged_last_round is not None:
        dodged = w.dodged_last_round
        tests.append(lambda fight, me: me.dodged_last_round == dodged)
    if w.chance is not None:
        out_of_1000 = round(w.chance * 1000)
        tests.append(lambda fight, me: fight.dice.choose(1000) < out_of_1000)
    return Rule(rule, _all_of(tests), chance=w.chance is not None)


def _all_of(tests: list[Test]) -> Test | None:
    if len(tests) < 2:
        return tests[0] if tests else None

    def every(fight: _Fight, me: FighterState) -> bool:
        return all(test(fight, me) for test in tests)  # in order, lazily: chance last

    return every


def wound_fraction(me: FighterState) -> float:
    maximum = me.t.max_wounds
    return me.wounds / maximum if maximum else 0.0
