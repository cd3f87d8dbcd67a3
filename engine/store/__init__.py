"""The event log: append with an expected version, read from a position, list streams.

Stores know positions, ids, type names and bytes — never what an event means.
"""

from engine.store.base import EventStore, NewEvent, StoredEvent, event_id_for
from engine.store.jsonl import JsonlStore, export_log, write_log
from engine.store.memory import MemoryStore
from engine.store.sqlite import SqliteStore

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
