"""Event types, their encoder and decoders, and upcasters.

Each ruleset names every event type its logs hold (its plug-in in `engine.rules.registry`: ua2's
are listed in `engine.events.ua2`, ua3's in `engine.events.ua3`), the shared ones here among
them. A log is decoded by its ruleset's decoder (`decoder_of`): the closed tagged union of its
events, each command record's `issued` one of its commands, built when first asked for, so a
command on a session of one ruleset never imports the other's events or commands. What needs
every type (`Event`, `EVENT_TYPES`, `TYPE_BY_TAG`, `event_decoder`: `engine.api`, the audit's
list of types, upcasting, a log of no known ruleset) takes every ruleset's, loaded on first use
(PEP 562), as are the ua2 event names below.

To add an event type: define it in a module here with an explicit `tag=` and list it in its
ruleset's events. A renamed class keeps its tag; a changed shape bumps `schema_version` and
registers an upcaster.

The modules of the structs these unions hold (events, commands, the state and dice inside them)
do not use `from __future__ import annotations`: msgspec reads every field's type when it builds
the decoders below, and string annotations would be compiled and evaluated again at each start.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

import msgspec

from engine.commands import command_union, union_of
from engine.commands.setup import StartEncounter
from engine.errors import CorruptLog, UnknownEventType
from engine.events.base import EventBase
from engine.events.checks import CheckRolled
from engine.events.commands import CommandRecorded
from engine.events.setup import CombatantJoined, EncounterStarted, GmRuling
from engine.nesting import check_depth
from engine.rules.registry import PLUGINS, event_types

if TYPE_CHECKING:
    from typing import TypeAlias

    from engine.events.madness import (
        MadnessCheckResolved,
        NeurosisMarked,
        NotchMarked,
        PassionSpent,
        ReactionEnded,
        ReactionTaken,
        TherapyGiven,
    )

    #: Any event of any ruleset (at run time, the union of them all; to the type checker, what
    #: every one of them is).
    Event: TypeAlias = EventBase
    #: Every ruleset's event types.
    EVENT_TYPES: tuple[type[EventBase], ...]
    #: Every ruleset's event types, by tag.
    TYPE_BY_TAG: dict[str, type[EventBase]]
    #: Decodes any ruleset's event of its current schema version.
    event_decoder: msgspec.json.Decoder[Any]

#: The module of each ua2 event named here (loaded on first use).
_WHERE = {
    "MadnessCheckResolved": "engine.events.madness",
    "NeurosisMarked": "engine.events.madness",
    "NotchMarked": "engine.events.madness",
    "PassionSpent": "engine.events.madness",
    "ReactionEnded": "engine.events.madness",
    "ReactionTaken": "engine.events.madness",
    "TherapyGiven": "engine.events.madness",
}


def __getattr__(name: str) -> Any:
    if name == "Event":
        return event_union()
    if name == "EVENT_TYPES":
        return event_types()
    if name == "TYPE_BY_TAG":
        return _type_by_tag()
    if name == "event_decoder":
        return decoder_of()
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'engine.events' has no attribute {name!r}")


encoder = msgspec.json.Encoder()


@cache
def event_union(ruleset: str | None = None) -> Any:
    """The tagged union of the events a log of `ruleset` holds (of any ruleset: None), each
    command record's `issued` one of that ruleset's commands."""
    record = _record_of(command_union(ruleset))
    return union_of(record if kind is CommandRecorded else kind for kind in event_types(ruleset))


@cache
def decoder_of(ruleset: str | None = None) -> msgspec.json.Decoder[Any]:
    """Decodes an event of a log of `ruleset` (of any ruleset: None) of its current schema version."""
    return msgspec.json.Decoder(event_union(ruleset))


def log_decoder(first: bytes, ruleset: str | None = None) -> msgspec.json.Decoder[Any]:
    """The decoder of a log of `ruleset`, by default the one its `first` event starts; every
    ruleset's when that names none the registry has."""
    name = ruleset or ruleset_started(first)
    return decoder_of(name if name in PLUGINS else None)


def decoded_by_any(data: bytes) -> EventBase | None:
    """The event of any ruleset's types, of its current schema version, that `data` holds, or None."""
    try:
        event: EventBase = decoder_of().decode(data)
    except msgspec.MsgspecError:
        return None
    return event


class _Issued(msgspec.Struct):
    command: str = ""
    ruleset: str | None = None


class _Starting(msgspec.Struct):
    """What an event says of the ruleset it starts: a start command's record names it (in its
    command), as does the started event."""

    type: str = ""
    ruleset: str | None = None
    issued: _Issued | None = None


_starting_decoder = msgspec.json.Decoder(_Starting)


def ruleset_started(data: bytes) -> str | None:
    """The ruleset the event `data` starts (a session log begins with its start command's record,
    a fight's with the started event), or None (not a start, or not one that names it)."""
    try:
        event = _starting_decoder.decode(data)
    except msgspec.MsgspecError:
        return None
    issued = event.issued
    if event.type == _tag(CommandRecorded):
        return issued.ruleset if issued is not None and issued.command == _tag(StartEncounter) else None
    return event.ruleset if event.type == _tag(EncounterStarted) else None


@cache
def _type_by_tag() -> dict[str, type[EventBase]]:
    return {_tag(kind): kind for kind in event_types()}


def _tag(kind: type[msgspec.Struct]) -> str:
    return str(kind.__struct_config__.tag)


def own_type(event: EventBase) -> Any:
    """The type `event` decodes as: its class (a command's record: over its command's class)."""
    if isinstance(event, CommandRecorded):
        return _record_of(type(event.issued))
    return type(event)


def _record_of(commands: Any) -> Any:
    """`CommandRecorded[commands]`: a record whose command is one of `commands` (a type made at
    run time, which the type checker takes as any)."""
    generic: Any = CommandRecorded
    return generic[commands]


@cache
def _decoder_as(kind: Any) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(kind)


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
#: (tag, from_version) → function turning that version's JSON object into the next version's.
UPCASTERS: dict[tuple[str, int], Upcaster] = {}
#: (tag, from_version) → the fields (dotted paths) the next version added, which data of
#: `from_version` cannot hold: a line claiming an older version than its data is refused.
ADDED: dict[tuple[str, int], tuple[str, ...]] = {}


def upcaster(tag: str, from_version: int, *, adds: tuple[str, ...] = ()) -> Callable[[Upcaster], Upcaster]:
    """Register a function that upcasts a stored `tag` event from `from_version` to the next,
    which added the fields `adds` (dotted paths: `issued.scenario_document`)."""

    def register(fn: Upcaster) -> Upcaster:
        UPCASTERS[(tag, from_version)] = fn
        ADDED[(tag, from_version)] = adds
        return fn

    return register


def _holds(raw: Any, path: str) -> bool:
    """Whether the JSON object `raw` has the field at the dotted `path`."""
    for key in path.split("."):
        if not isinstance(raw, dict) or key not in raw:
            return False
        raw = raw[key]
    return True


def tag_of(event: EventBase) -> str:
    return _tag(type(event))


def version_of(tag: str) -> int:
    kind = _type_by_tag().get(tag)
    if kind is None:
        raise UnknownEventType(f"unknown event type {tag!r}", hint="is this log from a newer engine?")
    return kind.schema_version


def encode(event: EventBase) -> bytes:
    return encoder.encode(event)


def decode(data: bytes | str, *, schema_version: int | None = None, where: str = "", kind: Any = None) -> EventBase:
    """Decode one event (of any ruleset's types, or of type `kind`: `own_type`); older schema
    versions are upcast first. Errors name `where`."""
    check_depth(data, where=where, error=CorruptLog, hint="the stored event is damaged")
    try:
        if schema_version is None:
            decoded: EventBase = (decoder_of() if kind is None else _decoder_as(kind)).decode(data)
            return decoded
        raw = msgspec.json.decode(data)
        if not isinstance(raw, dict):
            raise CorruptLog("an event must be a JSON object", where=where)
        tag = raw.get("type")
        if not isinstance(tag, str):
            raise CorruptLog("an event has no 'type'", where=where)
        current = version_of(tag)
        if schema_version > current:
            raise CorruptLog(
                f"event {tag!r} has schema version {schema_version}, newer than {current}",
                where=where,
                hint="upgrade the engine to read this log",
            )
        for version in range(schema_version, current):
            step = UPCASTERS.get((tag, version))
            if step is None:
                raise CorruptLog(f"no upcaster for {tag!r} v{version}", where=where)
            later = next((f for f in ADDED.get((tag, version), ()) if _holds(raw, f)), None)
            if later is not None:
                raise CorruptLog(
                    f"event {tag!r} says schema version {version}, "
                    f"but holds {later!r}, which version {version + 1} added",
                    where=where,
                    hint="the line's schema version was changed; restore it from where it came from",
                )
            raw = step(raw)
        event: EventBase = msgspec.convert(raw, event_union())
        return event
    except msgspec.ValidationError as exc:
        text = str(exc)
        if "Invalid value" in text and "`$.type`" in text:
            raise UnknownEventType(text, where=where, hint="is this log from a newer engine?") from exc
        raise CorruptLog(f"not a valid event: {text}", where=where) from exc
    except msgspec.DecodeError as exc:
        raise CorruptLog(f"not valid JSON: {exc}", where=where) from exc


__all__ = [
    "EVENT_TYPES",
    "TYPE_BY_TAG",
    "UPCASTERS",
    "CheckRolled",
    "CombatantJoined",
    "CommandRecorded",
    "EncounterStarted",
    "Event",
    "EventBase",
    "GmRuling",
    "MadnessCheckResolved",
    "NeurosisMarked",
    "NotchMarked",
    "PassionSpent",
    "ReactionEnded",
    "ReactionTaken",
    "TherapyGiven",
    "decode",
    "decoded_by_any",
    "decoder_of",
    "encode",
    "event_decoder",
    "event_union",
    "log_decoder",
    "own_type",
    "ruleset_started",
    "tag_of",
    "upcaster",
    "version_of",
]

from engine.events import upcasters as _upcasters  # noqa: E402, F401  (registers them)
