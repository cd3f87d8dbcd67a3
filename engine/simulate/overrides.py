"""`--set PATH=VALUE`: change any field of a scenario for one run, then check the result exactly
as the file is checked (the same one-line errors at the same `$.path`).

A PATH is dotted keys into the scenario document: `settings.max_rounds`, `title`,
`triggers.0.rank`. In a list, a number is an index (from 0) and a word picks the element whose
`id` or `name` it is (ignoring case): `combatants.Rosa.tactics`, `weapons.".22 pistol".cap`,
`combatants.Rosa.skills.Fighting.rating`. Quote a key that holds a dot. A key after a combatant
that is not a combatant field but a sheet field (`stats`, `skills`, `obsession`, …) goes to its
sheet: `combatants.Rosa.stats.body` (a sheet given by path is read and put inline for the run).
A VALUE is read as TOML (`60`, `0.5`, `true`, `"text"`, `[1, 2]`, `{ do = "dodge" }`), else as
JSON, else taken as text (`cautious`).
"""

from __future__ import annotations

import copy
import datetime
import math
import tomllib
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import msgspec

from engine.errors import InvalidInput
from engine.nesting import check_depth
from engine.scenario.files import FileError, parse_document, read_limited
from engine.scenario.scenario import CombatantSpec, LoadedScenario, load_scenario, sheet_file
from engine.state.sheet import Sheet

HINT = "PATH=VALUE, e.g. settings.max_rounds=20 or combatants.Rosa.tactics=cautious"
SPEC_FIELDS = frozenset(f.encode_name for f in msgspec.structs.fields(CombatantSpec))
SHEET_FIELDS = frozenset(f.encode_name for f in msgspec.structs.fields(Sheet)) - SPEC_FIELDS
#: Most values a sweep takes.
MAX_SWEEP = 50


class Override(msgspec.Struct, frozen=True, kw_only=True):
    """One `--set`: the text as given, its path's keys and the value."""

    text: str
    keys: tuple[str, ...]
    value: Any


def split_path(path: str, *, option: str = "--set") -> tuple[str, ...]:
    """`combatants."Mr. Smith".tactics` → ("combatants", "Mr. Smith", "tactics")."""
    keys: list[str] = []
    current: list[str] = []
    quoted = False
    for char in path:
        if char == '"':
            quoted = not quoted
        elif char == "." and not quoted:
            keys.append("".join(current))
            current = []
        else:
            current.append(char)
    keys.append("".join(current))
    if quoted or any(not k.strip() for k in keys):
        raise InvalidInput(f"{path!r} is not a path of keys", where=option, hint=HINT)
    return tuple(k.strip() for k in keys)


def parse_value(raw: str, *, option: str = "--set") -> Any:
    """A TOML value, else a JSON value, else the text itself."""
    check_depth(raw, where=option)  # before the parsers, which would recurse
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except (tomllib.TOMLDecodeError, ValueError):
        try:
            return msgspec.json.decode(raw)
        except msgspec.DecodeError:
            return raw
    if isinstance(value, (datetime.date, datetime.time)):  # a scenario has no dates: it is text
        return raw
    return value


def parse_override(text: str, *, option: str = "--set") -> Override:
    path, sep, raw = text.partition("=")
    if not sep or not path.strip():
        raise InvalidInput(f"{text!r} has no PATH=VALUE", where=option, hint=HINT)
    return Override(text=text, keys=split_path(path, option=option), value=parse_value(raw.strip(), option=option))


def _pick(items: list[Any], key: str, at: str, text: str) -> int:
    """The index in a list that `key` names: a number, or an element's id or name."""
    if key.isdigit():
        index = int(key)
        if index >= len(items):
            raise InvalidInput(
                f"{text}: {at} has {len(items)} entries, no [{index}]",
                where="--set",
                hint=f"indexes 0 to {len(items) - 1}" if items else "add the entry to the file",
            )
        return index
    wanted = key.casefold()
    for i, item in enumerate(items):
        if isinstance(item, dict):
            for field in ("id", "name"):
                if isinstance(item.get(field), str) and item[field].casefold() == wanted:
                    return i
    names = [str(item.get("id", item.get("name", i))) for i, item in enumerate(items) if isinstance(item, dict)]
    raise InvalidInput(
        f"{text}: nothing named {key!r} in {at}",
        where="--set",
        hint=f"use an index or one of: {', '.join(names)}" if names else "use an index",
    )


def _inline_sheet(spec: dict[str, Any], name: str, root: Path, at: str) -> None:
    """Put a combatant's sheet file inline (`character`), so that a `--set` can change it."""
    if "character" in spec or not isinstance(spec.get("sheet"), str):
        spec.setdefault("character", {})
        return
    target = sheet_file(name, root, spec["sheet"], f"{at}.sheet")
    try:
        spec["character"] = parse_document(read_limited(target), name=str(target))
    except FileError as exc:
        raise FileError(name, f"sheet {spec['sheet']}: {exc.reason}", json_path=f"{at}.sheet", hint=exc.hint) from None
    del spec["sheet"]


def apply_override(document: Any, override: Override, *, name: str, root: Path) -> str:
    """Set the value in the parsed document (in place); returns its `$.path`."""
    node = document
    at = "$"
    keys = list(override.keys)
    for depth, key in enumerate(keys):
        last = depth == len(keys) - 1
        if isinstance(node, list):
            index = _pick(node, key, at, override.text)
            at += f"[{index}]"
            if last:
                node[index] = override.value
                return at
            if at.startswith("$.combatants[") and at.count("[") == 1 and isinstance(node[index], dict):
                following = keys[depth + 1]
                if following in SHEET_FIELDS or following == "character":
                    _inline_sheet(node[index], name, root, at)
                    if following != "character":
                        keys.insert(depth + 1, "character")
            node = node[index]
        elif isinstance(node, dict):
            at += f".{key}"
            if last:
                node[key] = override.value
                return at
            node = node.setdefault(key, {})
        else:
            raise InvalidInput(
                f"{override.text}: {at} is a value, not a table or list", where="--set", hint="shorten the path"
            )
    return at  # pragma: no cover - the loop returns at the last key


def load_with_overrides(path: str | Path, sets: Sequence[str | Override]) -> LoadedScenario:
    """The scenario at `path` with each override applied, checked as the file is; an error at
    (or inside) an overridden field says which `--set` made it."""
    if not sets:
        return load_scenario(path)
    path = Path(path)
    name = str(path)
    document = copy.deepcopy(parse_document(read_limited(path), name=name))
    root = path.resolve().parent
    applied = []
    for item in sets:
        override = item if isinstance(item, Override) else parse_override(item)
        if not isinstance(document, dict):
            break  # the check below names what is wrong with the file
        applied.append((apply_override(document, override, name=name, root=root), override.text))
    try:
        return load_scenario(path, document)
    except FileError as exc:
        culprits = [text for at, text in applied if _within(exc.json_path, at) or _within(at, exc.json_path)]
        if not culprits or exc.json_path == "$":
            raise
        hint = f"set by --set {culprits[-1]}" + (f"; {exc.hint}" if exc.hint else "")
        raise FileError(exc.file, exc.reason, json_path=exc.json_path, hint=hint) from None


def _within(inner: str, outer: str) -> bool:
    """Whether the `$.path` `inner` is `outer` or inside it."""
    return inner == outer or inner.startswith((outer + ".", outer + "["))


def sweep_values(text: str) -> tuple[tuple[str, ...], list[Any]]:
    """`PATH=START:STOP:STEP` (numbers, STOP included) or `PATH=A,B,C` → (keys, values)."""
    path, sep, raw = text.partition("=")
    hint = "PATH=START:STOP:STEP (e.g. combatants.Rosa.stats.body=40:70:10) or PATH=A,B,C"
    if not sep or not path.strip() or not raw.strip():
        raise InvalidInput(f"{text!r} is not a sweep", where="--sweep", hint=hint)
    keys = split_path(path, option="--sweep")
    parts = raw.split(":")
    if len(parts) == 3:
        try:
            start, stop, step = (Decimal(p.strip()) for p in parts)
        except InvalidOperation:
            raise InvalidInput(f"{raw!r}: START:STOP:STEP takes numbers", where="--sweep", hint=hint) from None
        if step <= 0 or stop < start or not all(math.isfinite(x) for x in (start, stop, step)):
            raise InvalidInput(f"{raw!r} is an empty range", where="--sweep", hint="STOP ≥ START and STEP > 0")
        count = int((stop - start) / step) + 1
        if count > MAX_SWEEP:
            raise InvalidInput(f"{raw!r} has {count} values", where="--sweep", hint=f"at most {MAX_SWEEP}")
        whole = all(x == x.to_integral_value() for x in (start, step))
        values: list[Any] = [int(start + k * step) if whole else float(start + k * step) for k in range(count)]
    else:
        values = [parse_value(v.strip(), option="--sweep") for v in raw.split(",")]
        if len(values) > MAX_SWEEP:
            raise InvalidInput(f"{len(values)} values", where="--sweep", hint=f"at most {MAX_SWEEP}")
    return keys, values
