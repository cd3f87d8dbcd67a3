"""The shipped scenarios: listed, and each as one document to change and post back."""

from __future__ import annotations

from litestar import Router, get
from litestar.params import FromPath

from engine.errors import EngineError
from engine.service import bodies, models


@get("/", sync_to_thread=True, summary="List the shipped scenarios")
def list_scenarios() -> models.ShippedScenarios:
    """The shipped scenarios, by name (what `scenario.name` takes)."""
    out = []
    for name in bodies.shipped_names():
        try:
            loaded = bodies.load_any_source(models.ScenarioSource(name=name))
        except EngineError:
            continue
        out.append(
            models.ShippedScenario(
                name=name,
                title=loaded.scenario.title,
                ruleset=loaded.scenario.ruleset,
                description=loaded.scenario.description,
                combatants=[f.id for f in loaded.fighters],
            )
        )
    return models.ShippedScenarios(scenarios=out)


@get("/{name:str}", sync_to_thread=True, summary="Get a shipped scenario")
def shipped_scenario(name: FromPath[str]) -> models.ShippedDocument:
    """A shipped scenario as one document (its sheets inline), to change and post back."""
    return models.ShippedDocument(name=name, document=bodies.inlined(name))


@get("/{folder:str}/{name:str}", sync_to_thread=True, summary="Get a shipped scenario of a ruleset's folder")
def shipped_scenario_in(folder: FromPath[str], name: FromPath[str]) -> models.ShippedDocument:
    """A shipped scenario of a ruleset's own folder (`ua3/the-hollow-church`), as one document."""
    return models.ShippedDocument(name=f"{folder}/{name}", document=bodies.inlined(f"{folder}/{name}"))


ROUTER = Router(
    path="/scenarios", route_handlers=[list_scenarios, shipped_scenario, shipped_scenario_in], tags=["scenarios"]
)
