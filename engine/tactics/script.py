"""The ua2 ruleset's script (`engine.rules.script.Script`): a ua2 scenario's setup and triggers,
its combatants' tactics profiles, the next scripted command, and how each combatant ended."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Final

import msgspec

from engine.commands.base import CommandBase
from engine.commands.combat import BeginFight, Declare, DoNothing
from engine.commands.madness import MadnessCheck
from engine.commands.setup import StartEncounter
from engine.dice.source import DiceSource
from engine.rules.script import CombatantEnd
from engine.rules.ua2.combat.attack import frenzy_attack
from engine.rules.ua2.table import Table
from engine.state.encounter import Encounter
from engine.state.sheet import METERS, Meter, Meters
from engine.tactics.choose import Profile, choose_command, declarations
from engine.tactics.rules import PRESET_NOTES, PRESETS

#: What a combatant brings to a fight: its meters and how many injuries it already had.
Baseline = tuple[Meters, int]


#: (Final: a compiled build keeps it in a C variable rather than looking it up by name per call)
astuple: Final = msgspec.structs.astuple


def notches_gained(before: Meters, after: Meters) -> tuple[tuple[str, int, int], ...]:
    """Per meter, the notches `after` has beyond `before`, for the meters that changed (a meter
    no fact replaced is the same value in both). Each set of meters is read with one `astuple`
    (their fields are in METERS order, `METER_AT`; a compiled build reads a struct's fields one by one, slowly)."""
    if after is before:
        return ()
    out = []
    befores, afters = astuple(before), astuple(after)
    for i, m in enumerate(METERS):
        b: Meter = befores[i]
        a: Meter = afters[i]
        if a is not b and (a.hardened != b.hardened or a.failed != b.failed):
            out.append((m, a.hardened - b.hardened, a.failed - b.failed))
    return tuple(out)


class Ua2Script:
    """Scripted ua2 combatants: tactics rules (`engine.tactics`), madness triggers (M2-8)."""

    def setup(self, loaded: Any) -> list[CommandBase]:
        scenario = loaded.scenario
        start = StartEncounter(ruleset=scenario.ruleset, title=scenario.title, settings=loaded.settings)
        return [start, *(c for f in loaded.fighters for c in f.enters())]

    def opening(self, loaded: Any) -> tuple[CommandBase, ...]:
        triggers = []
        for t in loaded.scenario.triggers:
            for f in loaded.fighters:
                if t.who in ("all", f.side, f.id):
                    cause = t.cause or f"{t.meter} {t.rank} (scenario trigger)"
                    triggers.append(MadnessCheck(actor=f.id, meter=t.meter, rank=t.rank, source=t.source or cause))
        return tuple(triggers)

    def begin(self) -> CommandBase:
        return BeginFight()

    def profiles(self, loaded: Any) -> dict[str, Any]:
        return {f.id: Profile(rules=f.rules, cherry=f.cherry, at_range=f.at_range) for f in loaded.fighters}

    def preset(self, name: str) -> Any:
        return Profile(rules=PRESETS[name])

    def presets(self) -> Mapping[str, str]:
        return PRESET_NOTES

    def next_command(self, table: Table, profiles: Mapping[str, Any], ai: DiceSource) -> CommandBase:
        if table.phase == "declare":
            return declarations(table, profiles, ai)
        actor = table.current
        assert actor is not None, "a turn belongs to someone"
        return choose_command(table, actor, profiles, ai)

    def nothing(self, actor: str) -> CommandBase:
        return DoNothing(actor=actor)

    def responds(
        self, table: Table, profiles: Mapping[str, Any], npcs: Collection[str], ai: DiceSource, *, round_opened: bool
    ) -> CommandBase | None:
        if not self.may_respond(table, round_opened=round_opened):
            return None
        chosen = declarations(table, profiles, ai)
        mine = tuple(d for d in chosen.declarations if d.id in npcs)
        return Declare(declarations=mine, open=True) if mine else None

    def may_respond(self, table: Table, *, round_opened: bool) -> bool:
        return round_opened and table.phase == "declare"  # C2-4: only declarations, as a round opens

    def instead(self, table: Table, phase: str) -> CommandBase:
        if phase == "declare":
            return Declare()  # nothing declared
        actor = table.current
        assert actor is not None, "a turn belongs to someone"
        forced = frenzy_attack(table, table.by_id[actor])  # M2-7: a frenzy may not do nothing
        return forced if forced is not None else DoNothing(actor=actor)

    def baseline(self, state: Encounter) -> dict[str, Any]:
        return {c.id: (c.meters, len(c.injuries)) for c in state.combatants}

    def ends(self, table: Table, baseline: Mapping[str, Any], dealt: Mapping[str, int]) -> tuple[CombatantEnd, ...]:
        ends = []
        for c in table.rows:
            meters, injuries = baseline[c.id]
            taken = permanent = 0
            for injury in c.injuries[injuries:]:  # a fight only adds injuries, after those it had
                taken += injury.amount
                permanent += injury.permanent
            gained = notches_gained(meters, c.meters)
            hardened = failed = 0
            for _, h, f in gained:
                hardened += h
                failed += f
            frozen = c.status == "active" and c.reaction is not None and c.reaction.kind == "freeze"
            row = (c.id, c.side, c.status, frozen, taken, dealt.get(c.id, 0), hardened, failed, permanent, gained)
            # made from a plain tuple: a batch makes these per fight (skips the generated __new__)
            ends.append(tuple.__new__(CombatantEnd, row))
        return tuple(ends)

    def max_rounds(self, table: Table) -> int:
        return table.limits.max_rounds


SCRIPT = Ua2Script()
