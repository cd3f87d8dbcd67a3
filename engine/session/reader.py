"""Reading sessions: finding them in a store, keeping each open between calls under a lock of its
own, their state now or at any event, their log narrated. `SessionService` (running commands)
builds on it; a command that only reads a session (`ua session state`, `ua session log`) needs
no more than this."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from engine.errors import InvalidInput
from engine.session.front import Front
from engine.session.history import Record, command_entries
from engine.session.live import LiveEncounter
from engine.store.base import EventStore

if TYPE_CHECKING:
    from engine.session.audit import Line

F = TypeVar("F", bound=Callable[..., Any])


def one_at_a_time(method: F) -> F:
    """`method(self, name, …)` with the session `name`'s lock held: one caller at a time works on
    a session's live encounter (the service keeps it open between calls; a server's threads
    share it). The lock is re-entrant: a method may call another. Other processes' writes are
    decided by the store's expected version."""

    @functools.wraps(method)
    def locked(self: SessionReader, name: str, *args: Any, **kwargs: Any) -> Any:
        with self.lock(name):
            return method(self, name, *args, **kwargs)

    return locked  # type: ignore[return-value]


class SessionReader:
    """Sessions in one store, read. `where` names the store in messages (a database's path);
    `front` is the front end's (`Front`: the CLI's by default).

    Each session's live encounter is kept open between calls while no other writer changes it
    (a server answers each command without reading the log again); the methods that use it hold
    the session's lock, so it is safe for a server's threads."""

    def __init__(self, store: EventStore, *, where: str = "", front: Front | None = None) -> None:
        self.store = store
        self.where = where
        self.front = front or Front()
        self._live: dict[str, LiveEncounter] = {}
        self._locks: dict[str, threading.RLock] = {}
        self._registry = threading.Lock()

    def lock(self, name: str) -> threading.RLock:
        """The session `name`'s lock (see `one_at_a_time`)."""
        with self._registry:
            found = self._locks.get(name)
            if found is None:
                found = self._locks[name] = threading.RLock()
            return found

    def sessions(self) -> list[tuple[str, int]]:
        """(name, events) of every session in the store."""
        return [(n, self.store.version(n)) for n in self.store.streams()]

    def open(self, name: str) -> LiveEncounter:
        """The live session `name`, or `NotFound`: the one kept open if no writer changed the
        session since, or if it is holding a user action's commands to store them as one append
        (`LiveEncounter.atomic`; hold `lock(name)` while using it where threads share the service)."""
        session = self._live.get(name)
        if session is not None and session.holding:
            return session
        version = self.store.version(name)
        if not version:
            self._live.pop(name, None)
            raise self.front.missing(name, self.where)
        if session is None or session.version != version:
            session = self._live[name] = LiveEncounter(self.store, name)
        return session

    @one_at_a_time
    def now(self, name: str, *, at: int | None = None) -> tuple[int, Any]:
        """The session's version now, and its state now (or right after event `at`: `state`)."""
        return self.open(name).version, self.state(name, at=at)

    @one_at_a_time
    def state(self, name: str, *, at: int | None = None) -> Any:
        """The session's state (of its ruleset's type) now, or right after event `at` (from the
        front end's first event: 1, or 0 for the state before any)."""
        session = self.open(name)
        if at is None:
            return session.state
        first = self.front.first_event
        if not first <= at <= session.version:
            raise InvalidInput(
                f"no event {at} in session {name!r}",
                where=self.front.at_where(name, fork=False),
                hint=f"{first} to {session.version}",
            )
        return session.state_at(at)

    @one_at_a_time
    def position(self, name: str, text: str, *, where: str = "") -> int:
        """The event position `text` names: `N` is event N; `#N` (or `cN`) is the last event of
        command #N, a command that counts now (the number `session log` heads it with)."""
        text = text.strip()
        if text[:1] in ("#", "c", "C"):
            digits = text[1:]
            if not digits.isdigit():
                raise InvalidInput(
                    f"not a command number: {text!r}", where=where, hint="#9 is command 9; 27 is event 27"
                )
            number = int(digits)
            records = self.open(name).records
            counting = [e.id for e in command_entries(records) if e.status == "effective"]
            if number not in counting:
                shown = ", ".join(f"#{i}" for i in counting[-12:]) or "none"
                raise InvalidInput(
                    f"command #{number} is not one that counts now in session {name!r}",
                    where=where,
                    hint=f"commands that count (the latest): {shown}",
                )
            return max(p for p, e in records if e.command == number)
        if not text.removeprefix("-").isdigit():
            raise InvalidInput(
                f"not an event or command number: {text!r}", where=where, hint="27 (event) or #9 (command)"
            )
        return int(text)

    @one_at_a_time
    def narrate(self, name: str, **filters: Any) -> list[Line]:
        """The session narrated event by event (`engine.session.audit.narrate`'s filters)."""
        from engine.session.audit import narrate

        return narrate(self.open(name).records, **filters)

    @one_at_a_time
    def records(self, name: str) -> list[Record]:
        """Every (position, event) of the session (a copy, to read while others write)."""
        return list(self.open(name).records)
