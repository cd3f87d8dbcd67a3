"""Issue 26: a name can hide nothing. Sheet, identity, relationship and combatant names of either
edition (ua2 and ua3 share one check, `engine.text.unsafe`, whose characters `PRINTABLE` refuses)
refuse zero-width and direction marks — `Ro\u200bsa` would pass for `Rosa`, U+200F turns what
follows around — as they refuse control characters and bidirectional overrides; one line, `$.path`."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from engine.state.sheet import PRINTABLE, PRINTABLE_LINES, Sheet
from engine.state.ua3.sheet import Ua3Sheet
from engine.text import INVISIBLE, check_name
from tests.cli.test_session_cli import Ua

ROOT = Path(__file__).resolve().parents[2]
HIDING = ["\u200b", "\u200f", "\u200e", "\u2060", "\ufeff", "\u202e", "\u2066", "\x1b", "\x85"]
#: Where a name sits in each shipped file, and the name there.
NAMES = [
    ("scenarios/ua3/characters/cult-leader.toml", "$.name", 'name = "Mother Agnes"'),
    ("scenarios/ua3/characters/cult-leader.toml", "$.identities[0].name", 'name = "Prophet of the Hollow"'),
    ("scenarios/ua3/characters/cult-leader.toml", "$.relationships[0].person", 'person = "Brother Caleb"'),
    ("scenarios/characters/knife-fighter.toml", "$.name", 'name = "Rosa Quintero"'),
]


def hide(line: str, char: str) -> str:
    """The quoted name in `line` with `char` (as a TOML escape) after its second letter."""
    return re.sub(r'"(..)', lambda m: f'"{m.group(1)}\\u{ord(char):04x}', line, count=1)


@pytest.mark.parametrize("char", HIDING, ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize(("source", "path", "line"), NAMES, ids=[f"{n[0].split('/')[-1]}:{n[1]}" for n in NAMES])
def test_character_check_refuses_a_name_that_hides_something(
    tmp_path: Path, source: str, path: str, line: str, char: str
) -> None:
    text = (ROOT / source).read_text(encoding="utf-8")
    assert line in text
    sheet = tmp_path / "sheet.toml"
    sheet.write_text(text.replace(line, hide(line, char), 1), encoding="utf-8")
    error = Ua(tmp_path).fails("character", "check", str(sheet), code=1)
    assert f"U+{ord(char):04X}" in error and path in error and str(sheet) in error, error


@pytest.mark.parametrize("char", ["\u200b", "\u200f"], ids=["U+200B", "U+200F"])
def test_a_ua3_scenario_refuses_an_inline_character_or_identity_so_named(tmp_path: Path, char: str) -> None:
    text = (ROOT / "scenarios" / "ua3" / "quick-draw.toml").read_text(encoding="utf-8")
    for before, after, where in (
        ('name = "Ace"', f'name = "A{char}ce"', "$.combatants[0].character.name"),
        ('name = "Deputy"', f'name = "De{char}puty"', "$.combatants[0].character.identities[0].name"),
    ):
        scenario = tmp_path / "s.toml"
        scenario.write_text(text.replace(before, after, 1), encoding="utf-8")
        error = Ua(tmp_path).fails("scenario", "check", str(scenario), code=1)
        assert f"U+{ord(char):04X}" in error and where in error, error


@pytest.mark.parametrize("char", sorted(INVISIBLE), ids=lambda c: f"U+{ord(c):04X}")
def test_both_editions_sheet_types_and_every_name_refuse_the_same_characters(char: str) -> None:
    """Decoded from bytes (a log, a posted document) rather than a checked file, too."""
    for pattern in (PRINTABLE, PRINTABLE_LINES):
        assert not re.search(pattern, f"Ro{char}sa")
    ua2 = msgspec.json.encode(msgspec.to_builtins(_ua2()) | {"name": f"Ro{char}sa"})
    with pytest.raises(msgspec.ValidationError, match=r"\$\.name"):
        msgspec.json.decode(ua2, type=Sheet)
    with pytest.raises(msgspec.ValidationError, match=r"\$\.name"):
        msgspec.json.decode(msgspec.json.encode({"name": f"Ro{char}sa"}), type=Ua3Sheet)
    with pytest.raises(Exception, match=f"U\\+{ord(char):04X}"):
        check_name(f"Ro{char}sa", "name")


def test_names_of_people_in_any_script_still_pass() -> None:
    """Joiners are letters' business (Persian, Hindi, emoji), not hiding: they stay."""
    for name in ("Rosa", "Zoë Ñúñez", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "क्\u200dष", "Ana 👩\u200d🔬"):
        assert re.search(PRINTABLE, name) and check_name(name, "name") == name
        assert msgspec.json.decode(msgspec.json.encode({"name": name}), type=Ua3Sheet).name == name


def _ua2() -> Sheet:
    from engine.scenario.sheets import load_sheet

    return load_sheet(ROOT / "scenarios" / "characters" / "knife-fighter.toml")
