"""Helpers for tests that damage log files on purpose."""

from __future__ import annotations

import msgspec

from engine.store.base import StoredEvent
from engine.store.logfile import Line, encode_line


def resign(line: bytes) -> bytes:
    """An edited line with its checksum made to match again, as a forger who knows the format
    would: only re-deciding the commands can tell it from the original then."""
    return signed(line_of(line))


def line_of(raw: bytes) -> Line:
    return msgspec.json.decode(raw.rstrip(b"\n"), type=Line)


def signed(line: Line) -> bytes:
    """A line (as `Line`) encoded with a checksum that matches, as the JSONL writer makes it."""
    event = StoredEvent(
        stream=line.stream,
        position=line.position,
        event_id=line.event_id,
        command_id=str(line.command_id),
        type=line.type,
        schema_version=line.schema_version,
        data=bytes(line.data),
        recorded_at=line.recorded_at,
    )
    return encode_line(event, commit=line.commit)


def inserted(lines: list[bytes], at: int, forged: Line, *, own_append: bool) -> list[bytes]:
    """`lines` with the event of `forged` inserted at position `at` (1-based), every checksum made
    to match: in the append of the line before it (its command id; its commit moved onto the new
    line when that line ended the append) or, with `own_append`, as an append of its own (where
    an append ends, so the file still reads)."""
    head = lines[: at - 1]
    new = msgspec.structs.replace(forged, position=at, event_id="f0" * 16, command_id="forged", commit=True)
    if head and not own_append:
        before = line_of(head[-1])
        new = msgspec.structs.replace(new, command_id=before.command_id, commit=before.commit)
        head[-1] = signed(msgspec.structs.replace(before, commit=False))
    after = [line_of(raw) for raw in lines[at - 1 :]]
    return [*head, *(signed(p) for p in [new, *(msgspec.structs.replace(p, position=p.position + 1) for p in after)])]
