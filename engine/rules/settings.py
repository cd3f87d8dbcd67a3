"""A ruleset's settings read from a document (a start command's, a started event's): the
ruleset's own settings struct, every field left out taking its default. Shared by every ruleset;
each names its settings type."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from engine.errors import Refused

S = TypeVar("S")


def read_settings(document: Any, settings_type: type[S]) -> S:
    """`document` as `settings_type` (a struct of that type is taken as it is); `Refused` with
    the `$.settings` path of a bad value."""
    if isinstance(document, settings_type):
        return document
    try:
        return msgspec.convert(document, settings_type)
    except msgspec.ValidationError as exc:
        reason, _, where = str(exc).partition(" - at `$")
        path = "$.settings" + where.rstrip("`") if where else "$.settings"
        raise Refused(f"bad settings: {reason} at {path}", hint="see the ruleset's settings in RULES.md") from None
