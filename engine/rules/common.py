"""Rules every ruleset shares: starting an encounter, rulings, plain checks (C-*). They ask of a
working table only its version and its combatants by id."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from engine.commands.setup import RollCheck, Ruling, StartEncounter
from engine.dice.checks import roll_check
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.checks import CheckRolled
from engine.events.setup import EncounterStarted, GmRuling
from engine.rules.settings import read_settings
from engine.rules.sink import Sink, TableBase

E = TypeVar("E")


def require_started(t: TableBase) -> None:
    if t.version == 0:
        raise Refused("the encounter has not started", hint="start it first")


def helpless_at_setup(t: Any, actor: str, *, already: bool) -> Any:
    """C2-33, U-22: the row of `actor`, who may start the fight helpless — the fight not begun,
    the combatant known, standing and neither helpless nor reacting yet (`already`: its
    edition's own flag for that) — or `Refused`."""
    require_started(t)
    if t.phase != "setup":
        raise Refused("a starting condition is set before the fight begins", hint="a GM ruling, once it runs")
    row = t.by_id.get(actor)
    if row is None:
        raise Refused(f"no combatant {actor!r} in this encounter", hint=f"combatants: {', '.join(t.by_id)}")
    if row.status != "active" or already or row.reaction is not None:
        raise Refused(f"{row.id} already starts {row.status if row.status != 'active' else 'helpless or reacting'}")
    return row


def starter(settings_type: type[Any]) -> Callable[[Sink[Any], StartEncounter, DiceSource], None]:
    """The rule starting an encounter of a ruleset whose settings are `settings_type`."""

    def start(sink: Sink[Any], command: StartEncounter, dice: DiceSource) -> None:
        """The first event of every encounter (the ruleset was checked against the registry);
        its settings as given (fields left out take the ruleset's defaults), refused when the
        ruleset cannot read them."""
        if sink.table.version != 0:
            raise Refused("the encounter has already started")
        read_settings(command.settings, settings_type)
        sink.emit(
            EncounterStarted(
                ruleset=command.ruleset,
                title=command.title,
                seed=command.seed,
                settings=command.settings,
                scenario=command.scenario,
            )
        )

    return start


def ruling_note(sink: Sink[Any], command: Ruling) -> None:
    """A ruling's note, first of its events (what its effects, if any, follow)."""
    require_started(sink.table)
    if not command.note.strip():
        raise Refused("a ruling needs a note saying what was ruled", hint="give --note TEXT")
    sink.emit(GmRuling(note=command.note, about=command.about))


def each_effect(entries: Sequence[E], field: str, apply: Callable[[E], None]) -> None:
    """`apply` each of a ruling's `field` entries in order; a refusal names the entry it is
    about (`$.wounds[0]`)."""
    for i, entry in enumerate(entries):
        try:
            apply(entry)
        except Refused as refused:
            raise Refused(refused.message, where=f"$.{field}[{i}]", hint=refused.hint) from None


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
    result = roll_check(spec, dice, flipped=command.flipped, who=command.actor)
    sink.emit(CheckRolled(actor=command.actor, result=result, purpose=command.purpose))
