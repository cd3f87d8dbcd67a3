"""The `Ruleset` interface: everything an edition of the rules brings, and the only way shared
parts (sessions, the simulator, the CLI, the service) reach edition-specific pieces.

A ruleset is one value in the registry (`engine.rules.registry`), never a side effect of an
import (STYLE: python-chess variants). It owns its working table and the appliers that fold
events into it, its command handlers, its state type, and how its harm and turn order look to
shared parts.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from importlib import import_module
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from engine.commands.base import CommandBase
from engine.dice.source import DiceSource
from engine.errors import CorruptLog, EngineError, OutOfOrder, Refused, UnknownEventType
from engine.events.base import EventBase
from engine.events.commands import MARKER_TYPES
from engine.rules.script import Script
from engine.rules.sink import Sink
from engine.rules.view import View
from engine.rules.words import Words


class Table(Protocol):
    """What shared parts may read of any ruleset's working table."""

    version: int
    seed: int | None

    @property
    def rows(self) -> Sequence[Any]:
        """The combatants, in the order they joined (each with its `id`, `side`, `status` and
        the wounds it has `dealt` this fight)."""
        ...

    @property
    def result(self) -> Any:
        """How the fight ended (its `winner`), or None."""
        ...

    def clone(self) -> Any: ...

    @property
    def phase(self) -> str: ...

    @property
    def round(self) -> int: ...

    def freeze(self) -> Any: ...

    @property
    def current(self) -> str | None: ...


class State(Protocol):
    """What shared parts may read of any ruleset's stored, immutable state."""

    @property
    def version(self) -> int: ...

    @property
    def ruleset(self) -> str: ...

    @property
    def seed(self) -> int | None: ...

    @property
    def scenario(self) -> str: ...


T = TypeVar("T", bound=Table)
S = TypeVar("S")
Handler = Callable[[Sink[Any], Any, DiceSource], None]


class Ruleset(ABC, Generic[T, S]):
    """One edition: its table (`thaw`), appliers, handlers and views. Subclasses give the
    edition-specific parts; deciding and folding are written here once for every edition."""

    def __init__(
        self,
        *,
        name: str,
        title: str,
        state_type: type[Any],
        appliers: Mapping[type[EventBase], Callable[[T, Any], None]],
        handlers: Mapping[type[CommandBase], Handler],
        script_module: str,
        words: Words | None = None,
        standing_choices: Mapping[str, tuple[str, ...]] | None = None,
    ) -> None:
        #: the name scenario files and `StartEncounter` use ("ua2")
        self.name = name
        self.title = title
        #: the stored state type (what `freeze` gives; snapshots decode into it)
        self.state_type = state_type
        #: what each event type does to the table (folding a log uses them; so do the rules)
        self.appliers = appliers
        #: the rule deciding each command type
        self.handlers = handlers
        #: the module whose `SCRIPT` is how its scripted combatants fight (batches, NPC turns):
        #: its tactics, imported when first used (reading a session needs none)
        self.script_module = script_module
        #: how its reports, plots and the viewer name what they show (default: the second edition's)
        self.words = Words() if words is None else words
        #: the choices its rules leave to a player (`engine.dice.source.choosing`) that a player
        #: may set once for all (T-3): key → the values it takes
        self.standing_choices: Mapping[str, tuple[str, ...]] = {"flip": ("better",), **(standing_choices or {})}
        self._script: Script | None = None

    @property
    def script(self) -> Script:
        """How its scripted combatants fight (`script_module`'s `SCRIPT`)."""
        found = self._script
        if found is None:
            found = self._script = import_module(self.script_module).SCRIPT
        return found

    # -- the edition's parts ------------------------------------------------------------------

    @abstractmethod
    def thaw(self, state: S | None) -> T:
        """A working table for `state` (an empty encounter when None)."""

    @abstractmethod
    def acting_now(self, state: S) -> str | None:
        """Who the next action belongs to, or None (declarations come first, or it is over)."""

    def up_next(self, state: S) -> str | None:
        """Who acts next: whose turn it is, or, where a round opens with declarations, who will
        act first once they close (by default, whose turn it is)."""
        return self.acting_now(state)

    @abstractmethod
    def view(self, state: S, *, title: str = "") -> View:
        """The state as a GM reads it, as plain data (the CLI renders any ruleset's the same way)."""

    @abstractmethod
    def state_json(self, state: S) -> dict[str, Any]:
        """The state as JSON, with what a GM reads off it (derived, not stored) added."""

    @abstractmethod
    def state_diff(self, before: S, after: S) -> list[str]:
        """What changed between two states, one line each (undo, redo, amend show it)."""

    def stated_choices(self, command: CommandBase) -> frozenset[str]:
        """The keys of the choices `command` can state (`with_choices`): only those are asked of
        a player while it is decided; the others are taken as an automated combatant takes them.
        Every edition's: the orientation of its actor's roll, where it has `flipped` (C-11),
        keyed `flip:ACTOR`."""
        fields = command.__struct_fields__
        actor = getattr(command, "actor", "") if "flipped" in fields else ""
        return frozenset({f"flip:{actor}"}) if actor else frozenset()

    def with_choices(self, command: CommandBase, made: Sequence[tuple[str, str, str]]) -> CommandBase:
        """`command` stating the choices its players made while it was decided ((who, key,
        value), T-1), so that it decides the same again; an edition whose rules ask for other
        choices (`engine.dice.source.choosing`) says how its commands state them."""
        flips = [value for who, key, value in made if key == "flip" and who == getattr(command, "actor", None)]
        rest = [m for m in made if m[1] != "flip"]
        if rest:
            raise NotImplementedError(f"the {self.name} rules asked for choices they cannot state: {rest}")
        return msgspec.structs.replace(command, flipped=flips[0] == "flipped") if flips else command

    # -- written once -------------------------------------------------------------------------

    def sink(self, table: T, *, record: bool = True) -> Sink[T]:
        return Sink(table, self.appliers, record=record)

    def handle(self, sink: Sink[T], command: CommandBase, dice: DiceSource) -> None:
        """Decide `command` on the sink's table: its facts go to the sink, or `Refused`."""
        handler = self.handlers.get(type(command))
        if handler is None:
            tags = sorted(str(kind.__struct_config__.tag) for kind in self.handlers)
            raise Refused(
                f"the {self.name} rules have no command {command.__struct_config__.tag!r} (another edition's?)",
                hint=f"{self.name} commands: {', '.join(tags)}",
            )
        handler(sink, command, dice)

    def decide(self, state: S, command: CommandBase, dice: DiceSource) -> tuple[list[EventBase], S]:
        """The events a command produces on `state` and the state after them, or `Refused`. An
        encounter not started yet (version 0, whichever ruleset's empty state) is this one's."""
        sink = self.sink(self.thaw(state if state.version else None))  # type: ignore[attr-defined]
        self.handle(sink, command, dice)
        return sink.recorded, sink.table.freeze()

    def fold(self, events: Iterable[EventBase], state: S | None = None) -> S:
        """Apply `events` in order (each one version on) from `state` or an empty encounter."""
        table = self.thaw(state)
        appliers = self.appliers
        for event in events:
            apply_one(appliers, table, event)
        frozen: S = table.freeze()
        return frozen


def apply_one(
    appliers: Mapping[type[EventBase], Callable[[Any, Any], None]], table: Table, event: EventBase, *, where: int = 0
) -> None:
    """Apply one event to a table, one version on; a fact that does not apply is a corrupt log
    naming its position (law 6: a decided event always applies)."""
    try:
        applier = appliers[type(event)]  # (a mapping's `get` is a slower, generic call when compiled)
    except KeyError:
        raise UnknownEventType(f"{_event_at(where)}: no reducer for event type {type(event).__name__}") from None
    try:
        applier(table, event)
    except EngineError:
        raise
    except Exception as exc:
        raise CorruptLog(f"{_event_at(where)} ({type(event).__name__}) does not fold: {exc!r}") from exc
    table.version += 1


def apply_effective(
    appliers: Mapping[type[EventBase], Callable[[Any, Any], None]],
    table: Table,
    records: Iterable[tuple[int, EventBase]],
    skip: AbstractSet[int],
) -> None:
    """Apply a session log's (position, event) records in order, except its markers (undo, redo,
    amend) and the events of the commands in `skip`: the ones that count. Positions must run 1,
    2, 3, … (law 6: a gap names the position)."""
    expected = 1
    for position, event in records:
        if position != expected:
            raise OutOfOrder(f"event at position {position} where {expected} was expected", hint="the log has a gap")
        expected += 1
        if type(event) in MARKER_TYPES or event.command in skip:
            continue
        apply_one(appliers, table, event, where=position)


def _event_at(where: int) -> str:
    """How an error names the event it is about: by position when it has one."""
    return f"event at position {where}" if where else "an event"
