"""A ua3 sheet's own rules (U-19, U-20, U-21, U-2): each problem at its `$.path`."""

from __future__ import annotations

from engine.rules.ua3.sheet_check import sheet_problems, sheet_warnings
from engine.state.ua3.sheet import Identity, Passion, Relationship
from tests.ua3.support import sheet


def paths(s: object) -> list[str]:
    return [p.path for p in sheet_problems(s)]  # type: ignore[arg-type]


def test_a_sound_sheet_has_no_problems() -> None:
    assert sheet_problems(sheet("Marge")) == []


def test_u19_two_obsessions_are_refused_at_the_second() -> None:
    s = sheet(
        "X", identities=[Identity(name="A", rating=40, obsession=True), Identity(name="B", rating=50, obsession=True)]
    )
    (problem,) = sheet_problems(s)
    assert problem.path == "$.identities[1].obsession" and "two obsessions: 'A' and 'B'" in problem.message


def test_u19_a_feature_naming_an_unknown_ability_or_gauge_is_refused_at_its_path() -> None:
    s = sheet(
        "X",
        identities=[
            Identity(name="Pilot", rating=40, substitutes=("Notice", "Flying")),
            Identity(name="Hard case", rating=40, resists=("Fitness",), coerces=("dread",)),
        ],
    )
    problems = sheet_problems(s)
    assert [p.path for p in problems] == [
        "$.identities[0].substitutes[1]",
        "$.identities[1].resists[0]",
        "$.identities[1].coerces[0]",
    ]
    assert "unknown ability 'Flying'" in problems[0].message and "Connect" in problems[0].hint
    assert "an ability, not a gauge 'Fitness'" in problems[1].message
    assert "unknown gauge 'dread'" in problems[2].message


def test_u19_identity_names_are_unique_and_not_an_abilitys() -> None:
    s = sheet(
        "X",
        identities=[Identity(name="Cop", rating=40), Identity(name="cop", rating=50), Identity(name="Dodge", rating=9)],
    )
    assert paths(s) == ["$.identities[1].name", "$.identities[2].name"]


def test_u20_at_most_five_relationships_one_linked_to_each_gauge() -> None:
    six = [Relationship(person=f"P{i}", rating=30, gauge=g) for i, g in enumerate(
        ["mentor", "helplessness", "favorite", "guru", "self", "violence"]
    )]  # fmt: skip
    assert paths(sheet("X", relationships=six)) == ["$.relationships[5]", "$.relationships[5].gauge"]
    odd = [Relationship(person="Bob", rating=30, gauge="uncle")]
    assert paths(sheet("X", relationships=odd)) == ["$.relationships[0].gauge"]


def test_u21_one_passion_of_each_kind_and_the_fear_names_a_gauge() -> None:
    s = sheet(
        "X",
        passions=[
            Passion(kind="fear", trigger="spiders"),
            Passion(kind="rage", trigger="liars", gauge="self"),
            Passion(kind="rage", trigger="bullies"),
        ],
    )
    assert paths(s) == ["$.passions[0].gauge", "$.passions[1].gauge", "$.passions[2].kind"]


def test_u2_wounds_already_taken_stay_below_the_threshold() -> None:
    assert paths(sheet("X", wounds=50)) == ["$.wounds"]
    tough = Identity(name="Tough", rating=60, wound_threshold=True)
    assert paths(sheet("X", wounds=50, identities=[tough])) == []


def test_u24_a_burned_out_sheet_is_warned_that_its_passions_do_not_count() -> None:
    worn = sheet("Hal", hardened={"violence": 9, "helplessness": 6, "isolation": 5, "unnatural": 1, "self": 4})
    assert worn.gauges.hardened_total == 25
    assert [w.path for w in sheet_warnings(worn)] == ["$.passions"]
    assert "burned out" in sheet_warnings(worn)[0].message
