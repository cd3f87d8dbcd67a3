"""How an edition's scripted combatants fight: the part of a ruleset that batches (and NPC turns)
use, so the fight loop in `engine.simulate` knows no edition.

A ruleset's script turns a loaded scenario into its setup commands and tactics profiles, picks
each next scripted command from the working table (its tactics vocabulary), and reads off the
table how each combatant ended. It decides nothing: every command still goes to the rules.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, NamedTuple, Protocol

from engine.commands.base import CommandBase
from engine.dice.source import DiceSource


class CombatantEnd(NamedTuple):
    """One combatant at the end of a fight; wounds, injuries and notches are those of this fight
    (not what the combatant brought to it)."""

    id: str
    side: str
    status: str
    frozen: bool
    taken: int
    dealt: int
    hardened: int
    failed: int
    #: Injuries of more than 50 in one blow (C2-32).
    permanent: int = 0
    #: (meter or gauge, hardened notches gained, failed notches gained) for each that changed.
    notches: tuple[tuple[str, int, int], ...] = ()


class Script(Protocol):
    """The scripted side of one edition (see the module docstring)."""

    def setup(self, loaded: Any) -> list[CommandBase]:
        """The commands that start the scenario's encounter and bring in its combatants (they
        draw no dice)."""
        ...

    def opening(self, loaded: Any) -> tuple[CommandBase, ...]:
        """What happens before the fight begins (scenario triggers), in order."""
        ...

    def begin(self) -> CommandBase:
        """The command that begins the fight (initiative)."""
        ...

    def profiles(self, loaded: Any) -> dict[str, Any]:
        """Each scripted combatant's tactics, by id."""
        ...

    def preset(self, name: str) -> Any:
        """The tactics profile of a combatant acting by the named preset."""
        ...

    def presets(self) -> Mapping[str, str]:
        """Each tactics preset a scenario may name, with what it does in one line."""
        ...

    def next_command(self, table: Any, profiles: Mapping[str, Any], ai: DiceSource) -> CommandBase:
        """The next scripted command on this table: the round's declarations, or the action of
        whoever acts now."""
        ...

    def nothing(self, actor: str) -> CommandBase:
        """`actor`, whose turn it is, does nothing."""
        ...

    def responds(
        self, table: Any, profiles: Mapping[str, Any], npcs: Collection[str], ai: DiceSource, *, round_opened: bool
    ) -> CommandBase | None:
        """What the NPCs (`npcs`, of a session) do on their own after any command, out of turn:
        their declarations when a round has just opened (the players declare after them), an
        answer owed by one of them. None when they do nothing."""
        ...

    def may_respond(self, table: Any, *, round_opened: bool) -> bool:
        """Whether `responds` could find anything to do now (False: it would return None for
        any NPCs); cheap, so a session reads its tactics only when NPCs may respond."""
        ...

    def instead(self, table: Any, phase: str) -> CommandBase:
        """What a scripted command the rules refused becomes (nothing declared, nothing done)."""
        ...

    def baseline(self, state: Any) -> dict[str, Any]:
        """What each combatant brings to a fight, for `ends` to count this fight's harm from."""
        ...

    def ends(self, table: Any, baseline: Mapping[str, Any], dealt: Mapping[str, int]) -> tuple[CombatantEnd, ...]:
        """How each combatant ended the fight on `table`."""
        ...

    def max_rounds(self, table: Any) -> int:
        """The round limit in force on `table` (the fight loop's guard is sized from it)."""
        ...
