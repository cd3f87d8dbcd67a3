"""`ua tactics`: the tactics presets a scenario may name (`tactics = "cautious"`), each with what
it does, edition by edition (each ruleset's script lists its own)."""

from typing import Annotated, Any

import msgspec
import typer

from engine.cli.common import JsonOption, console, emit_json
from engine.errors import InvalidInput


def written(value: Any) -> Any:
    """A tactics rule as a scenario would write it: only the fields that differ from their
    defaults."""
    if not isinstance(value, msgspec.Struct):
        return msgspec.to_builtins(value)
    out = {}
    for field in msgspec.structs.fields(value):
        got = getattr(value, field.name)
        default = field.default_factory() if field.default_factory is not msgspec.NODEFAULT else field.default
        if got != default:
            out[field.encode_name] = written(got)
    return out


def tactics(
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", metavar="NAME", help="Only this edition's presets: ua2 or ua3.")
    ] = None,
    json: JsonOption = False,
) -> None:
    """The tactics presets a combatant's `tactics = "NAME"` may name, with what each does: every
    edition's (or --ruleset's). --json adds each preset's rules, first match wins, as a scenario
    would write them."""
    from engine.rules.registry import available, find_ruleset

    names = available()
    if ruleset is not None and ruleset not in names:
        raise InvalidInput(f"unknown ruleset {ruleset!r}", where="--ruleset", hint=f"available: {', '.join(names)}")
    listed: dict[str, Any] = {}
    for name in names if ruleset is None else (ruleset,):
        edition = find_ruleset(name)
        script = edition.script
        listed[name] = {
            "title": edition.title,
            "presets": {
                preset: {"does": does, "rules": [written(rule) for rule in script.preset(preset).rules]}
                for preset, does in script.presets().items()
            },
        }
    if json:
        emit_json(listed)
        return
    for k, (name, edition) in enumerate(listed.items()):
        if k:
            console.print("")
        console.print(f"{name} ({edition['title']}): tactics presets", markup=False)
        width = max(len(preset) for preset in edition["presets"])
        for preset, shown in edition["presets"].items():
            console.print(f"  {preset:<{width}}  {shown['does']}", markup=False)
