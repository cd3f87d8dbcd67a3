"""Madness (M2-1…M2-8): worked examples through a live session, and the laws as properties."""

from __future__ import annotations

from typing import TypeVar

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine.commands import (
    AddCombatant,
    Command,
    MadnessCheck,
    SkillCheck,
    SourceGone,
    SpendPassion,
    StartEncounter,
    Therapy,
)
from engine.dice.checks import Shift
from engine.dice.source import TableDice
from engine.errors import InvalidInput, Refused
from engine.events import (
    CheckRolled,
    MadnessCheckResolved,
    NeurosisMarked,
    NotchMarked,
    ReactionEnded,
    ReactionTaken,
    TherapyGiven,
)
from engine.events.base import EventBase
from engine.events.combat import StatusChanged
from engine.rules.decide import decide
from engine.rules.ua2.madness import madness_check_events
from engine.rules.ua2.table import Table
from engine.session import LiveEncounter, load_state
from engine.settings import Settings
from engine.state.encounter import Combatant, Encounter, Reaction
from engine.state.fight import Fight, Fighter
from engine.state.sheet import METERS, Meter, MeterName, Meters, Passion, Sheet, Skill, Stats
from engine.store import MemoryStore

E = TypeVar("E", bound=EventBase)


def sheet(name: str = "Vic", mind: int = 50, **meters: Meter) -> Sheet:
    return Sheet(
        name=name,
        stats=Stats(body=50, speed=50, mind=mind, soul=50),
        skills=(Skill(name="Notice", stat="mind", rating=40),),
        passions=(Passion(kind="fear", trigger="the dark"),),
        meters=Meters(**meters),
    )


def session(*sheets: Sheet, config: Settings | None = None) -> LiveEncounter:
    live = LiveEncounter(MemoryStore(), "enc")
    live.execute(StartEncounter(seed=3, settings=config or Settings()))
    for s in sheets or (sheet(),):
        live.execute(AddCombatant(id=s.name.lower(), side="a", sheet=s))
    return live


def vic(live: LiveEncounter) -> Combatant:
    found = live.state.combatant("vic")
    assert found is not None
    return found


def of(events: list[EventBase], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def only(events: list[EventBase], kind: type[E]) -> E:
    (found,) = of(events, kind)
    return found


def check(live: LiveEncounter, rank: int, dice: tuple[int, ...] = (), **kw: object) -> list[EventBase]:
    return live.execute(MadnessCheck(actor="vic", meter="violence", rank=rank, dice=dice, **kw))  # type: ignore[arg-type]


class NoDice:
    """A dice source that fails the test if anything is drawn from it."""

    def d10(self) -> int:
        raise AssertionError("a die was drawn")

    def choose(self, n: int) -> int:
        raise AssertionError("a choice was drawn")


# --- M2-2: hardened enough, no roll ---------------------------------------------------------


def test_hardened_at_or_above_rank_never_rolls_m2_2() -> None:
    live = session(sheet(violence=Meter(hardened=3)))
    events = check(live, 3)
    assert events[0].dice_used == ()  # type: ignore[attr-defined]
    assert [type(e) for e in events[1:]] == [MadnessCheckResolved]
    resolved = only(events, MadnessCheckResolved)
    assert resolved.outcome == "hardened"
    assert "M2-2" in resolved.explain()
    assert vic(live).meters.violence == Meter(hardened=3)
    assert vic(live).reaction is None


def test_ten_hardened_never_rolls_m2_2() -> None:
    live = session(sheet(violence=Meter(hardened=10, failed=5, neurosis=True)))
    assert only(check(live, 10), MadnessCheckResolved).outcome == "hardened"


def test_one_rank_above_hardened_rolls_m2_2_m2_4() -> None:
    live = session(sheet(violence=Meter(hardened=3)))
    assert of(check(live, 4, (3, 5)), CheckRolled)


# --- M2-3: five failed, automatic failure ----------------------------------------------------


def test_five_failed_and_rank_above_hardened_fails_without_a_roll_m2_3() -> None:
    start = Meter(hardened=2, failed=5, neurosis=True)
    live = session(sheet(violence=start))
    events = check(live, 3, source="a bar fight", reaction="flee")
    assert events[0].dice_used == ()  # type: ignore[attr-defined]
    assert [type(e) for e in events[1:]] == [MadnessCheckResolved, ReactionTaken, StatusChanged]
    assert only(events, MadnessCheckResolved).outcome == "automatic_failure"
    assert vic(live).status == "fled"  # M2-7: a fleeing character leaves the fight
    assert "M2-3" in events[1].explain()
    assert vic(live).meters.violence == start  # failed stays at its maximum of 5
    assert vic(live).reaction is not None and vic(live).reaction.kind == "flee"  # type: ignore[union-attr]


def test_five_failed_but_rank_within_hardened_is_still_no_roll_m2_2_m2_3() -> None:
    live = session(sheet(violence=Meter(hardened=4, failed=5, neurosis=True)))
    assert only(check(live, 4), MadnessCheckResolved).outcome == "hardened"
    assert vic(live).reaction is None


# --- M2-4: the Mind roll ----------------------------------------------------------------------


def test_success_marks_one_hardened_notch_m2_4() -> None:
    live = session(sheet(mind=50))
    events = check(live, 2, (3, 5), source="Mara's machete")
    roll = only(events, CheckRolled)
    assert roll.result.spec.kind == "major" and roll.result.spec.rating == 50
    assert roll.result.outcome == "success"
    assert "violence 2 madness check" in roll.purpose
    notch = only(events, NotchMarked)
    assert (notch.kind, notch.cause) == ("hardened", "Mara's machete")
    assert vic(live).meters.violence == Meter(hardened=1)
    assert vic(live).reaction is None


@pytest.mark.parametrize("rank", [1, 5, 10])
def test_the_rank_does_not_change_the_target_m2_4(rank: int) -> None:
    roll = only(check(session(sheet(mind=50)), rank, (5, 0)), CheckRolled)
    assert roll.result.target == 50 and roll.result.outcome == "success"


def test_shifts_apply_to_the_mind_roll_m2_4() -> None:
    live = session(sheet(mind=50))
    events = check(live, 2, (3, 5), shifts=(Shift("blood everywhere", -20),))
    roll = only(events, CheckRolled)
    assert roll.result.target == 30 and roll.result.outcome == "failure"
    assert "blood everywhere -20" in roll.explain()


def test_failure_marks_one_failed_notch_and_a_reaction_m2_4() -> None:
    live = session(sheet(mind=50))
    events = check(live, 2, (7, 2), source="Mara's machete")
    assert [type(e) for e in events[1:]] == [
        CheckRolled,
        MadnessCheckResolved,
        NotchMarked,
        ReactionTaken,
    ]
    notch = only(events, NotchMarked)
    assert (notch.kind, notch.cause) == ("failed", "Mara's machete")
    taken = only(events, ReactionTaken)
    assert (taken.reaction, taken.source, taken.chosen_by) == (
        "freeze",
        "Mara's machete",
        "setting",
    )
    assert vic(live).meters.violence == Meter(failed=1)
    reaction = vic(live).reaction
    assert reaction is not None
    assert (reaction.kind, reaction.source, reaction.meter) == (
        "freeze",
        "Mara's machete",
        "violence",
    )


def test_the_persons_reaction_wins_m2_4() -> None:
    taken = only(check(session(), 2, (7, 2), reaction="frenzy"), ReactionTaken)
    assert (taken.reaction, taken.chosen_by) == ("frenzy", "stated")


def test_the_default_reaction_is_a_setting_m2_4() -> None:
    live = session(config=Settings(default_reaction="flee"))
    assert only(check(live, 2, (7, 2)), ReactionTaken).reaction == "flee"


def test_the_combatants_own_default_comes_before_the_setting_m2_4() -> None:
    state = session().state
    state = msgspec.structs.replace(state, fight=Fight(fighters=(Fighter(id="vic", default_reaction="flee"),)))
    events = madness_check_events(Table(state), "vic", "violence", 2, "gunfire", TableDice((7, 2)))
    taken = only(events, ReactionTaken)
    assert (taken.reaction, taken.chosen_by) == ("flee", "combatant_default")


def test_an_unnamed_source_is_named_after_the_check_m2_4() -> None:
    taken = only(check(session(), 2, (7, 2)), ReactionTaken)
    assert taken.source == "violence 2"


# --- M2-5: neurosis -----------------------------------------------------------------------------


def test_the_fifth_failed_notch_marks_a_neurosis_m2_5() -> None:
    live = session(sheet(violence=Meter(failed=4)))
    events = check(live, 1, (9, 0), source="the torture tape")
    neurosis = only(events, NeurosisMarked)
    assert neurosis.cause == "the torture tape"
    assert "M2-5" in neurosis.explain()
    assert vic(live).meters.violence == Meter(failed=5, neurosis=True)


def test_a_fourth_failed_notch_marks_no_neurosis_m2_5() -> None:
    live = session(sheet(violence=Meter(failed=3)))
    assert not of(check(live, 1, (9, 0)), NeurosisMarked)
    assert vic(live).meters.violence == Meter(failed=4)


# --- M2-4: the source goes away -------------------------------------------------------------------


def test_a_reaction_is_kept_until_its_source_is_gone_m2_4() -> None:
    live = session(sheet(), sheet("Lou"))
    check(live, 2, (7, 2), source="the Shambler")
    live.execute(MadnessCheck(actor="lou", meter="unnatural", rank=4, source="the shambler", dice=(8, 8)))
    with pytest.raises(Refused, match="no one has a reaction kept for 'the dog'"):
        live.execute(SourceGone(source="the dog"))
    events = live.execute(SourceGone(source="The Shambler"))
    ended = of(events, ReactionEnded)
    assert sorted(e.actor for e in ended) == ["lou", "vic"]
    assert all(c.reaction is None for c in live.state.combatants)


def test_source_gone_for_one_actor_only_m2_4() -> None:
    live = session(sheet(), sheet("Lou"))
    check(live, 2, (7, 2), source="fire")
    live.execute(MadnessCheck(actor="lou", meter="violence", rank=2, source="fire", dice=(7, 2)))
    live.execute(SourceGone(source="fire", actor="lou"))
    assert vic(live).reaction is not None
    lou = live.state.combatant("lou")
    assert lou is not None and lou.reaction is None
    with pytest.raises(Refused, match="lou has a reaction"):
        live.execute(SourceGone(source="fire", actor="lou"))


# --- M2-6: therapy ------------------------------------------------------------------------------


def test_therapy_removes_notches_and_records_what_was_removed_m2_6() -> None:
    live = session(sheet(self_=Meter(hardened=2, failed=3)))
    events = live.execute(Therapy(actor="vic", meter="self", hardened=5, failed=1, note="a year"))
    given = only(events, TherapyGiven)
    assert (given.hardened_removed, given.failed_removed) == (2, 1)
    assert "M2-6" in given.explain()
    assert vic(live).meters.of("self") == Meter(hardened=0, failed=2)


def test_a_neurosis_outlasts_therapy_m2_5_m2_6() -> None:
    live = session(sheet(violence=Meter(failed=5, neurosis=True)))
    live.execute(Therapy(actor="vic", meter="violence", failed=2))
    assert vic(live).meters.violence == Meter(failed=3, neurosis=True)


def test_therapy_must_name_counts_of_zero_or_more_m2_6() -> None:
    live = session()
    with pytest.raises(Refused, match="name notches"):
        live.execute(Therapy(actor="vic", meter="violence"))
    with pytest.raises(Refused, match="0 or more"):
        live.execute(Therapy(actor="vic", meter="violence", failed=-1))


# --- refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", ["dead", "fled"])
def test_a_dead_or_fled_combatant_takes_no_madness_check(status: str) -> None:
    state = session().state
    gone = msgspec.structs.replace(vic_of(state), status=status)
    with pytest.raises(Refused, match=f"vic is {status}"):
        decide(state.replace_combatant(gone), MadnessCheck(actor="vic", meter="self", rank=1), NoDice())


def vic_of(state: Encounter) -> Combatant:
    found = state.combatant("vic")
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("meter", "rank", "reason"),
    [("violence", 0, "rank is 1–10"), ("violence", 11, "rank is 1–10")],
)
def test_a_bad_meter_or_rank_is_refused_m2_1(meter: str, rank: int, reason: str) -> None:
    with pytest.raises(Refused, match=reason):
        session().execute(MadnessCheck(actor="vic", meter=meter, rank=rank))  # type: ignore[arg-type]


def test_a_meter_that_does_not_exist_is_bad_input_naming_the_field_m2_1() -> None:
    with pytest.raises(InvalidInput, match="Invalid enum value 'sloth'") as caught:
        session().execute(MadnessCheck(actor="vic", meter="sloth", rank=1))  # type: ignore[arg-type]
    assert caught.value.where == "$.meter"


# --- M2-8: the pure function the combat rules call ------------------------------------------------


def test_combat_raises_a_violence_check_through_the_pure_function_m2_8() -> None:
    state = session().state
    cause = "attacked with a weapon for the first time (attack by Mara, command #7)"
    events = madness_check_events(Table(state), "vic", "violence", 1, cause, TableDice((7, 2)), source="mara")
    assert only(events, NotchMarked).cause == cause
    assert only(events, ReactionTaken).source == "mara"
    assert state == session().state  # nothing changed: the caller folds the events


# --- properties -------------------------------------------------------------------------------


meters_st = st.builds(
    lambda h, f: Meter(hardened=h, failed=f, neurosis=f == 5),
    st.integers(0, 10),
    st.integers(0, 5),
)


@settings(max_examples=200, deadline=None)
@given(
    meter=st.sampled_from(METERS),
    held=meters_st.filter(lambda m: m.hardened >= 1),
    data=st.data(),
)
def test_a_check_at_rank_within_hardened_never_draws_a_die_m2_2(meter: str, held: Meter, data: st.DataObject) -> None:
    rank = data.draw(st.integers(1, held.hardened))
    live = session(msgspec.structs.replace(sheet(), meters=Meters().with_meter(meter, held)))
    for dice in (NoDice(), TableDice(())):
        events = madness_check_events(Table(live.state), "vic", meter, rank, "a trigger", dice)
        assert [type(e) for e in events] == [MadnessCheckResolved]


faces = st.lists(st.integers(0, 9), min_size=2, max_size=2).map(tuple)
ids = st.sampled_from(["vic", "lou"])
sources = st.sampled_from(["the gun", "the thing", ""])


class MadnessMachine(RuleBasedStateMachine):
    """Random checks, therapy, sources going, skill checks and passions: after every step the
    notches stay in range, refusals change nothing, and the stored log folds to the live state."""

    def __init__(self) -> None:
        super().__init__()
        self.live = session()

    @initialize(vic_meters=st.lists(meters_st, min_size=5, max_size=5), lou_mind=st.integers(1, 99))
    def start(self, vic_meters: list[Meter], lou_mind: int) -> None:
        start = Meters()
        for name, held in zip(METERS, vic_meters, strict=True):
            start = start.with_meter(name, held)
        vic_sheet = msgspec.structs.replace(sheet(), meters=start)
        self.live = session(vic_sheet, sheet("Lou", mind=lou_mind))

    def run(self, command: Command) -> None:
        before = self.live.state
        try:
            self.live.execute(command)
        except Refused:
            assert self.live.state == before

    @rule(
        actor=ids,
        meter=st.sampled_from(METERS),
        rank=st.integers(0, 11),
        source=sources,
        reaction=st.sampled_from([None, "flee", "freeze", "frenzy"]),
        dice=faces,
    )
    def madness_check(
        self,
        actor: str,
        meter: MeterName,
        rank: int,
        source: str,
        reaction: Reaction | None,
        dice: tuple[int, ...],
    ) -> None:
        self.run(MadnessCheck(actor=actor, meter=meter, rank=rank, source=source, reaction=reaction, dice=dice))

    @rule(
        actor=ids,
        meter=st.sampled_from(METERS),
        hardened=st.integers(-1, 12),
        failed=st.integers(-1, 7),
    )
    def therapy(self, actor: str, meter: str, hardened: int, failed: int) -> None:
        self.run(Therapy(actor=actor, meter=meter, hardened=hardened, failed=failed))  # type: ignore[arg-type]

    @rule(source=sources, actor=st.sampled_from(["", "vic", "lou"]))
    def source_gone(self, source: str, actor: str) -> None:
        self.run(SourceGone(source=source or "violence 1", actor=actor))

    @rule(actor=ids, dice=faces)
    def skill_check(self, actor: str, dice: tuple[int, ...]) -> None:
        self.run(SkillCheck(actor=actor, skill="Notice", kind="major", dice=dice))

    @rule(actor=ids, mode=st.sampled_from(["reroll", "flip"]), dice=faces)
    def passion(self, actor: str, mode: str, dice: tuple[int, ...]) -> None:
        self.run(SpendPassion(actor=actor, passion="fear", mode=mode, dice=dice))  # type: ignore[arg-type]

    @invariant()
    def notches_stay_in_range(self) -> None:
        for c in self.live.state.combatants:
            for name in METERS:
                m = c.meters.of(name)
                assert 0 <= m.hardened <= 10 and 0 <= m.failed <= 5
                assert m.neurosis or m.failed < 5  # M2-5

    @invariant()
    def the_stored_log_folds_to_the_live_state(self) -> None:
        assert load_state(self.live.store, "enc") == self.live.state


MadnessMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=25, deadline=None)
TestMadnessMachine = MadnessMachine.TestCase
