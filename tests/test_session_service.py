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
    assert result.changes == ["Rosa: passions spent none → rage", "Vic: wounds 54 → 49 (-5)"]
    hit = next(e for e in result.new_events if isinstance(e, AttackResolved))
    assert hit.result.roll is not None and (hit.result.roll.tens, hit.result.roll.ones) == (1, 2)


def dodged_attack() -> SessionService:
    """Round 2 of the duel: Rosa keeps dodging (C2-16) and fails her dodge (99) of Vic's 31."""
    from engine.commands import Dodge

    service = duel()
    service.execute("duel", Attack(actor="Vic", target="Rosa", dice=(5, 8)))
    service.execute("duel", Dodge(actor="Rosa"))
    service.execute("duel", Declare(declarations=(Declaration(id="Rosa", continue_dodge=True),)))
    service.execute("duel", Attack(actor="Vic", target="Rosa", dice=(3, 1, 9, 9)))
    return service


def test_a_passion_after_a_failed_dodge_amends_the_attack_it_dodged_c_10_c2_15() -> None:
    from engine.events.madness import PassionSpent

    service = dodged_attack()
    last = service.last_roll("duel", "Rosa")
    assert last is not None and last.what == "a dodge of Vic's attack" and last.kind == "dodge" and not last.own
    wounds = service.state("duel").combatant("Rosa").wounds  # type: ignore[union-attr]
    result = service.passion("duel", "Rosa", "rage", dice=(4, 0))
    assert isinstance(result, Amended) and result.number == 9
    record, spent, resolved = result.new_events[:3]
    assert isinstance(spent, PassionSpent) and spent.actor == "Rosa" and spent.before.outcome == "matched_failure"
    assert isinstance(resolved, AttackResolved) and resolved.dodge is not None
    assert resolved.dodge.effect == "full" and resolved.hit is None  # 40 beats the attack's 31 (C2-15)
    assert record.issued.dice == (3, 1, 9, 9, 4, 0)  # type: ignore[attr-defined]  # the reroll after the dodge
    assert "Rosa: wounds" in " ".join(result.changes)
    assert service.state("duel").combatant("Rosa").wounds != wounds  # type: ignore[union-attr]


def test_a_dodge_passion_reads_two_faces_and_only_once_c_10() -> None:
    import pytest

    from engine.errors import InvalidInput, Refused

    service = dodged_attack()
    with pytest.raises(InvalidInput, match="reads 2 faces"):
        service.passion("duel", "Rosa", "rage", dice=(4,))
    service.passion("duel", "Rosa", "rage", dice=(1, 2))
    with pytest.raises(Refused, match="already changed by a passion"):
        service.passion("duel", "Rosa", "fear", dice=(4, 0))


def test_a_dodge_passion_names_a_target_that_dodges_c_10() -> None:
    import pytest

    from engine.commands.combat import RollPassion
    from engine.errors import Refused

    service = duel()
    use = RollPassion(actor="Rosa", passion="rage")
    with pytest.raises(Refused, match="not dodging"):
        service.execute("duel", Attack(actor="Vic", target="Rosa", dice=(3, 1), roll_passion=use))
    with pytest.raises(Refused, match="not a target"):
        wrong = RollPassion(actor="Vic", passion="rage")
        service.execute("duel", Attack(actor="Vic", target="Rosa", dice=(3, 1), roll_passion=wrong))


def test_a_fear_passion_rerolls_a_madness_roll_an_attack_raised_c_10_m2_4_m2_8() -> None:
    """Rosa, shot at for the first time (M2-8, rank 6 here: her 4 hardened notches do not settle
    it), fails her Mind roll inside Vic's attack and freezes; her fear passion rerolls it."""
    import msgspec

    from engine.commands import StartEncounter
    from engine.events.madness import NotchMarked, PassionSpent

    loaded = load_scenario(SCENARIO)
    settings = msgspec.structs.replace(loaded.settings, violence_first_shot_at=6)
    start = StartEncounter(title="duel", seed=5, settings=settings, scenario_document=scenario_document(loaded))
    service = SessionService(MemoryStore(), where="memory")
    service.start("duel", SessionService.rehearse("duel", [start, *(f.joins() for f in loaded.fighters)]))
    service.execute("duel", BeginFight())
    service.execute("duel", Declare())
    service.execute("duel", Attack(actor="Vic", target="Rosa", dice=(3, 1, 9, 9)))
    last = service.last_roll("duel", "Rosa")
    assert last is not None and last.kind == "madness" and last.result.outcome == "matched_failure"
    result = service.passion("duel", "Rosa", "fear", dice=(1, 2))
    assert isinstance(result, Amended)
    assert result.new_events[0].issued.dice == (3, 1, 9, 9, 1, 2)  # type: ignore[attr-defined]
    spent = next(e for e in result.new_events if isinstance(e, PassionSpent))
    assert spent.actor == "Rosa" and spent.passion == "fear"
    notch = next(e for e in result.new_events if isinstance(e, NotchMarked))
    assert notch.kind == "hardened"  # 12 passes her Mind 50 (M2-4)
    assert "Rosa: reaction freeze → none" in result.changes


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


def test_a_stale_expected_version_is_a_conflict_carrying_the_version_now_unless_a_retry() -> None:
    import pytest

    from engine.commands import Ruling
    from engine.errors import VersionConflict

    service = duel()
    version = service.sessions()[0][1]
    with pytest.raises(VersionConflict) as stale:
        service.execute("duel", Ruling(note="late"), expected=version - 1)
    assert stale.value.version == version and service.now("duel")[0] == version  # nothing written
    done = service.execute("duel", Ruling(note="on time"), expected=version, command_id="r-1")
    assert isinstance(done, Executed) and not done.retried and done.version == version + 2
    again = service.execute("duel", Ruling(note="on time"), expected=version, command_id="r-1")
    assert isinstance(again, Executed) and again.retried and again.events == done.events
    with pytest.raises(VersionConflict):
        service.undo("duel", expected=version)
    undone = service.undo("duel", expected=version + 2, command_id="u-1")
    retried = service.undo("duel", expected=1, command_id="u-1")  # answered whatever the version now
    assert retried.retried and retried.changes == undone.changes and retried.events == undone.events


def test_an_amend_keeps_its_note_and_a_retry_gives_what_it_did() -> None:
    from engine.commands import Ruling
    from engine.events.commands import CommandAmended

    service = duel()
    done = service.execute("duel", Ruling(note="the door is open"))
    assert isinstance(done, Executed)
    amended = service.amend("duel", done.number, Ruling(note="the door is locked"), note="misheard", command_id="a-1")
    assert isinstance(amended.marker, CommandAmended) and amended.marker.note == "misheard"
    again = service.amend("duel", done.number, Ruling(note="the door is locked"), note="misheard", command_id="a-1")
    assert again.retried and not amended.retried
    assert (again.first, again.new_events, again.changes) == (amended.first, amended.new_events, amended.changes)


def test_a_new_session_from_a_scenario_an_export_and_an_import_with_its_re_run_check() -> None:
    import msgspec
    import pytest

    from engine.errors import CorruptLog, SessionExists
    from engine.events.commands import CommandRecorded
    from engine.session.live import stored_events
    from engine.store.jsonl import log_lines
    from engine.store.memory import MemoryStore

    service = SessionService(MemoryStore())
    started = service.new("duel", load_scenario(SCENARIO), seed=5, scenario="test", command_id="new-1")
    assert started.version == len(started.events) and not started.retried
    assert service.new("duel", load_scenario(SCENARIO), seed=5, scenario="test", command_id="new-1").retried
    with pytest.raises(SessionExists):
        service.new("duel", load_scenario(SCENARIO), seed=5, scenario="test")
    service.execute("duel", BeginFight())
    service.execute("duel", Declare())
    service.execute("duel", Attack(actor="Vic", target="Rosa", dice=(5, 8)))
    records = list(stored_events(service.store, "duel"))
    ids = [e.command_id for e in service.export("duel")]
    assert b"".join(log_lines(service.export("duel")))
    assert service.import_records("copy", records, ids) == len(records)
    assert service.state("copy") == service.state("duel")
    with pytest.raises(SessionExists):
        service.import_records("copy", records, ids)
    k = max(i for i, (_, e) in enumerate(records) if isinstance(e, CommandRecorded))  # Vic's attack
    position, record = records[k]
    assert isinstance(record, CommandRecorded) and record.dice_used  # its dice changed: it no longer re-decides
    edited = msgspec.structs.replace(record, dice_used=tuple((d + 1) % 10 for d in record.dice_used))
    with pytest.raises(CorruptLog, match="not imported") as refused:
        service.import_records("edited", [*records[:k], (position, edited), *records[k + 1 :]], ids, source="f.jsonl")
    assert refused.value.where.startswith("f.jsonl event") and "edited" not in [n for n, _ in service.sessions()]


def test_threads_share_one_service_and_each_command_is_written_once() -> None:
    import threading

    from engine.commands import Ruling
    from engine.errors import VersionConflict
    from engine.events.commands import CommandRecorded

    service = duel()
    done: list[str] = []
    errors: list[Exception] = []

    def client(k: int) -> None:
        for i in range(25):
            cid = f"c{k}-{i}"
            while True:
                version = service.now("duel")[0]
                try:
                    service.execute("duel", Ruling(note=cid), expected=version, command_id=cid)
                except VersionConflict:
                    continue
                except Exception as exc:  # pragma: no cover - the test's failure
                    errors.append(exc)
                    return
                done.append(cid)
                break

    threads = [threading.Thread(target=client, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(done) == 100
    notes = [
        e.issued.note
        for _, e in service.records("duel")
        if isinstance(e, CommandRecorded) and isinstance(e.issued, Ruling)
    ]
    assert sorted(notes) == sorted(done)
