"""Snapshots: the effective state of a session at some position, kept by stores that can
(SQLite), so a long session opens without folding its whole log. A snapshot is derived data:
when it is missing, stale, from another engine layout, or followed by an undo, redo or amend
marker, the session folds the whole log instead — never a wrong state."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from engine.events.commands import MARKERS
from engine.hashing import blake2b
from engine.reducers.fold import apply
from engine.rules.registry import RULESETS, find_ruleset
from engine.session.history import cursors
from engine.store.base import EventStore


class Snapshot(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """A state and where it stands; `state` is the ruleset's own state type, kept encoded."""

    layout: str
    position: int
    next_id: int
    dice_position: int
    state: msgspec.Raw
    ruleset: str = "ua2"


@cache
def layout(ruleset: str = "ua2") -> str:
    """A fingerprint of a ruleset's state shape: a snapshot from another shape is not used."""
    schema = msgspec.json.schema(find_ruleset(ruleset).state_type)
    return blake2b(msgspec.json.encode(schema), digest_size=8).hexdigest()


def save_snapshot(store: EventStore, stream: str, position: int, state: Any, next_id: int, dice: int) -> None:
    save = getattr(store, "save_snapshot", None)
    if save is not None:
        snapshot = Snapshot(
            layout=layout(state.ruleset),
            position=position,
            next_id=next_id,
            dice_position=dice,
            state=msgspec.Raw(msgspec.json.encode(state)),
            ruleset=state.ruleset,
        )
        save(stream, position, msgspec.json.encode(snapshot))


def open_from_snapshot(store: EventStore, stream: str) -> tuple[Any, int, int, int] | None:
    """(state, version, next command id, next die) from the snapshot and the events after it,
    or None when the whole log must be folded."""
    from engine.session.live import read_records

    latest = getattr(store, "latest_snapshot", None)
    found = latest(stream) if latest is not None else None
    if found is None:
        return None
    try:
        snapshot = msgspec.json.decode(found[1], type=Snapshot)
        if snapshot.ruleset not in RULESETS or snapshot.layout != layout(snapshot.ruleset):
            return None
        state = msgspec.json.decode(snapshot.state, type=find_ruleset(snapshot.ruleset).state_type)
    except msgspec.MsgspecError:
        return None
    if snapshot.position != found[0]:
        return None
    tail = read_records(store, stream, snapshot.position + 1, ruleset=snapshot.ruleset)
    if [p for p, _ in tail] != list(range(snapshot.position + 1, snapshot.position + 1 + len(tail))):
        return None
    if store.version(stream) < snapshot.position or any(isinstance(e, MARKERS) for _, e in tail):
        return None
    for _, event in tail:
        state = apply(state, event)
    next_id, dice = cursors(tail)
    return state, snapshot.position + len(tail), max(next_id, snapshot.next_id), max(dice, snapshot.dice_position)
