"""Every error the engine raises on purpose derives from EngineError.

The CLI turns an EngineError into one line (message, where, hint) and a non-zero exit code;
anything else escaping is a bug.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    exit_code = 2

    def __init__(self, message: str, *, where: str = "", hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.hint = hint

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        return f"{text} (hint: {self.hint})" if self.hint else text


class InvalidInput(EngineError):
    """Raised when a value a person gave (option, file, field) breaks a rule of its format."""


class DiceError(InvalidInput):
    """Raised when dice entered by a person are not valid faces, or run out."""


class Refused(EngineError):
    """Raised by `decide` when a command is illegal in the current state; nothing is recorded."""

    exit_code = 3


class UnknownEventType(EngineError):
    """Raised when a stored or decoded event has a type tag the engine does not know."""


class OutOfOrder(EngineError):
    """Raised when an event's position is not exactly the folded state's version + 1."""


class CorruptLog(EngineError):
    """Raised when a stored log cannot be read or folded; names the position or line."""


class ConcurrencyConflict(EngineError):
    """Raised when an append's expected version is not the stream's current version."""

    exit_code = 4


class VersionConflict(ConcurrencyConflict):
    """Raised when a session is not at the version a caller expected (it said which it had read,
    or another writer got there first): nothing was written; `version` is the session's now."""

    def __init__(self, message: str, *, version: int, where: str = "", hint: str = "") -> None:
        super().__init__(message, where=where, hint=hint)
        self.version = version


class SessionExists(InvalidInput):
    """Raised when a new session (or an import) is given the name of one that exists."""


class CommandIdReused(InvalidInput):
    """Raised when a command id already recorded for one command comes with another command
    (a retry is the same command again; two commands are never merged, law 7)."""


class TornTail(CorruptLog):
    """Raised/reported when a JSON-lines log ends in an incomplete line (a crash mid-append)."""


class OutputError(EngineError):
    """Raised when a file the engine was asked to write cannot be written, or would replace
    something it must not (an existing file without --force, a database, a directory, a device)."""

    exit_code = 1


class NotFound(EngineError):
    """Raised when a named stream, session, file or event does not exist."""
