"""`ua character check|show|schema` through typer's runner."""

from __future__ import annotations

import json
import time
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from engine.cli.app import app
from engine.state.sheet import Sheet

runner = CliRunner()
CHARACTERS = Path(__file__).resolve().parents[2] / "scenarios" / "characters"
SAMPLES = sorted(CHARACTERS.glob("*.toml"))

VALID = """\
name = "Vic"
obsession = "Dodge"
[stats]
body = 50
speed = 55
mind = 60
soul = 55
[[skills]]
name = "Dodge"
stat = "speed"
rating = 55
[[passions]]
kind = "rage"
trigger = "a"
[[passions]]
kind = "fear"
trigger = "b"
[[passions]]
kind = "noble"
trigger = "c"
"""


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


# --- check --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_sample_character_passes_check_with_no_error(path: Path) -> None:
    code, out, err = run("character", "check", str(path))
    assert code == 0, out + err
    assert "error:" not in out
    assert "valid: 0 errors" in out
    code, out, _ = run("character", "check", str(path), "--json")
    data = json.loads(out)
    assert (code, data["valid"], data["errors"]) == (0, True, 0)


def test_check_prints_each_finding_with_path_and_numbers_and_exits_1_s2_3(tmp_path: Path) -> None:
    text = VALID.replace("rating = 55\n", 'rating = 55\n[[skills]]\nname = "Driving"\nstat = "speed"\nrating = 20\n')
    path = write(tmp_path, "vic.toml", text)
    code, out, err = run("character", "check", str(path), "--tier", "beginner")
    assert code == 1, out + err
    assert err == ""
    assert (
        "error: $.skills: 5 skill points over budget: Speed's skills cost 75, 20 more than Speed 55; "
        "those 20 come from bonus points, and a beginner has 15 (S2-3)"
    ) in out
    assert "not valid: 1 error, 0 warnings" in out


def test_check_shows_warnings_but_passes_s2_2(tmp_path: Path) -> None:
    path = write(tmp_path, "vic.toml", VALID)
    code, out, _ = run("character", "check", str(path), "--tier", "seasoned")
    assert code == 0
    assert ("warning: $.stats: stat points: 220 spent, 240 available for a seasoned — 20 unspent (S2-2)") in out


def test_check_json_lists_findings_and_the_accounts(tmp_path: Path) -> None:
    path = write(tmp_path, "vic.toml", VALID)
    code, out, _ = run("character", "check", str(path), "--tier", "beginner", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["tier"] == "beginner"
    assert data["spending"]["stat_points"] == {"spent": 220, "available": 220}
    assert data["spending"]["skill_points"]["speed"] == {"spent": 55, "available": 55, "over": 0}
    assert {f["path"] for f in data["findings"]} == {"$.skills"}


def test_check_takes_the_tier_from_the_sheet_and_the_option_overrides_it(tmp_path: Path) -> None:
    path = write(tmp_path, "vic.toml", 'tier = "experienced"\n' + VALID)
    _, out, _ = run("character", "check", str(path), "--json")
    assert json.loads(out)["tier"] == "experienced"
    _, out, _ = run("character", "check", str(path), "--json", "--tier", "beginner")
    assert json.loads(out)["tier"] == "beginner"


def test_check_without_any_tier_asks_for_one(tmp_path: Path) -> None:
    path = write(tmp_path, "vic.toml", VALID)
    code, out, err = run("character", "check", str(path))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "--tier" in err and str(path) in err


def test_an_unknown_tier_is_a_usage_error() -> None:
    code, _, err = run("character", "check", str(SAMPLES[0]), "--tier", "legendary")
    assert code == 2
    assert err.startswith("error: ua character check: Invalid value for '--tier'")


# --- malformed files: one line, the file, the $.path, exit 1, quickly --------------------------

MALFORMED: list[tuple[str, str, bytes | None, str]] = [
    ("wrong type", "vic.toml", VALID.replace("body = 50", 'body = "50"').encode(), "$.stats.body"),
    (
        "unknown field",
        "vic.toml",
        VALID.replace("mind = 60", "mind = 60\nluck = 9").encode(),
        "$.stats",
    ),
    ("missing stat", "vic.toml", VALID.replace("soul = 55\n", "").encode(), "$.stats"),
    ("out of range", "vic.toml", VALID.replace("body = 50", "body = 150").encode(), "$.stats.body"),
    (
        "duplicate skill",
        "vic.toml",
        (VALID + '[[skills]]\nname = "DODGE"\nstat = "speed"\nrating = 1\n').encode(),
        "$.skills[1].name",
    ),
    ("not utf-8", "vic.toml", b'name = "V\xefc"\n', ""),
    ("toml syntax", "vic.toml", b'name = "Vic\n[stats]\n', ""),
    (
        "yaml alias bomb",
        "vic.yaml",
        (
            'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
            + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))
        ).encode(),
        "",
    ),
    ("json syntax", "vic.json", b'{"name": "Vic",,}', ""),
    ("10 MB", "huge.toml", None, ""),
    ("directory", "sheets.toml", b"", ""),
    ("missing file", "nobody.toml", b"", ""),
]


@pytest.mark.parametrize("command", ["check", "show"])
@pytest.mark.parametrize(("case", "name", "content", "json_path"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_sheet_is_one_line_naming_the_file_exit_1(
    command: str, case: str, name: str, content: bytes | None, json_path: str, tmp_path: Path
) -> None:
    path = tmp_path / name
    if case == "10 MB":
        with path.open("wb") as handle:
            handle.truncate(10 * 1024 * 1024)
    elif case == "directory":
        path.mkdir()
    elif case != "missing file":
        assert content is not None
        path.write_bytes(content)
    start = time.perf_counter()
    result = runner.invoke(
        app,
        ["character", command, str(path), "--tier", "beginner"]
        if command == "check"
        else ["character", command, str(path)],
    )
    elapsed = time.perf_counter() - start
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"error: {path}: ")
    assert json_path in result.stderr
    assert "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert elapsed < 2.0


# --- show, schema -------------------------------------------------------------------------------


def test_show_draws_meters_as_notches_and_marks_the_obsession() -> None:
    code, out, _ = run("character", "show", str(CHARACTERS / "gunman.toml"))
    assert code == 0
    assert "Vic Marlowe" in out
    assert "violence      hardened ■■■□□□□□□□  failed ■□□□□" in out
    firearms = next(line for line in out.splitlines() if line.startswith("Firearms"))
    assert "speed 75" in firearms and "60" in firearms and "obsession" in firearms
    for text in (".44 revolver", "wound points  55 / 55", "rage", "fear", "noble"):
        assert text in out


def test_show_renders_user_text_literally_not_as_markup(tmp_path: Path) -> None:
    path = write(tmp_path, "vic.toml", VALID.replace('name = "Vic"', 'name = "[bold]Vic[/]"'))
    _, out, _ = run("character", "show", str(path))
    assert "[bold]Vic[/]" in out


def test_show_json_is_the_sheet() -> None:
    code, out, _ = run("character", "show", str(CHARACTERS / "brawler.toml"), "--json")
    assert code == 0
    sheet = msgspec.json.decode(out, type=Sheet)
    assert sheet.obsession == "Kung Fu" and sheet.weapons == ("fists",)


def test_schema_is_the_json_schema_of_a_sheet() -> None:
    code, out, _ = run("character", "schema")
    assert code == 0
    schema = json.loads(out)
    assert schema == json.loads(msgspec.json.encode(msgspec.json.schema(Sheet)))
    sheet = schema["$defs"]["Sheet"]
    assert {"name", "stats", "skills", "obsession", "passions"} <= set(sheet["properties"])
    assert sheet["additionalProperties"] is False
