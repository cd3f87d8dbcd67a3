"""What differs between the session service's front ends (the CLI, the HTTP API): how commands
come to it, and the words of the errors it raises about sessions."""

from __future__ import annotations

from engine.errors import (
    CommandIdReused,
    EngineError,
    NotFound,
    Refused,
    SessionExists,
    VersionConflict,
)


class Front:
    """What differs between the front ends of the service: how commands come to it, and the words
    of the errors it raises about sessions. This one is the CLI's (hints name `ua session …`
    commands, places name its options); the HTTP API has its own (`engine.service.sessions`),
    which words them as requests and `$.path`s. The session logic is the same for both."""

    #: Commands typed by people at the table: each combatant's name respelled as the session
    #: spells it, a die given beyond a command's rolls refused (`ExtraFaces`), a refusal hinted
    #: at, and the NPCs' declarations made at a new round's start. A front end whose clients send
    #: the engine's commands as they are (the HTTP API) runs each exactly as sent.
    table: bool = True
    #: The first event a state can be asked right after (0: before the first).
    first_event: int = 1

    def missing(self, name: str, where: str) -> EngineError:
        """No session `name` (in the store `where` names)."""
        in_ = f" in {where}" if where else ""
        return NotFound(f"no session {name!r}{in_}", hint="ua session list; or ua session new NAME --scenario FILE")

    def taken(self, name: str, *, importing: bool) -> EngineError:
        """A new session (or an import, `importing`) given the name of one that exists."""
        hint = "import into a new session name" if importing else "pick another name, or --db another file"
        return SessionExists(f"session {name!r} already exists", hint=hint)

    def changed(self, name: str, version: int) -> EngineError:
        """A command that lost a race with another writer (nothing was written); `version` is the
        session's now."""
        return VersionConflict(
            f"session {name!r} changed while this command ran; nothing was written",
            version=version,
            hint="re-run the command (ua session state shows where it stands now)",
        )

    def refused(self, name: str, exc: Refused, *, amend: bool) -> Refused:
        """A command (or an `amend`) the rules refused, with a hint where the rules gave none."""
        if exc.hint:
            return exc
        hint = f"ua session state {name} shows who can act now"
        if amend:
            hint = f"ua session log {name} shows each command, its number and what it did"
        return Refused(exc.message, where=exc.where, hint=hint)

    def reused(self, exc: CommandIdReused) -> EngineError:
        """A command id already recorded for another command."""
        return exc

    def at_where(self, name: str, *, fork: bool) -> str:
        """Where an event number was given: for a state at N (`--at`), or a fork's point."""
        return name if fork else "--at"

    def bad_log(self, exc: EngineError) -> EngineError:
        """A log to import that cannot be read, folded or re-decided as it was recorded."""
        return exc
