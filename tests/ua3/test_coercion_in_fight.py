"""Coercion in a fight (U-15 as corrected): the threat demands surrender unless it names another
demand — flee, drop, release — and a target that acquiesces does what was demanded; the
tactics coerce with the best coercing rating the rules allow (U-19, U-20) and never choose a
coercion the rules refuse."""

from __future__ import annotations

import pytest

from engine.commands import ua3_combat as f
from engine.commands.ua3 import Coerce
from engine.commands.ua3_combat import DoNothing
from engine.dice.source import SeededDice
from engine.errors import Refused
from engine.events.ua3 import CoercionRolled, ConflictEnded, StatusChanged
from engine.events.ua3 import combat as ev
from engine.rules.ua3.table import Table
from engine.state.ua3.sheet import Identity, Relationship
from engine.tactics.ua3 import PRESETS, Ua3Profile, act, declarations
from tests.ua3.fights import KNIFE, Fight, join, of_type, person
from tests.ua3.support import sheet

BRUISER = person("Bruiser", violence=5)  # Struggle 40 (U-18: 15 + 5 × 5)
HARD = person("Hard", violence=5)
PROPHET = Identity(name="Prophet", rating=65, coerces=("unnatural", "self"))
INTIMIDATOR = Ua3Profile(rules=PRESETS["intimidator"])


def _coerced(demand: str | None, *, b_weapons=(KNIFE,)):
    """a (Struggle 40) coerces b on violence with 10: a success; b acquiesces at once."""
    fight = Fight(join("a", "x", BRUISER), join("b", "y", HARD, *b_weapons), join("c", "y", HARD))
    fight.declare(("a", "coerce", ["b"]), ("b", "nothing"), ("c", "nothing"))
    extra = {"demand": demand} if demand else {}
    command = Coerce(coercer="a", target="b", gauge="violence", answer="acquiesce", dice=(1, 0), **extra)
    return fight, fight.do(command)


def test_a_coercion_in_a_fight_demands_surrender_unless_it_names_another():
    """U-15 (Decision), C2-33: acquiescing to the default demand, b surrenders and is gone."""
    fight, events = _coerced(None)
    assert of_type(events, CoercionRolled)[0].demand == "surrender"
    assert fight.who("b").status == "surrendered"


@pytest.mark.parametrize(("demand", "status", "in_hand"), [("flee", "fled", "knife"), ("drop", "active", "fists")])
def test_acquiescing_does_what_was_demanded(demand, status, in_hand):
    """U-15: told to flee, b flees (gone, U-22); told to drop its weapon, it drops the knife and
    fights on."""
    fight, events = _coerced(demand)
    b = fight.who("b")
    assert (b.status, b.in_hand) == (status, in_hand)
    rolled = of_type(events, CoercionRolled)[0]
    assert rolled.demand == demand and "demanding that b" in rolled.explain()
    if demand == "drop":
        assert of_type(events, ev.WeaponDropped)[0].rule == "U-15"


def test_a_demand_the_target_cannot_do_is_refused_and_nothing_is_written():
    """U-15: no weapon in hand to drop, no one held to let go."""
    with pytest.raises(Refused, match="holds no weapon to drop"):
        _coerced("drop", b_weapons=())
    with pytest.raises(Refused, match="holds no one to let go"):
        _coerced("release")


def test_told_to_release_a_grappler_lets_go_of_the_one_it_holds():
    """U-15, U-17: a grabs c (its first roll, 25, moves it to advantage); in round 2 b, convinced,
    demands that a let c go: the grapple ends with no winner, and both are free."""
    fight = Fight(join("a", "x", BRUISER), join("b", "x", BRUISER), join("c", "y", HARD))
    fight.declare(("a", "grapple", ["c"]), ("b", "nothing"), ("c", "nothing"))
    fight.do(f.Grapple(actor="a", target="c", dice=(2, 5)))
    assert fight.state.conflicts and fight.state.conflicts[0].result is None
    while fight.state.fight.phase == "acting":
        fight.do(DoNothing(actor=fight.state.fight.order[fight.state.fight.turn]))
    fight.declare(("a", "grapple"), ("b", "coerce", ["a"]), ("c", "grapple"), dice=(9, 1, 5))
    while fight.state.fight.order[fight.state.fight.turn] != "b":
        fight.do(DoNothing(actor=fight.state.fight.order[fight.state.fight.turn]))
    events = fight.do(
        Coerce(coercer="b", target="a", gauge="violence", demand="release", answer="acquiesce", dice=(1, 0))
    )
    ended = of_type(events, ConflictEnded)[0]
    assert ended.winner is None and "a lets c go (U-15)" in ended.reason
    assert not [c for c in fight.state.conflicts if c.result is None]


def test_the_intimidator_coerces_with_its_best_coercing_rating_a_coerces_identity():
    """U-15, U-19: Struggle is 20 (violence 1), the Prophet identity coerces on the unnatural and
    the self at 65: the intimidator declares its threat on the unnatural (the first of them in
    U-18's order), ordered by 65, and rolls the Prophet."""
    agnes = person("Agnes", identities=[PROPHET])
    fight = Fight(join("agnes", "x", agnes), join("b", "y", HARD))
    fight.do(f.BeginFight())
    t = Table(fight.state)
    profiles = {"agnes": INTIMIDATOR, "b": Ua3Profile(rules=PRESETS["bystander"])}
    declare = declarations(t, profiles, SeededDice(1))
    (mine,) = [d for d in declare.declarations if d.actor == "agnes"]
    assert (mine.action, mine.targets, mine.gauge) == ("coerce", ("b",), "unnatural")
    events = fight.do(declare)
    assert of_type(events, ev.ActionDeclared)[0].rating == 65
    command = act(Table(fight.state), "agnes", profiles, SeededDice(1))
    assert isinstance(command, Coerce) and (command.gauge, command.demand) == ("unnatural", "surrender")
    rolled = of_type(fight.do(command), CoercionRolled)[0]
    assert rolled.result.spec.label == "Prophet" and rolled.result.spec.rating == 65


def test_a_relationship_with_the_target_is_a_coercing_rating_the_tactics_use():
    """U-20: a relationship may be rolled where its person is involved — coercing her."""
    sister = sheet("Rita", relationships=[Relationship(person="Hard", rating=70, gauge="mentor")], passions=())
    fight = Fight(join("rita", "x", sister), join("b", "y", HARD))
    fight.do(f.BeginFight())
    profiles = {"rita": INTIMIDATOR, "b": Ua3Profile(rules=PRESETS["bystander"])}
    events = fight.do(declarations(Table(fight.state), profiles, SeededDice(1)))
    assert {(e.actor, e.rating) for e in of_type(events, ev.ActionDeclared)} >= {("rita", 70)}


def test_the_tactics_never_coerce_a_target_the_rules_would_refuse():
    """U-15, U-2: a declared a threat at b; c (initiative 90) knocks b out first (a fist's crit,
    U-3); on a's
    turn the tactics do nothing — the rules would refuse ("b is unconscious and cannot be
    coerced") — and the rules' own check says so."""
    quick = person("Quick", violence=5, identities=[Identity(name="Sprinter", rating=90, initiative=True)])
    fight = Fight(join("a", "x", person("Soft")), join("c", "x", quick), join("b", "y", HARD), join("d", "y", HARD))
    fight.declare(("a", "coerce", ["b"]), ("c", "attack", ["b"]), ("b", "nothing"), ("d", "nothing"))
    assert fight.state.fight.order[0] == "c"
    fight.do(f.Attack(actor="c", targets=("b",), dice=(0, 1)))
    assert fight.who("b").status == "unconscious" and fight.state.fight.order[fight.state.fight.turn] == "a"
    with pytest.raises(Refused, match="b is unconscious and cannot be coerced"):
        fight.live.preview(Coerce(coercer="a", target="b", gauge="violence", dice=(1, 0)))
    command = act(Table(fight.state), "a", {"a": INTIMIDATOR}, SeededDice(1))
    assert command == DoNothing(actor="a")
    assert not of_type(fight.do(command), StatusChanged)
