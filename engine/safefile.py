"""Writing a file the engine was asked to write, without ever destroying something else.

`write_file(path, data)` is the one way every command writes a file (exports, saved fights, kept
replays, plots, golden rewrites):

- an existing target is refused unless `force`; even with `force`, only a regular file that is
  not a SQLite database (or its WAL) is replaced — never a directory, a symbolic link, a FIFO, a
  socket or a device node;
- a database's own files are never written, whether they exist or not: `D-wal`, `D-shm` and
  `D-journal` when `D` is a SQLite database (replacing the shared-memory index or a journal of an
  open database makes its readers and writers disagree, and loses acknowledged commands);
- the bytes go to a temporary file in the same directory, are fsynced, and only then take the
  target's name (`link` when nothing may be replaced, so a file created meanwhile is not
  clobbered either; `rename` with `force`); the directory is fsynced after;
- every file-system failure (no such directory, a name too long, no permission, a full disk, a
  read-only file system) is one `OutputError` line naming the file, never a traceback, and
  leaves no temporary file behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from engine.errors import OutputError

#: The first bytes of a SQLite database, and of its write-ahead log (either byte order).
SQLITE_HEADER = b"SQLite format 3\x00"
WAL_MAGICS = (b"\x37\x7f\x06\x82", b"\x37\x7f\x06\x83")
#: What SQLite appends to a database's name for the files it keeps beside it.
SQLITE_SIDECARS = ("-wal", "-shm", "-journal")

_HINTS = {
    errno.ENOSPC: "the disk is full; free some space and run it again",
    errno.EDQUOT: "the disk quota is exhausted; free some space and run it again",
    errno.EACCES: "check the folder's permissions, or write somewhere else",
    errno.EPERM: "check the folder's permissions, or write somewhere else",
    errno.EROFS: "the file system is read-only; write somewhere else",
    errno.ENAMETOOLONG: "use a shorter file name",
    errno.ENOENT: "create the folder first",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EISDIR: "name a file, not a folder",
}


def check_target(path: str | os.PathLike[str], *, force: bool = False) -> Path:
    """Refuse now what `write_file(path, …, force=force)` would refuse (so a long run fails
    before it starts, not after); return the path."""
    target = _path(path)
    _check_folder(target)
    _check_existing(target, force)
    return target


def write_file(path: str | os.PathLike[str], data: bytes | Iterable[bytes], *, force: bool = False) -> int:
    """Write `data` (bytes, or chunks of bytes) as the file `path`, atomically; the byte count."""
    import secrets  # here: it loads hashlib, which a store that only checks a name needs not

    target = check_target(path, force=force)
    temporary = target.parent / f".ua-{secrets.token_hex(6)}.tmp"
    size = 0
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        try:
            for chunk in [data] if isinstance(data, bytes) else data:
                write_all(fd, chunk)
                size += len(chunk)
            os.fsync(fd)
        finally:
            os.close(fd)
        _put_in_place(temporary, target, force)
        fsync_directory(target.parent)
    except OSError as exc:
        raise _failure(target, exc) from None
    finally:
        _remove_quietly(temporary)
    return size


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of `data` to `fd` (a write may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def fsync_directory(directory: Path) -> None:
    """Make a creation or rename in `directory` durable (where the file system allows it)."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


# --- checks ----------------------------------------------------------------------------------


def _path(path: str | os.PathLike[str]) -> Path:
    target = Path(path)
    if "\x00" in str(target) or not target.name or target.name in (".", ".."):
        raise OutputError("not a usable file name", where=repr(str(target)), hint="name a file to write")
    return target


def _check_folder(target: Path) -> None:
    folder = target.parent
    try:
        info = folder.stat()
    except OSError as exc:
        raise _failure(target, exc, what="its folder") from None
    if not stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{folder} is not a folder", where=str(target), hint="write into an existing folder")


def _check_existing(target: Path, force: bool) -> None:
    check_not_a_database_sidecar(target)
    try:
        info = target.lstat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _failure(target, exc) from None
    kind = _kind(info.st_mode)
    if kind != "file":
        raise OutputError(f"is {kind}; only a regular file is ever replaced", where=str(target), hint="name a new file")
    if _is_sqlite(target):
        raise OutputError(
            "is a SQLite database; it is never replaced, even with --force",
            where=str(target),
            hint="name a new file",
        )
    if not force:
        raise OutputError("already exists", where=str(target), hint="name a new file, or add --force to replace it")


def check_not_a_database_sidecar(target: Path) -> None:
    """Refuse `D-wal`, `D-shm` or `D-journal` when `D` is a SQLite database, even if the file is
    missing (SQLite makes it when it needs it, and would take whatever is there for its own)."""
    suffix = next((s for s in SQLITE_SIDECARS if target.name.endswith(s) and target.name != s), None)
    if suffix is None:
        return
    database = target.with_name(target.name.removesuffix(suffix))
    try:
        if not database.is_file():
            return
    except OSError:
        return
    if _head(database) == SQLITE_HEADER:
        raise OutputError(
            f"is the {suffix} file of the SQLite database {database}; it is never written, even with --force",
            where=str(target),
            hint="name a new file",
        )


def _kind(mode: int) -> str:
    if stat.S_ISREG(mode):
        return "file"
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def _is_sqlite(target: Path) -> bool:
    head = _head(target)
    return head == SQLITE_HEADER or head[:4] in WAL_MAGICS


def _head(target: Path) -> bytes:
    """The first bytes of `target`, as many as a SQLite header."""
    try:
        with target.open("rb") as handle:
            return handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise OutputError(
            f"cannot read it to check what it is: {exc.strerror or exc}",
            where=str(target),
            hint="name a new file",
        ) from None


# --- writing ---------------------------------------------------------------------------------


def _put_in_place(temporary: Path, target: Path, force: bool) -> None:
    if force:
        _check_existing(target, force=True)  # it may have changed while the data was written
        os.replace(temporary, target)
        return
    try:
        os.link(temporary, target)  # fails if the name was taken meanwhile: nothing is replaced
    except FileExistsError:
        raise OutputError(
            "already exists (it appeared while writing)", where=str(target), hint="name a new file"
        ) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
            raise
        _check_existing(target, force=False)  # no hard links here: check, then rename
        os.rename(temporary, target)


def _remove_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def _failure(target: Path, exc: OSError, *, what: str = "") -> OutputError:
    reason = exc.strerror or str(exc)
    about = f" ({what})" if what else ""
    code = exc.errno if exc.errno is not None else 0
    return OutputError(f"cannot write the file{about}: {reason}", where=str(target), hint=_HINTS.get(code, ""))
