"""The in-memory store passes the store contract."""

from __future__ import annotations

from pathlib import Path

from engine.store.memory import MemoryStore
from tests.store.contract import StoreContract


class TestMemoryStore(StoreContract):
    durable = False

    def make_store(self, tmp_path: Path) -> MemoryStore:
        return MemoryStore()
