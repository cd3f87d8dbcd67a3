"""`engine.session.service` as a library (what the CLI and the HTTP API call): plain values in,
result values out, on any store."""

from __future__ import annotations

from engine.commands import Attack, BeginFight, Declare
from engine.commands.combat import Declaration
from engine.events.combat import AttackResolved
from engine.scenario.scenario import load_scenario, scenario_document
from engine.session.service import Amended, Executed, SessionService
from engine.store.memory import MemoryStore
from tests.cli.test_session_cli import SCENARIO


def duel() -> SessionService:
    loaded = load_scenario(SCENARIO)
    from engine.commands import StartEncounter

    start = StartEncounter(title="duel", seed=5, settings=loaded.settings, scenario_document=scenario_document(loaded))
    service = SessionService(MemoryStore(), where="memory")
    service.start("duel", SessionService.rehearse("duel", [start, *(f.joins() for f in loaded.fighters)]))
    service.execute("duel", BeginFight())
    service.execute("duel", Declare())
    return service


def test_the_roster_and_who_is_up_come_from_the_log() -> None:
    service = duel()
    roster = service.roster("duel")
    assert (roster.players, roster.npcs) == (("Rosa",), ("Vic",))  # the scenario's first side plays
    assert service.up_next(service.state("duel")) == "Vic"


def test_an_npc_turn_is_a_result_value_with_its_faces_c2_1() -> None:
    service = duel()
    (turn,) = service.npc("duel")
    assert isinstance(turn.done, Executed) and turn.who == "Vic" and not turn.refused
    assert turn.done.number == 6 and turn.done.faces[0][0] == "Vic's attack"
    assert turn.done.turn == "Rosa"


def test_a_passion_after_a_missed_attack_is_an_amend_c_10() -> None:
    service = duel()
    service.execute("duel", Attack(actor="Vic", target="Rosa", dice=(5, 8)))
    service.execute("duel", Attack(actor="rosa", target="vic", dice=(5, 9)))  # ids in any case
    last = service.last_roll("duel", "Rosa")
    assert last is not None and last.what == "an attack on Vic" and last.result.outcome == "failure"
    result = service.passion("duel", "Rosa", "rage", dice=(1, 2))
    assert isinstance(result, Amended) and result.number == 7
    assert result.changes == ["Vic: wounds 54 → 49 (-5)"]
    hit = next(e for e in result.new_events if isinstance(e, AttackResolved))
    assert hit.result.roll is not None and (hit.result.roll.tens, hit.result.roll.ones) == (1, 2)


def test_an_open_declaration_and_a_command_number_position() -> None:
    service = duel()
    service.undo("duel")  # back to the open declarations of round 1
    done = service.execute(
        "duel", Declare(declarations=(Declaration(id="vic", focus_target="rosa", focus=10),), open=True)
    )
    assert isinstance(done, Executed) and done.state.fight.phase == "declare"
    assert service.position("duel", f"#{done.number}") == done.first + len(done.events) - 1


def test_the_gm_is_asked_the_reaction_to_a_failed_check_an_attack_raises_m2_4() -> None:
    from tests.cli.test_table_play_cli import BAR

    loaded = load_scenario(BAR)
    from engine.commands import StartEncounter

    start = StartEncounter(title="bar", seed=7, settings=loaded.settings, scenario_document=scenario_document(loaded))
    service = SessionService(MemoryStore())
    service.start("bar", SessionService.rehearse("bar", [start, *(f.joins() for f in loaded.fighters)]))
    service.execute("bar", BeginFight())
    service.execute("bar", Attack(actor="Tommy", target="Eddie", dice=(4, 7)))
    service.execute("bar", Attack(actor="Dana", target="Moe", dice=(4, 4)))
    service.npc("bar")  # Moe
    asked: list[tuple[str, str, str]] = []

    def gm(who: str, check: str, default: str) -> str:
        asked.append((who, check, default))
        return "frenzy"

    done = service.execute("bar", Attack(actor="Eddie", target="Dana", dice=(2, 9, 7, 4)), strict=True, ask_reaction=gm)
    assert asked == [("Dana", "violence 1", "freeze")]  # the bat, the first time (M2-8); freeze by default
    dana = done.state.combatant("Dana")
    assert dana is not None and dana.reaction is not None and dana.reaction.kind == "frenzy"
