"""ua3 fights as sessions (U-22): `ua session new` from a ua3 scenario, the NPCs acting by
their tactics (`ua session npc`), the players' own commands (`ua session play`), undo, and the
log re-deciding command by command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from engine.cli.app import app
from engine.session.live import LiveEncounter
from engine.session.verify import verify
from engine.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[2]
AMBUSH = ROOT / "scenarios" / "ua3" / "full-auto-ambush.toml"
runner = CliRunner()


def ua(tmp_path: Path, *args: str) -> Any:
    result = runner.invoke(app, [*args, "--db", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout) if "--json" in args else result.stdout


def session(tmp_path: Path) -> LiveEncounter:
    return LiveEncounter(SqliteStore(tmp_path / "s.sqlite"), "ambush")


def test_npcs_fight_a_whole_ua3_fight_by_their_tactics_and_the_log_re_decides(tmp_path: Path) -> None:
    ua(tmp_path, "session", "new", "ambush", "--scenario", str(AMBUSH), "--seed", "7", "--json")
    out = ua(tmp_path, "session", "npc", "ambush", "--all", "--steps", "5000", "--json")
    assert out["phase"] == "ended" and out["events"]
    live = session(tmp_path)
    assert live.state.ruleset == "ua3" and live.state.fight.result is not None
    assert verify(live.records).ok
    live.undo()  # the command that ended the fight (the CLI's rendering of ua3 states is part 1's)
    assert session(tmp_path).state.fight.phase != "ended"


def test_the_npcs_declare_first_and_stop_for_the_players(tmp_path: Path) -> None:
    """U-22: the crew declares; the police (the players) declare after, then the round runs
    until a police officer's turn."""
    ua(tmp_path, "session", "new", "ambush", "--scenario", str(AMBUSH), "--seed", "7", "--json")
    out = ua(tmp_path, "session", "npc", "ambush", "--json")
    declared = [e for e in out["events"] if e["type"] == "ua3_action_declared"]
    assert {e["event"]["actor"] for e in declared} == {"Vasquez", "Dink"} and out["phase"] == "declare"
    script = tmp_path / "police.jsonl"
    script.write_text(
        json.dumps(
            {
                "command": "ua3_declare",
                "declarations": [
                    {"actor": "Dana", "action": "attack", "targets": ["Vasquez"]},
                    {"actor": "Sam", "action": "dodge"},
                ],
            }
        )
        + "\n"
    )
    ua(tmp_path, "session", "play", "ambush", str(script))
    assert session(tmp_path).state.fight.phase == "acting"
    out = ua(tmp_path, "session", "npc", "ambush", "--json")
    state = session(tmp_path).state
    assert out["turn"] in (None, "Dana", "Sam") and (out["turn"] is None or state.fight.phase == "acting")
