"""The library API in one place: what a program needs to compute odds, resolve checks, run an
encounter by hand, simulate scenarios and read logs. Everything here is re-exported from the
modules that own it; the CLI is built on the same functions.

    from engine.api import odds, check, Session, simulate
    odds("major", 45)["matched_success"]                  # Fraction(1, 25): 4 of 100 rolls
    check("significant", 45, stat=60, dice=(5, 2)).outcome  # 'weak_success'
    report = simulate("scenarios/knife-vs-22.toml", n=1000, seed=7)
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import msgspec

from engine.commands import *  # noqa: F403  (every command type)
from engine.commands import Command
from engine.commands import ua3 as ua3_commands
from engine.dice.checks import OUTCOMES, CheckResult, CheckSpec, Kind, Shift, classify, resolve, roll_check
from engine.dice.odds import exact_odds, success_chance
from engine.dice.percentile import Percentile
from engine.dice.source import SeededDice, TableDice, derive_seed, face
from engine.dice.source import roll_percentile as roll
from engine.errors import (
    ConcurrencyConflict,
    CorruptLog,
    EngineError,
    InvalidInput,
    NotFound,
    OutOfOrder,
    OutputError,
    Refused,
    UnknownEventType,
)
from engine.events import Event, decode, encode
from engine.reducers import fold
from engine.rules.decide import decide, decide_and_fold
from engine.rules.ua2.creation import Finding, check_sheet
from engine.rules.ua3.samples import find_sample
from engine.rules.ua3.samples import samples as stress_check_samples
from engine.scenario.scenario import LoadedScenario, load_scenario
from engine.scenario.sheets import load_sheet
from engine.scenario.ua3_scenario import LoadedUa3Scenario, load_ua3_scenario
from engine.scenario.ua3_sheets import load_any_sheet, load_ua3_sheet
from engine.session.history import effective_fold
from engine.session.live import LiveEncounter, load_state, stored_events
from engine.session.replayfile import read_replay
from engine.session.verify import verify
from engine.settings import Settings
from engine.simulate.batch import batch_precision, run_batch
from engine.simulate.executors import Executor, open_executor
from engine.simulate.fight import FightRun, prepare, run_fight
from engine.simulate.precision import BATCH_FIGURES, most_fights
from engine.simulate.precision import precision_of as checked_precision
from engine.simulate.stats import summary
from engine.state.encounter import Combatant, Encounter
from engine.state.sheet import Sheet
from engine.state.ua3.encounter import Ua3Encounter
from engine.state.ua3.settings import Ua3Settings
from engine.state.ua3.sheet import Ua3Sheet
from engine.store.base import new_command_id
from engine.store.jsonl import JsonlStore, write_log
from engine.store.memory import MemoryStore
from engine.store.sqlite import SqliteStore

Session = LiveEncounter


def odds(
    kind: Kind,
    rating: int = 0,
    *,
    stat: int | None = None,
    untrained: bool = False,
    shifts: tuple[int | Shift, ...] = (),
    minimum: int | None = None,
    flip: bool = False,
) -> dict[str, Fraction]:
    """Exact probability of each outcome class (C-13) — what `ua odds` prints."""
    return {name: p for name, p in exact_odds(_spec(kind, rating, stat, untrained, shifts, minimum, flip)).items()}


def check(
    kind: Kind,
    rating: int = 0,
    *,
    stat: int | None = None,
    untrained: bool = False,
    shifts: tuple[int | Shift, ...] = (),
    minimum: int | None = None,
    flip: bool = False,
    dice: tuple[int, int] | None = None,
    seed: int | None = None,
    flipped: bool | None = None,
) -> CheckResult:
    """Resolve one check from dice rolled at the table (tens first) or a seed — what `ua check` does."""
    spec = _spec(kind, rating, stat, untrained, shifts, minimum, flip)
    if dice is not None and spec.automatic:  # dice given: the minor check was rolled for quality (C-3)
        spec = msgspec.structs.replace(spec, roll_anyway=True)
    source = TableDice(dice) if dice is not None else SeededDice(0 if seed is None else seed)
    return roll_check(spec, source, flipped=flipped)


def simulate(
    scenario: str | Path,
    n: int | None = None,
    seed: int = 0,
    *,
    workers: int = 1,
    executor: Executor | None = None,
    precision: float | None = None,
    precision_of: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """A batch of fights of a scenario: the report `ua simulate --json` prints. `executor`: where
    it runs (default: this process, or a local pool of `workers`), e.g. a Dask cluster:
    `with open_executor("dask", workers=2) as ex: simulate(path, executor=ex)`. `precision` and
    `precision_of` as `--precision` and `--precision-of` (`n`, default 10,000, is then the most:
    default 1,000,000)."""
    precise = checked_precision(precision, precision_of, BATCH_FIGURES, names=("precision", "precision_of"))
    most = most_fights(n, precise, 10_000)
    loaded = load_scenario(scenario)
    prep, tally, _ = run_batch(loaded, most, seed, workers=workers, executor=executor, precision=precise)
    if precise is None:
        return summary(prep, tally, seed=seed)
    return summary(prep, tally, seed=seed, requested=most, precision=batch_precision(prep, tally, precise, most))


def fight(scenario: str | Path, seed: int = 0, index: int = 0) -> FightRun:
    """Fight `index` of the batch with `seed`, its whole log kept — what `ua fight` narrates."""
    return run_fight(prepare(load_scenario(scenario)), derive_seed(seed, index), keep_log=True)


def _spec(
    kind: Kind,
    rating: int,
    stat: int | None,
    untrained: bool,
    shifts: tuple[int | Shift, ...],
    minimum: int | None,
    flip: bool,
) -> CheckSpec:
    named = tuple(s if isinstance(s, Shift) else Shift(f"shift #{i}", s) for i, s in enumerate(shifts, start=1))
    return CheckSpec(kind=kind, rating=rating, stat=stat, untrained=untrained, shifts=named, minimum=minimum, flip=flip)


__all__ = [
    "OUTCOMES",
    "CheckResult",
    "CheckSpec",
    "Combatant",
    "Command",
    "ConcurrencyConflict",
    "CorruptLog",
    "Encounter",
    "EngineError",
    "Event",
    "Executor",
    "FightRun",
    "Finding",
    "InvalidInput",
    "JsonlStore",
    "LiveEncounter",
    "LoadedScenario",
    "LoadedUa3Scenario",
    "MemoryStore",
    "NotFound",
    "OutOfOrder",
    "OutputError",
    "Percentile",
    "Refused",
    "SeededDice",
    "Session",
    "Settings",
    "Sheet",
    "Shift",
    "SqliteStore",
    "TableDice",
    "Ua3Encounter",
    "Ua3Settings",
    "Ua3Sheet",
    "UnknownEventType",
    "check",
    "check_sheet",
    "classify",
    "decide",
    "decide_and_fold",
    "decode",
    "derive_seed",
    "effective_fold",
    "encode",
    "exact_odds",
    "face",
    "fight",
    "find_sample",
    "fold",
    "load_any_sheet",
    "load_scenario",
    "load_sheet",
    "load_state",
    "load_ua3_scenario",
    "load_ua3_sheet",
    "new_command_id",
    "odds",
    "open_executor",
    "prepare",
    "read_replay",
    "resolve",
    "roll",
    "roll_check",
    "run_batch",
    "run_fight",
    "simulate",
    "stored_events",
    "stress_check_samples",
    "success_chance",
    "summary",
    "ua3_commands",
    "verify",
    "write_log",
]
