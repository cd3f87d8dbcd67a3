"""Helpers for tests that damage log files on purpose."""

from __future__ import annotations

import msgspec

from engine.store.base import StoredEvent
from engine.store.logfile import Line, encode_line


def resign(line: bytes) -> bytes:
    """An edited line with its checksum made to match again, as a forger who knows the format
    would: only re-deciding the commands can tell it from the original then."""
    raw = msgspec.json.decode(line.rstrip(b"\n"), type=Line)
    event = StoredEvent(
        stream=raw.stream,
        position=raw.position,
        event_id=raw.event_id,
        command_id=str(raw.command_id),
        type=raw.type,
        schema_version=raw.schema_version,
        data=bytes(raw.data),
        recorded_at=raw.recorded_at,
    )
    return encode_line(event, commit=raw.commit)
