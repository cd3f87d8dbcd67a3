"""RULES T-1…T-5 through the session service: a played character's dice and choices are asked of
its player, never drawn or chosen for them; an NPC's are drawn at once; the action waits beside
the log and is decided, once answered, exactly as giving those dice up front decides it."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.commands import Attack, BeginFight, Declare
from engine.commands.combat import Declaration
from engine.dice.judge import target_of
from engine.dice.odds import success_chance
from engine.errors import InvalidInput, Refused
from engine.events.combat import AttackResolved, InitiativeSet
from engine.scenario.scenario import load_scenario, scenario_document
from engine.session import owners
from engine.session.seats import WaitsOn
from engine.session.service import SessionService
from engine.store.memory import MemoryStore
from tests.cli.test_session_cli import SCENARIO

FACE = st.integers(min_value=0, max_value=9)


def set_up(played: dict[str, str], *, begin: bool = True, flip_better: bool = True) -> SessionService:
    """The knife-vs-.22 duel (Rosa against Vic) with `played` characters; begun and declared:
    Vic to act. With `flip_better`, each player's standing choice reads a roll that may flip the
    better way (C-11, T-3)."""
    from engine.commands import StartEncounter

    loaded = load_scenario(SCENARIO)
    start = StartEncounter(title="duel", seed=5, settings=loaded.settings, scenario_document=scenario_document(loaded))
    service = SessionService(MemoryStore(), where="memory")
    service.start("duel", SessionService.rehearse("duel", [start, *(f.joins() for f in loaded.fighters)]))
    service.seat("duel", played)
    for who in played if flip_better else ():  # C-11's orientation: its own test below
        service.prefer("duel", who, {"flip": "better"})
    if begin:
        service.execute("duel", BeginFight(initiative=_defaults(played)))
        service.execute("duel", Declare())
    return service


def _defaults(played: dict[str, str]) -> Any:
    from engine.commands.combat import InitiativeChoice

    return tuple(InitiativeChoice(id=who, method="default") for who in played)


def waits(call: Any) -> tuple[owners.Request, ...]:
    with pytest.raises(WaitsOn) as stopped:
        call()
    return stopped.value.waiting.requests


def log(service: SessionService) -> list[bytes]:
    """The session's events as data, without ids and times (DESIGN's determinism)."""
    return [bytes(e.data) for e in service.store.read("duel")]


def test_t3_a_played_characters_roll_nobody_gave_waits_and_records_nothing() -> None:
    service = set_up({"Rosa": "Ana"})
    service.execute("duel", Attack(actor="Vic", target="Rosa"))  # T-2: the NPC's dice, drawn at once
    before = service.store.version("duel")
    (request,) = waits(lambda: service.execute("duel", Attack(actor="Rosa", target="Vic")))
    assert (request.id, request.character, request.owner, request.kind) == ("Rosa.1", "Rosa", "Ana", "roll")
    assert request.what == "Rosa's attack (Fighting)" and request.rule == "C-1" and request.faces == 2
    assert service.store.version("duel") == before  # nothing recorded (T-3)
    assert service.waiting("duel") is not None
    done = service.give("duel", "Rosa.1", dice=(2, 3))
    (hit,) = [e for e in done.events if isinstance(e, AttackResolved)]
    assert hit.result.roll is not None and (hit.result.roll.tens, hit.result.roll.ones) == (2, 3)
    # the request said the roll's target and its exact odds
    assert request.target == target_of(hit.result.spec)
    assert request.chance == round(float(success_chance(hit.result.spec)), 4)
    assert service.waiting("duel") is None


def test_t3_while_an_action_waits_other_actions_are_refused_reads_and_cancel_are_not() -> None:
    service = set_up({"Rosa": "Ana", "Vic": "Bo"})
    before = service.store.version("duel")
    waits(lambda: service.execute("duel", Attack(actor="Vic", target="Rosa"), command_id="vic-shoots"))
    with pytest.raises(Refused, match=r"waits on Vic's attack \(Firearms\) \(Vic\.1\)"):
        service.execute("duel", Attack(actor="Rosa", target="Vic", dice=(1, 1)))
    assert service.state("duel").version == before  # a read
    # a retry by the same command id answers with the same requests (T-3)
    again = waits(lambda: service.execute("duel", Attack(actor="Vic", target="Rosa"), command_id="vic-shoots"))
    assert [r.id for r in again] == ["Vic.1"]
    dropped = service.cancel("duel")
    assert dropped.command_id == "vic-shoots" and service.waiting("duel") is None
    assert service.store.version("duel") == before
    with pytest.raises(Refused, match="waits on nothing"):
        service.cancel("duel")


def test_t3_roll_for_me_and_draw_rest_draw_a_players_dice_from_the_seed() -> None:
    asked = set_up({"Rosa": "Ana"})
    asked.execute("duel", Attack(actor="Vic", target="Rosa"))
    waits(lambda: asked.execute("duel", Attack(actor="Rosa", target="Vic")))
    answered = asked.give("duel", "Rosa.1", roll_for_me=True)
    standing = set_up({"Rosa": "Ana"})
    standing.prefer("duel", "Rosa", {"roll_for_me": "all"})
    standing.execute("duel", Attack(actor="Vic", target="Rosa"))
    preferred = standing.execute("duel", Attack(actor="Rosa", target="Vic"))
    gm = set_up({"Rosa": "Ana"})
    gm.execute("duel", Attack(actor="Vic", target="Rosa"))
    drawn = gm.execute("duel", Attack(actor="Rosa", target="Vic"), draw_rest=True)
    assert answered.faces == preferred.faces == drawn.faces  # the seed's dice, whoever said so
    assert log(asked)[-len(answered.events) :] == log(standing)[-len(answered.events) :]


def test_t4_dice_for_a_roll_the_action_does_not_read_are_refused_naming_those_it_does() -> None:
    service = set_up({"Rosa": "Ana"})
    service.execute("duel", Attack(actor="Vic", target="Rosa"))
    before = service.store.version("duel")
    with pytest.raises(InvalidInput, match=r"Vic=1,2.*Rosa's attack \(Fighting\)"):
        service.execute("duel", Attack(actor="Rosa", target="Vic"), given={"Rosa": (2, 3), "Vic": (1, 2)})
    assert service.store.version("duel") == before


def test_t4_every_players_initiative_is_asked_at_once_then_every_roll_i2_1() -> None:
    service = set_up({"Rosa": "Ana", "Vic": "Bo"}, begin=False)
    choices = waits(lambda: service.execute("duel", BeginFight(), command_id="begin"))
    assert [(r.id, r.kind) for r in choices] == [("Rosa.initiative", "choice"), ("Vic.initiative", "choice")]
    assert {o.value for o in choices[0].options} == {"roll", "default"} and choices[0].rule == "I2-1"
    waits(lambda: service.give("duel", "Vic.initiative", choose="roll"))
    rolls = waits(lambda: service.give("duel", "Rosa.initiative", choose="roll"))
    assert [r.id for r in rolls] == ["Rosa.1", "Vic.1"]  # both rolls at once (T-4), in any order
    waits(lambda: service.give("duel", "Vic.1", dice=(0, 9)))
    done = service.give("duel", "Rosa.1", dice=(4, 5))
    set_at = {e.id: e for e in done.events if isinstance(e, InitiativeSet)}
    assert set_at["Rosa"].roll is not None and set_at["Rosa"].roll.value == 45
    assert set_at["Vic"].roll is not None and set_at["Vic"].roll.value == 9
    assert done.command_id == "begin"
    recorded = done.events[0].issued  # type: ignore[attr-defined]
    assert {(c.id, c.method) for c in recorded.initiative} == {("Rosa", "roll"), ("Vic", "roll")}


def test_t3_a_players_dodge_inside_an_npcs_attack_is_asked_of_the_player_c2_15() -> None:
    service = set_up({"Rosa": "Ana"})
    service.execute("duel", Attack(actor="Vic", target="Rosa"))
    from engine.commands import Dodge

    service.execute("duel", Dodge(actor="Rosa"))
    service.execute("duel", Declare(declarations=(Declaration(id="Rosa", continue_dodge=True),)))
    # the GM gives Vic's 31; Rosa dodges it with her own dice
    (request,) = waits(lambda: service.execute("duel", Attack(actor="Vic", target="Rosa", dice=(3, 1))))
    assert request.what == "Rosa's dodge" and request.rule == "C2-15" and request.owner == "Ana"
    done = service.give("duel", request.id, dice=(9, 9))
    assert [(what, faces) for what, faces in done.faces][:2] == [("Vic's attack", (3, 1)), ("Rosa's dodge", (9, 9))]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(FACE, FACE), min_size=4, max_size=4))
def test_law_answering_with_dice_d_gives_the_log_giving_d_up_front_gives(answers: list[tuple[int, int]]) -> None:
    """DESIGN's determinism, at a table: the faces a player gives when asked, or up front."""
    asked = set_up({"Rosa": "Ana"})
    upfront = set_up({"Rosa": "Ana"})
    for service in (asked, upfront):
        service.execute("duel", Attack(actor="Vic", target="Rosa"))
    given_faces: list[int] = []
    pending = list(answers)
    try:
        asked.execute("duel", Attack(actor="Rosa", target="Vic"))
    except WaitsOn as stopped:
        requests = stopped.waiting.requests
        while True:
            faces = pending.pop(0)[: requests[0].faces]
            given_faces.extend(faces)
            try:
                asked.give("duel", requests[0].id, dice=faces)
                break
            except WaitsOn as again:
                requests = again.waiting.requests
    upfront.execute("duel", Attack(actor="Rosa", target="Vic"), given={"Rosa": tuple(given_faces)})
    assert log(asked) == log(upfront)


def test_law_no_played_characters_die_is_drawn_and_no_npcs_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole stretch of NPC turns at a table, every request answered: every read of a played
    character's roll came from its player, every NPC's from the seed (T-2, T-3)."""
    reads: list[owners.RollRead] = []
    close = owners.OwnedDice._close

    def keep(self: owners.OwnedDice) -> None:
        close(self)
        reads[:] = [*reads, *(r for r in self.reads if r not in reads)]

    monkeypatch.setattr(owners.OwnedDice, "_close", keep)
    service = set_up({"Rosa": "Ana"})
    faces = iter([(k % 10, (3 * k + 1) % 10) for k in range(200)])
    for _ in range(12):
        if service.state("duel").fight.phase == "ended":
            break
        up = service.up_next(service.state("duel"))
        call = (
            (lambda: service.npc("duel"))
            if up == "Vic"
            else (lambda: service.execute("duel", Attack(actor="Rosa", target="Vic")))
        )
        if up is None:
            call = lambda: service.execute("duel", Declare())  # noqa: E731
        try:
            call()
        except WaitsOn as stopped:
            requests = stopped.waiting.requests
            while requests:
                try:
                    service.give("duel", requests[0].id, dice=next(faces)[: requests[0].faces])
                    requests = ()
                except WaitsOn as again:
                    requests = again.waiting.requests
    assert {r.source for r in reads if r.who == "Rosa"} <= {"given", "provisional"}
    assert {r.source for r in reads if r.who == "Vic"} == {"drawn"}
    assert any(r.who == "Rosa" and r.source == "given" for r in reads)


def test_requests_and_players_stay_beside_the_log_never_in_it() -> None:
    service = set_up({"Rosa": "Ana"})
    service.execute("duel", Attack(actor="Vic", target="Rosa"))
    waits(lambda: service.execute("duel", Attack(actor="Rosa", target="Vic")))
    types = {msgspec.json.decode(e.data)["type"] for e in service.store.read("duel")}
    assert not any("request" in t or "seat" in t for t in types)


def test_m2_4_a_played_characters_reaction_to_a_failed_check_is_asked_after_the_roll() -> None:
    from engine.commands import MadnessCheck
    from engine.events.madness import ReactionTaken

    service = set_up({"Rosa": "Ana"})
    (roll,) = waits(lambda: service.execute("duel", MadnessCheck(actor="Rosa", meter="unnatural", rank=9)))
    assert roll.what == "Rosa's Mind" and roll.rule == "M2-4"
    (choice,) = waits(lambda: service.give("duel", roll.id, dice=(9, 8)))  # a failure: now the reaction
    assert choice.id == "Rosa.reaction"
    assert {o.value for o in choice.options} == {"flee", "freeze", "frenzy"} and choice.rule == "M2-4"
    done = service.give("duel", "Rosa.reaction", choose="frenzy")
    (taken,) = [e for e in done.events if isinstance(e, ReactionTaken)]
    assert (taken.reaction, taken.chosen_by) == ("frenzy", "stated")
    assert done.events[0].issued.reaction == "frenzy"  # type: ignore[attr-defined]  # the log re-decides the same


def test_t6_a_played_characters_passion_reroll_is_never_drawn_unasked() -> None:
    service = set_up({"Rosa": "Ana"})
    service.execute("duel", Attack(actor="Vic", target="Rosa"))
    service.execute("duel", Attack(actor="Rosa", target="Vic"), given={"Rosa": (9, 8)})  # a miss
    before = service.store.version("duel")
    with pytest.raises(InvalidInput, match="Rosa's passion reroll is Ana's roll"):
        service.passion("duel", "Rosa", "rage")
    assert service.store.version("duel") == before
    result = service.passion("duel", "Rosa", "rage", dice=(1, 2))
    # the attack (command 7) amended to spend the passion on that roll: the reroll is 12 (C-10, T-6)
    assert result.number == 7
    (hit,) = [e for e in result.new_events if isinstance(e, AttackResolved)]
    assert hit.result.roll is not None and hit.result.roll.value == 12


def test_c_11_a_played_characters_flip_is_asked_after_the_roll_and_stated_in_the_command() -> None:
    """C-11: the roller states how a roll that may flip is read: 62 or 26 (an obsession skill)."""
    service = set_up({"Rosa": "Ana"}, flip_better=False)
    service.execute("duel", Attack(actor="Vic", target="Rosa"))
    (choice,) = waits(lambda: service.execute("duel", Attack(actor="Rosa", target="Vic"), given={"Rosa": (6, 2)}))
    assert choice.id == "Rosa.flip" and choice.rule == "C-11"
    assert [(o.value, o.says) for o in choice.options] == [
        ("as_rolled", "read 62: failure"),
        ("flipped", "read 26: success"),
    ]
    done = service.give("duel", "Rosa.flip", choose="as_rolled")  # her player's call, even a miss
    (miss,) = [e for e in done.events if isinstance(e, AttackResolved)]
    assert miss.result.outcome == "failure" and done.events[0].issued.flipped is False  # type: ignore[attr-defined]
