"""Every rule of the editions the engine implements is cited by a test: the rule ids of
RULES.md (`../shared/RULES.md`, the normative digest) appear, as written there, in the tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT.parent / "shared" / "RULES.md"
#: The sections whose every rule a test must cite (U: the third edition, its combat included).
SECTIONS = ("D", "C", "S2", "M2", "I2", "C2", "H2", "U")
RULE_ID = re.compile(r"\*\*((?:" + "|".join(SECTIONS) + r")-\d+)\*\*")
CITATION = re.compile(r"\b((?:" + "|".join(SECTIONS) + r")-\d+)\b")


def cited_in_tests() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        found |= set(CITATION.findall(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.skipif(not RULES.is_file(), reason=f"the rules digest is not at {RULES}")
def test_every_rule_id_of_the_implemented_sections_is_cited_by_a_test() -> None:
    ids = RULE_ID.findall(RULES.read_text(encoding="utf-8"))
    assert len(ids) > 70, "the digest's rule ids were not found"
    cited = cited_in_tests()
    assert [rule for rule in ids if rule not in cited] == []
