"""`engine.safefile.write_file`: never clobbers, never writes over anything but a regular file,
atomic, and every file-system failure is one `OutputError`."""

from __future__ import annotations

import errno
import os
import socket
import sqlite3
from pathlib import Path

import pytest

from engine import safefile
from engine.errors import OutputError
from engine.safefile import check_target, write_file


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".ua-"))


def test_a_new_file_gets_the_bytes(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    assert write_file(target, [b"one\n", b"two\n"]) == 8
    assert target.read_bytes() == b"one\ntwo\n"
    assert leftovers(tmp_path) == []


def test_an_existing_file_is_refused_and_kept_without_force(tmp_path: Path) -> None:
    target = tmp_path / "scenario.toml"
    target.write_bytes(b"precious")
    with pytest.raises(OutputError, match="already exists") as refused:
        write_file(target, b"new")
    assert "--force" in refused.value.hint
    assert target.read_bytes() == b"precious"
    assert leftovers(tmp_path) == []


def test_force_replaces_a_regular_file_atomically(tmp_path: Path) -> None:
    target = tmp_path / "old.jsonl"
    target.write_bytes(b"old")
    inode = target.stat().st_ino
    write_file(target, b"new", force=True)
    assert target.read_bytes() == b"new"
    assert target.stat().st_ino != inode  # a new file took the name: never a half-written old one


def test_a_sqlite_database_is_never_replaced_even_with_force(tmp_path: Path) -> None:
    db = tmp_path / "sessions.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    for force in (False, True):
        with pytest.raises(OutputError, match="SQLite database"):
            write_file(db, b"{}\n", force=force)
    assert db.read_bytes() == before


def test_a_sqlite_write_ahead_log_is_never_replaced(tmp_path: Path) -> None:
    wal = tmp_path / "sessions.sqlite-wal"
    wal.write_bytes(b"\x37\x7f\x06\x82" + b"\x00" * 28)
    with pytest.raises(OutputError, match="SQLite"):
        write_file(wal, b"x", force=True)


@pytest.mark.parametrize("kind", ["directory", "fifo", "symlink", "socket"])
def test_anything_but_a_regular_file_is_refused_even_with_force(kind: str, tmp_path: Path) -> None:
    target = tmp_path / "target"
    if kind == "directory":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        (tmp_path / "real").write_bytes(b"real")
        target.symlink_to(tmp_path / "real")
    else:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(target))
        server.close()
    with pytest.raises(OutputError, match="only a regular file"):
        write_file(target, b"x", force=True)
    if kind == "symlink":
        assert (tmp_path / "real").read_bytes() == b"real"


def test_a_device_node_is_refused_even_with_force() -> None:
    with pytest.raises(OutputError, match="character device"):
        write_file("/dev/null", b"x", force=True)


def test_a_missing_folder_is_one_line_with_a_hint(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="No such file") as failed:
        write_file(tmp_path / "no" / "such" / "out.jsonl", b"x")
    assert failed.value.hint == "create the folder first"


def test_a_file_as_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "plain").write_bytes(b"")
    with pytest.raises(OutputError):
        write_file(tmp_path / "plain" / "out.jsonl", b"x")


def test_a_name_too_long_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="too long") as failed:
        write_file(tmp_path / ("x" * 300), b"x")
    assert failed.value.hint == "use a shorter file name"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_a_folder_without_write_permission_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="ermission"):
            write_file(folder / "out.jsonl", b"x")
    finally:
        folder.chmod(0o700)


def test_a_full_disk_is_one_line_and_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(safefile.os, "write", full)
    target = tmp_path / "out.jsonl"
    with pytest.raises(OutputError, match="No space left") as failed:
        write_file(target, b"x" * 1000)
    assert "disk is full" in failed.value.hint
    assert not target.exists()
    assert leftovers(tmp_path) == []


def test_a_failed_fsync_leaves_the_old_file_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.jsonl"
    target.write_bytes(b"old")

    def broken(fd: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(safefile.os, "fsync", broken)
    with pytest.raises(OutputError, match="Input/output error"):
        write_file(target, b"new", force=True)
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


def test_a_file_created_while_writing_is_not_clobbered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.jsonl"
    real_fsync = os.fsync

    def someone_else_writes(fd: int) -> None:
        real_fsync(fd)
        if not target.exists():
            target.write_bytes(b"theirs")

    monkeypatch.setattr(safefile.os, "fsync", someone_else_writes)
    with pytest.raises(OutputError, match="appeared while writing"):
        write_file(target, b"ours")
    assert target.read_bytes() == b"theirs"


def test_check_target_refuses_before_any_work(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.write_bytes(b"")
    with pytest.raises(OutputError):
        check_target(target)
    assert check_target(target, force=True) == target
    assert check_target(tmp_path / "free") == tmp_path / "free"
