"""The event log: append with an expected version, read from a position, list streams.

Stores know positions, ids, type names and bytes — never what an event means.
"""

from engine.store.base import EventStore, NewEvent, StoredEvent, event_id_for
from engine.store.memory import MemoryStore

__all__ = ["EventStore", "MemoryStore", "NewEvent", "StoredEvent", "event_id_for"]
