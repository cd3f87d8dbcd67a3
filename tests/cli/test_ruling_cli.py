"""`ua session ruling` with effects (U-26, T-5) through typer's runner: --note, --wounds,
--injury, --fall (U-13), --notch, --condition; the log shows the effects, undo removes them,
and a bad value is one line with nothing written."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.cli.app import app
from engine.session.live import LiveEncounter
from engine.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[2]
AMBUSH = ROOT / "scenarios" / "ua3" / "full-auto-ambush.toml"  # Dana wears a bulletproof vest
DUEL = ROOT / "scenarios" / "knife-vs-22.toml"
runner = CliRunner()


def ua(tmp_path: Path, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, [*args, "--db", str(tmp_path / "s.sqlite")])
    assert result.exit_code == code, result.output
    return result.output


def live(tmp_path: Path, name: str) -> LiveEncounter:
    return LiveEncounter(SqliteStore(tmp_path / "s.sqlite"), name)


def test_u13_a_ruled_fall_loses_10_to_the_vest_and_the_log_shows_it_and_undo_removes_it(tmp_path: Path) -> None:
    ua(tmp_path, "session", "new", "amb", "--scenario", str(AMBUSH), "--seed", "3")
    effects = ["--fall", "Dana=17", "--fall", "Sam=17", "--notch", "Sam:violence:hardened:+1"]
    out = ua(
        tmp_path, "session", "ruling", "amb", "--note", "the roof gives way", *effects, "--condition", "Dink=restrained"
    )
    assert "17 wounds − 10 for the bulletproof armor = 7 (U-13, U-26)" in out
    state = live(tmp_path, "amb").state
    assert [state.combatant(c).wounds for c in ("Dana", "Sam")] == [7, 17]
    assert state.combatant("Dink").restrained_by == "a GM ruling"
    assert "Sam marks a hardened violence notch" in ua(tmp_path, "session", "log", "amb")
    ua(tmp_path, "session", "undo", "amb")
    state = live(tmp_path, "amb").state
    assert [state.combatant(c).wounds for c in ("Dana", "Sam")] == [0, 0] and state.combatant(
        "Dink"
    ).restrained_by == ""


def test_h2_ua2_wounds_come_off_the_injury_injury_names(tmp_path: Path) -> None:
    ua(tmp_path, "session", "new", "duel", "--scenario", str(DUEL), "--seed", "3")
    ua(tmp_path, "session", "ruling", "duel", "a graze", "--wounds", "Vic=4", "--wounds", "Vic=6")
    out = ua(tmp_path, "session", "ruling", "duel", "--note", "stitches", "--wounds", "Vic=-10", "--injury", "1")
    assert "heals Vic 4 (#1 4)" in out
    assert [i.open for i in live(tmp_path, "duel").state.combatant("Vic").injuries] == [0, 6]


def test_a_bad_value_is_one_line_and_a_refused_ruling_writes_nothing(tmp_path: Path) -> None:
    ua(tmp_path, "session", "new", "duel", "--scenario", str(DUEL), "--seed", "3")
    before = live(tmp_path, "duel").state.version
    bad = ua(tmp_path, "session", "ruling", "duel", "--note", "x", "--notch", "Vic:violence:soft:+1", code=2)
    assert bad.strip().count("\n") == 0 and "--notch" in bad and "WHO:METER:hardened|failed" in bad
    refused = ua(tmp_path, "session", "ruling", "duel", "--note", "x", "--fall", "Vic=9", code=3)
    assert "$.falls[0]" in refused and "U-13" in refused and "Traceback" not in refused
    refused = ua(tmp_path, "session", "ruling", "duel", "--note", "x", "--condition", "Vic=sleepy", code=3)
    assert "ua2 conditions: unconscious, frozen, prone, blind, dazed" in refused
    assert live(tmp_path, "duel").state.version == before
