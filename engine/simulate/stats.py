"""Batch statistics: integer tallies that merge exactly (so any worker count gives the same
numbers), and the summary computed from them (rates with 95% Wilson intervals)."""

from __future__ import annotations

import math
from typing import Any

import msgspec

from engine.simulate.fight import Prepared
from engine.simulate.outcome import FightOutcome

STATUSES = ("active", "incapacitated", "unconscious", "dead", "fled", "surrendered")
Z95 = 1.959963984540054


class CombatantTally(msgspec.Struct, kw_only=True):
    statuses: dict[str, int] = msgspec.field(default_factory=dict)
    frozen: int = 0
    wounds_taken: int = 0
    wounds_dealt: int = 0
    hardened: int = 0
    failed: int = 0


class Tally(msgspec.Struct, kw_only=True):
    """Everything a batch reports, as integers; `merge` adds another tally in."""

    fights: int = 0
    wins: dict[str, int] = msgspec.field(default_factory=dict)
    draws: int = 0
    rounds: dict[int, int] = msgspec.field(default_factory=dict)
    combatants: dict[str, CombatantTally] = msgspec.field(default_factory=dict)
    endings: dict[str, int] = msgspec.field(default_factory=dict)
    events: int = 0
    refusals: int = 0

    def add(self, fight: FightOutcome) -> None:
        self.fights += 1
        if fight.winner is None:
            self.draws += 1
        else:
            self.wins[fight.winner] = self.wins.get(fight.winner, 0) + 1
        self.rounds[fight.rounds] = self.rounds.get(fight.rounds, 0) + 1
        self.events += fight.events
        self.refusals += fight.refusals
        for c in fight.combatants:
            t = self.combatants.setdefault(c.id, CombatantTally())
            t.statuses[c.status] = t.statuses.get(c.status, 0) + 1
            t.frozen += c.frozen
            t.wounds_taken += c.taken
            t.wounds_dealt += c.dealt
            t.hardened += c.hardened
            t.failed += c.failed
        key = ending_key(fight)
        self.endings[key] = self.endings.get(key, 0) + 1

    def merge(self, other: Tally) -> None:
        self.fights += other.fights
        self.draws += other.draws
        self.events += other.events
        self.refusals += other.refusals
        _add_counts(self.wins, other.wins)
        _add_counts(self.rounds, other.rounds)
        _add_counts(self.endings, other.endings)
        for cid, t in other.combatants.items():
            mine = self.combatants.setdefault(cid, CombatantTally())
            _add_counts(mine.statuses, t.statuses)
            mine.frozen += t.frozen
            mine.wounds_taken += t.wounds_taken
            mine.wounds_dealt += t.wounds_dealt
            mine.hardened += t.hardened
            mine.failed += t.failed


def _add_counts(into: dict[Any, int], other: dict[Any, int]) -> None:
    for k, v in other.items():
        into[k] = into.get(k, 0) + v


def ending_key(fight: FightOutcome) -> str:
    """`side gun wins: mara dead, vic active` — the shape of an ending, for counting."""
    head = f"side {fight.winner} wins" if fight.winner else "draw"
    parts = ", ".join(f"{c.id} {'frozen' if c.frozen else c.status}" for c in fight.combatants)
    return f"{head}: {parts}"


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _rate(count: int, n: int) -> dict[str, float]:
    low, high = wilson(count, n)
    return {"rate": round(count / n, 6) if n else 0.0, "ci95_low": round(low, 6), "ci95_high": round(high, 6)}


def median_of(hist: dict[int, int]) -> float:
    total = sum(hist.values())
    if total == 0:
        return 0.0
    ordered = sorted(hist.items())

    def nth(k: int) -> int:
        seen = 0
        for value, count in ordered:
            seen += count
            if seen > k:
                return value
        return ordered[-1][0]

    return (nth((total - 1) // 2) + nth(total // 2)) / 2


def summary(prep: Prepared, tally: Tally, *, seed: int) -> dict[str, Any]:
    """The report of a batch: stable keys, numbers rounded to 6 places."""
    n = tally.fights
    sides = prep.scenario.sides
    rounds_total = sum(r * c for r, c in tally.rounds.items())
    top = sorted(tally.endings.items(), key=lambda kv: (-kv[1], kv[0]))
    combatants = {}
    for f in prep.scenario.fighters:
        t = tally.combatants.get(f.id, CombatantTally())
        statuses = {s: t.statuses.get(s, 0) for s in STATUSES}
        combatants[f.id] = {
            "side": f.side,
            "survival": _rate(n - statuses["dead"], n),
            "incapacitated": _rate(statuses["incapacitated"] + statuses["unconscious"], n),
            "dead": _rate(statuses["dead"], n),
            "fled": _rate(statuses["fled"], n),
            "surrendered": _rate(statuses["surrendered"], n),
            "frozen_at_end": _rate(t.frozen, n),
            "wounds_dealt_mean": round(t.wounds_dealt / n, 6) if n else 0.0,
            "wounds_taken_mean": round(t.wounds_taken / n, 6) if n else 0.0,
            "hardened_notches_mean": round(t.hardened / n, 6) if n else 0.0,
            "failed_notches_mean": round(t.failed / n, 6) if n else 0.0,
        }
    return {
        "scenario": prep.scenario.scenario.title,
        "file": prep.scenario.path,
        "seed": seed,
        "fights": n,
        "sides": {side: {"wins": tally.wins.get(side, 0), **_rate(tally.wins.get(side, 0), n)} for side in sides},
        "draws": {"count": tally.draws, **_rate(tally.draws, n)},
        "rounds": {
            "mean": round(rounds_total / n, 6) if n else 0.0,
            "median": median_of(tally.rounds),
            "min": min(tally.rounds) if tally.rounds else 0,
            "max": max(tally.rounds) if tally.rounds else 0,
            "distribution": {str(r): c for r, c in sorted(tally.rounds.items())},
        },
        "combatants": combatants,
        "most_common_ending": {"ending": top[0][0], "count": top[0][1], **_rate(top[0][1], n)} if top else None,
        "endings": [{"ending": k, "count": c} for k, c in top[:10]],
        "events": tally.events,
        "refused_commands": tally.refusals,
    }
