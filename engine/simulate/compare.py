"""Variants of a scenario fought on the same fight seeds (common random numbers): fight i of
every variant uses derive(seed, i), so a difference between variants is measured fight by fight.

Each chunk keeps, per variant, its tally, and per variant after the first, the integer sums
(n, Σd, Σd²) of the per-fight difference d ∈ {−1, 0, 1} against the first variant in the
players' win and in someone of the players dying. The 95% interval of a difference comes from
those paired differences: narrower than two independent runs of the same size whenever the
variants' fights go alike (they share their dice), and merged exactly across workers. A
comparison is a job (`CompareJob`) like a batch, so it runs on the same executors.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import msgspec

from engine.collector import collection_paused
from engine.dice.source import derive_seed
from engine.scenario.scenario import LoadedScenario
from engine.simulate.batch import Fights, check_size
from engine.simulate.executors import Executor
from engine.simulate.fight import prepare
from engine.simulate.identity import engine_identity
from engine.simulate.outcome import FightOutcome
from engine.simulate.precision import Interval, Precision, outcome, run_until
from engine.simulate.spans import Runner
from engine.simulate.stats import Z95, Tally, percent, summary

#: The figures compared, per fight, for the players' side.
METRICS = ("win", "someone_dies")


class Variant(msgspec.Struct, frozen=True, kw_only=True):
    """One arm of a comparison: a name, the scenario as changed, and (in a sweep) the value."""

    name: str
    loaded: LoadedScenario
    changes: tuple[str, ...] = ()
    value: Any = None


class Paired(msgspec.Struct, kw_only=True):
    """Sums of the per-fight differences against the first variant (integers: exact merges)."""

    n: int = 0
    sums: dict[str, int] = msgspec.field(default_factory=dict)
    squares: dict[str, int] = msgspec.field(default_factory=dict)

    def merge(self, other: Paired) -> None:
        self.n += other.n
        for metric in METRICS:
            self.sums[metric] = self.sums.get(metric, 0) + other.sums.get(metric, 0)
            self.squares[metric] = self.squares.get(metric, 0) + other.squares.get(metric, 0)


class CompareChunk(msgspec.Struct, kw_only=True):
    tallies: list[Tally]
    paired: list[Paired]


def players_figures(fight: FightOutcome, players: str) -> tuple[int, int]:
    """(the players' side won, someone of it died) as 0/1."""
    dies = any(c.side == players and c.status == "dead" for c in fight.combatants)
    return int(fight.winner == players), int(dies)


def compare_chunk(fights: Sequence[Fights], seed: int, start: int, stop: int) -> CompareChunk:
    tallies = [Tally() for _ in fights]
    paired = [Paired() for _ in fights[1:]]
    players = [f.prep.scenario.players for f in fights]
    sums = [[0, 0] for _ in paired]
    squares = [[0, 0] for _ in paired]
    with collection_paused():
        for i in range(start, stop):
            seed_i = derive_seed(seed, i)
            base = (0, 0)
            for k, f in enumerate(fights):
                outcome = f.outcome(seed_i)
                tallies[k].add(outcome)
                figures = players_figures(outcome, players[k])
                if k == 0:
                    base = figures
                    continue
                for m in range(2):
                    d = figures[m] - base[m]
                    sums[k - 1][m] += d
                    squares[k - 1][m] += d * d
    for p, s, q in zip(paired, sums, squares, strict=True):
        p.n = stop - start
        p.sums = dict(zip(METRICS, s, strict=True))
        p.squares = dict(zip(METRICS, q, strict=True))
    return CompareChunk(tallies=tallies, paired=paired)


class CompareJob(msgspec.Struct, frozen=True, kw_only=True):
    """A comparison's work as a value any executor runs: every variant's resolved scenario, the
    seed they share, the options and the engine that made it."""

    variants: tuple[LoadedScenario, ...]
    seed: int
    fast: bool = True
    engine: str = msgspec.field(default_factory=engine_identity)

    def open(self) -> Runner:
        """A worker's setup, once per comparison: each variant's prepared fights."""
        fights = [Fights(prepare(loaded), fast=self.fast) for loaded in self.variants]
        seed = self.seed
        return lambda first, stop: compare_chunk(fights, seed, first, stop)


def paired_interval(n: int, total: int, squares: int) -> tuple[float, float, float]:
    """(mean difference, 95% low, 95% high) from n, Σd and Σd² of paired differences."""
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    if n < 2:
        return mean, mean, mean
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = Z95 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def independent_interval(p_a: float, p_b: float, n: int) -> tuple[float, float]:
    """The 95% interval of p_b − p_a as two independent runs of n fights each would give it."""
    if n == 0:
        return 0.0, 0.0
    half = Z95 * math.sqrt((p_a * (1 - p_a) + p_b * (1 - p_b)) / n)
    return p_b - p_a - half, p_b - p_a + half


def run_compare(
    variants: Sequence[Variant],
    n: int,
    seed: int,
    *,
    workers: int = 1,
    fast: bool = True,
    progress: Callable[[int], None] | None = None,
    interruptible: bool = False,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    sampled: Callable[[float], object] | None = None,
    precision: Precision | None = None,
) -> tuple[list[Tally], list[Paired]]:
    """Fight 0…n−1 of every variant with the same seeds; the tallies and the paired sums.
    `executor`, `chunk_size` and `sampled` as for `run_batch`; `precision`: stop at the first
    checkpoint where every paired difference asked about is precise enough."""
    check_size(n, workers)
    tallies = [Tally() for _ in variants]
    paired = [Paired() for _ in variants[1:]]

    def merge(result: CompareChunk) -> None:
        for mine, theirs in zip(tallies, result.tallies, strict=True):
            mine.merge(theirs)
        for mine_p, theirs_p in zip(paired, result.paired, strict=True):
            mine_p.merge(theirs_p)

    job = CompareJob(variants=tuple(v.loaded for v in variants), seed=seed, fast=fast)

    def met(precision: Precision) -> bool:
        return precision.met(i for _, i in paired_intervals(variants, paired, precision))

    stop = None if precision is None else partial(met, precision)
    run_until(job, n, merge, stop, executor=executor, workers=workers, progress=progress, interruptible=interruptible,
              chunk_size=chunk_size, sampled=sampled)
    return tallies, paired


#: What `--precision-of` may name in a comparison: the paired differences it reports (→ METRICS).
PAIRED_FIGURES = {"win": "win", "dies": "someone_dies"}
COMPARE_FIGURES = {"win": "the difference in the players' win", "dies": "the difference in someone on their side dying"}


def paired_intervals(
    variants: Sequence[Variant], paired: Sequence[Paired], precision: Precision
) -> list[tuple[dict[str, Any], Interval]]:
    """The 95% interval of each paired difference `precision` is about, named by variant and figure."""
    out = []
    for v, pair in zip(variants[1:], paired, strict=True):
        for figure in precision.figures:
            metric = PAIRED_FIGURES[figure]
            _, low, high = paired_interval(pair.n, pair.sums.get(metric, 0), pair.squares.get(metric, 0))
            out.append(({"variant": v.name, "figure": figure}, (low, high)))
    return out


def compare_precision(
    variants: Sequence[Variant], paired: Sequence[Paired], precision: Precision, fights: int, most: int
) -> dict[str, Any]:
    """The report's `precision` for a comparison of at most `most` fights a variant."""
    return outcome(precision, paired_intervals(variants, paired, precision), fights, most)


def _players_rate(report: dict[str, Any], metric: str) -> float:
    side = report["sides"][report["players"]]
    rate: float = (side if metric == "win" else side[metric])["rate"]
    return rate


def _difference(base: dict[str, Any], other: dict[str, Any], pair: Paired, metric: str) -> dict[str, Any]:
    mean, low, high = paired_interval(pair.n, pair.sums.get(metric, 0), pair.squares.get(metric, 0))
    lo_i, hi_i = independent_interval(_players_rate(base, metric), _players_rate(other, metric), pair.n)
    return {
        "difference": round(mean, 6),
        "ci95_low": round(low, 6),
        "ci95_high": round(high, 6),
        "independent_ci95_low": round(lo_i, 6),
        "independent_ci95_high": round(hi_i, 6),
    }


def _pct(r: dict[str, float]) -> str:
    return percent(r["rate"])


def points(x: float) -> str:
    """A difference of rates in percentage points: `+4.1`."""
    return f"{100 * x:+.1f}"


def comparison(
    variants: Sequence[Variant],
    tallies: Sequence[Tally],
    paired: Sequence[Paired],
    *,
    seed: int,
    requested: int,
    sweep: str | None = None,
    precision: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The report of a comparison or sweep: each variant's figures for the players' side, its
    full batch report, and each later variant's difference from the first with paired intervals.
    `precision`: how a precise run stopped (then fewer fights than `requested` is not partial)."""
    reached = precision is not None and precision["reached"]
    reports = [
        summary(prepare(v.loaded), t, seed=seed, requested=t.fights if reached else requested)
        for v, t in zip(variants, tallies, strict=True)
    ]
    arms = []
    for v, r in zip(variants, reports, strict=True):
        side = r["sides"][r["players"]]
        arms.append(
            {
                "name": v.name,
                "file": v.loaded.path,
                "changes": list(v.changes),
                "value": v.value,
                "players": r["players"],
                "win": {k: side[k] for k in ("rate", "ci95_low", "ci95_high")},
                "someone_dies": side["someone_dies"],
                "all_down": side["all_down"],
                "draws": {k: r["draws"][k] for k in ("rate", "ci95_low", "ci95_high")},
                "rounds_mean": r["rounds"]["mean"],
                "refused_fights": r["refusals"]["fights"],
                "report": r,
            }
        )
    base = reports[0]
    differences = []
    lines = []
    for v, r, pair in zip(variants[1:], reports[1:], paired, strict=True):
        diff = {m: _difference(base, r, pair, m) for m in METRICS}
        differences.append({"variant": v.name, "against": variants[0].name, **diff})
        win, dies = diff["win"], diff["someone_dies"]
        lines.append(
            f"{v.name} against {variants[0].name}: your side wins {points(win['difference'])} points "
            f"[{points(win['ci95_low'])} to {points(win['ci95_high'])}]; someone on it dies "
            f"{points(dies['difference'])} points [{points(dies['ci95_low'])} to {points(dies['ci95_high'])}]."
        )
    if sweep is not None and len(arms) > 1:
        first, last = arms[0], arms[-1]
        lines = [
            f"As {sweep} goes from {first['value']} to {last['value']}, your side wins "
            f"{_pct(first['win'])} → {_pct(last['win'])} of fights and someone on it dies "
            f"{_pct(first['someone_dies'])} → {_pct(last['someone_dies'])}."
        ]
    n = tallies[0].fights
    return {
        "seed": seed,
        "fights": n,
        "requested": requested,
        "partial": n < requested and not reached,
        **({} if precision is None else {"precision": precision}),
        "sweep": sweep,
        "variants": arms,
        "differences": differences,
        "headlines": lines,
        "warnings": [f"{a['name']}: {w}" for a in arms for w in a["report"]["warnings"]],
    }
