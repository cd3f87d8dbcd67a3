"""The JSON-lines log format: one event a line, each line checksummed, appends marked by `commit`.

    {"stream":"fight","position":1,"event_id":"…","command_id":"…","type":"gm_ruling",
     "schema_version":1,"recorded_at":0.0,"commit":true,"data":{"type":"gm_ruling","note":"…"},
     "checksum":"…"}

(one line in the file). `data` is the event's JSON embedded as it is, byte for byte. `checksum`,
always the last field, is the BLAKE2b-128 (hex) of the line as it would be without it (the same
bytes with `}` where `,"checksum":…` begins), so any change to any byte of a line is noticed and
refused naming the line. `commit` is false on every line of an append but its last: an append
whose last line is missing never happened, so a crash — or a cut — inside a command's events
cannot pass for the command.

Reading checks every line against what precedes it (consecutive positions from 1 in each stream,
unique event ids, one run of lines per command id) and sorts what ends a file:

- a whole append is kept; a complete last line without its final newline is a whole line;
- an unfinished append at the end — lines without their commit line, an incomplete last line, or
  a last line that is not an event line at all — is a *torn tail* (`TornTail`): never
  acknowledged, so a store drops it before its next append and a reader refuses it unless asked
  to recover the whole appends before it;
- anything else is a `CorruptLog` naming the file and line: a line whose checksum does not match
  (an edit), a bad line followed by others, a gap, a repeat.

Lines written before checksums existed (no `checksum`, maybe no `command_id`) are read only when
the reader says `unchecked=True`; their command ids are then `legacy-P`, for the position P of
the first event of their append.
"""

from __future__ import annotations

import hmac
import os
import stat as stat_mode
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Annotated

import msgspec

from engine.errors import CorruptLog, InvalidInput, NotFound, TornTail
from engine.hashing import blake2b
from engine.nesting import check_depth
from engine.store.base import COMMAND_ID_PATTERN, StoredEvent

#: The longest line read (an event with a large sheet is a few kB; a stored scenario a few 100 kB).
MAX_LINE_BYTES = 16 * 2**20
#: How much of a file is read at a time when streaming it.
CHUNK_BYTES = 2**20

_CHECKSUM_KEY = b',"checksum":"'
_DIGEST_SIZE = 16


class Line(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """One line of a log file: an event with its place in its stream and its metadata."""

    stream: str
    position: Annotated[int, msgspec.Meta(ge=1)]
    event_id: Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
    command_id: Annotated[str, msgspec.Meta(pattern=COMMAND_ID_PATTERN.pattern)] | msgspec.UnsetType = msgspec.UNSET
    type: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    schema_version: Annotated[int, msgspec.Meta(ge=1)]
    recorded_at: float
    commit: bool = True
    data: msgspec.Raw
    checksum: str | msgspec.UnsetType = msgspec.UNSET


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Line)


# --- writing ---------------------------------------------------------------------------------


def encode_line(event: StoredEvent, *, commit: bool = True) -> bytes:
    """One checksummed line, newline included. `data` must be one JSON value on one line."""
    body = _encoder.encode(
        Line(
            stream=event.stream,
            position=event.position,
            event_id=event.event_id,
            command_id=event.command_id,
            type=event.type,
            schema_version=event.schema_version,
            recorded_at=event.recorded_at,
            commit=commit,
            data=msgspec.Raw(event.data),
        )
    )
    return body[:-1] + _CHECKSUM_KEY + _digest(body) + b'"}\n'


def encode_lines(events: Sequence[StoredEvent]) -> bytes:
    """The lines of one append: `commit` only on the last."""
    last = len(events) - 1
    return b"".join(encode_line(e, commit=i == last) for i, e in enumerate(events))


def encode_commands(events: Iterable[StoredEvent]) -> Iterator[bytes]:
    """Lines of events as a log file keeps them: each run of one stream's events of one command id
    is one append (`commit` on its last line), so a cut inside a command is seen as one."""
    previous: StoredEvent | None = None
    for event in events:
        check_data(event.event_id, event.data)
        if previous is not None:
            same_command = (previous.stream, previous.command_id) == (event.stream, event.command_id)
            yield encode_line(previous, commit=not same_command)
        previous = event
    if previous is not None:
        yield encode_line(previous)


def check_data(event_id: str, data: bytes) -> None:
    """`data` goes into a line as it is: it must be one JSON value without line breaks."""
    if b"\n" in data or b"\r" in data:
        raise InvalidInput(
            f"event {event_id} data has a line break",
            hint="encode events as compact JSON (msgspec does)",
        )
    try:
        msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise InvalidInput(
            f"event {event_id} data is not JSON: {exc}",
            hint="a JSON-lines log embeds each event's JSON",
        ) from exc


def _digest(body: bytes) -> bytes:
    return blake2b(body, digest_size=_DIGEST_SIZE).hexdigest().encode()


# --- reading ---------------------------------------------------------------------------------


class Index:
    """What a reader knows of the lines before: each stream's version and, unless `streaming`,
    every event id and command id (a store refuses a repeated one; a reader that streams a log
    of any size keeps only the versions: its memory does not grow with the file)."""

    def __init__(self, *, streaming: bool = False) -> None:
        self.versions: dict[str, int] = {}
        self.commands: dict[str, set[str]] | None = None if streaming else {}
        self.ids: set[str] | None = None if streaming else set()

    def version(self, stream: str) -> int:
        return self.versions.get(stream, 0)

    def add(self, events: Sequence[StoredEvent]) -> None:
        for e in events:
            self.versions[e.stream] = e.position
            if self.commands is not None:
                self.commands.setdefault(e.stream, set()).add(e.command_id)
            if self.ids is not None:
                self.ids.add(e.event_id)


class Scanner:
    """Reads lines in order — `feed` them as they come, `finish` at the end of the file — and
    hands back each whole append, checked (see the module). `index` holds what came before and
    is updated with every whole append."""

    def __init__(self, path: Path, index: Index, *, first_line: int = 1, unchecked: bool = False) -> None:
        self.path = path
        self.index = index
        self.unchecked = unchecked
        #: bytes and lines of whole appends so far (from where this scanner started)
        self.committed_bytes = 0
        self.committed_lines = first_line - 1
        #: the committed part ends with a line that has no final newline
        self.ends_without_newline = False
        self._line_no = first_line - 1
        self._read = 0
        self._pending: list[StoredEvent] = []
        self._pending_ids: set[str] = set()
        self._pending_commands: set[tuple[str, str]] = set()
        self._versions: dict[str, int] = {}
        self._run: tuple[str, str] = ("", "")
        self._legacy_id = ""
        self._bad: CorruptLog | None = None
        self._partial = b""

    def feed(self, data: bytes) -> list[StoredEvent]:
        """The whole appends completed by these bytes (a partial last line is kept for later)."""
        out: list[StoredEvent] = []
        if self._line_no == 0 and self._read == 0 and not self._partial and data and not data.startswith(b"{"):
            raise CorruptLog(  # not a log cut short: something else (a database?), which is never cut
                "not a JSON-lines event log: it does not start with '{'",
                where=str(self.path),
                hint="is this the right file? a log is written by export, --save or --keep",
            )
        buf = self._partial + data if self._partial else data
        start = 0
        while True:
            end = buf.find(b"\n", start)
            if end == -1:
                break
            out.extend(self._line(buf[start:end], terminated=True))
            start = end + 1
        self._partial = buf[start:]
        if len(self._partial) > MAX_LINE_BYTES:
            raise CorruptLog(
                f"line {self._line_no + 1} is longer than {MAX_LINE_BYTES:,} bytes",
                where=f"{self.path}:{self._line_no + 1}",
                hint="is this an event log?",
            )
        return out

    def finish(self) -> tuple[list[StoredEvent], TornTail | None]:
        """At the end of the file: the last whole append if its last line lacked only its newline,
        and the torn tail, if the file ends in one."""
        out: list[StoredEvent] = []
        if self._partial:
            partial, self._partial = self._partial, b""
            if self._bad is not None:
                raise self._bad
            out = self._line(partial, terminated=False)
            self._bad = None  # a last line cut short is a torn tail (below), not damage
        torn = None
        if self._read > self.committed_bytes:
            first = self.committed_lines + 1
            what = "an append without its commit line" if self._pending else "an incomplete last line"
            if self._bad is not None and not self._pending:
                what = "a last line that is not an event line"
            torn = TornTail(
                f"the file ends in {what}: {self._read - self.committed_bytes} bytes from line {first} "
                "were never acknowledged",
                where=f"{self.path}:{first}",
                hint="a crash or a cut ended it inside a command",
            )
        return out, torn

    def _line(self, raw: bytes, *, terminated: bool) -> list[StoredEvent]:
        self._line_no += 1
        self._read += len(raw) + terminated
        where = f"{self.path}:{self._line_no}"
        if self._bad is not None:
            raise self._bad  # a bad line with another after it: damage, not a crash
        # never a crash's doing (a cut makes no line deeper): refused at once, before the decoder
        check_depth(raw, where=where, error=CorruptLog, hint="no event line nests that deep: it was damaged or edited")
        try:
            line = _decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            self._bad = CorruptLog(
                f"line {self._line_no} is not an event line: {_reason(exc)}",
                where=where,
                hint="the file was damaged or edited by hand; fix or remove that line",
            )
            return []
        self._check_sum(raw, line, where)
        event = self._admit(line, where)
        self._pending.append(event)
        if not line.commit:
            return []
        done, self._pending = self._pending, []
        self._pending_ids.clear()
        self._pending_commands.clear()
        self._run = ("", "")
        self.index.add(done)
        self._versions.clear()
        self.committed_bytes = self._read
        self.committed_lines = self._line_no
        self.ends_without_newline = not terminated
        return done

    def _check_sum(self, raw: bytes, line: Line, where: str) -> None:
        if isinstance(line.checksum, msgspec.UnsetType):
            if self.unchecked:
                return
            raise CorruptLog(
                f"line {self._line_no} has no checksum",
                where=where,
                hint="a log from an engine before checksums reads with --unchecked (commands are re-decided)",
            )
        suffix = _CHECKSUM_KEY + line.checksum.encode() + b'"}'
        expected = line.checksum.encode()
        intact = raw.endswith(suffix) and hmac.compare_digest(_digest(raw[: -len(suffix)] + b"}"), expected)
        if not intact:
            raise CorruptLog(
                f"line {self._line_no} was changed after it was written: its checksum does not match",
                where=where,
                hint="the file was edited or damaged; restore it from where it came from",
            )

    def _admit(self, line: Line, where: str) -> StoredEvent:
        """Check a line against what precedes it; the event it holds."""
        if self._pending and self._pending[0].stream != line.stream:
            raise CorruptLog(
                f"line {self._line_no} starts a new append, but the append of stream "
                f"{self._pending[0].stream!r} before it has no commit line",
                where=where,
            )
        version = self._versions.get(line.stream, self.index.version(line.stream))
        if line.position != version + 1:
            raise CorruptLog(
                f"line {self._line_no}: stream {line.stream!r} position {line.position} follows position {version}",
                where=where,
                hint="positions of a stream must be consecutive from 1",
            )
        ids = self.index.ids
        if ids is not None and (line.event_id in ids or line.event_id in self._pending_ids):
            raise CorruptLog(f"line {self._line_no}: event id {line.event_id} repeats", where=where)
        command_id = self._command_id(line)
        commands = self.index.commands
        if (line.stream, command_id) != self._run:
            seen_before = commands is not None and command_id in commands.get(line.stream, ())
            if seen_before or (line.stream, command_id) in self._pending_commands:
                raise CorruptLog(
                    f"line {self._line_no}: command {command_id} of stream {line.stream!r} appears twice",
                    where=where,
                    hint="the events of one command are one run of lines",
                )
            self._run = (line.stream, command_id)
        self._versions[line.stream] = line.position
        self._pending_ids.add(line.event_id)
        self._pending_commands.add((line.stream, command_id))
        return StoredEvent(
            stream=line.stream,
            position=line.position,
            event_id=line.event_id,
            command_id=command_id,
            type=line.type,
            schema_version=line.schema_version,
            data=bytes(line.data),
            recorded_at=line.recorded_at,
        )

    def _command_id(self, line: Line) -> str:
        if not isinstance(line.command_id, msgspec.UnsetType):
            return line.command_id
        if not self._pending:
            self._legacy_id = f"legacy-{line.position}"
        return self._legacy_id


def _reason(exc: Exception) -> str:
    """msgspec's message, cut short: never the line's own contents."""
    return str(exc)[:200]


# --- files -----------------------------------------------------------------------------------


#: The largest log a reader opens (bytes), unless told otherwise: `UA_MAX_LOG_BYTES`.
DEFAULT_MAX_LOG_BYTES = 4 * 2**30


def max_log_bytes() -> int:
    """The size limit on a log file to read: `UA_MAX_LOG_BYTES` if set, else the default."""
    text = os.environ.get("UA_MAX_LOG_BYTES", "")
    if text.isdigit() and int(text) > 0:
        return int(text)
    if text:
        raise InvalidInput(f"UA_MAX_LOG_BYTES must be a positive number of bytes, not {text!r}"[:200])
    return DEFAULT_MAX_LOG_BYTES


class LogFile:
    """A log file read as a stream (never whole into memory): `events()` may be called again and
    reads the same bytes (the size seen on opening), checking every line each time."""

    def __init__(self, path: str | os.PathLike[str], *, unchecked: bool = False, limit: int | None = None) -> None:
        self.path = Path(path)
        self.unchecked = unchecked
        self.size = _regular_file_size(self.path)
        cap = max_log_bytes() if limit is None else limit
        if self.size > cap:
            raise InvalidInput(
                f"the log is {self.size:,} bytes, more than the {cap:,}-byte limit",
                where=str(self.path),
                hint="raise the limit with UA_MAX_LOG_BYTES=N if this is the right file",
            )
        #: the torn tail, known once `events()` has run to the end
        self.torn: TornTail | None = None

    def events(self) -> Iterator[StoredEvent]:
        """Every event of every whole append, in file order."""
        scanner = Scanner(self.path, Index(streaming=True), unchecked=self.unchecked)
        try:
            with self.path.open("rb") as handle:
                left = self.size
                while left > 0:
                    chunk = handle.read(min(CHUNK_BYTES, left))
                    if not chunk:
                        break
                    left -= len(chunk)
                    yield from scanner.feed(chunk)
        except OSError as exc:
            raise CorruptLog(f"cannot read the log: {exc.strerror or exc}", where=str(self.path)) from None
        last, self.torn = scanner.finish()
        yield from last


def _regular_file_size(path: Path) -> int:
    try:
        info = path.stat()
    except FileNotFoundError:
        raise NotFound(f"no file {path}", hint="give a JSONL log written by --save, --keep or session export") from None
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"cannot read the log: {exc}", where=str(path)) from None
    if not stat_mode.S_ISREG(info.st_mode):
        raise InvalidInput("is not a regular file", where=str(path), hint="give a JSONL log file")
    return info.st_size
