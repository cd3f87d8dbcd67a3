"""Live sessions on SQLite: amend (law 5) in worked examples, undo and redo refusals, the dice
cursor, two writers on one file, and a process killed in the middle of a command (law 7)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.commands import AddCombatant, Attack, BeginFight, Declare, RollCheck, Ruling, StartEncounter
from engine.dice.checks import CheckSpec, Shift
from engine.errors import ConcurrencyConflict, Refused
from engine.events.combat import AttackResolved
from engine.events.commands import CommandAmended, CommandRecorded
from engine.scenario.scenario import load_scenario
from engine.session.audit import narrate, table_faces
from engine.session.history import command_entries
from engine.session.live import LiveEncounter, load_state
from engine.session.verify import verify
from engine.state.encounter import Combatant
from engine.store.sqlite import SqliteStore
from tests.rules.support import QUIET, fighter

ROOT = Path(__file__).resolve().parent.parent
DUEL = load_scenario(ROOT / "scenarios" / "knife-vs-22.toml")
CHECK = CheckSpec(kind="major", rating=50)


def open_live(db: Path, name: str = "table") -> LiveEncounter:
    return LiveEncounter(SqliteStore(db), name)


def knife_vs_22(db: Path) -> LiveEncounter:
    """`ua session new duel --scenario scenarios/knife-vs-22.toml --seed 5`, begun and declared:
    Vic (.22 pistol, Firearms 60) acts first, then Rosa (knife, Fighting 65, her obsession)."""
    live = open_live(db, "duel")
    live.execute(StartEncounter(title=DUEL.scenario.title, seed=5, settings=DUEL.settings))
    for f in DUEL.fighters:
        live.execute(AddCombatant(id=f.id, side=f.side, sheet=f.sheet, weapons=f.arsenal, in_hand=f.in_hand))
    live.execute(BeginFight())
    live.execute(Declare())
    assert live.state.fight.current == "Vic"
    return live


def brawl(db: Path) -> LiveEncounter:
    """Cal (side y) against Ann and Bea (side x); default initiative: Cal, Ann, Bea."""
    live = open_live(db)
    live.execute(StartEncounter(seed=3, settings=QUIET))
    live.execute(AddCombatant(id="ann", side="x", sheet=fighter("Ann", init=60)))
    live.execute(AddCombatant(id="bea", side="x", sheet=fighter("Bea", init=40)))
    live.execute(AddCombatant(id="cal", side="y", sheet=fighter("Cal", init=80)))
    live.execute(BeginFight())
    return live


def who(live: LiveEncounter, id_: str) -> Combatant:
    c = live.state.combatant(id_)
    assert c is not None
    return c


def record(live: LiveEncounter, command_id: int) -> CommandRecorded:
    return next(e.record for e in command_entries(live.records) if e.id == command_id)


def recorded(live: LiveEncounter) -> list[CommandRecorded]:
    return [e for _, e in live.records if isinstance(e, CommandRecorded)]


def stored_count(db: Path, name: str = "table") -> int:
    with SqliteStore(db) as store:
        return store.version(name)


# -- amend (law 5) ------------------------------------------------------------------------------


def test_an_attack_amended_with_a_wound_shift_re_resolves_what_followed_with_the_same_dice(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    live = knife_vs_22(db)
    shot = live.execute(Attack(actor="Vic", target="Rosa", dice=(5, 8)))  # 58 ≤ 60: Rosa 70 → 40, −10
    cut = live.execute(Attack(actor="Rosa", target="Vic", dice=(5, 9)))  # 59 > 65−10: a miss, the knife cuts 1
    assert (who(live, "Rosa").wounds, who(live, "Vic").wounds) == (40, 54)
    shot_id, cut_id = shot[0].command, cut[0].command
    version = live.version

    # the GM: "Vic was already hurt: that shot had −10 for wounds"
    amendment = live.amend(
        shot_id, Attack(actor="Vic", target="Rosa", dice=(5, 8), shifts=(Shift("wounds", -10),)), note="Vic's wounds"
    )

    # 58 > 50: Vic misses, so Rosa has no −10 and the same 5,9 now hits: 5+9+3 = 17
    assert (who(live, "Rosa").wounds, who(live, "Vic").wounds) == (70, 38)
    marker = live.records[version][1]
    assert isinstance(marker, CommandAmended)
    assert marker.superseded == (shot_id, cut_id) and marker.replacements == (cut_id + 1, cut_id + 2)
    assert marker.note == "Vic's wounds"
    assert record(live, cut_id + 2).dice_used == record(live, cut_id).dice_used == (5, 9)
    resolved = [e for e in amendment.new_events if isinstance(e, AttackResolved)]
    assert [(a.attacker, a.result.outcome) for a in resolved] == [("Vic", "failure"), ("Rosa", "success")]
    assert amendment.before.combatant("Rosa") != amendment.after.combatant("Rosa")
    # nothing was deleted: the old events are still in the log, struck out by the amend
    struck = [line for line in narrate(live.records) if line.struck]
    assert {line.command for line in struck} == {shot_id, cut_id}
    assert all(line.note == f"superseded by the amend at event {version + 1}" for line in struck)
    assert verify(live.records).ok
    assert open_live(db, "duel").state == live.state


def test_an_amend_that_leaves_a_dead_attacker_acting_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    live = brawl(db)
    first = live.execute(Attack(actor="cal", target="ann", dice=(3, 3)))[0].command
    live.execute(Attack(actor="ann", target="cal", dice=(2, 1)))
    before, version, cursors = live.state, live.version, (live.next_id, live.dice_position)

    with pytest.raises(Refused) as refused:
        live.amend(first, Attack(actor="cal", target="ann", dice=(0, 1)))  # a crit: ann was dead by her turn

    assert refused.value.message == (
        f"the amend no longer makes sense: command #{first + 1} after it is refused: ann is dead and cannot act"
    )
    assert (live.state, live.version, (live.next_id, live.dice_position)) == (before, version, cursors)
    assert stored_count(db) == version
    assert open_live(db).state == before


def test_an_amend_whose_corrected_command_is_refused_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    live = knife_vs_22(db)
    shot = live.execute(Attack(actor="Vic", target="Rosa", dice=(5, 8)))[0].command
    version = live.version

    with pytest.raises(Refused) as refused:
        live.amend(shot, Attack(actor="Rosa", target="Vic", dice=(4, 7)))  # it was Vic's turn

    assert refused.value.message == (
        "the amend no longer makes sense: the amended command is refused: it is Vic's turn, not Rosa's"
    )
    assert refused.value.hint == "act in initiative order"
    assert stored_count(db, "duel") == live.version == version


def test_only_a_command_that_counts_can_be_amended(tmp_path: Path) -> None:
    live = knife_vs_22(tmp_path / "s.sqlite")
    shot = live.execute(Attack(actor="Vic", target="Rosa", dice=(5, 8)))[0].command
    live.undo()
    with pytest.raises(Refused, match=f"command #{shot} is not one that counts now"):
        live.amend(shot, Attack(actor="Vic", target="Rosa", dice=(9, 9)))
    with pytest.raises(Refused, match="command #99 is not one that counts now"):
        live.amend(99, Ruling(note="no such command"))


def test_an_amend_draws_fresh_dice_only_when_the_corrected_history_needs_more(tmp_path: Path) -> None:
    live = open_live(tmp_path / "s.sqlite")
    live.execute(StartEncounter(seed=11))
    ruling = live.execute(Ruling(note="the door is locked"))[0].command
    later = live.execute(RollCheck(spec=CHECK))[0].command  # 2 seeded dice: faces 0 and 1
    assert (record(live, later).seeded_from, record(live, later).seeded_count) == (0, 2)
    cursor = live.dice_position

    live.amend(ruling, RollCheck(spec=CHECK))  # a ruling rolled nothing; the check needs 2 dice

    first, second = recorded(live)[-2:]
    assert (first.seeded_from, first.seeded_count) == (cursor, 2)  # fresh dice, never reused ones
    assert second.dice_used == record(live, later).dice_used and second.seeded_count == 0
    assert live.dice_position == cursor + 2


def test_amending_a_command_with_itself_changes_nothing_and_draws_no_dice(tmp_path: Path) -> None:
    live = open_live(tmp_path / "s.sqlite")
    live.execute(StartEncounter(seed=11))
    half = live.execute(RollCheck(spec=CHECK, dice=(4,)))[0]  # the tens at the table, the ones seeded
    assert isinstance(half, CommandRecorded)
    assert (half.table_dice, half.seeded_count) == (1, 1)
    live.execute(RollCheck(spec=CHECK))
    state, cursor = live.state, live.dice_position

    live.amend(half.id, RollCheck(spec=CHECK, dice=(4,)))

    assert live.state == state
    assert live.dice_position == cursor
    again = recorded(live)[-2]
    assert again.dice_used == half.dice_used and again.table_dice == 1  # the seeded die is not the table's


# -- undo and redo (law 4) ----------------------------------------------------------------------


def test_undo_with_nothing_to_undo_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    live = open_live(db)
    with pytest.raises(Refused, match="there is nothing to undo"):
        live.undo()
    live.execute(StartEncounter(seed=2))
    live.undo()
    with pytest.raises(Refused, match="there is nothing to undo"):
        live.undo()
    assert stored_count(db) == live.version == 3  # the record, the start, the undo


def test_redo_after_a_new_command_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    live = open_live(db)
    live.execute(StartEncounter(seed=2))
    live.execute(Ruling(note="it rains"))
    live.undo()
    live.execute(Ruling(note="it snows"))
    version = live.version
    with pytest.raises(Refused, match="there is nothing to redo") as refused:
        live.redo()
    assert refused.value.hint == "redo only follows undo, before any new command"
    assert stored_count(db) == version


def test_undo_then_redo_gives_back_the_states_exactly(tmp_path: Path) -> None:
    live = knife_vs_22(tmp_path / "s.sqlite")
    before = live.state
    live.execute(Attack(actor="Vic", target="Rosa", dice=(5, 8)))
    after = live.state
    live.undo()
    assert live.state == before
    live.redo()
    assert live.state == after


def test_the_seeded_dice_never_reuse_a_face_after_an_undo(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    live = open_live(db)
    live.execute(StartEncounter(seed=7))
    first = live.execute(RollCheck(spec=CHECK))[0]
    live.undo()
    second = live.execute(RollCheck(spec=CHECK))[0]
    live.undo()
    third = open_live(db).execute(RollCheck(spec=CHECK))[0]  # and after reopening
    assert isinstance(first, CommandRecorded) and isinstance(second, CommandRecorded)
    assert isinstance(third, CommandRecorded)
    assert [r.seeded_from for r in (first, second, third)] == [0, 2, 4]
    assert [r.id for r in (first, second, third)] == [2, 3, 4]  # command ids only grow too


def test_a_session_whose_start_was_undone_still_draws_from_its_seed(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    live = open_live(db)
    live.execute(StartEncounter(seed=7))
    live.undo()
    one = LiveEncounter(SqliteStore(db), "table", seed=1)
    other = LiveEncounter(SqliteStore(db), "table", seed=2)
    assert one.seed == other.seed == 7


def test_a_refused_command_writes_nothing_and_draws_nothing(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    live = knife_vs_22(db)
    state, version, cursors = live.state, live.version, (live.next_id, live.dice_position)
    with pytest.raises(Refused, match="it is Vic's turn, not Rosa's"):
        live.execute(Attack(actor="Rosa", target="Vic"))
    assert (live.state, live.version, (live.next_id, live.dice_position)) == (state, version, cursors)
    assert stored_count(db, "duel") == version


# -- the audit after an amend -----------------------------------------------------------------


def test_the_audit_counts_each_die_once_and_the_round_of_the_history_that_counts(tmp_path: Path) -> None:
    live = knife_vs_22(tmp_path / "s.sqlite")
    shot = live.execute(Attack(actor="Vic", target="Rosa", dice=(5, 8)))[0].command
    live.execute(Attack(actor="Rosa", target="Vic", dice=(5, 9)))  # ends round 1
    live.amend(shot, Attack(actor="Vic", target="Rosa", dice=(9, 9)))  # the GM misread the dice
    assert sorted(table_faces(live.records)) == [5, 9, 9, 9]  # 9,9 for Vic, 5,9 for Rosa (reused)
    attacks = [line for line in narrate(live.records, types=["attack_resolved"]) if not line.struck]
    assert [line.round for line in attacks] == [1, 1]  # re-decided in round 1, after round 2 had begun
    assert len(narrate(live.records, round_=1, types=["attack_resolved"])) == 4


# -- two writers, and a crash (law 7) ---------------------------------------------------------


def test_two_writers_on_one_file_the_stale_one_conflicts_and_writes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    open_live(db).execute(StartEncounter(seed=4))
    first, second = open_live(db), open_live(db)
    first.execute(Ruling(note="the first GM rules"))
    version = stored_count(db)
    state, cursors = second.state, (second.next_id, second.dice_position)

    with pytest.raises(ConcurrencyConflict):
        second.execute(RollCheck(spec=CHECK))
    with pytest.raises(ConcurrencyConflict):
        second.undo()

    assert stored_count(db) == version
    assert (second.state, (second.next_id, second.dice_position)) == (state, cursors)
    assert load_state(SqliteStore(db), "table") == first.state
    third = open_live(db)  # reopened, the second GM goes on from what the first one wrote
    third.execute(RollCheck(spec=CHECK))
    assert [e.id for e in command_entries(third.records)] == [1, 2, 3]


CHILD = """
import sys
from engine.commands import RollCheck, Ruling, StartEncounter
from engine.dice.checks import CheckSpec
from engine.session.live import LiveEncounter
from engine.store.sqlite import SqliteStore

live = LiveEncounter(SqliteStore(sys.argv[1]), "table")
if not live.version:
    live.execute(StartEncounter(seed=9))
i = 0
while True:
    i += 1
    command = RollCheck(spec=CheckSpec(kind="major", rating=50)) if i % 2 else Ruling(note="ruling %d" % i)
    events = live.execute(command)
    print(events[0].id, flush=True)  # acknowledged: the append returned
"""


def run_and_kill(db: Path, rng: random.Random) -> list[int]:
    """Run the child until it acknowledged a random number of commands, SIGKILL it at a random
    moment after that, and return every id it acknowledged."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(db)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stdout is not None
    acknowledged: list[int] = []
    wanted = rng.randint(2, 30)
    try:
        while len(acknowledged) < wanted:
            line = child.stdout.readline()
            assert line, f"the child stopped (exit code {child.poll()})"
            acknowledged.append(int(line))
        time.sleep(rng.uniform(0, 0.005))
        child.send_signal(signal.SIGKILL)
        acknowledged += [int(line) for line in child.stdout.read().split()]  # printed before the kill
    finally:
        child.kill()
        child.wait(timeout=10)
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    return acknowledged


def test_killing_the_process_in_the_middle_of_a_command_loses_nothing_acknowledged(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    rng = random.Random(20240607)
    acknowledged: list[int] = []
    for _ in range(3):
        acknowledged += run_and_kill(db, rng)
        live = open_live(db)  # the session opens after the crash …
        ids = [e.id for e in command_entries(live.records)]
        assert set(acknowledged) <= set(ids)  # … with every acknowledged command (law 7)
        assert ids == list(range(1, len(ids) + 1))  # … and no half-written one before them
        assert load_state(SqliteStore(db), "table") == live.state
        assert verify(live.records).ok
    live.execute(Ruling(note="after the crashes"))
    assert open_live(db).state == live.state
