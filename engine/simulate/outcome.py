"""What a batch keeps of one fight: who won, after how many rounds, how each combatant ended."""

from __future__ import annotations

from typing import NamedTuple

from engine.simulate.fight import FightRun, Prepared
from engine.state.sheet import METERS, Meters

#: Statuses that count a combatant as down (C2-31): out of the fight without choosing to leave.
DOWN = frozenset(("dead", "incapacitated", "unconscious"))


class CombatantEnd(NamedTuple):
    """One combatant at the end of a fight; wounds, injuries and notches are those of this fight
    (not what the combatant brought to it)."""

    id: str
    side: str
    status: str
    frozen: bool
    taken: int
    dealt: int
    hardened: int
    failed: int
    #: Injuries of more than 50 in one blow (C2-32).
    permanent: int = 0
    #: (meter, hardened notches gained, failed notches gained) for each meter that changed.
    notches: tuple[tuple[str, int, int], ...] = ()


class FightOutcome(NamedTuple):
    """A fight as the batch report counts it (the same whichever sink fought it). Named tuples:
    a batch makes one per fight, and they are the cheapest immutable records to build."""

    winner: str | None
    rounds: int
    events: int
    refusals: int
    combatants: tuple[CombatantEnd, ...]
    #: The `Refused` message of each refused command (almost always none).
    reasons: tuple[str, ...] = ()

    def score(self, side: str) -> tuple[int, int, int]:
        """How `side` did, higher is better: won 1 / draw 0 / lost −1, then minus its dead, then
        minus the wounds it took (`--keep-which best|worst` ranks fights by this)."""
        outcome = 0 if self.winner is None else (1 if self.winner == side else -1)
        ours = [c for c in self.combatants if c.side == side]
        return outcome, -sum(c.status == "dead" for c in ours), -sum(c.taken for c in ours)


def notches_gained(before: Meters, after: Meters) -> tuple[tuple[str, int, int], ...]:
    """Per meter, the notches `after` has beyond `before`, for the meters that changed."""
    if after is before:
        return ()
    out = []
    for m in METERS:
        b, a = before.of(m), after.of(m)
        if a.hardened != b.hardened or a.failed != b.failed:
            out.append((m, a.hardened - b.hardened, a.failed - b.failed))
    return tuple(out)


def outcome_of(prep: Prepared, run: FightRun) -> FightOutcome:
    """The outcome of a fight, read off its working table."""
    table = run.table
    start = prep.baseline
    ends = []
    for c in table.rows:
        meters, injuries = start[c.id]
        new = c.injuries[injuries:]  # a fight only adds injuries, after those it started with
        gained = notches_gained(meters, c.meters)
        ends.append(
            CombatantEnd(
                id=c.id,
                side=c.side,
                status=c.status,
                frozen=c.status == "active" and c.reaction is not None and c.reaction.kind == "freeze",
                taken=sum(i.amount for i in new),
                dealt=run.dealt.get(c.id, 0),
                hardened=sum(h for _, h, _ in gained),
                failed=sum(f for _, _, f in gained),
                permanent=sum(i.permanent for i in new),
                notches=gained,
            )
        )
    result = table.result
    return FightOutcome(
        winner=result.winner if result is not None else None,
        rounds=table.round,
        events=run.event_count,
        refusals=run.refusals,
        combatants=tuple(ends),
        reasons=tuple(run.refusal_reasons),
    )
