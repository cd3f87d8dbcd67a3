"""Rules every ruleset shares: starting an encounter, rulings, plain checks (C-*). They ask of a
working table only its version and its combatants by id."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from engine.commands.setup import RollCheck, Ruling, StartEncounter
from engine.dice.checks import roll_check
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.checks import CheckRolled
from engine.events.setup import EncounterStarted, GmRuling
from engine.rules.sink import Sink


class AnyTable(Protocol):
    """What the shared rules read of a ruleset's working table."""

    version: int

    @property
    def by_id(self) -> Mapping[str, Any]: ...


def require_started(t: AnyTable) -> None:
    if t.version == 0:
        raise Refused("the encounter has not started", hint="start it first")


def start(sink: Sink[Any], command: StartEncounter, dice: DiceSource) -> None:
    """The first event of every encounter (the ruleset was checked against the registry)."""
    if sink.table.version != 0:
        raise Refused("the encounter has already started")
    sink.emit(
        EncounterStarted(
            ruleset=command.ruleset,
            title=command.title,
            seed=command.seed,
            settings=command.settings,
            scenario=command.scenario,
        )
    )


def ruling(sink: Sink[Any], command: Ruling, dice: DiceSource) -> None:
    require_started(sink.table)
    if not command.note.strip():
        raise Refused("a ruling needs a note saying what was ruled")
    sink.emit(GmRuling(note=command.note, about=command.about))


def check(sink: Sink[Any], command: RollCheck, dice: DiceSource) -> None:
    t = sink.table
    require_started(t)
    if command.actor and command.actor not in t.by_id:
        raise Refused(f"no combatant {command.actor!r} in this encounter")
    spec = command.spec
    if command.flipped is not None and not spec.flip:
        raise Refused(
            "this check may not be flip-flopped",
            hint="only obsession or passion rolls flip (C-9, C-10)",
        )
    result = roll_check(spec, dice, flipped=command.flipped)
    sink.emit(CheckRolled(actor=command.actor, result=result, purpose=command.purpose))
