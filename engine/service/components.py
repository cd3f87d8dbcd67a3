"""The OpenAPI document's components: msgspec's JSON Schema of every struct the API reads or
writes, each under one name that is unique in the document — its key and its `title` alike, as
client generators name their models by the title.

A type only one ruleset's commands, events or state reach is that ruleset's: its name starts
with the ruleset's `schema_prefix` (`Ua2Attack`, `Ua3Attack`), so two editions' types of one
name stay two models; a type several rulesets (or none) reach keeps its own name. `State` and
`Event` are the tagged unions of every ruleset's state (by `ruleset`) and every event (by `type`);
`Command`, of every command (by `command`).
Where one ruleset has a command and a part of its state of one name, the part is named after
its package too (`Ua3AimState`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import msgspec
import msgspec.inspect as mi

from engine.commands.base import CommandBase
from engine.events.base import EventBase
from engine.rules.registry import PLUGINS, RULESETS, available, command_types, event_types

REF = "#/components/schemas/{name}"
#: The unions the API's `state` and `event` fields refer to (`models.StateDocument`, `EventDocument`).
STATE = "State"
EVENT = "Event"
#: A die a command carries: a d10 face as the table rolled it (the dice source refuses others).
FACE = {"type": "integer", "minimum": 0, "maximum": 9}
#: What a field typed by the commands' base (a recorded command's `issued`) holds: any command.
COMMAND = "Command"


def reachable(types: Iterable[Any]) -> set[type[Any]]:
    """Every nameable type (struct, enum, …) `types` hold, themselves included: what msgspec makes
    components of."""
    found: set[type[Any]] = set()

    def walk(t: mi.Type) -> None:
        if isinstance(t, (mi.StructType, mi.TypedDictType, mi.DataclassType, mi.NamedTupleType)):
            if t.cls not in found:
                found.add(t.cls)
                for f in t.fields:
                    walk(f.type)
        elif isinstance(t, mi.EnumType):
            found.add(t.cls)
        elif isinstance(t, mi.Metadata):
            walk(t.type)
        elif isinstance(t, mi.CollectionType):
            walk(t.item_type)
        elif isinstance(t, mi.TupleType):
            for inner in t.item_types:
                walk(inner)
        elif isinstance(t, (mi.DictType, mi.FrozenDictType)):
            walk(t.key_type)
            walk(t.value_type)
        elif isinstance(t, mi.UnionType):
            for inner in t.types:
                walk(inner)

    for info in mi.multi_type_info(list(types)):
        walk(info)
    return found


def _roots(name: str) -> list[Any]:
    return [*command_types(name), *event_types(name), RULESETS[name].state_type]


def owners() -> dict[type[Any], str]:
    """Type → the prefix of the one ruleset whose commands, events or state reach it."""
    reach = {name: reachable(_roots(name)) for name in available()}
    counts = Counter(cls for found in reach.values() for cls in found)
    return {cls: PLUGINS[name].schema_prefix for name, found in reach.items() for cls in found if counts[cls] == 1}


def _name(cls: type[Any], prefix: str) -> str:
    """`Attack` → `Ua2Attack`; a name that already starts with the prefix (`Ua3Sheet`) stays."""
    name = cls.__name__
    return name if name.startswith(prefix) else prefix + name


def _msgspec_keys(cls: type[Any]) -> tuple[str, str]:
    """The names msgspec may give `cls`'s component: its own, or with its module on a clash."""
    return cls.__name__, f"{cls.__module__}.{cls.__qualname__}"


def schemas(types: Iterable[Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """(components, renamed): the schemas of `types` and everything they hold, plus `State` and
    `Event`, each under its unique name; `renamed` maps msgspec's names to the unique ones (for
    the `$ref`s written elsewhere). `ValueError` names any name two types would still share."""
    states = {name: RULESETS[name].state_type for name in available()}
    events = event_types()
    commands = command_types()
    wanted = list(dict.fromkeys([*types, *states.values(), *events, *commands]))
    _, components = msgspec.json.schema_components(wanted, ref_template=REF)
    owner = owners()
    by_key = {key: cls for cls in reachable(wanted) for key in _msgspec_keys(cls)}
    renamed = {key: _name(by_key[key], owner.get(by_key[key], "")) for key in components}
    taken = Counter(renamed.values())
    for key, name in renamed.items():  # one ruleset's command and a part of its state (ua3's `Aim`)
        if taken[name] > 1 and not issubclass(by_key[key], (CommandBase, EventBase)):
            renamed[key] = name + by_key[key].__module__.split(".")[1].title()
    clashes = [name for name, n in Counter(renamed.values()).items() if n > 1]
    if clashes:
        raise ValueError(f"two component types are both named {clashes[0]!r}: rename one")
    renamed[_key(components, by_key, CommandBase)] = COMMAND
    out = {renamed[key]: {**schema, "title": renamed[key]} for key, schema in components.items()}
    for key in components:
        if getattr(by_key[key], "one_of", ()):
            _one_of(out, renamed[key], by_key[key].one_of)
        if issubclass(by_key[key], CommandBase) and "dice" in out[renamed[key]].get("properties", {}):
            out[renamed[key]]["properties"]["dice"]["items"] = FACE
    out = rewrite_refs(out, renamed)
    out[STATE] = _state_union(out, {name: renamed[_key(components, by_key, t)] for name, t in states.items()})
    out[COMMAND] = _tagged(
        COMMAND,
        "A command of any ruleset, tagged by `command`.",
        "command",
        {str(t.__struct_config__.tag): renamed[_key(components, by_key, t)] for t in commands},
    )
    out[EVENT] = _tagged(
        EVENT,
        "An event of a session's log (of any ruleset), tagged by `type`.",
        "type",
        {str(t.__struct_config__.tag): renamed[_key(components, by_key, t)] for t in events},
    )
    return out, renamed


def _one_of(out: dict[str, Any], name: str, fields: tuple[str, ...]) -> None:
    """A body that gives exactly one of `fields` becomes a `oneOf` of one named variant per field:
    that field given, the others null or left out (`ScenarioSource` → `ScenarioSourceName`, …)."""
    whole = out[name]
    variants = []
    for chosen in fields:
        properties = dict(whole["properties"])
        for other in fields:
            properties[other] = {"type": "null", "default": None} if other != chosen else _not_null(properties[other])
        variant = f"{name}{chosen.title()}"
        out[variant] = {
            **whole,
            "title": variant,
            "properties": properties,
            "required": sorted({*whole.get("required", ()), chosen}),
        }
        variants.append({"$ref": REF.format(name=variant)})
    out[name] = {"title": name, "description": whole.get("description", ""), "oneOf": variants}


def _not_null(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` without its `null` alternative (and so without its null default)."""
    kept = [s for s in schema.get("anyOf", [schema]) if s != {"type": "null"}]
    inner = dict(kept[0]) if len(kept) == 1 else {"anyOf": kept}
    inner.pop("default", None)
    return inner


def _key(components: dict[str, Any], by_key: dict[str, type[Any]], cls: type[Any]) -> str:
    return next(k for k in _msgspec_keys(cls) if k in components and by_key[k] is cls)


def _tagged(title: str, description: str, field: str, mapping: dict[str, str]) -> dict[str, Any]:
    """A union of components told apart by `field` (tag → component name)."""
    refs = {tag: REF.format(name=name) for tag, name in mapping.items()}
    return {
        "title": title,
        "description": description,
        "oneOf": [{"$ref": ref} for ref in dict.fromkeys(refs.values())],
        "discriminator": {"propertyName": field, "mapping": refs},
    }


def _state_union(out: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """Each ruleset's state, told apart by its `ruleset` (what a state of that ruleset always says)."""
    for ruleset, name in names.items():
        schema = out[name]
        schema["properties"]["ruleset"] = {"enum": [ruleset], "default": ruleset}
        schema["required"] = sorted({*schema.get("required", ()), "ruleset"})
    return _tagged(
        STATE,
        "A session's state as its ruleset folds it, tagged by `ruleset`, with what a GM reads off"
        " it added (whose turn, wound shifts or levels, …).",
        "ruleset",
        names,
    )


def rewrite_refs(value: Any, renamed: dict[str, str]) -> Any:
    """`value` with every reference to a renamed component (a `$ref`, a discriminator's mapping)
    pointing at its new name."""
    if isinstance(value, dict):
        return {k: rewrite_refs(v, renamed) for k, v in value.items()}
    if isinstance(value, list):
        return [rewrite_refs(v, renamed) for v in value]
    prefix = REF.format(name="")
    if isinstance(value, str) and value.startswith(prefix):
        key = value.removeprefix(prefix)
        return REF.format(name=renamed.get(key, key))
    return value
