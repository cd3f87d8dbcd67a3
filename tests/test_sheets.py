"""Sheets as files: the generic safe loader (engine.scenario.files) and `load_sheet`."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest
import tomli_w
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import InvalidInput
from engine.scenario import yaml_loader
from engine.scenario.files import MAX_BYTES, FileError, decode_document, load_document
from engine.scenario.sheets import load_sheet, sheet_problems
from engine.state.sheet import Meters, Sheet
from tests.strategies import instances_of

CHARACTERS = Path(__file__).resolve().parents[1] / "scenarios" / "characters"
SAMPLES = sorted(CHARACTERS.glob("*.toml"))

STATS = 'name = "Vic"\n[stats]\nbody = 50\nspeed = 55\nmind = 60\nsoul = 55\n'
PASSIONS = (
    '[[passions]]\nkind = "rage"\ntrigger = "a"\n'
    '[[passions]]\nkind = "fear"\ntrigger = "b"\n'
    '[[passions]]\nkind = "noble"\ntrigger = "c"\n'
)
YAML_LOADERS: list[type[Any]] = [yaml_loader.StrictYamlLoader]
if hasattr(yaml_loader, "FastStrictYamlLoader"):
    YAML_LOADERS.append(yaml_loader.FastStrictYamlLoader)


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def error_of(path: Path, type_: type[Any] = Sheet) -> FileError:
    with pytest.raises(FileError) as info:
        if type_ is Sheet:
            load_sheet(path)
        else:
            load_document(path, type_)
    exc = info.value
    assert "\n" not in str(exc), "an error is one line"
    assert exc.where == str(path), "an error names the file"
    return exc


def to_builtins_without_none(value: Any) -> Any:
    """TOML has no null: drop None fields (they are the defaults)."""
    data = msgspec.to_builtins(value)

    def strip(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if v is not None}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return strip(data)


# --- the sample characters ---------------------------------------------------------------------


def test_there_are_at_least_six_sample_characters_across_the_three_tiers() -> None:
    sheets = [load_sheet(p) for p in SAMPLES]
    assert len(sheets) >= 6
    assert {s.tier for s in sheets} == {"beginner", "seasoned", "experienced"}
    names = {p.stem for p in SAMPLES}
    assert {"gunman", "knife-fighter", "brawler", "occultist", "cop", "bystander"} <= names


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_sample_sheet_loads_and_round_trips_through_yaml_and_json(path: Path, tmp_path: Path) -> None:
    sheet = load_sheet(path)
    data = to_builtins_without_none(sheet)
    as_yaml = write(tmp_path, f"{path.stem}.yaml", yaml.safe_dump(data, allow_unicode=True))
    as_json = write(tmp_path, f"{path.stem}.json", json.dumps(data))
    assert load_sheet(as_yaml) == sheet
    assert load_sheet(as_json) == sheet


def test_sample_weapons_and_obsessions_are_as_briefed() -> None:
    by_stem = {p.stem: load_sheet(p) for p in SAMPLES}
    assert by_stem["gunman"].obsession == "Firearms"
    assert ".44 revolver" in by_stem["gunman"].weapons
    assert by_stem["knife-fighter"].obsession == "Fighting"
    assert "knife" in by_stem["knife-fighter"].weapons
    brawler = by_stem["brawler"]
    assert brawler.obsession == "Kung Fu" and brawler.hand_to_hand == "Kung Fu"
    kung_fu = brawler.skill("Kung Fu")
    assert kung_fu is not None and kung_fu.stat == "body"
    assert "fists" in brawler.weapons
    assert ".38 revolver" in by_stem["cop"].weapons and by_stem["cop"].skill("Firearms")
    assert by_stem["bystander"].tier == "beginner" and by_stem["bystander"].weapons == ()


# --- shape errors: one line, the file, the $.path -----------------------------------------------


def test_a_string_for_a_number_is_refused_not_coerced(tmp_path: Path) -> None:
    path = write(tmp_path, "vic.toml", STATS.replace("body = 50", 'body = "50"') + PASSIONS)
    exc = error_of(path)
    assert exc.json_path == "$.stats.body"
    assert exc.message == "Expected int, got str at $.stats.body"
    assert "ua character schema" in exc.hint


def test_an_unknown_field_is_refused_with_its_name(tmp_path: Path) -> None:
    path = write(tmp_path, "vic.toml", STATS.replace("mind = 60", "mind = 60\nluck = 3") + PASSIONS)
    exc = error_of(path)
    assert (exc.json_path, exc.reason) == ("$.stats", "Object contains unknown field 'luck'")


def test_a_missing_stat_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, "vic.toml", STATS.replace("soul = 55\n", "") + PASSIONS)
    exc = error_of(path)
    assert (exc.json_path, exc.reason) == ("$.stats", "Object missing required field 'soul'")


def test_an_out_of_range_stat_is_refused_s2_1(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "vic.yaml",
        "name: Vic\nstats: {body: 150, speed: 55, mind: 60, soul: 55}\n",
    )
    exc = error_of(path)
    assert (exc.json_path, exc.reason) == ("$.stats.body", "Expected int <= 99")


def test_an_unknown_tied_stat_is_refused(tmp_path: Path) -> None:
    text = STATS + '[[skills]]\nname = "Luck"\nstat = "luck"\nrating = 30\n' + PASSIONS
    exc = error_of(write(tmp_path, "vic.toml", text))
    assert exc.json_path == "$.skills[0].stat"


def test_control_characters_in_names_are_refused(tmp_path: Path) -> None:
    for name in ("Vic\x1b[31m", "Vic\n", "Vic\u0085"):
        path = write(tmp_path, "vic.json", json.dumps({"name": name, "stats": {}}))
        exc = error_of(path)
        assert exc.json_path == "$.name"
        assert "control character" in exc.reason


def test_an_empty_file_is_not_a_sheet(tmp_path: Path) -> None:
    for name in ("empty.toml", "empty.yaml", "empty.json"):
        exc = error_of(write(tmp_path, name, ""))
        assert exc.json_path in ("$", "")


# --- file errors --------------------------------------------------------------------------------


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    exc = error_of(tmp_path / "nobody.toml")
    assert exc.reason == "no such file"


def test_a_path_with_a_nul_is_refused_not_a_crash() -> None:
    with pytest.raises(FileError, match="not a valid file name"):
        load_sheet("vic\x00.toml")


def test_a_directory_is_not_a_sheet(tmp_path: Path) -> None:
    path = tmp_path / "sheets.toml"
    path.mkdir()
    assert "directory" in error_of(path).reason


def test_an_unknown_extension_is_refused_with_the_known_ones(tmp_path: Path) -> None:
    exc = error_of(write(tmp_path, "vic.txt", STATS))
    assert ".toml" in exc.hint and ".yaml" in exc.hint and ".json" in exc.hint


def test_a_file_not_in_utf8_names_the_byte_and_line(tmp_path: Path) -> None:
    exc = error_of(write(tmp_path, "vic.toml", b'name = "Vic"\nnotes = "caf\xe9"\n'))
    assert exc.reason == "not UTF-8 text: byte 25 (line 2) is not valid UTF-8"


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = write(tmp_path, "vic.toml", b"\xef\xbb\xbf" + (STATS + PASSIONS).encode())
    assert load_sheet(path).name == "Vic"


def test_a_10_mb_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.truncate(10 * 1024 * 1024)  # sparse: nothing to read, only its size
    start = time.perf_counter()
    exc = error_of(path)
    assert time.perf_counter() - start < 0.5
    assert f"{MAX_BYTES:,}-byte limit" in exc.reason
    assert "10,485,760 bytes" in exc.reason


def test_a_file_that_grows_past_the_limit_while_read_is_still_refused(tmp_path: Path) -> None:
    data = b"a" * (MAX_BYTES + 1)
    with pytest.raises(FileError, match="limit"):
        decode_document(data, name="x.json", type_=Sheet)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)
    assert error_of(path).reason == "is not a regular file"


# --- syntax errors, with the line ---------------------------------------------------------------


def test_a_toml_syntax_error_gives_the_line(tmp_path: Path) -> None:
    exc = error_of(write(tmp_path, "vic.toml", 'name = "Vic"\n[stats\nbody = 50\n'))
    assert exc.reason.startswith("TOML syntax error")
    assert "line 2" in exc.reason


def test_a_json_syntax_error_gives_the_line_and_column(tmp_path: Path) -> None:
    exc = error_of(write(tmp_path, "vic.json", '{\n  "name": "Vic",\n  "stats": {,}\n}'))
    assert exc.reason.startswith("JSON syntax error")
    assert "line 3, column 13" in exc.reason


@pytest.mark.parametrize("loader", YAML_LOADERS, ids=lambda c: c.__name__)
def test_a_yaml_syntax_error_gives_the_line(loader: type[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_loader, "YAML_LOADER", loader)
    exc = error_of(write(tmp_path, "vic.yaml", "name: Vic\nstats: [1, 2\n"))
    assert exc.reason.startswith("YAML syntax error")
    assert "line 3" in exc.reason


# --- YAML: no aliases, anchors, exotic tags; bounded depth -------------------------------------

BILLION_LAUGHS = "\n".join(
    [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
        "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
        "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
        "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]",
        "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]",
        "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]",
        "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]",
    ]
)


@pytest.mark.parametrize("loader", YAML_LOADERS, ids=lambda c: c.__name__)
def test_a_yaml_alias_bomb_is_refused_at_once(
    loader: type[Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(yaml_loader, "YAML_LOADER", loader)
    start = time.perf_counter()
    exc = error_of(write(tmp_path, "bomb.yaml", BILLION_LAUGHS))
    assert time.perf_counter() - start < 0.5
    assert exc.reason.startswith("YAML refused: anchors")


@pytest.mark.parametrize("loader", YAML_LOADERS, ids=lambda c: c.__name__)
@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("name: *vic\n", "aliases (*name) are not allowed"),
        ("name: &vic Vic\n", "anchors (&name) are not allowed"),
        ("name: !!python/object/apply:os.system [echo]\n", "is not allowed"),
        ("name: !vic Vic\n", "the tag '!vic' is not allowed"),
        ("name: !!binary VmlD\n", "the tag 'tag:yaml.org,2002:binary' is not allowed"),
        ("name: Vic\nname: Mara\n", "duplicate key 'name'"),
        ("a: " + "[" * 40 + "]" * 40 + "\n", "nested deeper than 32 levels"),
    ],
)
def test_yaml_constructs_that_could_hurt_are_refused(
    loader: type[Any],
    text: str,
    refusal: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(yaml_loader, "YAML_LOADER", loader)
    exc = error_of(write(tmp_path, "vic.yaml", text))
    assert refusal in exc.reason
    assert "line 1" in exc.reason or "line 2" in exc.reason


@pytest.mark.parametrize("loader", YAML_LOADERS, ids=lambda c: c.__name__)
def test_yaml_dates_and_merge_keys_are_plain_text(loader: type[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_loader, "YAML_LOADER", loader)
    data = decode_document(b"a: 2001-02-30\n<<: x\n", name="x.yaml", type_=dict[str, str])
    assert data == {"a": "2001-02-30", "<<": "x"}


def test_a_second_yaml_document_is_refused() -> None:
    with pytest.raises(FileError, match="single document"):
        decode_document(b"a: 1\n---\nb: 2\n", name="x.yaml", type_=dict[str, int])


@pytest.mark.parametrize("suffix", [".toml", ".json", ".yaml"])
def test_deep_nesting_is_refused_in_every_format(suffix: str) -> None:
    depth = 500
    body = {
        ".toml": "a = " + "[" * depth + "]" * depth,
        ".json": '{"a": ' + "[" * depth + "]" * depth + "}",
        ".yaml": "a: " + "[" * depth + "]" * depth,
    }[suffix]
    with pytest.raises(FileError, match="nested deeper than 32 levels"):
        decode_document(body.encode(), name=f"deep{suffix}", type_=dict[str, Any])


# --- sheet-level validation (not creation rules) ------------------------------------------------


def test_skill_names_are_unique_ignoring_case(tmp_path: Path) -> None:
    text = (
        STATS
        + '[[skills]]\nname = "Dodge"\nstat = "speed"\nrating = 30\n'
        + '[[skills]]\nname = "dodge"\nstat = "speed"\nrating = 40\n'
        + PASSIONS
    )
    exc = error_of(write(tmp_path, "vic.toml", text))
    assert exc.json_path == "$.skills[1].name"
    assert exc.reason == "duplicate skill 'dodge' (also $.skills[0])"


def test_the_obsession_names_an_existing_skill_c9(tmp_path: Path) -> None:
    exc = error_of(write(tmp_path, "vic.toml", 'obsession = "Firearms"\n' + STATS + PASSIONS))
    assert exc.json_path == "$.obsession"
    assert "'Firearms' is not one of the sheet's skills" in exc.reason


def test_exactly_three_passions_one_of_each_kind_c10(tmp_path: Path) -> None:
    text = STATS + PASSIONS.replace('kind = "noble"', 'kind = "rage"')
    exc = error_of(write(tmp_path, "vic.toml", text))
    assert exc.json_path == "$.passions"
    assert exc.reason == (
        "3 passions given (rage, fear, rage): need one each of rage, fear and noble — "
        "noble missing; rage 2 times (C-10)"
    )
    exc = error_of(write(tmp_path, "vic.toml", STATS))
    assert exc.reason.startswith("0 passions given: need one each")


def test_current_wounds_cannot_exceed_the_maximum(tmp_path: Path) -> None:
    text = STATS + PASSIONS + "[wounds]\ncurrent = 60\nmaximum = 50\n"
    exc = error_of(write(tmp_path, "vic.toml", text))
    assert (exc.json_path, exc.reason) == (
        "$.wounds.current",
        "current wound points 60 exceed the maximum 50",
    )


def test_a_named_hand_to_hand_skill_must_exist_c2_1(tmp_path: Path) -> None:
    text = 'hand_to_hand = "Kung Fu"\n' + STATS + PASSIONS
    exc = error_of(write(tmp_path, "vic.toml", text))
    assert exc.json_path == "$.hand_to_hand"


def test_several_problems_report_the_first_and_count_the_rest(tmp_path: Path) -> None:
    text = 'obsession = "Firearms"\n' + STATS + "[wounds]\ncurrent = 60\nmaximum = 50\n"
    exc = error_of(write(tmp_path, "vic.toml", text))
    assert exc.json_path == "$.obsession"
    assert exc.hint == "2 more problems after this one"


# --- properties ---------------------------------------------------------------------------------


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=400), suffix=st.sampled_from([".toml", ".yaml", ".yml", ".json"]))
def test_any_bytes_give_a_sheet_or_invalid_input(data: bytes, suffix: str) -> None:
    try:
        sheet = decode_document(data, name=f"random{suffix}", type_=Sheet)
    except InvalidInput as exc:
        assert "\n" not in str(exc)
    else:
        assert isinstance(sheet, Sheet)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=200), loader=st.sampled_from(YAML_LOADERS))
def test_any_text_through_either_yaml_loader_gives_data_or_a_file_error(text: str, loader: type[Any]) -> None:
    try:
        yaml_loader.parse_yaml(text, "random.yaml", loader)
    except FileError as exc:
        assert "\n" not in str(exc)


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8))
_TREES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(["name", "stats", "body", "skills", "rating", "stat", "x"]),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=20,
)


@settings(max_examples=200)
@given(tree=_TREES)
def test_any_json_value_gives_a_sheet_or_invalid_input(tree: Any) -> None:
    try:
        decode_document(json.dumps(tree).encode(), name="tree.json", type_=Sheet)
    except InvalidInput as exc:
        assert "\n" not in str(exc)


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(sheet=instances_of(Sheet), fmt=st.sampled_from(["toml", "yaml", "json"]))
def test_any_sheet_written_as_a_file_reads_back_the_same(sheet: Sheet, fmt: str) -> None:
    data = to_builtins_without_none(sheet)
    text = {
        "toml": lambda: tomli_w.dumps(data),
        "yaml": lambda: yaml.safe_dump(data, allow_unicode=True),
        "json": lambda: json.dumps(data),
    }[fmt]()
    assert decode_document(text.encode(), name=f"sheet.{fmt}", type_=Sheet) == sheet
    assert isinstance(sheet_problems(sheet), list)


# --- S2-7, S2-8 ---------------------------------------------------------------------------------

SAMPLE_SHEETS = sorted(Path("scenarios/characters").glob("*.toml"))


def test_five_madness_meters_of_10_hardened_and_5_failed_notches_s2_7() -> None:
    meters = msgspec.json.decode(b"{}", type=Meters)
    assert [meters.of(m) for m in ("violence", "unnatural", "helplessness", "isolation", "self")] == [
        meters.violence
    ] * 5
    base = {"name": "N", "stats": {"body": 50, "speed": 50, "mind": 50, "soul": 50}}
    for meter, notches, ok in (
        ("violence", {"hardened": 10, "failed": 5}, True),
        ("self", {"hardened": 11}, False),
        ("isolation", {"failed": 6}, False),
    ):
        doc = json.dumps({**base, "meters": {meter: notches}}).encode()
        if ok:
            assert decode_document(doc, name="s.json", type_=Sheet).meters.of(meter).hardened == 10
        else:
            with pytest.raises(FileError, match=rf"\$\.meters\.{meter}\."):
                decode_document(doc, name="s.json", type_=Sheet)


@pytest.mark.parametrize("path", SAMPLE_SHEETS, ids=lambda p: p.stem)
def test_sample_skills_are_tied_to_the_stats_of_the_rules_s2_8(path: Path) -> None:
    tied = {
        "general athletics": "body",
        "fighting": "body",
        "brawling": "body",
        "struggle": "body",
        "dodge": "speed",
        "initiative": "speed",
        "driving": "speed",
        "firearms": "speed",
        "shooting": "speed",
        "general education": "mind",
        "notice": "mind",
        "conceal": "mind",
        "first aid": "mind",
        "medicine": "mind",
        "charm": "soul",
        "lying": "soul",
    }
    sheet = load_sheet(path)
    for skill in sheet.skills:
        if skill.name.casefold() in tied:
            assert skill.stat == tied[skill.name.casefold()], (path.name, skill.name)


def test_five_failed_notches_without_a_neurosis_is_refused_m2_5(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    passions = [{"kind": k, "trigger": "t"} for k in ("rage", "fear", "noble")]
    base = {"name": "N", "stats": {"body": 50, "speed": 50, "mind": 50, "soul": 50}, "passions": passions}
    path.write_text(json.dumps({**base, "meters": {"isolation": {"failed": 5}}}))
    with pytest.raises(FileError, match=r"neurosis \(M2-5\).*\$\.meters\.isolation\.neurosis"):
        load_sheet(path)
    path.write_text(json.dumps({**base, "meters": {"isolation": {"failed": 5, "neurosis": True}}}))
    assert load_sheet(path).meters.isolation.neurosis
