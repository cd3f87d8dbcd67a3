"""Reading sessions: finding them in a store, their state now or at any event, their log
narrated. `SessionService` (running commands) builds on it; a command that only reads a session
(`ua session state`, `ua session log`) needs no more than this."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import InvalidInput, NotFound
from engine.session.history import Record, command_entries
from engine.session.live import LiveEncounter
from engine.store.base import EventStore

if TYPE_CHECKING:
    from engine.session.audit import Line


class SessionReader:
    """Sessions in one store, read. `where` names the store in messages (a database's path)."""

    def __init__(self, store: EventStore, *, where: str = "") -> None:
        self.store = store
        self.where = where

    def sessions(self) -> list[tuple[str, int]]:
        """(name, events) of every session in the store."""
        return [(n, self.store.version(n)) for n in self.store.streams()]

    def open(self, name: str) -> LiveEncounter:
        """The live session `name`, or `NotFound`."""
        session = LiveEncounter(self.store, name)
        if not session.version:
            where = f" in {self.where}" if self.where else ""
            raise NotFound(
                f"no session {name!r}{where}", hint="ua session list; or ua session new NAME --scenario FILE"
            )
        return session

    def state(self, name: str, *, at: int | None = None) -> Any:
        """The session's state (of its ruleset's type) now, or right after event `at`."""
        session = self.open(name)
        if at is None:
            return session.state
        if not 1 <= at <= session.version:
            raise InvalidInput(f"no event {at} in session {name!r}", where="--at", hint=f"1 to {session.version}")
        return session.state_at(at)

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

    def narrate(self, name: str, **filters: Any) -> list[Line]:
        """The session narrated event by event (`engine.session.audit.narrate`'s filters)."""
        from engine.session.audit import narrate

        return narrate(self.open(name).records, **filters)

    def records(self, name: str) -> list[Record]:
        """Every (position, event) of the session."""
        return self.open(name).records
