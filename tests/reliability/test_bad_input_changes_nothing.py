"""Finding 3 of issue 10 and DESIGN law 8: bad input is refused — with the file and the `$.path`
of the bad value, or the option — before anything is stored, and nothing unreadable is stored."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from engine.commands import AddCombatant, BeginFight, Ruling, StartEncounter
from engine.errors import InvalidInput
from engine.events import EncounterStarted
from engine.scenario.files import FileError
from engine.scenario.scenario import load_scenario
from engine.session.encoding import encoded
from engine.session.live import LiveEncounter
from engine.settings import Settings
from engine.store.sqlite import SqliteStore
from tests.cli.test_session_cli import SCENARIO, Ua
from tests.cli.test_simulate_cli import BASE
from tests.fixtures import sheet

CHARACTERS = SCENARIO.parent / "characters"
NAN_THRESHOLDS = BASE + "[settings]\nwound_shift_thresholds = [[nan, -10]]\n"


def scenario_file(folder: Path, text: str, name: str = "s.toml") -> Path:
    if not (folder / "characters").exists():
        shutil.copytree(CHARACTERS, folder / "characters")
    path = folder / name
    path.write_text(text)
    return path


# -- the NaN of the issue -------------------------------------------------------------------------


def test_a_nan_wound_threshold_is_refused_by_scenario_check_naming_the_file_and_path(tmp_path: Path) -> None:
    path = scenario_file(tmp_path, NAN_THRESHOLDS)
    line = Ua(tmp_path).fails("scenario", "check", str(path), code=1)
    assert line.startswith(f"error: {path}: nan is not a number that can be stored")
    assert "$.settings.wound_shift_thresholds[0][0]" in line


def test_session_new_from_a_nan_scenario_stores_nothing_and_makes_no_database(tmp_path: Path) -> None:
    ua = Ua(tmp_path)
    path = scenario_file(tmp_path, NAN_THRESHOLDS)
    line = ua.fails("session", "new", "n", "--scenario", str(path), code=1)
    assert "$.settings.wound_shift_thresholds[0][0]" in line
    assert not ua.db.exists()
    ua.ok("session", "new", "kept", "--scenario", str(SCENARIO), "--seed", "1")
    before = ua.db.read_bytes(), ua.count("kept")
    ua.fails("session", "new", "n", "--scenario", str(path), code=1)
    assert ua.count("n") == 0 and ua.count("kept") == before[1] == 6
    assert "no session 'n'" in ua.fails("session", "state", "n")


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_library_command_with_a_number_json_cannot_hold_is_refused_and_stores_nothing(
    tmp_path: Path, value: float
) -> None:
    store = SqliteStore(tmp_path / "s.sqlite")
    session = LiveEncounter(store, "s")
    settings = Settings(wound_shift_thresholds=((value, -10),))
    with pytest.raises(InvalidInput, match="not a number that can be stored") as refused:
        session.execute(StartEncounter(seed=1, settings=settings))
    assert refused.value.where == "$.settings.wound_shift_thresholds[0][0]"
    assert store.version("s") == 0 and store.streams() == []


def test_an_event_that_would_not_read_back_is_never_encoded_for_storage() -> None:
    """Law 8 on its own: whatever let the value through, the store is never handed it."""
    event = EncounterStarted(ruleset="ua2", settings=Settings(wound_shift_thresholds=((math.nan, -10),)))
    with pytest.raises(InvalidInput, match="EncounterStarted cannot be stored"):
        encoded(event)


def test_a_command_refused_half_way_through_the_setup_leaves_the_log_as_it_was(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite")
    session = LiveEncounter(store, "s")
    session.execute(StartEncounter(seed=1))
    before = list(store.read("s"))
    with pytest.raises(InvalidInput):
        session.execute(AddCombatant(id="Vic\x1b[2J", side="b", sheet=sheet("Vic")))
    with pytest.raises(InvalidInput):
        session.execute(Ruling(note="lights out\u202e"))
    assert list(store.read("s")) == before
    assert LiveEncounter(store, "s").state == session.state


# -- settings and values, with the $.path --------------------------------------------------------

SETTINGS_CASES = [
    ("passion_uses_per_session = -1", "$.settings.passion_uses_per_session"),
    ("stress_target = 0", "$.settings.stress_target"),
    ("stress_target = 150", "$.settings.stress_target"),
    ("max_rounds = 0", "$.settings.max_rounds"),
    ("max_rounds = 10001", "$.settings.max_rounds"),
    ("suppression_shift = [{shots = 0, shift = -10}]", "$.settings.suppression_shift[0].shots"),
    ("suppression_shift = [{shots = 4, shift = 10}]", "$.settings.suppression_shift[0].shift"),
    (
        "suppression_shift = [{shots = 10, shift = -10}, {shots = 4, shift = -20}]",
        "$.settings.suppression_shift[1].shots",
    ),
    ("wound_shift_thresholds = [[0.0, -10]]", "$.settings.wound_shift_thresholds[0][0]"),
    ("wound_shift_thresholds = [[1.5, -10]]", "$.settings.wound_shift_thresholds[0][0]"),
    ("wound_shift_thresholds = [[0.5, 10]]", "$.settings.wound_shift_thresholds[0][1]"),
    ("wound_shift_thresholds = [[inf, -10]]", "$.settings.wound_shift_thresholds[0][0]"),
    ("incapacitated_at = 0\ndead_at = 0", "$.settings.incapacitated_at"),
    ("incapacitated_at = 60", "$.settings.incapacitated_at"),
    ('default_cherry = "cake"', "$.settings.default_cherry"),
    ("violence_kill = 11", "$.settings.violence_kill"),
]


@pytest.mark.parametrize(("setting", "path"), SETTINGS_CASES, ids=[c[0] for c in SETTINGS_CASES])
def test_an_out_of_range_setting_is_refused_naming_its_path(tmp_path: Path, setting: str, path: str) -> None:
    file = scenario_file(tmp_path, BASE + f"[settings]\n{setting}\n")
    with pytest.raises(FileError) as refused:
        load_scenario(file)
    assert refused.value.file == str(file)
    assert refused.value.json_path == path, refused.value


def test_a_catalog_weapon_redefined_without_house_is_refused(tmp_path: Path) -> None:
    redefined = BASE + '[[weapons]]\nname = "knife"\nkind = "melee"\nbig = true\nheavy = true\n'
    with pytest.raises(FileError, match="redefines the catalog's knife") as refused:
        load_scenario(scenario_file(tmp_path, redefined))
    assert refused.value.json_path == "$.weapons[0].house"
    load_scenario(scenario_file(tmp_path, redefined.replace("heavy = true\n", "heavy = true\nhouse = true\n")))


def test_a_combatant_who_starts_unable_to_act_is_refused(tmp_path: Path) -> None:
    down = BASE.replace(
        'sheet = "characters/gunman.toml"',
        'character = { name = "Cy", stats = { body = 50, speed = 50, mind = 50, soul = 50 }, '
        'wounds = { current = 4, maximum = 50 }, passions = [{ kind = "rage", trigger = "a" }, '
        '{ kind = "fear", trigger = "b" }, { kind = "noble", trigger = "c" }] }',
    )
    with pytest.raises(FileError, match="unable to act") as refused:
        load_scenario(scenario_file(tmp_path, down))
    assert refused.value.json_path == "$.combatants[1].character.wounds.current"


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("cut.toml", 'title = "Base"\n[[combatants]]\nid = "A', "line 3, column 8"),
        ("cut.json", '{"title": "Base", "combatants": [{"id": "A"', "line 1, column 44"),
        ("cut.yaml", 'title: "Base"\ncombatants:\n  - id: "A', "line 3"),
    ],
)
def test_a_file_cut_short_gives_the_line_and_column_where_it_ends(
    tmp_path: Path, name: str, text: str, where: str
) -> None:
    with pytest.raises(FileError, match="syntax error") as refused:
        load_scenario(scenario_file(tmp_path, text, name))
    assert where in refused.value.reason and "column" in refused.value.reason


def test_a_bidirectional_override_in_a_scenario_title_is_refused_naming_its_path(tmp_path: Path) -> None:
    with pytest.raises(FileError, match="RIGHT-TO-LEFT OVERRIDE") as refused:
        load_scenario(scenario_file(tmp_path, BASE.replace('"Base"', '"Base \u202egnp.exe"')))
    assert refused.value.json_path == "$.title"


# -- CLI arguments ------------------------------------------------------------------------------


@pytest.fixture
def duel(tmp_path: Path) -> Ua:
    ua = Ua(tmp_path)
    ua.ok("session", "new", "duel", "--scenario", str(SCENARIO), "--seed", "5")
    return ua


@pytest.mark.parametrize("rating", ["-1", "101", "150"])
def test_a_rating_outside_0_to_100_is_refused_before_anything_runs(duel: Ua, rating: str) -> None:
    assert "--rating" in duel.fails("check", "--kind", "major", "--rating", rating, code=2)
    assert "--rating" in duel.fails("odds", "--kind", "major", "--rating", rating, code=2)
    assert "--rating" in duel.fails("session", "roll", "duel", "--kind", "major", "--rating", rating, code=2)
    assert duel.count("duel") == 6


def test_therapy_removing_more_notches_than_are_marked_is_refused(duel: Ua) -> None:
    state = duel.ok("session", "state", "duel")
    rosa = next(c for c in state["combatants"] if c["id"] == "Rosa")
    held = rosa["meters"]["violence"]["hardened"]
    line = duel.fails("session", "therapy", "duel", "Rosa", "violence", "--hardened", str(held + 1), code=2)
    assert line.startswith("error: --hardened: ") and f"at most {held}" in line
    assert duel.count("duel") == 6


def test_a_skill_the_sheet_lacks_is_refused_with_the_sheets_skills(duel: Ua) -> None:
    duel.ok("session", "begin", "duel")
    duel.ok("session", "next", "duel")
    line = duel.fails("session", "attack", "duel", "Vic", "Rosa", "--skill", "Firarms", code=2)
    assert line.startswith("error: --skill: Vic's sheet has no skill 'Firarms'")
    assert "Firearms" in line and "--untrained" in line
    assert "--stat STAT" in duel.fails("session", "check", "duel", "Vic", "Firarms", code=2)
    before = duel.count("duel")
    done = duel.ok("session", "attack", "duel", "Vic", "Rosa", "--skill", "Firarms", "--untrained", "--dice", "9,9")
    assert any("untrained" in e["explanation"] for e in done["events"])
    assert duel.count("duel") > before


@pytest.mark.parametrize("name", ["", "   ", "two\nlines", "esc\x1b[31m", "rtl\u202eabc"])
def test_a_session_name_that_is_empty_or_not_one_printable_line_is_refused(tmp_path: Path, name: str) -> None:
    ua = Ua(tmp_path)
    line = ua.fails("session", "new", name, "--scenario", str(SCENARIO), code=2)
    assert line.startswith("error: NAME: the session name")
    assert "\x1b" not in line and "\u202e" not in line
    assert not ua.db.exists()


def test_a_title_or_a_combatant_id_on_two_lines_is_refused(tmp_path: Path) -> None:
    ua = Ua(tmp_path)
    assert "$.title" in ua.fails("session", "new", "s", "--scenario", str(SCENARIO), "--title", "a\nb", code=2)
    cop = str(CHARACTERS / "cop.toml")
    line = ua.fails("session", "new", "s", "--sheet", f"a\x1b:x:{cop}", "--sheet", f"b:y:{cop}", code=2)
    assert "$.id" in line and "U+001B" in line and "\x1b" not in line
    assert not ua.db.exists()


def test_an_unknown_log_type_or_combatant_lists_the_ones_there_are(duel: Ua) -> None:
    line = duel.fails("session", "log", "duel", "--type", "attack_resolve", code=2)
    assert line.startswith("error: --type: no event type 'attack_resolve'") and "attack_resolved" in line
    line = duel.fails("session", "log", "duel", "--combatant", "Vicky", code=2)
    assert line.startswith("error: --combatant: no combatant 'Vicky'") and "Rosa, Vic" in line
    file = duel.dir / "duel.jsonl"
    duel("session", "export", "duel", str(file))
    assert "attack_resolved" in duel.fails("replay", str(file), "--type", "nope", code=2)


# -- what-if forks read the session's own log ------------------------------------------------------


def test_a_fork_uses_the_scenario_the_session_stored_not_the_file(tmp_path: Path) -> None:
    ua = Ua(tmp_path)
    path = scenario_file(tmp_path, SCENARIO.read_text(), "duel.toml")
    ua.ok("session", "new", "duel", "--scenario", str(path), "--seed", "5")
    ua.ok("session", "begin", "duel")
    path.write_text("this is not a scenario any more")
    shutil.rmtree(tmp_path / "characters")
    fork = ua.ok("session", "fork", "duel", "11", "--simulate", "20", "--seed", "3")
    assert fork["fights"] == 20 and fork["from_event"] == 11


def test_a_fork_never_reads_a_path_an_imported_log_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ua = Ua(tmp_path)
    store = SqliteStore(ua.db)
    session = LiveEncounter(store, "old")
    session.execute(StartEncounter(seed=1, scenario="/etc/passwd"))  # as a log from before: a path, no scenario
    for who, side in (("Rosa", "a"), ("Vic", "b")):
        session.execute(AddCombatant(id=who, side=side, sheet=sheet(who)))
    session.execute(BeginFight())
    began = str(session.version)
    store.close()

    def no_reading(*args: object, **kwargs: object) -> None:
        raise AssertionError("a file was read")

    monkeypatch.setattr("engine.scenario.files.read_limited", no_reading)
    line = ua.fails("session", "fork", "old", began, "--simulate", "5", code=2)
    assert "holds no scenario" in line and "--scenario FILE" in line
    monkeypatch.undo()
    other = scenario_file(tmp_path, BASE.replace('id = "A"', 'id = "Rosa"').replace('id = "B"', 'id = "Vic"'))
    fork = ua.ok("session", "fork", "old", began, "--simulate", "5", "--scenario", str(other))
    assert fork["fights"] == 5
