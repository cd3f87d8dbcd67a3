"""The commands of a log as `verify` meets them, in log order: each record numbered and its dice
placed as the engine records them, and each undo, redo and amend marker naming what the engine's
own undo, redo or amend would have named at that point (DESIGN laws 4 and 5). Anything else was
not written by the engine: a `Forged` naming its position."""

from __future__ import annotations

from bisect import insort

from engine.commands.base import CommandBase
from engine.events.base import EventBase
from engine.events.commands import CommandAmended, CommandRecorded, CommandRedone, CommandUndone
from engine.session.history import summary_of


class Forged(Exception):
    """What a log says that its commands did not decide, at event `position`."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


class Ledger:
    """Which commands count so far, the next command number and the next seeded die."""

    def __init__(self) -> None:
        self.records: dict[int, CommandRecorded[CommandBase]] = {}
        self.effective: list[int] = []  # ids of the commands that count, in order
        self.redo: list[int] = []  # what `redo` may bring back, latest last
        #: the records an amend re-decides, oldest first, still to come after its marker (the
        #: first, the amended command itself, may be any command: None)
        self.replacing: list[CommandRecorded[CommandBase] | None] = []
        self.amend_at = 0
        self.next_id = 1
        self.dice = 0

    def record(self, record: CommandRecorded[CommandBase], position: int) -> CommandRecorded[CommandBase] | None:
        """Take in a command's record: the record it re-decides for an amend (the same command,
        its dice reused), or None."""
        number = record.id
        if number != self.next_id:
            raise Forged(
                f"command #{number} where #{self.next_id} was due: commands are numbered in the order recorded",
                position,
            )
        if record.command != number:
            raise Forged(f"command #{number}'s record names command {record.command}", position)
        if record.seeded_from != self.dice:
            raise Forged(
                f"command #{number} says its seeded dice began at die {record.seeded_from}, not {self.dice}", position
            )
        if min(record.table_dice, record.seeded_count) < 0 or record.table_dice + record.seeded_count > len(
            record.dice_used
        ):
            raise Forged(
                f"command #{number} counts {record.table_dice} table and {record.seeded_count} seeded dice "
                f"among its {len(record.dice_used)}",
                position,
            )
        replaced = self.replacing.pop(0) if self.replacing else None
        self.records[number] = record
        self.effective.append(number)
        self.redo.clear()
        self.next_id += 1
        self.dice = record.seeded_from + record.seeded_count
        return replaced

    def marker(self, event: EventBase, position: int) -> None:
        """Take in an undo, redo or amend marker, refusing one the engine would not have written."""
        self._amend_done(position)
        if event.command:
            raise Forged(f"a marker names command {event.command}: markers belong to no command", position)
        if isinstance(event, CommandUndone):
            latest = self.effective[-1] if self.effective else None
            now = f"the latest that counts is #{latest}" if latest else "none counts"
            self._names(event, latest, "undo", now, position)
            self.effective.pop()
            self.redo.append(event.id)
        elif isinstance(event, CommandRedone):
            due = self.redo[-1] if self.redo else None
            self._names(
                event, due, "redo", f"#{due} is the one to redo" if due else "there is nothing to redo", position
            )
            self.redo.pop()
            insort(self.effective, event.id)
        elif isinstance(event, CommandAmended):
            self._amended(event, position)

    def finish(self, position: int) -> None:
        """At the end of the log: no amend is left without its replacements."""
        self._amend_done(position)

    def _amended(self, event: CommandAmended, position: int) -> None:
        if event.id not in self.effective:
            raise Forged(f"the amend names command #{event.id}, which does not count", position)
        later = self.effective[self.effective.index(event.id) :]
        if list(event.superseded) != later:
            raise Forged(f"the amend of #{event.id} replaces {_ids(event.superseded)}, not {_ids(later)}", position)
        due = tuple(range(self.next_id, self.next_id + len(later)))
        if event.replacements != due:
            raise Forged(
                f"the amend of #{event.id} names replacements {_ids(event.replacements)}, not {_ids(due)}", position
            )
        self.replacing = [None, *(self.records[number] for number in later[1:])]
        self.amend_at = position
        del self.effective[-len(later) :]
        self.redo.clear()

    def _amend_done(self, position: int) -> None:
        if self.replacing:
            raise Forged(f"the amend at event {self.amend_at} lacks its replacement #{self.next_id}", position)

    def _names(self, event: CommandUndone | CommandRedone, due: int | None, what: str, now: str, position: int) -> None:
        """An undo or redo names the command `due` (`now` says why it must), as it was recorded."""
        if event.id != due:
            raise Forged(f"the {what} names command #{event.id}, but {now}", position)
        said = summary_of(self.records[event.id])
        if event.summary != said:
            raise Forged(f"the marker says command #{event.id} was {event.summary!r}, not {said!r}", position)


def _ids(numbers: tuple[int, ...] | list[int]) -> str:
    return ", ".join(f"#{n}" for n in numbers) or "none"
