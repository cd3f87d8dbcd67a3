"""The scenario a session is set up from (`setup_commands`), and as the session's own log stores it
(the start command's `scenario_document`): what-if forks read their tactics there, never from a
file a log names."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import msgspec

from engine.commands import StartEncounter
from engine.commands.base import CommandBase
from engine.errors import InvalidInput
from engine.events.commands import CommandRecorded
from engine.scenario.scenario import LoadedScenario, scenario_document, scenario_from_document
from engine.session.history import Record

if TYPE_CHECKING:
    from engine.scenario.ua3_scenario import LoadedUa3Scenario


def stored_scenario(records: Iterable[Record], *, where: str) -> LoadedScenario:
    """The scenario of the last start command among `records`, checked as a file would be;
    `InvalidInput` when the session was not started from one. `where` names the session."""
    found: tuple[int, StartEncounter] | None = None
    for position, event in records:
        if isinstance(event, CommandRecorded) and isinstance(event.issued, StartEncounter):
            found = position, event.issued
    if found is None or isinstance(found[1].scenario_document, msgspec.UnsetType):
        raise InvalidInput(
            "this session's log holds no scenario, so no tactics are known",
            where=where,
            hint="sessions started with --scenario keep theirs; or name one: --scenario FILE",
        )
    position, start = found
    document = start.scenario_document
    return scenario_from_document(document, where=f"{where} event {position}")


def setup_commands(
    loaded: LoadedScenario | LoadedUa3Scenario,
    *,
    title: str = "",
    seed: int,
    scenario: str,
    players: tuple[str, ...] | msgspec.UnsetType = msgspec.UNSET,
) -> list[CommandBase]:
    """The commands that set a session up from a loaded scenario of either ruleset: the start,
    which stores the scenario itself (forks read their tactics there) and `scenario`, where it
    came from (a file, `shipped:NAME`, `posted`); then each combatant joining. `players`: who
    players run (unset: the scenario's players' side)."""
    from engine.scenario.ua3_scenario import LoadedUa3Scenario, ua3_scenario_document

    start: StartEncounter
    if isinstance(loaded, LoadedUa3Scenario):
        start = StartEncounter(
            ruleset="ua3",
            title=title or loaded.scenario.title,
            seed=seed,
            settings=loaded.settings,
            scenario=scenario,
            scenario_document=ua3_scenario_document(loaded),
            players=players,
        )
    else:
        start = StartEncounter(
            title=title or loaded.scenario.title,
            seed=seed,
            settings=loaded.settings,
            scenario=scenario,
            scenario_document=scenario_document(loaded),
            players=players,
        )
    return [start, *(c for f in loaded.fighters for c in f.enters())]
