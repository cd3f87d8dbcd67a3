"""What a batch keeps of one fight: who won, after how many rounds, how each combatant ended."""

from __future__ import annotations

from typing import NamedTuple

from engine.simulate.fight import FightRun, Prepared
from engine.state.sheet import METERS, Meters


class CombatantEnd(NamedTuple):
    """One combatant at the end of a fight; notches are those gained in it."""

    id: str
    side: str
    status: str
    frozen: bool
    taken: int
    dealt: int
    hardened: int
    failed: int


class FightOutcome(NamedTuple):
    """A fight as the batch report counts it (the same whichever sink fought it). Named tuples:
    a batch makes one per fight, and they are the cheapest immutable records to build."""

    winner: str | None
    rounds: int
    events: int
    refusals: int
    combatants: tuple[CombatantEnd, ...]

    def score(self, side: str) -> tuple[int, int]:
        """How `side` did: (won 1 / draw 0 / lost −1, minus the wounds it took)."""
        outcome = 0 if self.winner is None else (1 if self.winner == side else -1)
        return outcome, -sum(c.taken for c in self.combatants if c.side == side)


def gained(now: Meters, before: Meters, kind: str) -> int:
    """Notches of a kind marked since `before`, over every meter."""
    return sum(getattr(now.of(m), kind) - getattr(before.of(m), kind) for m in METERS)


def outcome_of(prep: Prepared, run: FightRun) -> FightOutcome:
    """The outcome of a fight, read off its working table."""
    table = run.table
    start = {c.id: c.meters for c in prep.state.combatants}
    ends = []
    for c in table.rows:
        before = start[c.id]
        ends.append(
            CombatantEnd(
                id=c.id,
                side=c.side,
                status=c.status,
                frozen=c.status == "active" and c.reaction is not None and c.reaction.kind == "freeze",
                taken=sum(i.amount for i in c.injuries),
                dealt=run.dealt.get(c.id, 0),
                hardened=0 if c.meters is before else gained(c.meters, before, "hardened"),
                failed=0 if c.meters is before else gained(c.meters, before, "failed"),
            )
        )
    result = table.result
    return FightOutcome(
        winner=result.winner if result is not None else None,
        rounds=table.round,
        events=run.event_count,
        refusals=run.refusals,
        combatants=tuple(ends),
    )
