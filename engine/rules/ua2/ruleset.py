"""Unknown Armies, 2nd edition, as one `Ruleset` value."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from typing import Any, cast

import msgspec

from engine.commands.base import CommandBase
from engine.commands.combat import Attack, BeginFight, Declare, InitiativeChoice, ReactionChoice
from engine.commands.madness import MadnessCheck
from engine.dice.source import SeededDice
from engine.errors import Refused
from engine.rules.ruleset import Ruleset
from engine.rules.ua2 import view
from engine.rules.ua2.apply import APPLIERS
from engine.rules.ua2.combat.turns import acting_now
from engine.rules.ua2.handlers import HANDLERS
from engine.rules.ua2.table import Table
from engine.rules.view import View
from engine.rules.words import Words
from engine.state.encounter import Encounter, Reaction
from engine.state.fight import InitiativeMethod


class Ua2(Ruleset[Table, Encounter]):
    """Seeds 000, 001, 003 and 004: sections S2, M2, I2, C2 and H2 of RULES.md."""

    def thaw(self, state: Encounter | None) -> Table:
        return Table(state)

    def acting_now(self, state: Encounter) -> str | None:
        return acting_now(Table(state))

    def up_next(self, state: Encounter) -> str | None:
        """Whose turn it is, or, while the round's declarations are open, who will act first
        once they close (as the first action closes them). None when the fight is not going on."""
        if state.fight.phase not in ("declare", "acting", "ambush"):
            return None
        closed = state
        if state.fight.phase == "declare":
            with suppress(Refused):  # nothing to close: whose turn it is as the state stands
                _, closed = self.decide(state, Declare(), SeededDice(state.seed or 0))
        return self.acting_now(closed)

    def view(self, state: Encounter, *, title: str = "") -> View:
        return view.state_view(state, self.acting_now(state), self.up_next(state), title=title)

    def state_json(self, state: Encounter) -> dict[str, Any]:
        return view.state_json(state, self.acting_now(state), self.up_next(state))

    def state_diff(self, before: Encounter, after: Encounter) -> list[str]:
        return view.state_diff(before, after)

    def stated_choices(self, command: CommandBase) -> frozenset[str]:
        """I2-1 at a fight's start; M2-4 where the command names reactions."""
        if isinstance(command, BeginFight):
            return frozenset({"initiative"})
        if isinstance(command, (Attack, MadnessCheck)):
            return super().stated_choices(command) | {"reaction"}
        return super().stated_choices(command)

    def with_choices(self, command: CommandBase, made: Sequence[tuple[str, str, str]]) -> CommandBase:
        """I2-1: a played character's initiative choice, named in the `BeginFight`; M2-4: the
        reaction to a failed check, in the madness check or the attack that raised it."""
        if isinstance(command, BeginFight):
            named = {c.id for c in command.initiative}
            chosen = tuple(
                InitiativeChoice(id=who, method=cast(InitiativeMethod, value))
                for who, key, value in made
                if key == "initiative" and who not in named
            )
            return msgspec.structs.replace(command, initiative=(*command.initiative, *chosen))
        flips = [m for m in made if m[1] == "flip"]
        command = super().with_choices(command, flips)
        made = [m for m in made if m[1] != "flip"]
        reactions = {who: cast(Reaction, value) for who, key, value in made if key == "reaction"}
        if isinstance(command, MadnessCheck) and command.actor in reactions:
            return msgspec.structs.replace(command, reaction=reactions[command.actor])
        if isinstance(command, Attack) and reactions:
            kept = () if command.reactions is msgspec.UNSET else command.reactions
            added = tuple(ReactionChoice(id=who, reaction=r) for who, r in reactions.items())
            return msgspec.structs.replace(command, reactions=(*kept, *added))
        return super().with_choices(command, made) if made else command


RULESET = Ua2(
    name="ua2",
    title="Unknown Armies, 2nd edition",
    state_type=Encounter,
    appliers=APPLIERS,
    handlers=HANDLERS,
    script_module="engine.tactics.script",
    words=Words(),  # the defaults are this edition's
    standing_choices={"initiative": ("roll", "default", "ambush"), "reaction": ("flee", "freeze", "frenzy")},
)
