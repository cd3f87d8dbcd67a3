"""The state after every event of a session log, in one pass: what `state_at(p)` gives for each
p, without folding the log again for each (a timeline to scrub, a chart of wounds over time)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from engine.events.commands import MARKERS
from engine.reducers.fold import table_for
from engine.rules.ruleset import apply_one
from engine.session.history import Record, effective_fold, excluded


def states_along(records: Sequence[Record]) -> Iterator[tuple[int, Any]]:
    """(position, state right after it) for position 0 (nothing yet) and each event, equal to
    `effective_fold(records[:position])`: events are applied one by one on a working table, and
    at an undo, redo or amend marker (which changes what counts) the prefix is folded anew."""
    state: Any = effective_fold([])
    yield 0, state
    skip: set[int] = set()
    table: Any = None
    appliers: Any = None
    started = False
    for i, (position, event) in enumerate(records):
        if isinstance(event, MARKERS):
            prefix = records[: i + 1]
            skip, _, _ = excluded(prefix)
            state = effective_fold(prefix)
            started = any(not isinstance(e, MARKERS) and e.command not in skip for _, e in prefix)
            table = None
        elif event.command not in skip:
            if table is None:
                ruleset, table = table_for(state if started else None, event)
                appliers = ruleset.appliers
                started = True
            apply_one(appliers, table, event, where=position)
            state = table.freeze()
        yield position, state
