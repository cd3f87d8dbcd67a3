"""What if: fight the rest of a session many times from one of its states, with the tactics of
the scenario the session was set up from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import InvalidInput
from engine.scenario.scenario import LoadedScenario
from engine.simulate.batch import batch_precision, run_batch
from engine.simulate.executors import Executor
from engine.simulate.precision import Precision
from engine.simulate.stats import summary
from engine.state.encounter import Encounter


def fork_batch(
    state: Encounter,
    loaded: LoadedScenario,
    n: int,
    seed: int,
    *,
    workers: int = 1,
    from_event: int | None = None,
    interruptible: bool = False,
    progress: Callable[[int], None] | None = None,
    executor: Executor | None = None,
    precision: Precision | None = None,
) -> dict[str, Any]:
    """Fight on from `state` `n` times, each combatant on its tactics in `loaded`; the batch
    report as `ua simulate` gives it. `progress` is told the fights done after each chunk;
    `executor`: where (default: this process, or a local pool of `workers`); `precision`: stop
    once the players' figures are precise enough (`n` is then the most)."""
    scripted = {f.id for f in loaded.fighters}
    missing = [c.id for c in state.combatants if c.id not in scripted]
    if missing:
        raise InvalidInput(f"no tactics for {', '.join(missing)} in the scenario {loaded.path}")
    if state.fight.phase == "ended":
        raise InvalidInput("the fight is already over at that point", hint="fork from an earlier event")
    prep, tally, _ = run_batch(
        loaded,
        n,
        seed,
        workers=workers,
        start=state,
        interruptible=interruptible,
        progress=progress,
        executor=executor,
        precision=precision,
    )
    stop = None if precision is None else batch_precision(prep, tally, precision, n)
    return summary(prep, tally, seed=seed, requested=n, from_event=from_event, precision=stop)
