"""Events as a store holds them: encoded, checked to read back as themselves (DESIGN law 8), and
named by the command that made them (law 7: ids from the command id, never from content)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from engine.errors import CorruptLog, EngineError, InvalidInput
from engine.events import decode, encode, own_type, tag_of, version_of
from engine.events.base import EventBase
from engine.store.base import EventData, NewEvent, StoredEvent, event_id_for


def encoded(event: EventBase) -> bytes:
    """The event's bytes, once they are known to decode back to an equal event (law 8): a value
    JSON cannot hold (NaN, an infinity) or any other loss refuses the event before it is stored."""
    data = encode(event)
    try:
        back = decode(data, kind=own_type(event))
    except EngineError as exc:
        back, why = None, exc.message
    else:
        why = "it reads back different"
    if back != event:
        raise InvalidInput(
            f"{type(event).__name__} cannot be stored: {why}",
            hint="a value JSON cannot hold (NaN, an infinity?) came in; nothing was written",
        )
    return data


def to_new_events(stream: str, command_id: str, events: Sequence[EventBase]) -> list[NewEvent]:
    """The events of one command, ready to append: each checked (law 8), each id derived from
    (stream, command id, index)."""
    return [
        NewEvent(
            event_id=event_id_for(stream, command_id, index),
            command_id=command_id,
            type=tag_of(event),
            schema_version=type(event).schema_version,
            data=encoded(event),
        )
        for index, event in enumerate(events)
    ]


def commands_of(stream: str, items: Iterable[tuple[str, EventBase]]) -> Iterator[NewEvent]:
    """(command id, event) pairs in log order as events to append; each command's events are
    consecutive, and are indexed from 0 again at each new command id."""
    current, index = "", 0
    for command_id, event in items:
        index = index + 1 if command_id == current else 0
        current = command_id
        yield NewEvent(
            event_id=event_id_for(stream, command_id, index),
            command_id=command_id,
            type=tag_of(event),
            schema_version=type(event).schema_version,
            data=encoded(event),
        )


def stored_log(stream: str, events: Sequence[EventBase], *, seed: int, recorded_at: float = 0.0) -> list[StoredEvent]:
    """A batch fight's events as a replay file holds them from position 1. Its command ids derive
    from the fight's seed and each command's number (`fight-SEED-N`; the setup is command 0), so
    the same fight always gives the same file."""
    new = commands_of(stream, ((f"fight-{seed}-{event.command}", event) for event in events))
    return [e.stored(stream, position, recorded_at) for position, e in enumerate(new, start=1)]


def decoded(stored: StoredEvent) -> EventBase:
    """The event a store holds, upcast when older; errors name the stream and position."""
    try:
        if stored.schema_version == version_of(stored.type):
            event = decode(stored.data)
        else:
            event = decode(stored.data, schema_version=stored.schema_version)
        if tag_of(event) != stored.type:
            raise CorruptLog(
                f"the line says its event is a {stored.type!r}, but its data is a {tag_of(event)!r}",
                hint="the line was edited; restore it from where it came from",
            )
    except EngineError as exc:  # named here, not before: a long log reads a million good events
        exc.where = exc.where or f"{stored.stream} event {stored.position}"
        raise
    return event


def upcast_data(stream: str, row: EventData) -> EventBase:
    """The event of one stored row of `stream` read by its schema version (upcast when older,
    refused when newer); errors name its position."""
    position, schema_version, data = row
    try:
        return decode(data, schema_version=schema_version)
    except EngineError as exc:
        exc.where = exc.where or f"{stream} event {position}"
        raise
