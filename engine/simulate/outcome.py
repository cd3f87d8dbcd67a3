"""What a batch keeps of one fight: who won, after how many rounds, how each combatant ended."""

from __future__ import annotations

from typing import NamedTuple

from engine.rules.script import CombatantEnd
from engine.simulate.fight import FightRun, Prepared

__all__ = ["DOWN", "CombatantEnd", "FightOutcome", "outcome_of"]

#: Statuses that count a combatant as down (C2-31): out of the fight without choosing to leave.
DOWN = frozenset(("dead", "incapacitated", "unconscious"))


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


def outcome_of(prep: Prepared, run: FightRun) -> FightOutcome:
    """The outcome of a fight, read off its working table by its ruleset's script. (The named
    tuples are made from plain tuples: a batch makes one per fight, and this skips their
    generated constructors.)"""
    table = run.table
    ends = prep.script.ends(table, prep.baseline, run.dealt)
    result = table.result
    winner = result.winner if result is not None else None
    fight = (winner, table.round, run.event_count, run.refusals, ends, tuple(run.refusal_reasons))
    outcome: FightOutcome = tuple.__new__(FightOutcome, fight)
    return outcome
