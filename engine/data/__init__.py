"""Data shipped with the engine: the catalogs of weapons and armor, the sample stress checks."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import msgspec

T = TypeVar("T")


def read_toml(name: str, type_: type[T]) -> T:
    """The shipped TOML file `name` (beside this module), converted to `type_`. Read from the
    package's own folder (the engine is installed as files, never zipped): importlib.resources
    would load tempfile and zipfile, a sizeable part of a session command's start-up."""
    import tomllib  # on first use: most commands never read a catalog

    text = Path(__file__).with_name(name).read_text(encoding="utf-8")
    return msgspec.convert(tomllib.loads(text), type_)
