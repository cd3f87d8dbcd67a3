"""The record of a command, so a session can undo, redo and amend it (DESIGN: Undo)."""

from __future__ import annotations

from engine.commands import Command
from engine.events.base import EventBase


class CommandRecorded(EventBase, frozen=True, kw_only=True, tag="command_recorded"):
    """A command and every die it used, first in its batch of events.

    `table_dice` are faces a person gave; `seeded_from`/`seeded_count` locate the faces drawn
    from the seeded source, so a reopened session draws fresh dice and an amend can reuse them.
    """

    id: int
    issued: Command
    dice_used: tuple[int, ...] = ()
    table_dice: int = 0
    seeded_from: int = 0
    seeded_count: int = 0

    def explain(self) -> str:
        kind = type(self.issued).__struct_config__.tag
        dice = f", dice {','.join(map(str, self.dice_used))}" if self.dice_used else ""
        return f"Command #{self.id}: {kind}{dice}."
