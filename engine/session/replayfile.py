"""Reading a session out of a JSON-lines replay file: every line checked (checksum, positions,
whole commands) before anything is used, one stream chosen, a torn tail refused unless asked to
recover the whole commands before it."""

from __future__ import annotations

import os
from dataclasses import dataclass

from engine.errors import InvalidInput, NotFound, TornTail
from engine.session.encoding import decoded
from engine.session.history import Record
from engine.store.logfile import LogFile


@dataclass(frozen=True)
class ReplayLog:
    """One stream of a log file: its records and the command id of each."""

    path: str
    stream: str
    records: list[Record]
    command_ids: list[str]
    #: what a recovery left out (the torn tail), if anything
    dropped: TornTail | None = None


def read_replay(
    path: str | os.PathLike[str],
    stream: str | None = None,
    *,
    recover: bool = False,
    unchecked: bool = False,
) -> ReplayLog:
    """The records of one stream of a log file (the only one, or `stream`). A file that ends inside
    a command is a `TornTail`, unless `recover`: then the whole commands before it are read, and
    the tail comes back as `dropped`."""
    log = LogFile(path, unchecked=unchecked)
    by_stream: dict[str, tuple[list[Record], list[str]]] = {}
    for stored in log.events():
        records, command_ids = by_stream.setdefault(stored.stream, ([], []))
        records.append((stored.position, decoded(stored)))
        command_ids.append(stored.command_id)
    if log.torn is not None and not recover:
        raise TornTail(log.torn.message, where=log.torn.where, hint="--recover reads the whole commands before it")
    names = sorted(by_stream)
    if stream is None:
        if len(names) != 1:
            raise InvalidInput(f"{path} holds {len(names)} streams", where=str(path), hint="name one with --stream")
        stream = names[0]
    elif stream not in by_stream:
        raise NotFound(f"no stream {stream!r} in {path}", hint=f"streams: {', '.join(names)}")
    records, command_ids = by_stream[stream]
    return ReplayLog(str(path), stream, records, command_ids, log.torn)
