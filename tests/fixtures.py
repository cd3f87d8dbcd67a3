"""Builders for tests: sheets and encounters driven through a live session with table dice."""

from __future__ import annotations

from collections.abc import Sequence

from engine.commands import AddCombatant, BeginFight, StartEncounter
from engine.commands.base import CommandBase
from engine.commands.combat import InitiativeChoice
from engine.events.base import EventBase
from engine.session import LiveEncounter, load_state
from engine.settings import Settings
from engine.state.encounter import Encounter
from engine.state.sheet import Passion, Sheet, Skill, Stats
from engine.store import MemoryStore


def sheet(
    name: str,
    *,
    body: int = 50,
    speed: int = 50,
    mind: int = 50,
    soul: int = 50,
    skills: Sequence[tuple[str, str, int]] = (),
    obsession: str = "",
    weapons: Sequence[str] = (),
    hand_to_hand: str = "Fighting",
) -> Sheet:
    return Sheet(
        name=name,
        stats=Stats(body=body, speed=speed, mind=mind, soul=soul),
        skills=tuple(Skill(name=n, stat=s, rating=r) for n, s, r in skills),  # type: ignore[arg-type]
        obsession=obsession,
        passions=(
            Passion(kind="rage", trigger="being mocked"),
            Passion(kind="fear", trigger="fire"),
            Passion(kind="noble", trigger="protecting kids"),
        ),
        weapons=tuple(weapons),
        hand_to_hand=hand_to_hand,
    )


class Table:
    """An encounter at the table: every command through a live session on a memory store."""

    def __init__(self, seed: int = 1, settings: Settings | None = None) -> None:
        self.store = MemoryStore()
        self.live = LiveEncounter(self.store, "fight", seed=seed)
        self.live.execute(StartEncounter(seed=seed, settings=settings or Settings()))

    @property
    def state(self) -> Encounter:
        return self.live.state

    def join(self, id_: str, side: str, s: Sheet, in_hand: str = "", **kw: object) -> None:
        self.live.execute(AddCombatant(id=id_, side=side, sheet=s, in_hand=in_hand, **kw))  # type: ignore[arg-type]

    def begin(self, *choices: tuple[str, str], dice: Sequence[int] = ()) -> list[EventBase]:
        init = tuple(InitiativeChoice(id=i, method=m) for i, m in choices)  # type: ignore[arg-type]
        return self.do(BeginFight(initiative=init, dice=tuple(dice)))

    def do(self, command: CommandBase) -> list[EventBase]:
        events = self.live.execute(command)  # type: ignore[arg-type]
        assert load_state(self.store, "fight") == self.live.state  # law 1 after every command
        return events[1:]  # without the CommandRecorded record

    def wounds(self, id_: str) -> int:
        c = self.state.combatant(id_)
        assert c is not None
        return c.wounds

    def status(self, id_: str) -> str:
        c = self.state.combatant(id_)
        assert c is not None
        return c.status


def of_type(events: Sequence[EventBase], kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in events if isinstance(e, kind)]
