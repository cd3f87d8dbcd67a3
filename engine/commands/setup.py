"""Setup, ruling and plain-check commands (shared by every ruleset)."""

from typing import Annotated, Any, Literal, NamedTuple, TypeVar

import msgspec

from engine.commands.base import CommandBase, JoinCommand
from engine.dice.checks import CheckSpec
from engine.state.sheet import Sheet
from engine.state.weapons import Weapon


class StartEncounter(CommandBase, frozen=True, kw_only=True, tag="start"):
    """Start an encounter of `ruleset`. `settings` are that ruleset's settings: its settings
    struct (kept as its document, as a log reads it back) or a document of it, fields left out
    taking the ruleset's defaults; the started event records them as given. `scenario` names the
    file it came from (for people); `scenario_document` is that scenario itself, every sheet
    inline (`engine.scenario.scenario.scenario_document`), so a what-if fork of the session reads
    its tactics from the session's own log, never a file."""

    ruleset: str = "ua2"
    title: str = ""
    seed: int | None = None
    settings: Any = msgspec.field(default_factory=dict)
    scenario: str = ""
    scenario_document: dict[str, Any] | msgspec.UnsetType = msgspec.UNSET
    #: The combatants players run (ids); unset: the scenario's players' side (or, with no
    #: scenario, everyone). The rest act by the scenario's tactics (`engine.session.roster`).
    players: tuple[str, ...] | msgspec.UnsetType = msgspec.UNSET

    def __post_init__(self) -> None:
        if isinstance(self.settings, msgspec.Struct):
            msgspec.structs.force_setattr(self, "settings", _document(msgspec.to_builtins(self.settings)))


def _document(value: Any) -> Any:
    """Built-in values as a JSON document reads them back: lists for tuples (numbers kept as they
    are, so that one JSON cannot hold is still refused, with its path, before anything is stored)."""
    if isinstance(value, dict):
        return {k: _document(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_document(v) for v in value]
    return value


class AddCombatant(JoinCommand, frozen=True, kw_only=True, tag="add_combatant"):
    """A character joins. `weapons` (catalog entries) default to the sheet's weapon names."""

    sheet: Sheet
    weapons: tuple[Weapon, ...] = ()
    in_hand: str = ""
    ambusher: bool = False
    reaction: Literal["flee", "freeze", "frenzy"] | None = None
    #: A tactics preset: set, the combatant is an NPC that acts by it (`ua session npc`); the
    #: rules ignore it.
    tactics: str | msgspec.UnsetType = msgspec.UNSET


class RulingWounds(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """Wounds a ruling deals (`amount` > 0: one injury, U-26, C2-32) or takes off (< 0: in ua2
    from the most recent injury first, or from `injury` when named; H2)."""

    who: str
    amount: Annotated[int, msgspec.Meta(ge=-1000, le=1000)]
    injury: Annotated[int, msgspec.Meta(ge=1)] | None = None


class RulingFall(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """A crash or a fall of `wounds`, which armor reduces by 10 (ua3, U-13)."""

    who: str
    wounds: Annotated[int, msgspec.Meta(ge=1, le=1000)]


class RulingNotch(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """Notches marked (`change` > 0) or erased (< 0) on a madness meter (ua2) or shock gauge (ua3)."""

    who: str
    meter: str
    kind: Literal["hardened", "failed"]
    change: Annotated[int, msgspec.Meta(ge=-10, le=10)]


class RulingCondition(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """A condition of the edition set (or cleared, `clear`) on `who`."""

    who: str
    condition: str
    clear: bool = False


E = TypeVar("E")


class RulingEffects(NamedTuple):
    """A ruling's effects, in the order they apply."""

    wounds: tuple[RulingWounds, ...]
    falls: tuple[RulingFall, ...]
    notches: tuple[RulingNotch, ...]
    conditions: tuple[RulingCondition, ...]


class StartHelpless(CommandBase, frozen=True, kw_only=True, tag="start_helpless"):
    """C2-33, M2-8: before the fight, `actor` is helpless — bound (a prisoner) or frozen (M2-7),
    standing but unable to act or dodge, or unconscious (not standing)."""

    actor: str
    condition: Literal["restrained", "unconscious", "frozen"]


class Ruling(CommandBase, frozen=True, kw_only=True, tag="ruling"):
    """A GM ruling: a note, and the effects it carries, applied in this order (U-26, T-5). The
    effects are unset unless given, so a note-only ruling encodes as it always did."""

    note: str
    about: str = ""
    wounds: tuple[RulingWounds, ...] | msgspec.UnsetType = msgspec.UNSET
    falls: tuple[RulingFall, ...] | msgspec.UnsetType = msgspec.UNSET
    notches: tuple[RulingNotch, ...] | msgspec.UnsetType = msgspec.UNSET
    conditions: tuple[RulingCondition, ...] | msgspec.UnsetType = msgspec.UNSET

    def effects(self) -> RulingEffects:
        """The effects given (each empty when not)."""
        return RulingEffects(_given(self.wounds), _given(self.falls), _given(self.notches), _given(self.conditions))


def _given(value: tuple[E, ...] | msgspec.UnsetType) -> tuple[E, ...]:
    return () if isinstance(value, msgspec.UnsetType) else value


class RollCheck(CommandBase, frozen=True, kw_only=True, tag="check"):
    """Roll a check. `flipped` is a person's stated orientation (C-11); None: the engine picks."""

    spec: CheckSpec
    actor: str = ""
    purpose: str = ""
    flipped: bool | None = None
