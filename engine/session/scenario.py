"""The scenario a session was set up from, as the session's own log stores it (the start command's
`scenario_document`): what-if forks read their tactics there, never from a file a log names."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from engine.commands import StartEncounter
from engine.errors import InvalidInput
from engine.events.commands import CommandRecorded
from engine.scenario.scenario import LoadedScenario, scenario_from_document
from engine.session.history import Record


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
