"""`ua session …`: a GM runs an encounter at the table, one command per action, on SQLite.

Every action takes dice rolled at the table (`--dice 4,7`) or draws from the session's seed, and
`--amend N` to replace command N instead (re-resolving what followed with the same dice). The
commands live in one module per concern; each goes through `engine.session.service`. This
module only registers them; the group builds just the one invoked (a faster start).
"""

from __future__ import annotations

from typing import Any, ClassVar

import typer

from engine.cli.lazy import LazyGroup
from engine.cli.session.current import with_current

HELP = "Live sessions at the table: one command per GM action, stored in SQLite."

#: command name → (module of this package, function), in the order `--help` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "new": ("setup", "new"),
    "list": ("reading", "list_sessions"),
    "use": ("table", "use"),
    "add": ("table", "add"),
    "begin": ("setup", "begin"),
    "declare": ("combat", "declare"),
    "focus": ("combat", "focus"),
    "keep-dodging": ("combat", "keep_dodging"),
    "release": ("combat", "release"),
    "keep-suppressing": ("combat", "keep_suppressing"),
    "npc": ("table", "npc"),
    "attack": ("combat", "attack"),
    "dodge": ("combat", "dodge"),
    "clear-jam": ("combat", "clear_jam"),
    "stand": ("combat", "stand"),
    "break-free": ("combat", "break_free"),
    "squeeze": ("combat", "squeeze"),
    "flee": ("combat", "flee"),
    "surrender": ("combat", "surrender"),
    "draw": ("combat", "draw"),
    "nothing": ("combat", "nothing"),
    "suppress": ("combat", "suppress"),
    "next": ("combat", "next_turn"),
    "end": ("combat", "end"),
    "check": ("checks", "check"),
    "roll": ("checks", "roll"),
    "madness": ("checks", "madness"),
    "calm": ("table", "calm"),
    "therapy": ("checks", "therapy"),
    "passion": ("checks", "passion"),
    "heal": ("care", "heal"),
    "rest": ("care", "rest"),
    "ruling": ("ruling", "ruling"),
    "undo": ("history", "undo"),
    "redo": ("history", "redo"),
    "amend": ("history", "amend_json"),
    "state": ("reading", "state"),
    "log": ("reading", "log"),
    "export": ("setup", "export"),
    "import": ("setup", "import_"),
    "fork": ("history", "fork"),
    "play": ("play", "play"),
    "invite": ("participants", "invite"),
    "participants": ("participants", "participants"),
    "revoke": ("participants", "revoke"),
    "requests": ("requests", "requests"),
    "give": ("requests", "give"),
    "cancel": ("requests", "cancel"),
    "prefer": ("requests", "prefer"),
    # the third edition's actions (ua3)
    "ability": ("ua3", "ability"),
    "stress": ("ua3", "stress"),
    "coerce": ("ua3", "coerce"),
    "answer": ("ua3", "answer"),
    "conflict": ("ua3", "conflict"),
    "gridiron": ("ua3", "gridiron"),
    "conflict-end": ("ua3", "conflict_end"),
    "threat-gone": ("ua3", "threat_gone"),
    "declare-action": ("ua3_combat", "declare_action"),
    "act": ("ua3_combat", "act"),
}


class SessionGroup(LazyGroup):
    """The `session` group: builds the command invoked, and fills in the current session
    (`engine.cli.session.current`)."""

    #: the table above, by full module name
    COMMANDS: ClassVar[dict[str, tuple[str, str]]] = {
        name: (f"{__name__}.{module}", attr) for name, (module, attr) in COMMANDS.items()
    }

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name, command, rest = super().resolve_command(ctx, args)
        if name is not None:
            rest = with_current(name, list(rest))
        return name, command, rest


app = typer.Typer(cls=SessionGroup, help=HELP, no_args_is_help=True, rich_markup_mode=None)
