"""What if: fight the rest of a session many times from one of its states, with the tactics of
the scenario the session was set up from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.errors import InvalidInput
from engine.scenario.scenario import load_scenario
from engine.simulate.batch import run_batch
from engine.simulate.stats import summary
from engine.state.encounter import Encounter


def fork_batch(
    state: Encounter,
    n: int,
    seed: int,
    *,
    workers: int = 1,
    from_event: int | None = None,
    interruptible: bool = False,
) -> dict[str, Any]:
    """The batch report (as `ua simulate` gives it) of `n` fights from `state` on."""
    if not state.scenario:
        raise InvalidInput(
            "this session was not set up from a scenario, so no tactics are known",
            hint="start sessions with --scenario to fork them",
        )
    if not Path(state.scenario).is_file():
        raise InvalidInput(f"the session's scenario {state.scenario} is gone", hint="restore the file to fork")
    loaded = load_scenario(state.scenario)
    scripted = {f.id for f in loaded.fighters}
    missing = [c.id for c in state.combatants if c.id not in scripted]
    if missing:
        raise InvalidInput(f"no tactics for {', '.join(missing)} in {state.scenario}")
    if state.fight.phase == "ended":
        raise InvalidInput("the fight is already over at that point", hint="fork from an earlier event")
    prep, tally, _ = run_batch(loaded, n, seed, workers=workers, start=state, interruptible=interruptible)
    return summary(prep, tally, seed=seed, requested=n, from_event=from_event)
