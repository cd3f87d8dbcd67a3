"""`ua tactics` (every edition's presets with what each does, grouped by edition; `--ruleset`
one edition's; `--json` with the rules) and `ua scenario schema --ruleset ua3` (issue 31)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import msgspec
from typer.testing import CliRunner

from engine.cli.app import app
from engine.scenario.ua3_scenario import Ua3Scenario
from engine.tactics.rules import PRESETS as UA2_PRESETS
from engine.tactics.rules import TacticRule
from engine.tactics.ua3_rules import PRESETS as UA3_PRESETS
from engine.tactics.ua3_rules import Ua3TacticRule

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
PRESETS = {"ua2": (UA2_PRESETS, TacticRule), "ua3": (UA3_PRESETS, Ua3TacticRule)}


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_with_no_option_every_editions_presets_are_listed_under_their_edition() -> None:
    code, out, err = run("tactics")
    assert code == 0, err
    headings = [i for i, line in enumerate(out.splitlines()) if line.endswith("tactics presets")]
    lines = out.splitlines()
    assert [lines[i].split()[0] for i in headings] == ["ua2", "ua3"]
    ua2_part, ua3_part = "\n".join(lines[headings[0] : headings[1]]), "\n".join(lines[headings[1] :])
    for part, edition in ((ua2_part, "ua2"), (ua3_part, "ua3")):
        listed = [line.split()[0] for line in part.splitlines()[1:] if line.startswith("  ")]
        assert listed == list(PRESETS[edition][0])
    assert re.search(r"^  berserker +all in: focus \+20 on the strongest enemy", ua2_part, re.M)
    assert re.search(r"^  grappler +grabs the weakest enemy", ua3_part, re.M) and "grappler" not in ua2_part


def test_ruleset_lists_that_edition_only_and_an_unknown_one_is_one_line() -> None:
    code, out, _ = run("tactics", "--ruleset", "ua3")
    assert code == 0 and out.startswith("ua3 (Unknown Armies, 3rd edition)") and "ua2" not in out
    code, _, err = run("tactics", "--ruleset", "ua9")
    assert code == 2 and err.strip() == "error: --ruleset: unknown ruleset 'ua9' (hint: available: ua2, ua3)"


def test_json_gives_each_presets_rules_as_a_scenario_writes_them() -> None:
    code, out, _ = run("tactics", "--json")
    assert code == 0
    listed = json.loads(out)
    for edition, (presets, rule_type) in PRESETS.items():
        got = listed[edition]["presets"]
        assert set(got) == set(presets)  # JSON keys are sorted
        for name, preset in got.items():
            assert preset["does"]
            assert tuple(msgspec.convert(r, rule_type) for r in preset["rules"]) == presets[name]
    assert listed["ua2"]["presets"]["sniper"]["rules"][-1] == {"do": "attack", "target": "most_dangerous", "focus": 10}


def test_the_readme_tables_say_what_ua_tactics_says() -> None:
    readme = (ROOT / "README.md").read_text()
    listed = json.loads(run("tactics", "--json")[1])
    for edition, presets in listed.items():
        for name, preset in presets["presets"].items():
            assert f"| `{name}` | {preset['does']} |" in readme, (edition, name)


def _properties(schema: dict[str, Any], name: str) -> set[str]:
    return set(schema["$defs"][name]["properties"])


def test_the_ua3_scenario_schema_is_a_json_schema_of_the_ua3_sections() -> None:
    code, out, _ = run("scenario", "schema", "--ruleset", "ua3")
    assert code == 0
    schema = json.loads(out)
    assert schema["$ref"] == "#/$defs/Ua3Scenario"
    refs = set(re.findall(r'"\$ref": "#/\$defs/([^"]+)"', out))
    assert refs <= set(schema["$defs"]), "every reference resolves"
    assert {"armor", "weapons", "combatants", "triggers", "settings"} <= _properties(schema, "Ua3Scenario")
    assert {"coerced", "armor", "condition", "tactics"} <= _properties(schema, "Ua3CombatantSpec")
    assert {"wound_threshold", "burnout_hardened"} <= _properties(schema, "Ua3Settings")
    assert "Ua3Scenario" not in run("scenario", "schema")[1], "ua2's is another schema"
    for path in sorted((ROOT / "scenarios" / "ua3").glob("*.toml")):
        doc = tomllib.loads(path.read_text())
        msgspec.convert(doc, Ua3Scenario)  # what the schema describes loads
        assert set(doc) <= _properties(schema, "Ua3Scenario"), path.name
        for combatant in doc["combatants"]:
            assert set(combatant) <= _properties(schema, "Ua3CombatantSpec"), (path.name, combatant)
