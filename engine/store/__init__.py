"""The event log: append with an expected version, read from a position, list streams.
Stores know positions, ids, type names and bytes — never what an event means.

One module per store (`memory`, `sqlite`, `jsonl`), beside the interface (`base`); the names
below load on first use (PEP 562), so a command opens only the store it uses.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "EventStore": "engine.store.base",
    "NewEvent": "engine.store.base",
    "StoredEvent": "engine.store.base",
    "event_id_for": "engine.store.base",
    "JsonlStore": "engine.store.jsonl",
    "export_log": "engine.store.jsonl",
    "write_log": "engine.store.jsonl",
    "MemoryStore": "engine.store.memory",
    "SqliteStore": "engine.store.sqlite",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'engine.store' has no attribute {name!r}")
    return getattr(import_module(_WHERE[name]), name)


__all__ = [
    "EventStore",
    "JsonlStore",
    "MemoryStore",
    "NewEvent",
    "SqliteStore",
    "StoredEvent",
    "event_id_for",
    "export_log",
    "write_log",
]
