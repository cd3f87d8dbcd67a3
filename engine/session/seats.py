"""What a session keeps beside its log (DESIGN "The table"): who plays which character (T-2),
their standing choices (T-3), and the one action waiting on its requests (T-3, T-4). None of it
is an event: a log replays the same without it."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.errors import EngineError, InvalidInput
from engine.session.owners import Request
from engine.store.base import EventStore

_SEATS = "seats"
_WAITING = "waiting"
_ANSWERED = "answered"


class Seats(msgspec.Struct, frozen=True, kw_only=True):
    """`played`: character id → its player (read from the participants); `prefer`: character
    id → its standing choices (e.g. `roll_for_me=all`)."""

    played: dict[str, str] = {}
    prefer: dict[str, dict[str, str]] = {}

    @property
    def roll_for_me(self) -> frozenset[str]:
        """The characters whose player has every roll drawn (the standing choice `roll_for_me=all`)."""
        return frozenset(who for who, choices in self.prefer.items() if choices.get("roll_for_me") == "all")


class WaitingAction(msgspec.Struct, frozen=True, kw_only=True):
    """A user action that waits (T-3): what it was (`action` and its `args`, the command as JSON
    among them), the answers given so far (request id → faces, or "roll_for_me") and the
    requests it waits on now. Decided again from the start with every answer when one comes."""

    command_id: str
    action: str
    args: dict[str, msgspec.Raw]
    answers: dict[str, tuple[int, ...] | str] = {}
    requests: tuple[Request, ...] = ()


class WaitsOn(EngineError):
    """An action waits on requests (T-3): nothing was recorded; `requests` say what it needs."""

    exit_code = 5

    def __init__(self, waiting: WaitingAction, *, where: str = "") -> None:
        asked = "; ".join(f"{r.id}: {r.what}" for r in waiting.requests)
        super().__init__(
            f"waiting on {asked}",
            where=where,
            hint="ua session requests NAME lists them; answer each with ua session give NAME REQUEST "
            "--dice T,U | --choose OPTION | --roll-for-me; or drop the action: ua session cancel NAME",
        )
        self.waiting = waiting


def _beside(store: EventStore, stream: str, key: str) -> bytes | None:
    read = getattr(store, "beside", None)
    return None if read is None else read(stream, key)


def _put(store: EventStore, stream: str, key: str, value: bytes | None) -> None:
    put = getattr(store, "put_beside", None)
    if put is None:
        raise EngineError(
            "this store keeps no players or requests beside its log", hint="use a session database (--db FILE)"
        )
    put(stream, key, value)


def load_seats(store: EventStore, stream: str) -> Seats:
    """Who plays which character (the session's participants, `engine.store.participants`: a
    revoked player's characters stay played) and their standing choices."""
    from engine.store.participants import played_characters

    data = _beside(store, stream, _SEATS)
    kept = Seats() if data is None else msgspec.json.decode(data, type=Seats)
    return msgspec.structs.replace(kept, played=played_characters(store, stream))


def save_seats(store: EventStore, stream: str, seats: Seats) -> None:
    """Keep the standing choices (who plays whom is the participants')."""
    _put(store, stream, _SEATS, msgspec.json.encode(msgspec.structs.replace(seats, played={})))


def load_waiting(store: EventStore, stream: str) -> WaitingAction | None:
    data = _beside(store, stream, _WAITING)
    return None if data is None else msgspec.json.decode(data, type=WaitingAction)


def save_waiting(store: EventStore, stream: str, waiting: WaitingAction | None) -> None:
    """Keep (or, with None, drop) the session's waiting action."""
    if waiting is None and _beside(store, stream, _WAITING) is None:
        return
    _put(store, stream, _WAITING, None if waiting is None else msgspec.json.encode(waiting))


def load_answered(store: EventStore, stream: str) -> WaitingAction | None:
    """The last waiting action its answers decided (a retried answer is answered with its result)."""
    data = _beside(store, stream, _ANSWERED)
    return None if data is None else msgspec.json.decode(data, type=WaitingAction)


def save_answered(store: EventStore, stream: str, waiting: WaitingAction) -> None:
    """Keep `waiting` as the last action its answers decided, and drop the waiting one."""
    _put(store, stream, _ANSWERED, msgspec.json.encode(waiting))
    _put(store, stream, _WAITING, None)


def parse_players(players: str = "", player: tuple[str, ...] = ()) -> dict[str, str]:
    """`--players Tommy,Dana` (each played by a player of its own name) and `--player
    "Ana:Tommy,Otis"` (Ana plays both) → character → player."""
    played: dict[str, str] = {}
    for who in filter(None, (p.strip() for p in players.split(","))):
        played[who] = who
    for entry in player:
        name, sep, characters = entry.partition(":")
        if not sep or not name.strip() or not characters.strip():
            raise InvalidInput(
                f"--player {entry!r} is not PLAYER:CHARACTER[,CHARACTER]",
                where="--player",
                hint='--player "Ana:Tommy,Otis"',
            )
        for who in filter(None, (c.strip() for c in characters.split(","))):
            played[who] = name.strip()
    return played


def waits_message(waiting: WaitingAction) -> str:
    return ", ".join(f"{r.what} ({r.id})" for r in waiting.requests)


def passions_left(state: Any) -> dict[str, list[str]]:
    """Each combatant's passions it may still spend this session (C-10, U-21: each as often as
    the settings allow, once by default)."""
    uses = int(getattr(state.settings, "passion_uses_per_session", 1))
    return {
        c.id: [p.kind for p in c.sheet.passions if c.passions_spent.count(p.kind) < uses] for c in state.combatants
    }
