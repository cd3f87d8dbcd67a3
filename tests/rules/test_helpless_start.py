"""ua2: a fight that starts with a helpless combatant (issue 27, C2-33, M2-7, M2-8): a scenario's
`condition` — restrained (bound), unconscious or frozen — is an event at setup that folds and
replays; the bound and the frozen stand, helpless, and lose their turns; the unconscious do not
stand; killing a helpless one raises the violence 7 check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_session_cli import Ua

ROOT = Path(__file__).resolve().parents[2]
THUG = ROOT / "scenarios" / "characters" / "thug.toml"


def _scenario(tmp_path: Path, *others: tuple[str, str, str]) -> str:
    (tmp_path / "thug.toml").write_text(THUG.read_text())
    text = 'title = "Cellar"\n[[combatants]]\nid = "Rosa"\nside = "captors"\nsheet = "thug.toml"\n'
    for who, side, condition in others:
        text += f'[[combatants]]\nid = "{who}"\nside = "{side}"\nsheet = "thug.toml"\n'
        text += f'condition = "{condition}"\n' if condition else ""
    path = tmp_path / "cellar.toml"
    path.write_text(text)
    return str(path)


@pytest.fixture
def ua(tmp_path: Path) -> Ua:
    return Ua(tmp_path)


def test_c2_33_a_bound_prisoner_stands_loses_every_turn_and_its_killer_takes_violence_7(ua: Ua) -> None:
    scenario = _scenario(ua.dir, ("Pete", "prisoner", "restrained"))
    report = ua.ok("simulate", scenario, "-n", "100", "--seed", "1")
    assert report["refused_commands"] == 0 and report["rounds"]["min"] >= 1
    assert report["sides"]["captors"]["rate"] == 1.0
    assert report["combatants"]["Pete"]["wounds_dealt_mean"] == 0  # it never acts
    saved = ua.dir / "f.jsonl"
    assert ua("fight", scenario, "--seed", "1", "--index", "0", "--save", str(saved)).exit_code == 0
    assert "verified" in ua("replay", str(saved), "--verify").stdout  # it folds and re-decides
    events = [json.loads(line)["data"] for line in saved.read_text().splitlines()]
    types = [e["type"] for e in events]
    assert types.index("started_helpless") < types.index("round_started")
    skipped = [e["reason"] for e in events if e["type"] == "turn_skipped" and e["id"] == "Pete"]
    assert "bound" in skipped[0] and all("bound" in why or "frozen" in why for why in skipped)  # never acts
    (killed,) = [e for e in events if e["type"] == "status_changed" and e["status"] == "dead"]  # fight 0, seed 1
    assert killed["id"] == "Pete"
    (check,) = [e for e in events if e["type"] == "madness_check_resolved" and e["actor"] == "Rosa"]
    assert (check["meter"], check["rank"]) == ("violence", 7)  # M2-8: killing the helpless


def test_the_unconscious_do_not_stand_and_the_frozen_do(ua: Ua) -> None:
    scenario = _scenario(ua.dir, ("Sleepy", "guards", "unconscious"), ("Stiff", "guards", "frozen"))
    ua.ok("session", "new", "gh", "--scenario", scenario, "--players", "", "--seed", "2")
    state: dict[str, Any] = {c["id"]: c for c in ua.ok("session", "state", "gh")["combatants"]}
    assert state["Sleepy"]["status"] == "unconscious"
    assert (state["Stiff"]["status"], state["Stiff"]["reaction"]["kind"]) == ("active", "freeze")
    out = ua.ok("session", "begin", "gh")
    assert "fight_ended" not in [e["type"] for e in out["events"]]  # Stiff stands: a fight
    shown = ua("session", "state", "gh").stdout
    assert "unconscious" in shown and "freeze (until calmed)" in shown


def test_a_bound_prisoners_state_says_bound_and_nothing_it_cannot_do_is_allowed(ua: Ua) -> None:
    scenario = _scenario(ua.dir, ("Pete", "prisoner", "restrained"))
    ua.ok("session", "new", "b", "--scenario", scenario, "--players", "", "--seed", "2")
    assert "active, bound" in ua("session", "state", "b").stdout
    ua.ok("session", "begin", "b")
    assert "bound" in ua.fails("session", "attack", "b", "Pete", "Rosa")


def test_the_ua2_scenario_schema_names_the_conditions(ua: Ua) -> None:
    schema = json.loads(ua("scenario", "schema").stdout)
    condition = schema["$defs"]["CombatantSpec"]["properties"]["condition"]
    assert {"enum": ["frozen", "restrained", "unconscious"]} in condition["anyOf"]
