"""The ua3 ruleset's script (`engine.rules.script.Script`): a ua3 scenario's setup and opening
stress checks, its combatants' tactics profiles, the next scripted command (a coercion's
answer, the round's declarations, or the declared action of whoever acts now), and how each
combatant ended."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Final

from engine.commands.base import CommandBase
from engine.commands.setup import StartEncounter
from engine.commands.ua3 import StressCheck
from engine.commands.ua3_combat import BeginFight, Declare, DoNothing, Grapple
from engine.dice.source import DiceSource
from engine.rules.script import CombatantEnd
from engine.rules.ua3.combat.situation import frozen, grapple_of
from engine.rules.ua3.table import Table
from engine.state.ua3.encounter import Ua3Encounter
from engine.state.ua3.sheet import GAUGES, Gauges
from engine.tactics.ua3 import PRESETS, Ua3Profile, act, answer, declarations
from engine.tactics.ua3_rules import PRESET_NOTES

#: (Final: a compiled build calls it from a C variable, not looked up on `tuple` each time) a
#: named tuple made from a plain one, skipping its generated constructor
_new_tuple: Final = tuple.__new__
#: What a combatant brings to a fight: its wounds and its gauges.
Baseline = tuple[int, Gauges]


def notches_gained(before: Gauges, after: Gauges) -> tuple[tuple[str, int, int], ...]:
    """Per gauge, the notches `after` has beyond `before`, for the gauges that changed."""
    if after is before:
        return ()
    out = []
    for g in GAUGES:
        b, a = before.of(g), after.of(g)
        if a.hardened != b.hardened or a.failed != b.failed:
            out.append((str(g), a.hardened - b.hardened, a.failed - b.failed))
    return tuple(out)


class Ua3Script:
    """Scripted ua3 combatants: tactics rules (`engine.tactics.ua3`), opening stress checks."""

    def setup(self, loaded: Any) -> list[CommandBase]:
        scenario = loaded.scenario
        start = StartEncounter(ruleset="ua3", title=scenario.title, settings=loaded.settings)
        return [start, *(c for f in loaded.fighters for c in f.enters())]

    def opening(self, loaded: Any) -> tuple[CommandBase, ...]:
        checks = []
        for t in loaded.scenario.triggers:
            for f in loaded.fighters:
                if t.who in ("all", f.side, f.id):
                    checks.append(
                        StressCheck(actor=f.id, gauge=t.gauge or "", rank=t.rank, sample=t.sample, source=t.source)
                    )
        return tuple(checks)

    def begin(self) -> CommandBase:
        return BeginFight()

    def profiles(self, loaded: Any) -> dict[str, Any]:
        return {f.id: Ua3Profile(rules=f.rules, coerced=f.coerced) for f in loaded.fighters}

    def preset(self, name: str) -> Any:
        return Ua3Profile(rules=PRESETS[name])

    def presets(self) -> Mapping[str, str]:
        return PRESET_NOTES

    def next_command(self, table: Table, profiles: Mapping[str, Any], ai: DiceSource) -> CommandBase:
        if table.coercions:
            answered = answer(table, profiles)
            if answered is not None:
                return answered
        if table.phase == "declare":
            return declarations(table, profiles, ai)
        actor = table.current
        assert actor is not None, "a turn belongs to someone"
        return act(table, actor, profiles, ai)

    def nothing(self, actor: str) -> CommandBase:
        return DoNothing(actor=actor)

    def responds(
        self, table: Table, profiles: Mapping[str, Any], npcs: Collection[str], ai: DiceSource, *, round_opened: bool
    ) -> CommandBase | None:
        mine = {k: v for k, v in profiles.items() if k in npcs}
        if table.coercions:  # U-15: an NPC answers a coercion aimed at it at once
            answered = answer(table, mine)
            if answered is not None:
                return answered
        if not round_opened or table.phase != "declare":
            return None
        chosen = declarations(table, mine, ai)  # U-22: the NPCs declare first, the players after
        return chosen if chosen.declarations else None

    def may_respond(self, table: Table, *, round_opened: bool) -> bool:
        return bool(table.coercions) or (round_opened and table.phase == "declare")

    def instead(self, table: Table, phase: str) -> CommandBase:
        if phase == "declare":
            return Declare(close=True)  # the rest declare nothing (a grappler, its grapple: U-17)
        actor = table.current
        assert actor is not None, "a turn belongs to someone"
        if grapple_of(table, actor) is not None:  # U-17: a grappler's turn is its exchange roll
            return Grapple(actor=actor)
        return DoNothing(actor=actor)

    def baseline(self, state: Ua3Encounter) -> dict[str, Any]:
        return {c.id: (c.wounds, c.gauges) for c in state.combatants}

    def ends(self, table: Table, baseline: Mapping[str, Any], dealt: Mapping[str, int]) -> tuple[CombatantEnd, ...]:
        ends = []
        # as dicts (a batch's are): a compiled build looks a dict up directly, a mapping by method
        brought: dict[str, Baseline] = baseline if isinstance(baseline, dict) else dict(baseline)
        dealt_by: dict[str, int] = dealt if isinstance(dealt, dict) else dict(dealt)
        for c in table.rows:
            wounds, gauges = brought[c.id]
            gained = notches_gained(gauges, c.gauges)
            hardened = failed = 0
            for _, h, f in gained:
                hardened += h
                failed += f
            still = c.status == "active" and frozen(c)
            row = (c.id, c.side, c.status, still, c.wounds - wounds, dealt_by.get(c.id, 0), hardened, failed, 0, gained)
            ends.append(_new_tuple(CombatantEnd, row))
        return tuple(ends)

    def max_rounds(self, table: Table) -> int:
        return table.limits.max_rounds


SCRIPT = Ua3Script()
