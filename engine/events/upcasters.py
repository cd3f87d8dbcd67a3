"""Upcasters: each turns a stored event of one schema version into the next (STYLE: schema
evolution). Registered on import; `engine.events.decode` applies them in order."""

from __future__ import annotations

from typing import Any

from engine.events import upcaster


@upcaster("command_recorded", 1, adds=("issued.scenario_document",))
def _command_recorded_v1_to_v2(raw: dict[str, Any]) -> dict[str, Any]:
    """v2 lets a `start` command carry the scenario document; a v1 record is a v2 one without it."""
    return raw


@upcaster("encounter_started", 1, adds=("scenario",))
def _encounter_started_v1_to_v2(raw: dict[str, Any]) -> dict[str, Any]:
    """v2 records the scenario file a session was set up from (for what-if forks); v1 had none."""
    return {**raw, "scenario": ""}
