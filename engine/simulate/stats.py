"""Batch statistics: integer tallies that merge exactly (so any worker count gives the same
numbers), and the summary computed from them (rates with 95% Wilson intervals)."""

from __future__ import annotations

import math
from typing import Any

import msgspec

from engine.scenario.scenario import Fighter
from engine.simulate.fight import Prepared
from engine.simulate.outcome import DOWN, FightOutcome
from engine.state.sheet import METERS

STATUSES = ("active", "incapacitated", "unconscious", "dead", "fled", "surrendered")
Z95 = 1.959963984540054
#: Refusal reasons and endings shown in the tables (JSON has them all).
TOP_REASONS = 5
TOP_ENDINGS = 10


class MeterTally(msgspec.Struct, kw_only=True):
    """One madness meter of one combatant: fights with a failed notch, notches gained."""

    failed_fights: int = 0
    hardened: int = 0
    failed: int = 0


class CombatantTally(msgspec.Struct, kw_only=True):
    """What is counted per combatant (statuses come from the endings)."""

    wounds_dealt: int = 0
    #: wounds taken in a fight → fights (a histogram: means and percentiles merge exactly)
    wounds: dict[int, int] = msgspec.field(default_factory=dict)
    #: fights with at least one permanent injury (C2-32)
    permanent: int = 0
    meters: dict[str, MeterTally] = msgspec.field(default_factory=dict)

    @property
    def wounds_taken(self) -> int:
        return sum(w * c for w, c in self.wounds.items())


#: An ending: the winner (None: a draw), each combatant's status ("frozen" when frozen and
#: standing), in the order of `Tally.ids`, and who took permanent damage (empty when nobody did).
Ending = tuple[str | None, tuple[str, ...], tuple[bool, ...]]


class Tally(msgspec.Struct, kw_only=True):
    """Everything a batch reports, as integers; `merge` adds another tally in. Every figure about
    the combination of combatants in one fight (who died, whether a whole side is down) is read
    from the endings, so a fight costs one key."""

    fights: int = 0
    wins: dict[str, int] = msgspec.field(default_factory=dict)
    draws: int = 0
    rounds: dict[int, int] = msgspec.field(default_factory=dict)
    combatants: dict[str, CombatantTally] = msgspec.field(default_factory=dict)
    endings: dict[Ending, int] = msgspec.field(default_factory=dict)
    #: The combatants of the endings, in order (every fight of a batch has the same).
    ids: tuple[str, ...] = ()
    events: int = 0
    refusals: int = 0
    #: Fights with at least one refused command, and per reason the fights that had it.
    refused_fights: int = 0
    reasons: dict[str, int] = msgspec.field(default_factory=dict)

    def add(self, fight: FightOutcome) -> None:
        self.fights += 1
        winner = fight.winner
        if winner is None:
            self.draws += 1
        else:
            self.wins[winner] = self.wins.get(winner, 0) + 1
        self.rounds[fight.rounds] = self.rounds.get(fight.rounds, 0) + 1
        self.events += fight.events
        if fight.refusals:
            self.refusals += fight.refusals
            self.refused_fights += 1
            for reason in set(fight.reasons):
                self.reasons[reason] = self.reasons.get(reason, 0) + 1
        ends = fight.combatants
        if not self.ids:
            self.ids = tuple(c.id for c in ends)
        tallies = self.combatants
        permanent = False
        for c in ends:
            t = tallies.get(c.id)
            if t is None:
                t = tallies[c.id] = CombatantTally()
            t.wounds[c.taken] = t.wounds.get(c.taken, 0) + 1
            t.wounds_dealt += c.dealt
            if c.permanent:
                t.permanent += 1
                permanent = True
            for meter, hardened, failed in c.notches:
                m = t.meters.get(meter)
                if m is None:
                    m = t.meters[meter] = MeterTally()
                m.hardened += hardened
                m.failed += failed
                m.failed_fights += failed > 0
        key = (
            winner,
            tuple(["frozen" if c.frozen else c.status for c in ends]),
            tuple([c.permanent > 0 for c in ends]) if permanent else (),
        )
        self.endings[key] = self.endings.get(key, 0) + 1

    def merge(self, other: Tally) -> None:
        self.fights += other.fights
        self.draws += other.draws
        self.events += other.events
        self.refusals += other.refusals
        self.refused_fights += other.refused_fights
        self.ids = self.ids or other.ids
        _add_counts(self.wins, other.wins)
        _add_counts(self.rounds, other.rounds)
        _add_counts(self.endings, other.endings)
        _add_counts(self.reasons, other.reasons)
        for cid, t in other.combatants.items():
            mine = self.combatants.setdefault(cid, CombatantTally())
            _add_counts(mine.wounds, t.wounds)
            mine.wounds_dealt += t.wounds_dealt
            mine.permanent += t.permanent
            for name, m in t.meters.items():
                into = mine.meters.setdefault(name, MeterTally())
                into.failed_fights += m.failed_fights
                into.hardened += m.hardened
                into.failed += m.failed


def _add_counts(into: dict[Any, int], other: dict[Any, int]) -> None:
    for k, v in other.items():
        into[k] = into.get(k, 0) + v


def ending_text(ids: tuple[str, ...], ending: Ending) -> str:
    """`side gun wins: mara dead, vic active` — the shape of an ending, for counting."""
    winner, statuses, _ = ending
    head = f"side {winner} wins" if winner else "draw"
    return f"{head}: {', '.join(f'{cid} {status}' for cid, status in zip(ids, statuses, strict=True))}"


class _Joint(msgspec.Struct, kw_only=True):
    """What the endings say, per combatant (statuses) and per side (someone dead, all down, out
    of the fight with someone fled or otherwise, anyone permanently hurt)."""

    statuses: dict[str, dict[str, int]]
    someone_dead: dict[str, int]
    all_down: dict[str, int]
    out_fled: dict[str, int]
    out_other: dict[str, int]
    permanent: dict[str, int]
    texts: dict[str, int]


def side_end(statuses: list[str]) -> str | None:
    """How a side ended a fight when nobody on it is still active: "down" (every member dead,
    incapacitated or unconscious), "fled" (the rest down), "other" (someone surrendered, or is
    frozen with the rest out); None while one of them is active."""
    if all(s in DOWN for s in statuses):
        return "down"
    if "active" in statuses:
        return None
    return "fled" if all(s in DOWN or s == "fled" for s in statuses) else "other"


def _joint(tally: Tally, side_of: dict[str, str]) -> _Joint:
    ids = tally.ids
    joint = _Joint(
        statuses={cid: {} for cid in ids},
        someone_dead={},
        all_down={},
        out_fled={},
        out_other={},
        permanent={},
        texts={},
    )
    sides = [side_of.get(cid, "") for cid in ids]
    for ending, count in tally.endings.items():
        _, statuses, hurt = ending
        text = ending_text(ids, ending)
        joint.texts[text] = joint.texts.get(text, 0) + count
        of_side: dict[str, list[str]] = {}
        for cid, side, status in zip(ids, sides, statuses, strict=True):
            counts = joint.statuses[cid]
            counts[status] = counts.get(status, 0) + count
            of_side.setdefault(side, []).append(status)
        for side, members in of_side.items():
            if "dead" in members:
                joint.someone_dead[side] = joint.someone_dead.get(side, 0) + count
            end = side_end(members)
            if end is not None:
                into = {"down": joint.all_down, "fled": joint.out_fled, "other": joint.out_other}[end]
                into[side] = into.get(side, 0) + count
        for side in {side for side, h in zip(sides, hurt, strict=False) if h}:
            joint.permanent[side] = joint.permanent.get(side, 0) + count
    return joint


def players_counts(prep: Prepared, tally: Tally) -> dict[str, int]:
    """The fights in which the players' side won, lost someone dead, was all down; and the draws
    (what `--precision-of` names win, dies, down and draw)."""
    joint = _joint(tally, {f.id: f.side for f in prep.scenario.fighters})
    players = prep.scenario.players
    return {
        "win": tally.wins.get(players, 0),
        "dies": joint.someone_dead.get(players, 0),
        "down": joint.all_down.get(players, 0),
        "draw": tally.draws,
    }


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    # at 0 or n successes the bound is exactly 0 or 1 (rounding leaves a speck: 2e-19 above 0)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    return low, 1.0 if successes == n else min(1.0, centre + half)


def rate(count: int, n: int) -> dict[str, float]:
    """A proportion and its 95% Wilson interval, rounded to 6 places."""
    low, high = wilson(count, n)
    return {"rate": round(count / n, 6) if n else 0.0, "ci95_low": round(low, 6), "ci95_high": round(high, 6)}


def _mean(total: int, n: int) -> float:
    return round(total / n, 6) if n else 0.0


def _nth(ordered: list[tuple[int, int]], k: int) -> int:
    """The k-th smallest value (from 0) of a sorted histogram."""
    seen = 0
    for value, count in ordered:
        seen += count
        if seen > k:
            return value
    return ordered[-1][0]


def median_of(hist: dict[int, int]) -> float:
    total = sum(hist.values())
    if total == 0:
        return 0.0
    ordered = sorted(hist.items())
    return (_nth(ordered, (total - 1) // 2) + _nth(ordered, total // 2)) / 2


def percentile_of(hist: dict[int, int], q: float) -> int:
    """The nearest-rank q-quantile of a histogram: the smallest value with at least q of the
    fights at or below it."""
    total = sum(hist.values())
    if total == 0:
        return 0
    return _nth(sorted(hist.items()), max(0, math.ceil(q * total) - 1))


def _middling(x: float) -> bool:
    return 0.095 <= x < 0.905


def percent(x: float) -> str:
    """A rate for a sentence: whole percents between 10% and 90%, one decimal outside."""
    return f"{x:.0%}" if x in (0.0, 1.0) or _middling(x) else f"{x:.1%}"


def interval(r: dict[str, float]) -> str:
    """`31% [30–32%]`, `96.0% [95.1–96.8%]`: the bounds as precise as the rate."""
    places = 0 if _middling(r["rate"]) else 1
    low, high = (f"{100 * r[k]:.{places}f}" for k in ("ci95_low", "ci95_high"))
    return f"{percent(r['rate'])} [{low}–{high}%]"


def headline(players: str, side: dict[str, Any]) -> str:
    """The one sentence the report opens with, about the players' side: how it ends out of the
    fight says fled and surrendered apart from down, where any of them happened."""
    out = f"everyone on it is down in {interval(side['all_down'])}"
    if side["out_fled"]["rate"]:
        out += f", out of the fight with someone fled in {interval(side['out_fled'])}"
    if side["out_other"]["rate"]:
        out += f", out with someone surrendered or frozen in {interval(side['out_other'])}"
    dies = interval(side["someone_dies"])
    return f"Someone on your side ({players}) dies in {dies} of fights; {out}; it wins {interval(side)}."


def _sides(prep: Prepared, tally: Tally, joint: _Joint, n: int) -> dict[str, Any]:
    out = {}
    for side in prep.scenario.sides:
        wins = tally.wins.get(side, 0)
        out[side] = {
            "wins": wins,
            **rate(wins, n),
            "someone_dies": rate(joint.someone_dead.get(side, 0), n),
            "all_down": rate(joint.all_down.get(side, 0), n),
            "out_fled": rate(joint.out_fled.get(side, 0), n),
            "out_other": rate(joint.out_other.get(side, 0), n),
            "permanent_damage": rate(joint.permanent.get(side, 0), n),
        }
    return out


def _combatant(f: Fighter, t: CombatantTally, counted: dict[str, int], n: int) -> dict[str, Any]:
    statuses = {s: counted.get(s, 0) for s in STATUSES}
    meters = {}
    for name in METERS:
        m = t.meters.get(name, MeterTally())
        meters[name] = {
            "failed_at_least_once": rate(m.failed_fights, n),
            "hardened_notches_mean": _mean(m.hardened, n),
            "failed_notches_mean": _mean(m.failed, n),
            "notches_mean": _mean(m.hardened + m.failed, n),
        }
    return {
        "side": f.side,
        "survival": rate(n - statuses["dead"], n),
        "incapacitated": rate(statuses["incapacitated"] + statuses["unconscious"], n),
        "dead": rate(statuses["dead"], n),
        "fled": rate(statuses["fled"], n),
        "surrendered": rate(statuses["surrendered"], n),
        "frozen_at_end": rate(counted.get("frozen", 0), n),
        "wounds_dealt_mean": _mean(t.wounds_dealt, n),
        "wounds_taken_mean": _mean(t.wounds_taken, n),
        "hardened_notches_mean": _mean(sum(m.hardened for m in t.meters.values()), n),
        "failed_notches_mean": _mean(sum(m.failed for m in t.meters.values()), n),
        "wounds_taken": {
            "median": median_of(t.wounds),
            "p90": percentile_of(t.wounds, 0.9),
            "max": max(t.wounds) if t.wounds else 0,
            "distribution": {str(w): c for w, c in sorted(t.wounds.items())},
        },
        "permanent_damage": rate(t.permanent, n),
        "meters": meters,
    }


def _refusals(tally: Tally, n: int) -> dict[str, Any]:
    reasons = sorted(tally.reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "fights": tally.refused_fights,
        **rate(tally.refused_fights, n),
        "commands": tally.refusals,
        "reasons": [{"reason": r, "fights": c, **rate(c, n)} for r, c in reasons],
    }


def _warnings(report: dict[str, Any]) -> list[str]:
    """What makes the numbers untrustworthy: refused commands, fights over before they began."""
    n = report["fights"]
    out = []
    refused = report["refusals"]
    if refused["fights"]:
        top = refused["reasons"][0]
        out.append(
            f"{refused['fights']:,} of {n:,} fights ({percent(refused['rate'])}) had refused commands "
            f"— a scenario or rules defect; the most common: {top['reason']!r} in {top['fights']:,} fights"
        )
    at_zero = report["rounds"]["distribution"].get("0", 0)
    if at_zero:
        out.append(f"{at_zero:,} of {n:,} fights ({percent(at_zero / n)}) ended at round 0, before anyone acted")
    return out


def _same_but_id(a: Fighter, b: Fighter) -> bool:
    same_sheet = msgspec.structs.replace(a.sheet, name=b.sheet.name) == b.sheet
    return same_sheet and msgspec.structs.replace(a, id=b.id, sheet=b.sheet) == b


def _notes(prep: Prepared, combatants: dict[str, Any]) -> list[str]:
    """Identical combatants whose figures differ more than chance explains, and why."""
    out = []
    fighters = prep.scenario.fighters
    for i, a in enumerate(fighters):
        for b in fighters[i + 1 :]:
            if not _same_but_id(a, b):
                continue
            ra, rb = combatants[a.id], combatants[b.id]
            for metric, what in (("dead", "dies"), ("incapacitated", "is incapacitated")):
                x, y = ra[metric], rb[metric]
                if x["ci95_low"] > y["ci95_high"] or y["ci95_low"] > x["ci95_high"]:
                    out.append(
                        f"{a.id} and {b.id} are identical, yet {a.id} {what} in {interval(x)} of fights and "
                        f"{b.id} in {interval(y)}: target selectors break ties by scenario order (nearest "
                        "takes the first listed, weakest, strongest and most_dangerous the first of equals), "
                        f"so {a.id}, listed first, is attacked first"
                    )
                    break
    return out


def summary(
    prep: Prepared,
    tally: Tally,
    *,
    seed: int,
    requested: int | None = None,
    from_event: int | None = None,
    precision: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The report of a batch: stable keys, numbers rounded to 6 places. `requested`: the fights
    asked for (fewer finished: the report is partial, unless `precision` was reached);
    `from_event`: a what-if's starting event; `precision`: how a precise run stopped."""
    n = tally.fights
    rounds_total = sum(r * c for r, c in tally.rounds.items())
    joint = _joint(tally, {f.id: f.side for f in prep.scenario.fighters})
    top = sorted(joint.texts.items(), key=lambda kv: (-kv[1], kv[0]))
    combatants = {
        f.id: _combatant(f, tally.combatants.get(f.id, CombatantTally()), joint.statuses.get(f.id, {}), n)
        for f in prep.scenario.fighters
    }
    sides = _sides(prep, tally, joint, n)
    players = prep.scenario.players
    report: dict[str, Any] = {
        "scenario": prep.scenario.scenario.title,
        "ruleset": prep.scenario.scenario.ruleset,
        "file": prep.scenario.path,
        "seed": seed,
        "fights": n,
        "requested": n if requested is None else requested,
        "partial": requested is not None and n < requested and not (precision and precision["reached"]),
        **({} if precision is None else {"precision": precision}),
        "from_event": from_event,
        "players": players,
        "headline": headline(players, sides[players]),
        "sides": sides,
        "draws": {"count": tally.draws, **rate(tally.draws, n)},
        "rounds": {
            "mean": _mean(rounds_total, n),
            "median": median_of(tally.rounds),
            "min": min(tally.rounds) if tally.rounds else 0,
            "max": max(tally.rounds) if tally.rounds else 0,
            "distribution": {str(r): c for r, c in sorted(tally.rounds.items())},
        },
        "combatants": combatants,
        "most_common_ending": {"ending": top[0][0], "count": top[0][1], **rate(top[0][1], n)} if top else None,
        "endings": [{"ending": k, "count": c, **rate(c, n)} for k, c in top],
        "events": tally.events,
        "refused_commands": tally.refusals,
        "refusals": _refusals(tally, n),
    }
    report["warnings"] = _warnings(report)
    report["notes"] = _notes(prep, combatants)
    return report
