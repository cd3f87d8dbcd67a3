"""Builders for ua3 tests: sheets and encounters driven through a live session with table dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.commands import StartEncounter
from engine.commands.base import CommandBase
from engine.commands.ua3 import AddCharacter
from engine.events.base import EventBase
from engine.session import LiveEncounter, load_state
from engine.state.ua3.encounter import Ua3Combatant, Ua3Encounter
from engine.state.ua3.settings import Ua3Settings
from engine.state.ua3.sheet import Gauge, Gauges, Identity, Passion, Relationship, Ua3Sheet
from engine.store import MemoryStore

PASSIONS = (
    Passion(kind="rage", trigger="being laughed at"),
    Passion(kind="fear", trigger="guns", gauge="violence"),
    Passion(kind="noble", trigger="protecting her kids"),
)


def sheet(
    name: str,
    *,
    hardened: dict[str, int] | None = None,
    failed: dict[str, int] | None = None,
    identities: Sequence[Identity] = (),
    relationships: Sequence[Relationship] = (),
    passions: Sequence[Passion] = PASSIONS,
    wounds: int = 0,
) -> Ua3Sheet:
    """A sheet with every gauge at 1 hardened unless `hardened`/`failed` say otherwise."""
    hardened, failed = hardened or {}, failed or {}
    gauges = Gauges(
        **{
            ("self_" if g == "self" else g): Gauge(hardened=hardened.get(g, 1), failed=failed.get(g, 0))
            for g in ("violence", "helplessness", "isolation", "unnatural", "self")
        }
    )
    return Ua3Sheet(
        name=name,
        gauges=gauges,
        identities=tuple(identities),
        relationships=tuple(relationships),
        passions=tuple(passions),
        wounds=wounds,
    )


class Scene:
    """A ua3 encounter at the table: every command through a live session on a memory store."""

    def __init__(self, *people: tuple[str, str, Ua3Sheet], seed: int = 1, **settings: Any) -> None:
        self.store = MemoryStore()
        self.live = LiveEncounter(self.store, "scene", seed=seed)
        self.live.execute(StartEncounter(ruleset="ua3", seed=seed, settings=Ua3Settings(**settings)))
        for id_, side, s in people:
            self.live.execute(AddCharacter(id=id_, side=side, sheet=s))

    @property
    def state(self) -> Ua3Encounter:
        state: Ua3Encounter = self.live.state
        return state

    def do(self, command: CommandBase) -> list[EventBase]:
        events = self.live.execute(command)
        assert load_state(self.store, "scene") == self.live.state  # law 1 after every command
        return events[1:]  # without the CommandRecorded record

    def who(self, id_: str) -> Ua3Combatant:
        c = self.state.combatant(id_)
        assert c is not None
        return c


def of_type(events: Sequence[EventBase], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def explained(events: Sequence[EventBase]) -> str:
    return "\n".join(e.explain() for e in events)
