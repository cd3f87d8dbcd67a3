"""A stored log's rows decoded into (position, event) records: the loop that opening a long
session spends its time in, compiled (setup.py's HOT)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from engine.collector import collection_paused
from engine.events import event_decoder
from engine.events.base import EventBase
from engine.session.encoding import upcast_data
from engine.store.base import EventData


def decoded_records(stream: str, rows: Iterable[EventData]) -> list[tuple[int, EventBase]]:
    """(position, event) of each stored row of `stream`, with no cyclic garbage collection
    meanwhile (events hold no cycles). A row is decoded once by the one decoder of current events
    (its data names its type); only a row of another schema version than its type's (an older
    one, upcast; a newer one, refused) is read again, by `upcast_data`, as is a row that does not
    decode (for an error that names it)."""
    decode_current: Callable[[bytes], Any] = event_decoder.decode  # Any: no check of the union's 80 types
    records: list[tuple[int, EventBase]] = []
    with collection_paused():
        for row in rows:
            try:
                event = decode_current(row[2])
            except msgspec.MsgspecError:
                event = None
            if event is None or event.schema_version != row[1]:
                event = upcast_data(stream, row)
            records.append((row[0], event))
    return records
