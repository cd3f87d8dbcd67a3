"""One validation pass over a command before it is decided: every constraint its types declare
(ranges, patterns, lengths — checked by msgspec, as for a command read from JSON), names that are
one line of printable text, free text without control characters, numbers JSON can hold. What a
person typed and what a program built are held to the same rules, with the `$.path` of a bad
value."""

from __future__ import annotations

import math
from typing import Any, TypeVar

import msgspec

from engine.commands.base import CommandBase
from engine.errors import InvalidInput
from engine.text import MAX_NAME, check_name, check_text, split_validation_error

C = TypeVar("C", bound=CommandBase)

#: Fields that name something (a combatant, a side, a weapon, a skill, a title): one line, not blank.
NAMES = frozenset(
    {
        "actor",
        "target",
        "id",
        "side",
        "healer",
        "patient",
        "focus_target",
        "weapon",
        "skill",
        "title",
        "name",
        "about",
        "monkey_redirect",
        "in_hand",
        "label",
    }
)


def valid_command(command: C) -> C:
    """`command` if it passes (see the module); else `InvalidInput` naming the field."""
    data = msgspec.to_builtins(command)
    if not _plain(data):
        _check(data, "$")  # something needs a closer look: find it, with its path
    try:
        msgspec.convert(data, type(command))
    except msgspec.ValidationError as exc:
        reason, path = split_validation_error(str(exc))
        raise InvalidInput(f"not a valid {_tag(command)} command: {reason}", where=path) from None
    return command


def _plain(value: Any) -> bool:
    """True when nothing in `value` could be refused by `_check` (the usual case, found quickly):
    every number finite, every text of printable characters on one line."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isprintable() or len(item) > MAX_NAME or (item and item.isspace()):
                return False
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, float) and not math.isfinite(item):
            return False
    return True


def _check(value: Any, path: str) -> None:
    """Raise for the first value `_plain` would not pass (a blank or bad name, bad text, a number
    JSON cannot hold), naming its path; names may not be blank."""
    stack: list[tuple[Any, str, str]] = [(value, path, "")]
    while stack:
        item, at, key = stack.pop()
        if isinstance(item, dict):
            stack.extend((child, f"{at}.{name}", str(name)) for name, child in item.items())
        elif isinstance(item, (list, tuple)):
            stack.extend((child, f"{at}[{i}]", key) for i, child in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            raise InvalidInput(f"{item} is not a number that can be stored", where=at, hint="give a finite number")
        elif isinstance(item, str) and item:
            if key in NAMES and not at.startswith("$.scenario_document"):
                check_name(item, key.replace("_", " "), where=at)
            else:
                check_text(item, key.replace("_", " ") or "text", where=at)


def _tag(command: CommandBase) -> str:
    return str(type(command).__struct_config__.tag)
