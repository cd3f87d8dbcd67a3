"""U-1, U-18, U-19, U-2: the ten abilities come from the shock gauges, never from the sheet;
identities stand in for abilities; the wound threshold."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import Refused
from engine.rules.ua3.abilities import (
    abilities,
    ability_value,
    best,
    for_ability,
    named_rating,
    wound_threshold,
)
from engine.state.ua3.sheet import ABILITIES, GAUGES, U18, Gauge, Gauges, Identity, Relationship, Ua3Sheet
from tests.ua3.support import sheet


def test_u1_the_ten_abilities_by_name() -> None:
    assert ABILITIES == (
        "connect", "struggle", "fitness", "dodge", "status", "pursuit", "notice", "secrecy", "knowledge", "lie",
    )  # fmt: skip


def test_u18_each_gauge_sets_its_upbeat_and_downbeat_ability_as_the_table_says() -> None:
    assert [(g, U18[g].upbeat, U18[g].downbeat) for g in GAUGES] == [
        ("violence", "connect", "struggle"),
        ("helplessness", "fitness", "dodge"),
        ("isolation", "status", "pursuit"),
        ("unnatural", "notice", "secrecy"),
        ("self", "knowledge", "lie"),
    ]
    assert [(U18[g].resisted_with, U18[g].coerced_with, U18[g].relationship) for g in GAUGES] == [
        ("fitness", "struggle", "mentor"),
        ("status", "connect", "protégé"),
        ("connect", "status", "favorite"),
        ("knowledge", "secrecy", "guru"),
        ("notice", "knowledge", "responsibility"),
    ]


def test_u18_a_sheet_that_states_no_notches_starts_each_gauge_at_1_hardened_60_and_20() -> None:
    gauges = Ua3Sheet(name="Nobody").gauges
    assert all(gauges.of(g) == Gauge(hardened=1, failed=0) for g in GAUGES)
    assert abilities(gauges) == {
        "connect": 60, "struggle": 20, "fitness": 60, "dodge": 20, "status": 60,
        "pursuit": 20, "notice": 60, "secrecy": 20, "knowledge": 60, "lie": 20,
    }  # fmt: skip


@given(st.integers(0, 9), st.sampled_from(GAUGES))
def test_u18_upbeat_is_65_minus_5h_and_downbeat_15_plus_5h(hardened: int, gauge: str) -> None:
    gauges = Gauges().with_gauge(gauge, Gauge(hardened=hardened))
    assert ability_value(gauges, U18[gauge].upbeat) == 65 - 5 * hardened
    assert ability_value(gauges, U18[gauge].downbeat) == 15 + 5 * hardened
    assert ability_value(gauges, U18[gauge].upbeat) + ability_value(gauges, U18[gauge].downbeat) == 80


def test_u19_an_identity_that_substitutes_is_rolled_when_its_rating_is_the_best() -> None:
    cop = sheet("Dana", identities=[Identity(name="Beat cop", rating=50, substitutes=("Notice", "struggle"))])
    assert best(for_ability(cop, cop.gauges, "struggle")).name == "Beat cop"  # 50 over Struggle 20
    assert best(for_ability(cop, cop.gauges, "notice")).name == "Notice"  # Notice 60 over 50
    assert named_rating(cop, cop.gauges, "Struggle").rating == 50
    assert named_rating(cop, cop.gauges, "beat cop").rating == 50


def test_u19_an_obsession_identity_flips_and_wins_a_tie() -> None:
    fighter = sheet("Tommy", identities=[Identity(name="Brawler", rating=60, substitutes=("Connect",), obsession=True)])
    chosen = named_rating(fighter, fighter.gauges, "connect")
    assert chosen.name == "Brawler" and chosen.flip  # C-9: rolls with the obsession may flip


def test_u20_a_relationship_is_rolled_by_its_persons_name() -> None:
    mom = sheet("Ann", relationships=[Relationship(person="Mom", rating=70, gauge="protégé")])
    assert named_rating(mom, mom.gauges, "Mom").rating == 70
    with pytest.raises(Refused, match="no ability, identity or relationship 'Dad'"):
        named_rating(mom, mom.gauges, "Dad")


def test_u2_u19_the_wound_threshold_is_50_unless_an_identity_sets_it() -> None:
    assert wound_threshold(sheet("A"), 50) == 50
    tough = sheet("B", identities=[Identity(name="Tough as nails", rating=65, wound_threshold=True)])
    assert wound_threshold(tough, 50) == 65
