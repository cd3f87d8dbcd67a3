"""The current session (`ua session use NAME`): kept beside the database in `DB.current`, so a GM
may leave NAME out of every `ua session` command.

The `session` group (`SessionGroup`) fills NAME in before a command parses its arguments: when
a current session is set and the command's first argument is not a session of the database, the
current one goes first. (A word that names a session of the database counts as NAME given: a combatant named
like a session needs NAME before it.)
"""

from __future__ import annotations

import os
from pathlib import Path

#: Commands whose first argument is not a session's name.
NO_NAME = frozenset({"new", "list", "use", "import"})


def current_file(db: Path) -> Path:
    return db.with_name(db.name + ".current")


def read_current(db: Path) -> str | None:
    """The current session's name for `db`, if one is set."""
    try:
        text = current_file(db).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text or None


def write_current(db: Path, name: str) -> None:
    from engine.safefile import write_file

    write_file(current_file(db), name.encode("utf-8") + b"\n", force=True)


def _db_of(args: list[str]) -> Path:
    from engine.cli.session.options import DEFAULT_DB

    for i, arg in enumerate(args):
        if arg == "--db" and i + 1 < len(args):
            return Path(args[i + 1])
        if arg.startswith("--db="):
            return Path(arg[len("--db=") :])
    return Path(os.environ.get("UA_DB") or DEFAULT_DB)


def _sessions(db: Path) -> set[str] | None:
    """The sessions of `db`; None if it cannot be read (the command itself will say why)."""
    if not db.is_file():
        return set()
    from engine.store.sqlite import SqliteStore

    try:
        return set(SqliteStore(db).streams())
    except Exception:
        return None


def with_current(command: str, args: list[str]) -> list[str]:
    """`args` of `ua session COMMAND …` with the current session put first when NAME is left out."""
    if command in NO_NAME or "--help" in args:
        return args
    db = _db_of(args)
    current = read_current(db)
    if current is None:
        return args
    words = {a for a in args if not a.startswith("-")}
    if current in words:
        return args
    sessions = _sessions(db)
    if sessions is None or words & sessions:
        return args
    return [current, *args]
