"""The frozen base of every command, and of every command that brings a combatant in."""

import msgspec


class CommandBase(msgspec.Struct, frozen=True, gc=False, kw_only=True, tag_field="command", forbid_unknown_fields=True):
    """An intent. `dice` are faces rolled at the table, used before seeded ones."""

    dice: tuple[int, ...] = ()


class JoinCommand(CommandBase, frozen=True, kw_only=True):
    """A combatant joins, on a side (each ruleset's own command, with what else it needs): what
    shared parts (a session's roster, its ids) read of any ruleset's joins."""

    id: str
    side: str
