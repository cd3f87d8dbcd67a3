"""The ua2 sinks: the shared `Sink` bound to the ua2 table and its appliers."""

from __future__ import annotations

from engine.rules.sink import Sink as _Sink
from engine.rules.ua2.apply import APPLIERS
from engine.rules.ua2.table import Table

Sink = _Sink[Table]


def recording_sink(table: Table) -> Sink:
    """Applies and keeps every fact: what a command writes to a log."""
    return _Sink(table, APPLIERS, record=True)


def counting_sink(table: Table) -> Sink:
    """Applies and counts every fact, keeping none (a batch fight)."""
    return _Sink(table, APPLIERS, record=False)
