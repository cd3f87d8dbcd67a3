"""What the `ua session` commands share: their options, and parsing what a GM types."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from engine.errors import InvalidInput, NotFound
from engine.store.sqlite import SqliteStore

if TYPE_CHECKING:
    from engine.dice.checks import Shift
    from engine.session.live import LiveEncounter
    from engine.session.reader import SessionReader
    from engine.session.service import SessionService

DEFAULT_DB = "ua-sessions.sqlite"
Db = Annotated[Path, typer.Option("--db", envvar="UA_DB", help="The session database (SQLite), made on first use.")]
Name = Annotated[str, typer.Argument(help="The session's name.", show_default=False)]
Actor = Annotated[str, typer.Argument(help="Who acts.", show_default=False)]
Dice = Annotated[
    list[str] | None,
    typer.Option(
        "--dice",
        help="Faces rolled at the table, tens first: 4,7 (more for later rolls, in the order read); "
        "WHO=9,1 for WHO's rolls in this action, e.g. a played character's dodge (repeatable).",
    ),
]
Amend = Annotated[int | None, typer.Option("--amend", help="Replace command N with this one; later ones re-resolve.")]
Full = Annotated[
    bool, typer.Option("--full", help="With --amend: every event before and after, not only what changed.")
]
Force = Annotated[
    bool, typer.Option("--force", help="Replace an existing file (never a database, a folder or a device).")
]
CommandIdOpt = Annotated[
    str | None,
    typer.Option(
        "--command-id",
        help="This command's id (default: a fresh one). Run a command again with its id to retry it: "
        "it is done once, however often it is sent.",
    ),
]
Shifts = Annotated[list[str] | None, typer.Option("--shift", help="A shift, N or SOURCE=N (repeatable).")]
DrawRest = Annotated[
    bool,
    typer.Option(
        "--draw-rest",
        help="With --dice: draw the rolls the faces do not cover from the seed (a terminal asks for them otherwise).",
    ),
]
Reactions = Annotated[
    list[str] | None,
    typer.Option(
        "--reaction",
        help="WHO=flee|freeze|frenzy: the reaction if a madness check this raises fails for WHO (M2-4, M2-8); "
        "default: the sheet's or scenario's (repeatable).",
    ),
]


def open_store(db: Path) -> SqliteStore:
    """The database (made on first use), refusing a folder or anything that is not a database."""
    if db.exists() and not db.is_file():
        raise InvalidInput(f"{db} is not a database file", where="--db", hint="give a SQLite file made by ua session")
    return SqliteStore(db)


def service(db: Path, name: str = "", *, create: bool = False) -> SessionService:
    """The session service on the database `db`; unless `create`, the database must exist (a
    typo leaves no empty database behind; `name` is the session looked for, for the message)."""
    from engine.session.service import SessionService

    return SessionService(existing_store(db, name, create=create), where=str(db))


def reader(db: Path, name: str = "", *, create: bool = False) -> SessionReader:
    """`service`, for a command that only reads sessions (it loads none of the command flow)."""
    from engine.session.reader import SessionReader

    return SessionReader(existing_store(db, name, create=create), where=str(db))


def existing_store(db: Path, name: str = "", *, create: bool = False) -> SqliteStore:
    """`open_store(db)`; unless `create`, `NotFound` when there is no such database yet."""
    if not create and not db.exists():
        raise NotFound(
            f"no session {name!r} in {db} (there is no such database yet)" if name else f"no database {db} yet",
            hint="ua session list; or ua session new NAME --scenario FILE",
        )
    return open_store(db)


def open_session(db: Path, name: str) -> LiveEncounter:
    """The live session `name` in `db` (`NotFound` if there is none)."""
    return service(db, name).open(name)


def parse_dice(texts: list[str] | None) -> tuple[int, ...]:
    """The faces of every `--dice` without an owner, in the order given (read in that order)."""
    from engine.dice.source import parse_faces

    return tuple(face for text in texts or () if "=" not in text for face in parse_faces(text))


def owned_dice(texts: list[str] | None) -> dict[str, tuple[int, ...]]:
    """`--dice WHO=9,1`: the faces of WHO's rolls in this action, in the order WHO makes them (T-4)."""
    from engine.dice.source import parse_faces

    owned: dict[str, tuple[int, ...]] = {}
    for text in texts or ():
        who, sep, faces = text.partition("=")
        if not sep:
            continue
        if not who.strip():
            raise InvalidInput(f"--dice {text!r} names no one", where="--dice", hint="--dice Dana=9,1")
        owned[who.strip()] = (*owned.get(who.strip(), ()), *parse_faces(faces))
    return owned


def parse_shifts(texts: list[str] | None) -> tuple[Shift, ...]:
    from engine.cli.shifts import parse_shift

    return tuple(parse_shift(t, i) for i, t in enumerate(texts or (), start=1))


def ask_dice() -> Callable[[str], tuple[int, ...] | None] | None:
    """In a terminal, a prompt for the faces of a roll the given dice miss ("Vic's dodge — the
    dice, or Enter to roll"); elsewhere None (the command is then refused unless --draw-rest)."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return None

    def ask(what: str) -> tuple[int, ...] | None:
        from engine.dice.source import parse_faces

        while True:
            typed = input(f"{what} — the dice (e.g. 4,7), or Enter to roll the rest: ").strip()
            if not typed:
                return None
            try:
                return parse_faces(typed)
            except InvalidInput as exc:
                sys.stderr.write(f"  {exc.message}; try again\n")

    return ask


def parse_reactions(texts: list[str] | None) -> Any:
    """`WHO=REACTION` options as the attack's reaction choices (unset when none)."""
    import msgspec

    from engine.commands.combat import ReactionChoice

    if not texts:
        return msgspec.UNSET
    out = []
    for text in texts:
        who, _, kind = text.partition("=")
        if kind not in ("flee", "freeze", "frenzy") or not who:
            raise InvalidInput(
                f"bad --reaction {text!r}", where="--reaction", hint="WHO=flee, WHO=freeze or WHO=frenzy (M2-4)"
            )
        out.append(ReactionChoice(id=who, reaction=kind))  # type: ignore[arg-type]
    return tuple(out)


def ask_reaction() -> Callable[[str, str, str], str | None] | None:
    """In a terminal, a prompt for the reaction of a combatant whose madness check an attack
    raises fails ("Dana fails violence 1: flee, freeze or frenzy? (Enter: freeze)"); elsewhere
    None (the sheet's, scenario's or setting's reaction, unless --reaction names one)."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return None

    def ask(who: str, check: str, default: str) -> str | None:
        while True:
            typed = input(f"{who} fails the {check} madness check: flee, freeze or frenzy? (Enter: {default}) ")
            typed = typed.strip().casefold()
            if not typed:
                return None
            if typed in ("flee", "freeze", "frenzy"):
                return typed
            sys.stderr.write("  flee, freeze or frenzy (M2-4); try again\n")

    return ask
