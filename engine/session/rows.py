"""A stored log's rows decoded into (position, event) records: the loop that opening a long
session spends its time in, compiled (setup.py's HOT)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import chain
from typing import Any

import msgspec

from engine.collector import collection_paused
from engine.events import decoded_by_any, log_decoder
from engine.events.base import EventBase
from engine.session.encoding import upcast_data
from engine.store.base import EventData


def decoded_records(stream: str, rows: Iterable[EventData], ruleset: str | None = None) -> list[tuple[int, EventBase]]:
    """(position, event) of each stored row of `stream`, with no cyclic garbage collection
    meanwhile (events hold no cycles). A row is decoded once by the decoder of the log's ruleset
    (`ruleset`, by default the one its first row starts; every ruleset's when that names none),
    its data naming its type; a row that decoder does not read (another ruleset's event) is
    decoded by every ruleset's. Only a row of another schema version than its type's (an older
    one, upcast; a newer one, refused) is read again, by `upcast_data`, as is a row that does not
    decode (for an error that names it)."""
    records: list[tuple[int, EventBase]] = []
    remaining = iter(rows)
    first = next(remaining, None)
    if first is None:
        return records
    decode_own: Callable[[bytes], Any] = log_decoder(first[2], ruleset).decode  # Any: no check of the union's types
    with collection_paused():
        for row in chain((first,), remaining):
            try:
                event = decode_own(row[2])
            except msgspec.MsgspecError:
                event = decoded_by_any(row[2])
            if event is None or event.schema_version != row[1]:
                event = upcast_data(stream, row)
            records.append((row[0], event))
    return records
