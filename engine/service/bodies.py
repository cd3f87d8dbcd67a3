"""Request bodies and documents: JSON decoded strictly by msgspec into the engine's own types (the
command union as it is), and scenario or sheet documents checked exactly as the CLI checks a file
— the same messages at the same `$.path`. No path from a client is ever opened: a posted scenario
gives its sheets inline, a shipped scenario is named."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar, cast

import msgspec

from engine.errors import InvalidInput, NotFound
from engine.nesting import check_depth
from engine.scenario.files import FileError, convert_document, parse_document
from engine.scenario.scenario import SCHEMA_HINT, LoadedScenario, Scenario, load_scenario
from engine.scenario.sheets import sheet_problems
from engine.scenario.ua3_scenario import SCHEMA_HINT as UA3_SCHEMA_HINT
from engine.scenario.ua3_scenario import (
    LoadedUa3Scenario,
    Ua3Scenario,
    load_ua3_scenario,
    resolve_ua3_scenario,
    scenario_ruleset,
    ua3_scenario_document,
)
from engine.service.models import ScenarioSource, SheetSource
from engine.state.sheet import Sheet
from engine.text import split_validation_error

T = TypeVar("T")

#: The shipped scenarios: the repository's `scenarios/` folder.
SHIPPED = Path(__file__).resolve().parents[2] / "scenarios"
#: What a posted document is called in its errors (its format gives the parser).
POSTED = "document"


_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


def _decoder(type_: Any) -> msgspec.json.Decoder[Any]:
    found = _DECODERS.get(type_)
    if found is None:
        found = _DECODERS[type_] = msgspec.json.Decoder(type_)
    return found


def decode_body(data: bytes, type_: type[T]) -> T:
    """`data` as `type_` (strict JSON: no coercion, unknown fields refused); `InvalidInput` with
    msgspec's reason and the `$.path` of the bad value otherwise. A number without a fraction
    (`7.0`) is the integer it equals, as in JSON and JSON Schema (a whole number is an integer)."""
    if not data.strip():
        raise InvalidInput("the request has no body", where="$", hint="send a JSON object")
    check_depth(data, where="$")  # before the decoder, which would recurse
    try:
        decoded: T = _decoder(type_).decode(data)
        return decoded
    except msgspec.ValidationError as exc:
        try:  # the slow path, only for a body that was refused as it came
            whole: T = msgspec.convert(_WHOLE_NUMBERS.decode(data), type_)
            return whole
        except msgspec.ValidationError:
            pass
        except msgspec.DecodeError as bad:  # a value, then bytes that are no JSON ("9\x12…")
            raise InvalidInput(f"not JSON: {bad}", where="$", hint="send a JSON object") from None
        reason, path = split_validation_error(str(exc))
        raise InvalidInput(reason, where=path, hint="see the schema at /schema") from None
    except msgspec.DecodeError as exc:
        raise InvalidInput(f"not JSON: {exc}", where="$", hint="send a JSON object") from None


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


#: Decodes JSON as plain values, a number without a fraction as an `int`.
_WHOLE_NUMBERS = msgspec.json.Decoder(float_hook=_number)


#: Folders of `scenarios/` that hold sheets and tables, not scenarios.
NOT_SCENARIOS = frozenset({"characters", "tables"})


def shipped_names() -> list[str]:
    """The names of the shipped scenarios, sorted: a file's stem (`knife-vs-22`), or for a
    ruleset's own folder its path without the suffix (`ua3/the-hollow-church`)."""
    if not SHIPPED.is_dir():
        return []
    names = [p.stem for p in SHIPPED.glob("*.toml") if p.is_file()]
    for folder in SHIPPED.iterdir():
        if folder.is_dir() and folder.name not in NOT_SCENARIOS:
            names += [f"{folder.name}/{p.stem}" for p in folder.glob("*.toml") if p.is_file()]
    return sorted(names)


def shipped_path(name: str) -> Path:
    """The file of the shipped scenario `name`; `NotFound` listing the names otherwise."""
    names = shipped_names()
    if name not in names:
        raise NotFound(f"no shipped scenario {name!r}", where="$.scenario.name", hint=f"shipped: {', '.join(names)}")
    return SHIPPED.joinpath(*name.split("/")).with_suffix(".toml")


def _parsed(source: ScenarioSource | SheetSource) -> Any:
    """The plain values of a posted document (a JSON object, or text in its format)."""
    given = [x for x in (source.document, source.text) if x is not None]
    if len(given) != 1:
        raise InvalidInput(
            "give exactly one of `document` or `text`", where="$", hint="a JSON object, or the file's text"
        )
    if source.document is not None:
        return source.document
    assert source.text is not None
    return parse_document(source.text.encode(), name=f"{POSTED}.{source.format}")


def load_shipped(name: str) -> LoadedScenario | LoadedUa3Scenario:
    """The shipped scenario `name`, of the ruleset it names, called by its name — in its reports
    (`file`) and its errors — never by the server's path to it."""
    path = shipped_path(name)
    try:
        loaded = load_ua3_scenario(path) if scenario_ruleset(path) == "ua3" else load_scenario(path)
    except FileError as exc:
        raise FileError(name, exc.reason, json_path=exc.json_path, hint=exc.hint) from None
    return msgspec.structs.replace(loaded, path=name)


def _no_document(source: ScenarioSource) -> None:
    if source.document is not None or source.text is not None:
        raise InvalidInput("give a shipped `name` or a posted document, not both", where="$.scenario")


def load_source(source: ScenarioSource) -> LoadedScenario:
    """The scenario a request names or posts, checked as `ua scenario check` checks a file."""
    if source.name is not None:
        _no_document(source)
        return cast(LoadedScenario, load_shipped(source.name))
    document = _parsed(source)
    _no_paths(document)
    try:
        return load_scenario(Path(f"{POSTED}.{source.format}"), document)
    except FileError as exc:  # name the document, not a file
        raise FileError(POSTED, exc.reason, json_path=exc.json_path, hint=exc.hint) from None


def load_any_source(source: ScenarioSource) -> LoadedScenario | LoadedUa3Scenario:
    """The scenario a request names or posts, of the ruleset it names: a ua3 scenario is checked
    as `ua scenario check` checks a ua3 file."""
    if source.name is not None:
        _no_document(source)
        return load_shipped(source.name)
    document = _parsed(source)
    if not (isinstance(document, dict) and document.get("ruleset") == "ua3"):
        return load_source(source)
    _no_paths(document)
    scenario = convert_document(document, name=POSTED, type_=Ua3Scenario, hint=UA3_SCHEMA_HINT)
    return resolve_ua3_scenario(scenario, POSTED, root=None)


def scenario_of(source: ScenarioSource) -> Scenario:
    """Just the scenario document's shape (no sheets checked), for a quick look."""
    return load_source(source).scenario


def _no_paths(document: Any) -> None:
    """A posted scenario may not name files: its sheets come inline as `character`."""
    if not isinstance(document, dict):
        return  # the shape check names what is wrong
    combatants = document.get("combatants")
    if not isinstance(combatants, (list, tuple)):
        return
    for i, spec in enumerate(combatants):
        if isinstance(spec, dict) and spec.get("sheet") is not None:
            raise FileError(
                POSTED,
                "a posted scenario cannot name a sheet file",
                json_path=f"$.combatants[{i}].sheet",
                hint="give the sheet inline as `character` (GET /scenarios/NAME shows a shipped one so)",
            )


def load_sheet_source(source: SheetSource) -> Sheet:
    """The sheet a request posts, checked as `ua character check` reads a file."""
    document = _parsed(source)
    sheet = convert_document(document, name=POSTED, type_=Sheet, hint=SCHEMA_HINT)
    problems = sheet_problems(sheet)
    if problems:
        first = problems[0]
        raise FileError(POSTED, first.message, json_path=first.path)
    return sheet


def inlined(name: str) -> dict[str, Any]:
    """A shipped scenario as one document: each sheet file read in as `character`."""
    loaded = load_any_source(ScenarioSource(name=name))
    if isinstance(loaded, LoadedUa3Scenario):
        return ua3_scenario_document(loaded)
    document: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(loaded.scenario))
    for spec, fighter in zip(document["combatants"], loaded.fighters, strict=True):
        if spec.pop("sheet", None) is not None:
            spec["character"] = msgspec.to_builtins(fighter.sheet)
    return document
