"""Every event type, as one closed tagged union, with one encoder/decoder and upcasters.

To add an event type: define it in a module here with an explicit `tag=` and add it to `Event`.
A renamed class keeps its tag; a changed shape bumps `schema_version` and registers an upcaster.

The modules of the structs these unions hold (events, commands, the state and dice inside them)
do not use `from __future__ import annotations`: msgspec reads every field's type when it builds
the decoders below, and string annotations would be compiled and evaluated again at each start.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from engine.errors import CorruptLog, UnknownEventType
from engine.events import ua3 as _ua3
from engine.events.base import EventBase
from engine.events.checks import CheckRolled
from engine.events.combat import (
    AmbushStarted,
    AttackResolved,
    CherryTaken,
    ConditionApplied,
    Declared,
    DidNothing,
    DodgeDeclared,
    FightEnded,
    GripReleased,
    GripTaken,
    InitiativeSet,
    JamCleared,
    KnockedDown,
    MonkeyDodged,
    OrderSet,
    PermanentDamage,
    RoundStarted,
    StatusChanged,
    StoodUp,
    SuppressiveFireLaid,
    TieBroken,
    TurnSkipped,
    TurnStarted,
    WeaponDrawn,
    WeaponJammed,
    WeaponLost,
    WoundsInflicted,
)
from engine.events.commands import CommandAmended, CommandRecorded, CommandRedone, CommandUndone
from engine.events.healing import Convalesced, InjuryTreated
from engine.events.madness import (
    MadnessCheckResolved,
    NeurosisMarked,
    NotchMarked,
    PassionSpent,
    ReactionEnded,
    ReactionTaken,
    TherapyGiven,
)
from engine.events.setup import CombatantJoined, EncounterStarted, GmRuling

Event = (
    EncounterStarted
    | CombatantJoined
    | GmRuling
    | CheckRolled
    | CommandRecorded
    | CommandUndone
    | CommandRedone
    | CommandAmended
    | MadnessCheckResolved
    | NotchMarked
    | NeurosisMarked
    | ReactionTaken
    | ReactionEnded
    | TherapyGiven
    | PassionSpent
    | InitiativeSet
    | TieBroken
    | OrderSet
    | AmbushStarted
    | RoundStarted
    | Declared
    | TurnStarted
    | TurnSkipped
    | AttackResolved
    | WoundsInflicted
    | StatusChanged
    | PermanentDamage
    | WeaponDrawn
    | WeaponJammed
    | JamCleared
    | WeaponLost
    | ConditionApplied
    | CherryTaken
    | KnockedDown
    | StoodUp
    | GripTaken
    | GripReleased
    | DodgeDeclared
    | MonkeyDodged
    | SuppressiveFireLaid
    | DidNothing
    | FightEnded
    | InjuryTreated
    | Convalesced
    | _ua3.CharacterJoined
    | _ua3.AbilityChecked
    | _ua3.StressChecked
    | _ua3.HardenedNotchMarked
    | _ua3.FailedNotchMarked
    | _ua3.TraumaMarked
    | _ua3.BurnedOut
    | _ua3.ReactionTaken
    | _ua3.ReactionEnded
    | _ua3.PassionSpent
    | _ua3.CoercionRolled
    | _ua3.CoercionAnswered
    | _ua3.ConflictStarted
    | _ua3.GridironRolled
    | _ua3.PenaltyTaken
    | _ua3.ConflictEnded
    | _ua3.WoundsTaken
    | _ua3.StatusChanged
    | _ua3.Aimed
    | _ua3.ActionDeclared
    | _ua3.AttackRolled
    | _ua3.AttackedWithWeapon
    | _ua3.FightEnded
    | _ua3.GrappleSwapped
    | _ua3.GrappleTurn
    | _ua3.HelmetSpent
    | _ua3.OpeningGiven
    | _ua3.OrderSet
    | _ua3.Restrained
    | _ua3.RoundStarted
    | _ua3.SuppressionLaid
    | _ua3.ThoughtDead
    | _ua3.ThrownDown
    | _ua3.TurnEnded
    | _ua3.WeaponDropped
    | _ua3.WeaponJammed
    | _ua3.WeaponReadied
)

EVENT_TYPES: tuple[type[EventBase], ...] = (
    EncounterStarted,
    CombatantJoined,
    GmRuling,
    CheckRolled,
    CommandRecorded,
    CommandUndone,
    CommandRedone,
    CommandAmended,
    MadnessCheckResolved,
    NotchMarked,
    NeurosisMarked,
    ReactionTaken,
    ReactionEnded,
    TherapyGiven,
    PassionSpent,
    InitiativeSet,
    TieBroken,
    OrderSet,
    AmbushStarted,
    RoundStarted,
    Declared,
    TurnStarted,
    TurnSkipped,
    AttackResolved,
    WoundsInflicted,
    StatusChanged,
    PermanentDamage,
    WeaponDrawn,
    WeaponJammed,
    JamCleared,
    WeaponLost,
    ConditionApplied,
    CherryTaken,
    KnockedDown,
    StoodUp,
    GripTaken,
    GripReleased,
    DodgeDeclared,
    MonkeyDodged,
    SuppressiveFireLaid,
    DidNothing,
    FightEnded,
    InjuryTreated,
    Convalesced,
    _ua3.CharacterJoined,
    _ua3.AbilityChecked,
    _ua3.StressChecked,
    _ua3.HardenedNotchMarked,
    _ua3.FailedNotchMarked,
    _ua3.TraumaMarked,
    _ua3.BurnedOut,
    _ua3.ReactionTaken,
    _ua3.ReactionEnded,
    _ua3.PassionSpent,
    _ua3.CoercionRolled,
    _ua3.CoercionAnswered,
    _ua3.ConflictStarted,
    _ua3.GridironRolled,
    _ua3.PenaltyTaken,
    _ua3.ConflictEnded,
    _ua3.WoundsTaken,
    _ua3.StatusChanged,
    _ua3.Aimed,
    _ua3.ActionDeclared,
    _ua3.AttackRolled,
    _ua3.AttackedWithWeapon,
    _ua3.FightEnded,
    _ua3.GrappleSwapped,
    _ua3.GrappleTurn,
    _ua3.HelmetSpent,
    _ua3.OpeningGiven,
    _ua3.OrderSet,
    _ua3.Restrained,
    _ua3.RoundStarted,
    _ua3.SuppressionLaid,
    _ua3.ThoughtDead,
    _ua3.ThrownDown,
    _ua3.TurnEnded,
    _ua3.WeaponDropped,
    _ua3.WeaponJammed,
    _ua3.WeaponReadied,
)
TYPE_BY_TAG: dict[str, type[EventBase]] = {t.__struct_config__.tag: t for t in EVENT_TYPES}  # type: ignore[misc]

encoder = msgspec.json.Encoder()
#: Decodes any event of its current schema version (one decoder, reused everywhere).
event_decoder = msgspec.json.Decoder(Event)

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
#: (tag, from_version) → function turning that version's JSON object into the next version's.
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def upcaster(tag: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register a function that upcasts a stored `tag` event from `from_version` to the next."""

    def register(fn: Upcaster) -> Upcaster:
        UPCASTERS[(tag, from_version)] = fn
        return fn

    return register


def tag_of(event: EventBase) -> str:
    return str(type(event).__struct_config__.tag)


def version_of(tag: str) -> int:
    kind = TYPE_BY_TAG.get(tag)
    if kind is None:
        raise UnknownEventType(f"unknown event type {tag!r}", hint="is this log from a newer engine?")
    return kind.schema_version


def encode(event: EventBase) -> bytes:
    return encoder.encode(event)


def decode(data: bytes | str, *, schema_version: int | None = None, where: str = "") -> Event:
    """Decode one event; older schema versions are upcast first. Errors name `where`."""
    try:
        if schema_version is None:
            return event_decoder.decode(data)
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
            raw = step(raw)
        event: Event = msgspec.convert(raw, Event)
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
    "encode",
    "tag_of",
    "upcaster",
    "version_of",
]

from engine.events import upcasters as _upcasters  # noqa: E402, F401  (registers them)
