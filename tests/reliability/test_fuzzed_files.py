"""Issue 10: scenario and sheet files, generated and mutated, in TOML, YAML and JSON — values
replaced (NaN, infinities, huge numbers, control characters, bidirectional overrides, wrong
types), keys dropped or added, bytes cut, flipped or inserted. Whatever the file, loading it
either succeeds or raises one of the engine's own errors, which names the file, and the `$.path`
when the problem is a field. UA_FUZZ_EXAMPLES=100000 for the issue's figure."""

from __future__ import annotations

import copy
import json
import math
import os
import shutil
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tomli_w
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.scenario.files import FileError
from engine.scenario.scenario import load_scenario
from engine.scenario.sheets import load_sheet
from tests.cli.test_session_cli import Ua

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = [tomllib.loads(p.read_text()) for p in sorted((ROOT / "scenarios").glob("*.toml"))]
SHEETS = [tomllib.loads(p.read_text()) for p in sorted((ROOT / "scenarios" / "characters").glob("*.toml"))]
EXAMPLES = int(os.environ.get("UA_FUZZ_EXAMPLES", "300"))

#: Problems with the file as a whole, not with one field: these name the file but no `$.path`.
NOT_A_FIELD = (
    "TOML syntax error",
    "JSON syntax error",
    "YAML",
    "not UTF-8",
    "nested deeper",
    "no such file",
    "is a directory",
    "is not a regular file",
    "sheet path",  # resolved against the folder; named at the combatant's $.path
)

_NASTY = ["a", "Z", " ", "\n", "\t", "\x1b", "\x00", "\x7f", "\x9b", "\u202e", "\u2066", "é", "☠", "'"]
_NASTY_TEXT = st.text(alphabet=st.sampled_from(_NASTY), max_size=12)
_VALUES = st.one_of(
    st.integers(-(10**20), 10**20),
    st.integers(-5, 120),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 0.0, 1.0, 1e308]),
    st.booleans(),
    st.none(),
    _NASTY_TEXT,
    st.sampled_from(["fists", "knife", ".22 pistol", "aggressive", "more_hurt", "body", "rage", "Fighting"]),
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.sampled_from(["shots", "shift", "x", "name"]), st.integers(-20, 20), max_size=2),
)


def _paths(node: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(node, dict):
        for key, child in node.items():
            yield from _paths(child, (*at, key))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from _paths(child, (*at, i))


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        doc = doc[step]
    return doc


@st.composite
def mutated(draw: st.DrawFn, originals: list[dict[str, Any]]) -> dict[str, Any]:
    doc = copy.deepcopy(draw(st.sampled_from(originals)))
    for _ in range(draw(st.integers(0, 4))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, last = _parent(doc, path), path[-1]
        kind = draw(st.sampled_from(["replace", "replace", "drop", "add"]))
        if kind == "replace":
            parent[last] = draw(_VALUES)
        elif kind == "drop":
            del parent[last]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "hose", "house", "side", "id", "max_rounds"]))] = draw(_VALUES)
        else:
            parent.append(draw(_VALUES))
    return doc


@st.composite
def generated_scenario(draw: st.DrawFn) -> dict[str, Any]:
    """A scenario put together from pieces: ids, sides, inline or named sheets, settings."""
    combatants = []
    for i in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from([f"c{i}", "Vic", "", "a\nb", "x" * 50]))
        spec: dict[str, Any] = {"id": name, "side": f"s{i % 2}"}
        if draw(st.booleans()):
            spec["sheet"] = draw(st.sampled_from(["characters/gunman.toml", "characters/../../x.toml", "nope.toml"]))
        else:
            sheet = draw(st.one_of(mutated(SHEETS), st.sampled_from(SHEETS)))
            spec["character"] = copy.deepcopy(sheet)
        if draw(st.booleans()):
            spec[draw(st.sampled_from(["in_hand", "tactics", "cherry", "weapons", "reaction"]))] = draw(_VALUES)
        combatants.append(spec)
    doc: dict[str, Any] = {"title": draw(st.one_of(st.just("generated"), _NASTY_TEXT)), "combatants": combatants}
    if draw(st.booleans()):
        doc["settings"] = draw(
            st.dictionaries(
                st.sampled_from(
                    ["max_rounds", "wound_shift_thresholds", "suppression_shift", "incapacitated_at", "dead_at",
                     "default_cherry", "stress_target", "passion_uses_per_session", "violence_kill"]
                ),
                _VALUES,
                max_size=3,
            )
        )
    return doc


def _without_none(value: Any) -> Any:
    """TOML has no null: drop it (a dropped key is one more mutation)."""
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(v) for v in value if v is not None]
    return value


def serialized(doc: dict[str, Any], fmt: str) -> bytes:
    if fmt == "toml":
        return tomli_w.dumps(_without_none(doc)).encode()
    if fmt == "yaml":
        return yaml.safe_dump(doc, allow_unicode=True).encode()
    return json.dumps(doc, ensure_ascii=False).encode()  # NaN and Infinity as JSON5-ish tokens


@st.composite
def damaged(draw: st.DrawFn, data: bytes) -> bytes:
    kind = draw(st.sampled_from(["as is", "as is", "cut", "flip", "insert"]))
    if kind == "as is" or not data:
        return data
    at = draw(st.integers(0, len(data) - 1))
    if kind == "cut":
        return data[:at]
    if kind == "flip":
        return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]
    return data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        shutil.copytree(ROOT / "scenarios" / "characters", Path(name) / "characters")
        yield Path(name)


def check_loading(path: Path, load: Any) -> None:
    try:
        load(path)
        event("loaded")
    except EngineError as exc:
        event(f"refused: {exc.reason.split(' ')[0]}")
        assert isinstance(exc, FileError), repr(exc)
        assert exc.file == str(path), exc
        assert "\n" not in str(exc) and "\x1b" not in str(exc) and "\u202e" not in str(exc)
        if not exc.reason.startswith(NOT_A_FIELD):
            assert exc.json_path.startswith("$"), exc


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), fmt=st.sampled_from(["toml", "yaml", "json"]))
def test_any_scenario_file_loads_or_is_refused_by_the_engine_naming_file_and_path(
    folder: Path, data: st.DataObject, fmt: str
) -> None:
    doc = data.draw(st.one_of(mutated(SCENARIOS), generated_scenario()))
    path = folder / f"scenario.{fmt}"
    path.write_bytes(data.draw(damaged(serialized(doc, fmt))))
    check_loading(path, load_scenario)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), fmt=st.sampled_from(["toml", "yaml", "json"]))
def test_any_sheet_file_loads_or_is_refused_by_the_engine_naming_file_and_path(
    folder: Path, data: st.DataObject, fmt: str
) -> None:
    doc = data.draw(mutated(SHEETS))
    path = folder / f"sheet.{fmt}"
    path.write_bytes(data.draw(damaged(serialized(doc, fmt))))
    check_loading(path, load_sheet)


@settings(max_examples=max(20, EXAMPLES // 20), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), fmt=st.sampled_from(["toml", "yaml", "json"]))
def test_any_scenario_file_through_the_cli_is_one_line_or_a_valid_check(
    folder: Path, data: st.DataObject, fmt: str
) -> None:
    path = folder / f"cli.{fmt}"
    path.write_bytes(data.draw(damaged(serialized(data.draw(mutated(SCENARIOS)), fmt))))
    result = Ua(folder)("scenario", "check", str(path))
    if result.exit_code == 0:
        assert "valid" in result.stdout
    else:
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {path}: "), result.stderr
