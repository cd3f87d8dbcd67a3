"""The third edition from the command line, as a GM tries it from a fresh clone: `ua character
check/show` for ua3 sheets (U-18, U-19, U-20, U-21, U-2), sessions of ua3 (`--ruleset ua3`, or a
ua3 scenario) with stress checks (U-23, U-25), coercion (U-15), the gridiron (U-16, U-22),
ability checks (U-1, C-9), passions (U-21), undo, redo, amend, log with odds, audit, export and
import; every mistake one line and a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_session_cli import Ua

ROOT = Path(__file__).resolve().parents[2]
SHEETS = ROOT / "scenarios" / "ua3" / "characters"
CHURCH = ROOT / "scenarios" / "ua3" / "the-hollow-church.toml"
SAMPLES = sorted(SHEETS.glob("*.toml"))


@pytest.fixture
def ua(tmp_path: Path) -> Ua:
    return Ua(tmp_path)


def test_six_ua3_sample_sheets_of_different_kinds_ship_and_check_clean(ua: Ua) -> None:
    assert {p.stem for p in SAMPLES} >= {
        "cop",
        "street-fighter",
        "cult-leader",
        "occult-scholar",
        "bystander",
        "veteran",
    }
    for path in SAMPLES:
        out = ua.ok("character", "check", str(path))
        assert out["valid"] and out["ruleset"] == "ua3" and out["errors"] == 0, path.name
    veteran = ua.ok("character", "check", str(SHEETS / "veteran.toml"))
    assert veteran["sheet"]["burned_out"]  # U-24: 25 hardened or more


def test_show_gives_each_gauge_as_notches_with_the_two_abilities_it_sets_and_every_identitys_features(
    ua: Ua,
) -> None:
    result = ua("character", "show", str(SHEETS / "cop.toml"))
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "■■■□□□□□□" in text  # violence: 3 of 9 hardened (U-18)
    assert "Connect 50" in text and "Struggle 30" in text  # 65 − 5·3, 15 + 5·3
    assert "firearms" in text and "resists" in text and "coerces helplessness" in text  # U-19 features
    shown = ua.ok("character", "show", str(SHEETS / "cop.toml"))
    assert shown["abilities"]["connect"] == 50 and shown["wound_threshold"] == 50  # U-2


def _sheet(tmp_path: Path, body: str) -> str:
    path = tmp_path / "bad.toml"
    path.write_text('ruleset = "ua3"\nname = "Bad"\n' + body, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ("[gauges.violence]\nhardened = 10\n", "$.gauges.violence.hardened"),
        ("[gauges.self]\nfailed = 6\n", "$.gauges.self.failed"),
        (
            '[[identities]]\nname = "A"\nrating = 40\nobsession = true\n'
            '[[identities]]\nname = "B"\nrating = 40\nobsession = true\n',
            "$.identities[1].obsession",
        ),
        ('[[identities]]\nname = "A"\nrating = 40\nsubstitutes = ["Shooting"]\n', "$.identities[0].substitutes[0]"),
        ('[[passions]]\nkind = "fear"\ntrigger = "dogs"\n', "$.passions[0].gauge"),
    ],
)
def test_a_bad_ua3_sheet_is_one_line_with_its_path_and_exit_1(ua: Ua, tmp_path: Path, body: str, path: str) -> None:
    sheet = _sheet(tmp_path, body)
    assert path in ua.fails("character", "show", sheet, code=1)
    result = ua("character", "check", sheet)
    assert result.exit_code == 1 and path in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_a_ua3_session_from_a_scenario_plays_stress_coercion_and_the_gridiron(ua: Ua) -> None:
    started = ua.ok("session", "new", "church", "--scenario", str(CHURCH), "--seed", "3")
    assert started["events"][1]["event"]["ruleset"] == "ua3"
    marge = ua.ok(
        "session",
        "stress",
        "church",
        "Marge",
        "violence",
        "3",
        "--source",
        "the gunman",
        "--reaction",
        "flee",
        "--dice",
        "6,1",
    )
    (checked,) = [e for e in marge["events"] if e["type"] == "ua3_stress_check"]
    assert checked["explanation"] == (
        "Marge resists a Violence 3 stress check with Fitness 55: 61, failure — a failed notch on violence; "
        "Marge flees until the gunman is gone (U-23)."
    )
    sample = ua.ok("session", "stress", "church", "Tommy", "--sample", "violence: kill someone in a fight")
    assert "3–5" in sample["events"][1]["explanation"]  # U-25: the seed's range, rank its lower bound
    coerced = ua.ok(
        "session", "coerce", "church", "Agnes", "Marge", "unnatural", "--threat", "your son", "--dice", "1,1"
    )
    assert "Unnatural 2 stress check" in coerced["events"][1]["explanation"]  # U-15: matched success → rank 2
    answered = ua.ok("session", "answer", "church", "Marge", "refuse", "--dice", "9,0")
    assert any(e["type"] == "ua3_failed_notch" for e in answered["events"])
    ua.ok("session", "conflict", "church", "--a", "Dana:Connect:Marge goes home", "--b", "the crowd=40:riot")
    rolled = ua.ok("session", "gridiron", "church", "--dice", "2,0")
    assert "balance → advantage A" in rolled["events"][1]["explanation"]  # U-16: one step
    state = ua.ok("session", "state", "church")
    assert state["conflicts"][0]["token"] == "advantage_a"
    assert state["combatants"][1]["abilities"]["fitness"] == 55  # U-18, derived in the JSON
    undone = ua.ok("session", "undo", "church")
    assert any("advantage A → balance" in line for line in undone["changes"])  # law 4
    ua.ok("session", "redo", "church")
    lines = ua.ok("session", "log", "church")["lines"]
    assert any(line["odds"] == "Marge had 55%" for line in lines)  # exact odds with every roll
    assert any("(U-23)" in line["explanation"] for line in lines)


def test_a_ua3_session_from_sheets_amends_a_stress_check_and_exports_a_log_that_imports(ua: Ua, tmp_path: Path) -> None:
    ua.ok(
        "session",
        "new",
        "night",
        "--ruleset",
        "ua3",
        "--seed",
        "5",
        "--sheet",
        f"Marge:street:{SHEETS / 'bystander.toml'}:flee",
        "--sheet",
        f"Hal:street:{SHEETS / 'veteran.toml'}",
    )
    first = ua.ok("session", "stress", "night", "Marge", "violence", "3", "--source", "the gunman", "--dice", "6,1")
    number = first["events"][0]["event"]["id"]
    amended = ua.ok("session", "stress", "night", "Marge", "violence", "3", "--dice", "4,1", "--amend", str(number))
    assert any("violence 1/1 → 2/0" in line for line in amended["changes"])  # law 5: success instead
    ua.ok("session", "ability", "night", "Hal", "Notice", "--dice", "3,3")
    export = tmp_path / "night.jsonl"
    assert ua("session", "export", "night", str(export)).exit_code == 0
    assert "verified" in ua("replay", str(export), "--verify").stdout
    assert ua("session", "import", str(export), "again").exit_code == 0
    audit = ua("audit", "night")
    assert audit.exit_code == 0 and "Marge" in audit.stdout


def test_ua3_mistakes_are_one_line_and_a_non_zero_exit(ua: Ua) -> None:
    ua.ok("session", "new", "church", "--scenario", str(CHURCH), "--seed", "3")
    assert "Ghost" in ua.fails("session", "stress", "church", "Ghost", "violence", "3")
    assert "rank" in ua.fails("session", "stress", "church", "Marge", "violence")
    assert "grue" in ua.fails("session", "stress", "church", "Marge", "--sample", "be eaten by a grue")
    ua.fails("session", "stress", "church", "Marge", "dread", "3")
    ua.fails("session", "answer", "church", "Marge", "refuse")  # no coercion waits
    ua.fails("session", "gridiron", "church")  # no conflict
    ua.fails("session", "conflict", "church", "--a", "Dana", "--b", "x")
    ua.fails("session", "coerce", "church", "Agnes", "Marge", "self", "--coercer-passion", "greed")
    ua.fails("session", "ability", "church", "Marge", "Flying")
    ua.fails("session", "fork", "church", "5")  # event 5 is before the fight began
    ua.fails("session", "new", "x", "--ruleset", "ua2", "--sheet", f"M:a:{SHEETS / 'bystander.toml'}")
    ua.fails("session", "new", "y", "--ruleset", "ua9", "--scenario", str(CHURCH))
    ua.fails("stress-checks", "dread")
    fought = ua("simulate", str(CHURCH), "-n", "20", "--seed", "1")  # ua3 combat fights it out (U-22)
    assert fought.exit_code == 0 and "The Hollow Church — 20 fights" in fought.stdout


def test_the_sample_stress_checks_are_listed_by_gauge(ua: Ua) -> None:
    out = ua.ok("stress-checks", "violence")
    names = [s["name"] for s in out["samples"]]
    assert "violence: kill someone in a fight" in names
    kill = next(s for s in out["samples"] if s["name"] == "violence: kill someone in a fight")
    assert (kill["low"], kill["high"]) == (3, 5)  # U-25
    everything = ua.ok("stress-checks")["samples"]
    assert {s["gauge"] for s in everything} == {"violence", "helplessness", "isolation", "unnatural", "self"}


def test_scenario_check_loads_a_one_sided_ua3_scenario_and_its_sheets_without_trial_fights(ua: Ua) -> None:
    out = ua.ok("scenario", "check", str(ROOT / "scenarios" / "ua3" / "the-reading-room.toml"))
    assert out["ruleset"] == "ua3" and out["valid"] and out["trial"] is None  # one side: nothing to fight
    hal = next(c for c in out["combatants"] if c["id"] == "Hal")
    assert any("U-24" in w["message"] for w in hal["warnings"])  # burned out: passions lost


def test_scenario_check_fights_trial_fights_of_a_ua3_scenario_with_overrides(ua: Ua) -> None:
    """U-22: a ua3 scenario's trial fights, as a ua2 one's; --set applies to ua3 files too."""
    ambush = str(ROOT / "scenarios" / "ua3" / "full-auto-ambush.toml")
    out = ua.ok("scenario", "check", ambush, "--set", "settings.suppression_rank=5", "--trial", "12")
    assert out["trial"]["fights"] == 12 and out["trial"]["refusals"]["fights"] == 0 and out["warnings"] == 0
    bad = ua.fails("scenario", "check", ambush, "--set", "settings.suppression_rank=99")
    assert "--set settings.suppression_rank=99" in bad


def test_check_in_a_ua3_session_rolls_an_ability_and_refuses_a_stat(ua: Ua) -> None:
    ua.ok("session", "new", "church", "--scenario", str(CHURCH), "--seed", "3")
    out = ua.ok("session", "check", "church", "Marge", "Fitness", "--kind", "major", "--dice", "2,2")
    assert out["events"][1]["type"] == "ua3_check"
    assert "Fitness 55: 22, matched success" in out["events"][1]["explanation"]  # U-1, C-13
    assert "no stats" in ua.fails("session", "check", "church", "Marge", "Fitness", "--stat", "body")


def test_table_play_in_a_ua3_session_begins_with_npcs_and_names_whose_dice_went_where(ua: Ua) -> None:
    ua.ok("session", "new", "church", "--scenario", str(CHURCH), "--seed", "3")
    assert "ua session begin" in ua.fails("session", "npc", "church")  # the NPCs act once the fight begins
    assert "did you mean 'Marge'" in ua.fails(
        "session", "new", "again", "--scenario", str(CHURCH), "--players", "Margo"
    )
    done = ua("session", "check", "church", "Marge", "Notice", "--dice", "2,3")
    assert done.exit_code == 0, done.stderr
    assert "Marge's Notice 2,3" in done.stdout  # the faces named by the roll they made


def _hurt_table(tmp_path: Path, threshold: int | None, wounds: int, identity: str = "") -> str:
    """A ua3 scenario whose two sheets, one a file and one inline, bring `wounds` to the fight."""
    (tmp_path / "hurt.toml").write_text(f'ruleset = "ua3"\nname = "Harry"\nwounds = {wounds}\n{identity}')
    settings = f"[settings]\nwound_threshold = {threshold}\n" if threshold else ""
    path = tmp_path / "thick.toml"
    path.write_text(
        f'title = "Thick skins"\nruleset = "ua3"\n{settings}'
        '[[combatants]]\nid = "Harry"\nside = "a"\nsheet = "hurt.toml"\n'
        '[[combatants]]\nid = "Moe"\nside = "b"\n[combatants.character]\nname = "Moe"\n'
        f"wounds = {wounds}\n{identity.replace('[[identities]]', '[[combatants.character.identities]]')}"
    )
    return str(path)


def test_u2_a_scenarios_wound_threshold_is_the_one_its_sheets_are_checked_against(ua: Ua, tmp_path: Path) -> None:
    """U-2: with `wound_threshold = 100`, 85 wounds are badly beaten, not dead, for `scenario
    check` and `session new` as for the session itself."""
    scenario = _hurt_table(tmp_path, 100, 85)
    checked = ua.ok("scenario", "check", scenario, "--trial", "0")
    assert checked["valid"] and checked["errors"] == 0 and [c["id"] for c in checked["combatants"]] == ["Harry", "Moe"]
    ua.ok("session", "new", "thick", "--scenario", scenario)
    state = ua.ok("session", "state", "thick")
    assert [(c["wounds"], c["wound_threshold"]) for c in state["combatants"]] == [(85, 100), (85, 100)]
    default = _hurt_table(tmp_path, None, 85)
    assert "$.wounds" in ua.fails("scenario", "check", default) and "threshold 50" in ua.fails(
        "scenario", "check", default
    )
    assert ua.ok("scenario", "check", default, "--set", "settings.wound_threshold=100", "--trial", "0")["valid"]
    dead = ua.fails("session", "new", "dead", "--scenario", _hurt_table(tmp_path, 100, 100))
    assert "threshold 100" in dead and "$.wounds" in dead and ua.count("dead") == 0
    lower = ua.fails("scenario", "check", _hurt_table(tmp_path, 30, 40))
    assert "40 wounds reach the wound threshold 30" in lower


def test_u19_a_wound_threshold_identity_sets_the_threshold_a_sheet_is_checked_against(ua: Ua, tmp_path: Path) -> None:
    tough = '[[identities]]\nname = "Marine"\nrating = 70\nwound_threshold = true\n'
    assert ua.ok("scenario", "check", _hurt_table(tmp_path, None, 60, tough), "--trial", "0")["valid"]
    assert ua.ok("scenario", "check", _hurt_table(tmp_path, 30, 60, tough), "--trial", "0")["valid"]
    assert "threshold 70" in ua.fails("scenario", "check", _hurt_table(tmp_path, 100, 75, tough))
