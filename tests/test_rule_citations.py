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
#: Section U (the third edition), part 1: characters, abilities and identities, harm, stress,
#: burnout, coercion, the gridiron and its order, the sample catalog, what is left out (combat,
#: U-3…U-13, and grappling, U-17, part 2, are checked with the rest of section U above).
U_PART_1 = ("U-1", "U-2", "U-15", "U-16", "U-18", "U-19", "U-20", "U-21", "U-22", "U-23", "U-24", "U-25", "U-26")


def cited_in_tests() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        if path.name == Path(__file__).name:
            continue  # this file names the ids; it cites none
        found |= set(CITATION.findall(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.skipif(not RULES.is_file(), reason=f"the rules digest is not at {RULES}")
def test_every_rule_id_of_the_implemented_sections_is_cited_by_a_test() -> None:
    ids = RULE_ID.findall(RULES.read_text(encoding="utf-8"))
    assert len(ids) > 70, "the digest's rule ids were not found"
    cited = cited_in_tests()
    assert [rule for rule in ids if rule not in cited] == []


@pytest.mark.skipif(not RULES.is_file(), reason=f"the rules digest is not at {RULES}")
def test_every_rule_id_of_the_third_editions_first_part_is_in_the_digest_and_cited_by_a_test() -> None:
    ids = set(re.findall(r"\*\*(U-\d+)\*\*", RULES.read_text(encoding="utf-8")))
    assert set(U_PART_1) <= ids, "a part-1 id is not in section U of the digest"
    cited = cited_in_tests()
    assert [rule for rule in U_PART_1 if rule not in cited] == []
