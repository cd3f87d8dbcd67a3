"""The record of a command, so a session can undo, redo and amend it (DESIGN: Undo)."""

from typing import ClassVar, Generic, TypeVar

from engine.commands.base import CommandBase
from engine.events.base import EventBase

#: The command a record holds: a log of one ruleset decodes it as one of that ruleset's commands
#: (`CommandRecorded[the union of its commands]`); `CommandRecorded[CommandBase]` is the record
#: of any command.
C = TypeVar("C", bound=CommandBase, covariant=True)


class CommandRecorded(EventBase, Generic[C], frozen=True, kw_only=True, tag="command_recorded"):
    """A command and every die it used, first in its batch of events.

    `table_dice` are faces a person gave; `seeded_from`/`seeded_count` locate the faces drawn
    from the seeded source, so a reopened session draws fresh dice and an amend can reuse them.
    v2: a `start` command may carry its `scenario_document` (v1 records upcast unchanged).
    """

    schema_version: ClassVar[int] = 2

    id: int
    issued: C
    dice_used: tuple[int, ...] = ()
    table_dice: int = 0
    seeded_from: int = 0
    seeded_count: int = 0

    def explain(self) -> str:
        kind = str(type(self.issued).__struct_config__.tag).replace("_", " ")
        actor = str(getattr(self.issued, "actor", "") or "")
        target = str(getattr(self.issued, "target", "") or "")
        who = f"{actor} " if actor else ""
        at = f" → {target}" if target else ""
        dice = f", dice {','.join(map(str, self.dice_used))}" if self.dice_used else ""
        return f"Command #{self.id}: {who}{kind}{at}{dice}."


class CommandUndone(EventBase, frozen=True, kw_only=True, tag="command_undone"):
    """DESIGN law 4: command `id`'s events no longer count; nothing is deleted."""

    id: int
    summary: str = ""

    def explain(self) -> str:
        what = f" ({self.summary})" if self.summary else ""
        return f"GM undoes command #{self.id}{what}; its events stay in the log, struck out."


class CommandRedone(EventBase, frozen=True, kw_only=True, tag="command_redone"):
    """DESIGN law 4: an undone command `id` counts again, with the same events and dice."""

    id: int
    summary: str = ""

    def explain(self) -> str:
        what = f" ({self.summary})" if self.summary else ""
        return f"GM redoes command #{self.id}{what}."


class CommandAmended(EventBase, frozen=True, kw_only=True, tag="command_amended"):
    """DESIGN law 5: command `id` is replaced; it and every later command (`superseded`) were
    re-decided with their recorded dice as the commands `replacements`, appended after this."""

    id: int
    superseded: tuple[int, ...]
    replacements: tuple[int, ...]
    note: str = ""

    def explain(self) -> str:
        redone = ", ".join(f"#{i}" for i in self.superseded)
        new = ", ".join(f"#{i}" for i in self.replacements)
        why = f": {self.note}" if self.note else ""
        return f"GM amends command #{self.id}{why}; {redone} re-decided with their own dice as {new}."


#: Session markers: they change which commands count, not the encounter itself.
MARKERS = (CommandUndone, CommandRedone, CommandAmended)
#: The same, to look an event's type up in: on a long log much faster than `isinstance` (a struct
#: class's metaclass is not `type`, so each `isinstance` is a call of its `__instancecheck__`).
MARKER_TYPES = frozenset(MARKERS)
