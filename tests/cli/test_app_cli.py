"""`ua` as the console script starts it (`engine.cli.app.main`): one group, one of its commands."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.cli.app import main

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "knife-vs-22.toml"


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["ua", *args])
    with pytest.raises(SystemExit) as exited:
        main()
    out = capsys.readouterr()
    return int(exited.value.code or 0), out.out, out.err


def test_a_session_action_runs_with_only_its_own_command_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "s.sqlite")
    assert run_main(monkeypatch, capsys, "session", "new", "s", "--scenario", str(SCENARIO), "--db", db)[0] == 0
    roll = ("session", "roll", "s", "--kind", "major", "--db", db)
    code, out, _ = run_main(monkeypatch, capsys, *roll, "--rating", "45")
    assert code == 0 and "Roll major check" in out
    code, _, err = run_main(monkeypatch, capsys, *roll, "--rating", "450")
    assert code == 2 and "ua session roll: Invalid value for '--rating'" in err


def test_the_group_alone_or_an_unknown_action_still_knows_every_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_main(monkeypatch, capsys, "session", "--help")
    assert code == 0 and all(name in out for name in ("attack", "export", "fork", "undo"))
    code, _, err = run_main(monkeypatch, capsys, "session", "rol")
    assert code == 2 and "Did you mean 'roll'" in err
