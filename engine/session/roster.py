"""Who runs whom at the table: the combatants players run, and those the session's tactics run
(NPCs), read from the session's own log — never from a file.

A session started from a scenario knows its combatants' tactics (the scenario document its start
command stored). Its players are those the start command names (`ua session new --players`), or
else the scenario's players' side; everyone else is an NPC. A session set up from sheets knows no
tactics: everyone is a player. A combatant added mid-fight is an NPC only when its command names
a tactics preset.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from engine.commands.base import JoinCommand
from engine.commands.setup import AddCombatant, StartEncounter
from engine.events.commands import CommandRecorded
from engine.session.history import Record


class Roster(msgspec.Struct, frozen=True):
    """The session's players and NPCs (ids, in the order they joined), and the tactics profile
    of every combatant the session knows tactics for (by id; the NPCs' at least)."""

    players: tuple[str, ...]
    npcs: tuple[str, ...] = ()
    profiles: Mapping[str, Any] = msgspec.field(default_factory=dict)
    #: the scenario the tactics come from (a `LoadedScenario`), or None
    scenario: Any = None
    #: the ruleset whose script turns the profiles into commands
    ruleset: str = "ua2"

    def is_npc(self, who: str) -> bool:
        return who in self.npcs

    def seated(self, played: Iterable[str]) -> Roster:
        """This roster with the `played` characters (T-2) its players whatever their side: no
        tactics runs a character a person plays."""
        taken = set(played) & set(self.npcs)
        if not taken:
            return self
        return msgspec.structs.replace(
            self,
            players=(*self.players, *(w for w in self.npcs if w in taken)),
            npcs=tuple(w for w in self.npcs if w not in taken),
        )

    def tactics_for(self, ids: Iterable[str]) -> dict[str, Any]:
        """A profile for each of `ids`: its own, or (a player's, known only to read its position)
        the default preset's."""
        default = None
        out = {}
        for cid in ids:
            profile = self.profiles.get(cid)
            if profile is None:
                default = default or _preset_profile(self.ruleset, "aggressive")
                profile = default
            out[cid] = profile
        return out


def _preset_profile(ruleset: str, preset: str) -> Any:
    """The tactics profile of a combatant that acts by a named preset (one added mid-fight)."""
    from engine.rules.registry import find_ruleset

    return find_ruleset(ruleset).script.preset(preset)


def roster_of(records: Iterable[Record], *, where: str = "") -> Roster:
    """The roster of the history in `records` (the last start command and the joins after it)."""
    start: StartEncounter | None = None
    joined: list[tuple[str, str]] = []  # (id, side) in order
    added: dict[str, AddCombatant] = {}
    for _, event in records:
        if not isinstance(event, CommandRecorded):
            continue
        issued = event.issued
        if isinstance(issued, StartEncounter):
            start, joined, added = issued, [], {}
        elif isinstance(issued, JoinCommand):
            joined.append((issued.id, issued.side))
            if isinstance(issued, AddCombatant):
                added[issued.id] = issued
    if start is None:
        return Roster(players=())
    loaded = None
    if not isinstance(start.scenario_document, msgspec.UnsetType):
        from engine.scenario.scenario import scenario_from_document

        loaded = scenario_from_document(start.scenario_document, where=where or "the session's scenario")
    from_scenario = {f.id for f in loaded.fighters} if loaded is not None else set()
    if not isinstance(start.players, msgspec.UnsetType):
        named = {p.casefold() for p in start.players}
        is_player = {cid: cid.casefold() in named for cid, _ in joined}
    elif loaded is not None:
        is_player = {cid: side == loaded.players for cid, side in joined}
    else:
        is_player = {cid: True for cid, _ in joined}
    profiles: dict[str, Any] = {}
    if loaded is not None:
        scripted = _profiles(start.ruleset, loaded)
        profiles.update((cid, scripted[cid]) for cid, _ in joined if cid in scripted)
    for cid, command in added.items():
        tactics = command.tactics
        if cid in from_scenario or isinstance(tactics, msgspec.UnsetType):
            continue
        is_player[cid] = False
        profiles[cid] = _preset_profile(start.ruleset, tactics)
    npcs = tuple(cid for cid, _ in joined if not is_player[cid] and cid in profiles)
    players = tuple(cid for cid, _ in joined if cid not in npcs)
    return Roster(players=players, npcs=npcs, profiles=profiles, scenario=loaded, ruleset=start.ruleset)


def _profiles(ruleset: str, loaded: Any) -> dict[str, Any]:
    from engine.rules.registry import find_ruleset

    profiles: dict[str, Any] = find_ruleset(ruleset).script.profiles(loaded)
    return profiles
