"""The frozen base of every command."""

import msgspec


class CommandBase(msgspec.Struct, frozen=True, gc=False, kw_only=True, tag_field="command", forbid_unknown_fields=True):
    """An intent. `dice` are faces rolled at the table, used before seeded ones."""

    dice: tuple[int, ...] = ()
