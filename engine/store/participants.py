"""Who takes part in a session beside the GM (DESIGN "The table: participants, requests, access"):
players, each with the characters they play, and read-only viewers. An invite gives a participant
a token; only its SHA-256 is kept, and it is looked up on every request, so an invite or a
revocation made by one process is honoured by a running server at once.

Not facts of the fight: a table beside the log (`participants`, created if missing, so an older
database gains it untouched), never in it — a log and its replays do not change with who was
invited. The same book over memory (`MemoryStore`, for tests) and SQLite (`SqliteStore`).
"""

from __future__ import annotations

import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any, Literal, Protocol

import msgspec

from engine.errors import InvalidInput, NotFound
from engine.store.sqlite import SqliteStore

if TYPE_CHECKING:
    from engine.store.memory import MemoryStore

Role = Literal["player", "viewer"]


class Participant(msgspec.Struct, frozen=True, kw_only=True):
    """One participant of one session. `token_hash`: the hex SHA-256 of its invite token (None:
    no link — recorded without one, or revoked); `revoked`: its last link was revoked."""

    id: str
    session: str
    role: Role
    name: str
    characters: tuple[str, ...] = ()
    token_hash: str | None = None
    revoked: bool = False
    created_at: float = 0.0

    @property
    def status(self) -> str:
        if self.token_hash is not None:
            return "invited"
        return "revoked" if self.revoked else "no link"


class Invited(msgspec.Struct, frozen=True, kw_only=True):
    """An invite's outcome: the participant and its token (shown once, never stored); `replaced`:
    an earlier link of the same participant no longer works."""

    participant: Participant
    token: str
    replaced: bool = False


def token_hash(token: str) -> str:
    import hashlib  # only where tokens are made or read: reading a session needs neither

    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


def new_token() -> str:
    """256 random bits, URL-safe (it travels in a link's fragment)."""
    import secrets

    return secrets.token_urlsafe(32)


class Rows(Protocol):
    """Where a book keeps its participants: a store's own table, or memory."""

    def writing(self) -> AbstractContextManager[None]: ...
    def of_session(self, session: str) -> list[Participant]: ...
    def with_hash(self, digest: str) -> Participant | None: ...
    def put(self, participant: Participant) -> None: ...
    def drop_session(self, session: str) -> None: ...


class ParticipantBook:
    """The participants of every session of one store."""

    def __init__(self, rows: Rows) -> None:
        self.rows = rows

    def of(self, session: str) -> list[Participant]:
        return self.rows.of_session(session)

    def by_token(self, token: str) -> Participant | None:
        """The participant whose current token is `token` (None: unknown, or revoked)."""
        digest = token_hash(token)
        found = self.rows.with_hash(digest)
        if found is None or found.token_hash is None or not _compare_digest(found.token_hash, digest):
            return None
        return found

    def add_player(self, session: str, name: str, characters: Iterable[str]) -> Participant:
        """Record `name` as playing `characters` (no token: `session new --players`); an existing
        player of that name gains them. A character another player plays is refused."""
        wanted = tuple(dict.fromkeys(characters))
        with self.rows.writing():
            known = self.of(session)
            self._check_free(known, wanted, name)
            same = next((p for p in known if p.role == "player" and p.name == name), None)
            if same is None:
                player = Participant(
                    id=_new_id(known), session=session, role="player", name=name, characters=wanted,
                    created_at=time.time(),
                )  # fmt: skip
            else:
                player = msgspec.structs.replace(same, characters=tuple(dict.fromkeys(same.characters + wanted)))
            self.rows.put(player)
            return player

    def invite_player(self, session: str, characters: Iterable[str], name: str | None = None) -> Invited:
        """A link for the player of `characters`: the one who already plays them (a fresh token,
        the old one ending), or a new player named `name` (default: the first character)."""
        wanted = tuple(dict.fromkeys(characters))
        if not wanted:
            raise InvalidInput("an invite names the characters played", where="--player", hint="--player Rosa")
        with self.rows.writing():
            known = self.of(session)
            players = {p.id: p for p in known if p.role == "player" and set(p.characters) & set(wanted)}
            if name is not None:
                players |= {p.id: p for p in known if p.role == "player" and p.name == name}
            if len(players) > 1:
                raise InvalidInput(
                    f"{', '.join(wanted)} are played by {len(players)} players: "
                    + ", ".join(sorted(p.name for p in players.values())),
                    where="--player",
                    hint="invite each player for their own characters",
                )
            token = new_token()
            same = next(iter(players.values()), None)
            if same is not None and name is not None and same.name != name:
                self._check_free([same], wanted, name)
            if same is None:
                player = Participant(
                    id=_new_id(known), session=session, role="player", name=name or wanted[0],
                    characters=wanted, token_hash=token_hash(token), created_at=time.time(),
                )  # fmt: skip
            else:
                player = msgspec.structs.replace(
                    same,
                    characters=tuple(dict.fromkeys(same.characters + wanted)),
                    token_hash=token_hash(token),
                    revoked=False,
                )
            self.rows.put(player)
            return Invited(participant=player, token=token, replaced=same is not None and same.token_hash is not None)

    def invite_viewer(self, session: str, name: str | None = None) -> Invited:
        with self.rows.writing():
            known = self.of(session)
            token = new_token()
            viewers = sum(1 for p in known if p.role == "viewer")
            viewer = Participant(
                id=_new_id(known), session=session, role="viewer", name=name or f"viewer {viewers + 1}",
                token_hash=token_hash(token), created_at=time.time(),
            )  # fmt: skip
            self.rows.put(viewer)
            return Invited(participant=viewer, token=token)

    def revoke(self, session: str, who: str) -> Participant:
        """End the participant `who` names (its id, a character it plays, or its name): its link
        stops working at once. A player stays a player (its characters stay played)."""
        with self.rows.writing():
            found = find(self.of(session), who, session)
            ended = msgspec.structs.replace(found, token_hash=None, revoked=True)
            self.rows.put(ended)
            return ended

    def forget(self, session: str) -> None:
        """A deleted session's participants go with it."""
        with self.rows.writing():
            self.rows.drop_session(session)

    @staticmethod
    def _check_free(known: list[Participant], characters: tuple[str, ...], name: str) -> None:
        for p in known:
            taken = [c for c in characters if c in p.characters and p.name != name]
            if p.role == "player" and taken:
                raise InvalidInput(
                    f"{', '.join(taken)} already played by {p.name}",
                    where="--player",
                    hint="each character has one player",
                )


def find(known: list[Participant], who: str, session: str) -> Participant:
    """The participant `who` names: its id, then a character it plays, then its name."""
    for match in (
        lambda p: p.id == who,
        lambda p: who in p.characters,
        lambda p: p.name == who,
    ):
        hits = [p for p in known if match(p)]
        if len(hits) == 1:
            return hits[0]
    listed = ", ".join(f"{p.id} ({p.name})" for p in known) or "none yet"
    raise NotFound(
        f"no participant {who!r} in session {session!r}",
        where=who,
        hint=f"a participant's id, a character played, or a name; participants: {listed}",
    )


def played_characters(store: Any, stream: str) -> dict[str, str]:
    """Character id → the name of the player who plays it, for session `stream`."""
    return {c: p.name for p in participants_of(store).of(stream) if p.role == "player" for c in p.characters}


def _new_id(known: list[Participant]) -> str:
    taken = {p.id for p in known}
    return next(f"p{n}" for n in range(1, len(taken) + 2) if f"p{n}" not in taken)


# -- where the rows live ----------------------------------------------------------------------


class MemoryRows:
    def __init__(self) -> None:
        self._rows: dict[tuple[str, str], Participant] = {}
        self._lock = threading.RLock()

    @contextmanager
    def writing(self) -> Iterator[None]:
        with self._lock:
            yield

    def of_session(self, session: str) -> list[Participant]:
        with self._lock:
            return [p for (s, _), p in self._rows.items() if s == session]

    def with_hash(self, digest: str) -> Participant | None:
        with self._lock:
            return next((p for p in self._rows.values() if p.token_hash == digest), None)

    def put(self, participant: Participant) -> None:
        with self._lock:
            self._rows[(participant.session, participant.id)] = participant

    def drop_session(self, session: str) -> None:
        with self._lock:
            for key in [k for k in self._rows if k[0] == session]:
                del self._rows[key]


_TABLE = """CREATE TABLE IF NOT EXISTS participants (
    stream TEXT NOT NULL,
    id TEXT NOT NULL,
    role TEXT NOT NULL,
    name TEXT NOT NULL,
    characters TEXT NOT NULL,
    token_hash TEXT UNIQUE,
    revoked INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    PRIMARY KEY (stream, id)
)"""
_COLUMNS = "stream, id, role, name, characters, token_hash, revoked, created_at"
_SELECT = f"SELECT {_COLUMNS} FROM participants"


class SqliteRows:
    """The `participants` table of a store's SQLite file, through the store's own connections
    (per thread, errors translated), made on first use with `CREATE TABLE IF NOT EXISTS`."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self._made = False
        self._depth = threading.local()

    def _conn(self) -> sqlite3.Connection:
        conn = self.store._connection()
        if not self._made:
            with self.store._translated():
                conn.execute(_TABLE)
            self._made = True
        return conn

    @contextmanager
    def writing(self) -> Iterator[None]:
        conn = self._conn()
        if getattr(self._depth, "n", 0):
            yield
            return
        self._depth.n = 1
        try:
            with self.store._translated(), self.store._transaction(conn):
                yield
        finally:
            self._depth.n = 0

    def _query(self, sql: str, args: tuple[Any, ...]) -> list[Participant]:
        with self.store._translated():
            return [_participant(row) for row in self._conn().execute(sql, args).fetchall()]

    def of_session(self, session: str) -> list[Participant]:
        return self._query(f"{_SELECT} WHERE stream = ? ORDER BY created_at, id", (session,))

    def with_hash(self, digest: str) -> Participant | None:
        found = self._query(f"{_SELECT} WHERE token_hash = ?", (digest,))
        return found[0] if found else None

    def put(self, p: Participant) -> None:
        row = (
            p.session,
            p.id,
            p.role,
            p.name,
            _CHARS.encode(p.characters).decode(),
            p.token_hash,
            int(p.revoked),
            p.created_at,
        )
        with self.store._translated():
            self._conn().execute(
                f"INSERT OR REPLACE INTO participants ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row
            )

    def drop_session(self, session: str) -> None:
        with self.store._translated():
            self._conn().execute("DELETE FROM participants WHERE stream = ?", (session,))


_CHARS = msgspec.json.Encoder()
_READ_CHARS = msgspec.json.Decoder(tuple[str, ...])


def _participant(row: tuple[Any, ...]) -> Participant:
    stream, id_, role, name, characters, digest, revoked, created_at = row
    return Participant(
        id=str(id_), session=str(stream), role=role, name=str(name), characters=_READ_CHARS.decode(characters),
        token_hash=None if digest is None else str(digest), revoked=bool(revoked), created_at=float(created_at),
    )  # fmt: skip


_MEMORY: weakref.WeakKeyDictionary[MemoryStore, ParticipantBook] = weakref.WeakKeyDictionary()
_SQLITE: weakref.WeakKeyDictionary[SqliteStore, ParticipantBook] = weakref.WeakKeyDictionary()
_BOOKS_LOCK = threading.Lock()


def _compare_digest(a: str, b: str) -> bool:
    import hmac  # imports hashlib: only where a token is checked

    return hmac.compare_digest(a, b)


def _memory_store() -> type[MemoryStore]:
    from engine.store.memory import MemoryStore  # tests' store: a session read from SQLite needs none

    return MemoryStore


def participants_of(store: Any) -> ParticipantBook:
    """The participant book of `store` (one per store object)."""
    found: tuple[weakref.WeakKeyDictionary[Any, ParticipantBook], Callable[[Any], Rows]] | None = None
    if isinstance(store, SqliteStore):
        found = (_SQLITE, SqliteRows)
    elif isinstance(store, _memory_store()):
        found = (_MEMORY, lambda _: MemoryRows())
    if found is not None:
        books, make = found
        with _BOOKS_LOCK:
            book = books.get(store)
            if book is None:
                book = books[store] = ParticipantBook(make(store))
        return book
    raise InvalidInput(
        "participants need a SQLite session database",
        where=type(store).__name__,
        hint="use ua session with --db FILE.sqlite (or ua serve)",
    )
