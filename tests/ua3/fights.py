"""Builders for ua3 fight tests: characters with weapons and armor, a fight driven through a
live session (law 1 checked after every command), table dice for every roll."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.commands import StartEncounter
from engine.commands import ua3_combat as f
from engine.commands.base import CommandBase
from engine.commands.ua3 import AddCharacter
from engine.events.base import EventBase
from engine.session import LiveEncounter, load_state
from engine.state.ua3.combat import NO_ARMOR, Armor, Ua3Weapon
from engine.state.ua3.encounter import Ua3Combatant, Ua3Encounter
from engine.state.ua3.settings import Ua3Settings
from engine.state.ua3.sheet import Identity, Ua3Sheet
from engine.store import MemoryStore
from tests.ua3.support import sheet

KNIFE = Ua3Weapon(name="knife", kind="melee", edged=True, house=True)
AXE = Ua3Weapon(name="axe", kind="melee", cleaves=True, heavy=True, edged=True, house=True)
PISTOL = Ua3Weapon(name="pistol", kind="firearm", cap=30, house=True)
SMG = Ua3Weapon(name="smg", kind="firearm", cap=40, full_auto=True, house=True)
COP = Identity(name="Cop", rating=55, firearms=True)


def person(
    name: str,
    *,
    violence: int = 1,
    identities: Sequence[Identity] = (),
    wounds: int = 0,
    **hardened: int,
) -> Ua3Sheet:
    return sheet(name, hardened={"violence": violence, **hardened}, identities=identities, passions=(), wounds=wounds)


class Fight:
    """A ua3 fight at the table: every command through a live session on a memory store."""

    def __init__(self, *people: AddCharacter, seed: int = 1, **settings: Any) -> None:
        self.store = MemoryStore()
        self.live = LiveEncounter(self.store, "fight", seed=seed)
        self.live.execute(StartEncounter(ruleset="ua3", seed=seed, settings=Ua3Settings(**settings)))
        for p in people:
            self.live.execute(p)

    @property
    def state(self) -> Ua3Encounter:
        state: Ua3Encounter = self.live.state
        return state

    def do(self, command: CommandBase) -> list[EventBase]:
        events = self.live.execute(command)
        assert load_state(self.store, "fight") == self.live.state  # law 1 after every command
        return events[1:]

    def who(self, id_: str) -> Ua3Combatant:
        c = self.state.combatant(id_)
        assert c is not None
        return c

    def declare(self, *declarations: tuple[Any, ...], dice: tuple[int, ...] = ()) -> list[EventBase]:
        """Begin the fight if it has not, then declare (actor, action, targets[, weapon])."""
        if self.state.fight.phase == "setup":
            self.do(f.BeginFight())
        ds = tuple(
            f.Declaration(
                actor=d[0], action=d[1], targets=tuple(d[2]) if len(d) > 2 else (), weapon=d[3] if len(d) > 3 else ""
            )
            for d in declarations
        )
        return self.do(f.Declare(declarations=ds, dice=dice, close=True))


def join(
    id_: str,
    side: str,
    s: Ua3Sheet,
    *weapons: Ua3Weapon,
    in_hand: str = "",
    armor: Armor = NO_ARMOR,
    reaction: str | None = None,
) -> AddCharacter:
    held = in_hand or (weapons[0].name if weapons else "")
    return AddCharacter(id=id_, side=side, sheet=s, weapons=weapons, in_hand=held, armor=armor, reaction=reaction)  # type: ignore[arg-type]


def of_type(events: Sequence[EventBase], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
