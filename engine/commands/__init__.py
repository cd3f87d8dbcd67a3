"""Commands: intents (who does what), msgspec structs in one closed tagged union.

A command may carry dice a person rolled at the table (`dice`: d10 faces, tens first); when it
does, those faces are used before any drawn from the seeded source.
"""

from __future__ import annotations

import msgspec

from engine.commands.base import CommandBase
from engine.commands.setup import AddCombatant, RollCheck, Ruling, StartEncounter

Command = StartEncounter | AddCombatant | Ruling | RollCheck

COMMAND_TYPES: tuple[type[CommandBase], ...] = (StartEncounter, AddCombatant, Ruling, RollCheck)

command_encoder = msgspec.json.Encoder()
command_decoder = msgspec.json.Decoder(Command)

__all__ = [
    "COMMAND_TYPES",
    "AddCombatant",
    "Command",
    "CommandBase",
    "RollCheck",
    "Ruling",
    "StartEncounter",
    "command_decoder",
    "command_encoder",
]
