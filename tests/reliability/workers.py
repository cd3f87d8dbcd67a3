"""Programs the reliability tests run in separate processes (fresh interpreters, `spawn`): each opens
the files itself, as separate `ua` invocations would, and reports what it was told."""

from __future__ import annotations

import os
import traceback
from pathlib import Path

from engine.commands import RollCheck
from engine.dice.checks import CheckSpec
from engine.errors import ConcurrencyConflict
from engine.session.live import LiveEncounter
from engine.store.jsonl import JsonlStore
from engine.store.sqlite import SqliteStore

STREAM = "s"
OPENERS: dict[str, type[SqliteStore] | type[JsonlStore]] = {"sqlite": SqliteStore, "jsonl": JsonlStore}
#: The same seeded roll from every writer: identical content, different commands.
ROLL = RollCheck(spec=CheckSpec(kind="major", rating=45))


def command_ids(writer: int, count: int) -> list[str]:
    return [f"w{writer}-c{k}" for k in range(count)]


def write_commands(db: Path, writer: int, count: int, out: Path) -> None:
    """Send `count` commands, each until it is acknowledged: on a conflict, re-read the session
    and send the same command id again. Every acknowledged id goes to `out/WRITER.acks` (after
    the store said so); anything else that escapes goes to `out/WRITER.errors`."""
    acks = (out / f"{writer}.acks").open("a", encoding="utf-8")
    try:
        store = SqliteStore(db)
        for command_id in command_ids(writer, count):
            while True:
                try:
                    LiveEncounter(store, STREAM).execute(ROLL, command_id=command_id)
                    break
                except ConcurrencyConflict:
                    continue
            acks.write(command_id + "\n")
            acks.flush()
        # a client that lost its acknowledgements sends its first commands again: done once
        session = LiveEncounter(store, STREAM)
        before = session.version
        for command_id in command_ids(writer, count)[:3]:
            again = session.execute(ROLL, command_id=command_id)
            assert again and session.version == before, "a retry wrote something"
        store.close()
    except BaseException:
        (out / f"{writer}.errors").write_text(traceback.format_exc(), encoding="utf-8")
    finally:
        acks.close()


def append_until_killed(kind: str, path: Path, acks: Path) -> None:
    """Send commands forever; each command id goes to `acks` once `execute` returned for it."""
    store = OPENERS[kind](path)
    out = os.open(acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    session = LiveEncounter(store, STREAM)
    k = session.version
    while True:
        k += 1
        command_id = f"k{os.getpid()}-{k}"
        session.execute(ROLL, command_id=command_id)
        os.write(out, f"{command_id}\n".encode())
