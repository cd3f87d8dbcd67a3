"""Golden replays: the logs in `replays/` and how they were made.

`python -m tests.golden --force` rewrites them (after a deliberate rules change, reviewed in the diff);
`tests/test_replays.py` checks every file folds to its recorded state, re-decides command by
command, and — for simulated fights — re-simulates byte for byte.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path
from typing import Any

import msgspec

from engine.commands import AddCombatant, Attack, BeginFight, Declare, Ruling, StartEncounter
from engine.commands.base import CommandBase
from engine.commands.combat import Declaration
from engine.dice.source import derive_seed
from engine.errors import EngineError
from engine.safefile import write_file
from engine.scenario.scenario import load_scenario
from engine.session.encoding import stored_log
from engine.session.history import effective_fold
from engine.session.live import LiveEncounter, stored_events
from engine.simulate.fight import prepare, run_fight
from engine.store.jsonl import JsonlStore, log_lines
from engine.store.memory import MemoryStore

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"


class Simulated(msgspec.Struct, frozen=True):
    """A fight of a batch: `ua fight SCENARIO --seed SEED --index INDEX --save FILE`."""

    file: str
    scenario: str
    seed: int
    index: int


SIMULATED = (
    Simulated("knife-vs-22.jsonl", "scenarios/knife-vs-22.toml", 1, 0),
    Simulated("knife-duel.jsonl", "scenarios/knife-duel.toml", 2, 0),
    Simulated("bar-brawl.jsonl", "scenarios/bar-brawl.toml", 3, 1),
    Simulated("gunfight.jsonl", "scenarios/gunfight.toml", 4, 0),
    Simulated("ambush.jsonl", "scenarios/ambush.toml", 5, 0),
    Simulated("the-thing-in-the-cellar.jsonl", "scenarios/the-thing-in-the-cellar.toml", 6, 2),
    # ua3 (U-3…U-25): a brawl with a grapple, and a cellar where the helpless are finished
    Simulated("ua3/back-alley-brawl.jsonl", "scenarios/ua3/back-alley-brawl.toml", 7, 2),
    Simulated("ua3/cellar-execution.jsonl", "scenarios/ua3/cellar-execution.toml", 8, 0),
)
SESSION_FILE = "session-undo-amend.jsonl"
#: A ua3 session at the table (stress checks, coercion, the gridiron, undo, redo, amend).
UA3_SESSION_FILE = "ua3/the-hollow-church.jsonl"
TRACE = False


def simulated_log(item: Simulated) -> bytes:
    prep = prepare(load_scenario(ROOT / item.scenario))
    run = run_fight(prep, derive_seed(item.seed, item.index), keep_log=True)
    return b"".join(log_lines(stored_log("fight", run.events, seed=run.seed)))


def session_log() -> bytes:
    """A GM's session at the table: attacks with table dice, an undo, a redo, an amend."""
    loaded = load_scenario(ROOT / "scenarios/knife-vs-22.toml")
    store = MemoryStore()
    live = LiveEncounter(store, "session")
    ids = (f"table-{n}" for n in itertools.count(1))  # the GM's commands, named in order
    start = StartEncounter(title="Knife against a .22, at the table", seed=11, settings=loaded.settings)
    live.execute(start, command_id=next(ids))
    for f in loaded.fighters:
        joins = AddCombatant(id=f.id, side=f.side, sheet=f.sheet, weapons=f.arsenal, in_hand=f.in_hand)
        live.execute(joins, command_id=next(ids))
    live.execute(BeginFight(), command_id=next(ids))
    live.execute(Declare(declarations=(Declaration(id="Rosa", focus_target="Vic", focus=10),)), command_id=next(ids))
    shot = live.execute(Attack(actor="Vic", target="Rosa", dice=(4, 7)), command_id=next(ids))[0].command
    live.execute(Attack(actor="Rosa", target="Vic", dice=(3, 3, 6)), command_id=next(ids))
    live.execute(Ruling(note="Vic's shot grazed Rosa's ribs", about="Rosa"), command_id=next(ids))
    live.undo(command_id=next(ids))
    live.redo(command_id=next(ids))
    corrected = Attack(actor="Vic", target="Rosa", dice=(5, 9))
    live.amend(shot, corrected, note="the roll was 59, not 47", command_id=next(ids))
    stored = (msgspec.structs.replace(e, recorded_at=0.0) for e in store.read("session"))
    return b"".join(log_lines(stored))


def ua3_session_log() -> bytes:
    """A GM's ua3 session at the table (`scenarios/ua3/the-hollow-church.toml`): stress checks
    (U-23) by gauge and by the seed's sample (U-25), a coercion refused (U-15), a conflict on the
    gridiron (U-16), an obsession's flip-flop (C-9), a passion spent (U-21), an undo, a redo and
    an amend."""
    from engine.commands import ua3 as cmd
    from engine.scenario.ua3_scenario import load_ua3_scenario

    loaded = load_ua3_scenario(ROOT / "scenarios/ua3/the-hollow-church.toml")
    store = MemoryStore()
    live = LiveEncounter(store, "session")
    ids = (f"table-{n}" for n in itertools.count(1))
    start = StartEncounter(ruleset="ua3", title="The Hollow Church, at the table", seed=12, settings=loaded.settings)
    live.execute(start, command_id=next(ids))
    for f in loaded.fighters:
        live.execute(f.joins(), command_id=next(ids))
    steps: list[CommandBase] = [
        cmd.StressCheck(actor="Marge", gauge="violence", rank=3, source="the gunman", reaction="flee", dice=(6, 1)),
        cmd.StressCheck(actor="Dana", sample="violence: kill someone in a fight", dice=(2, 2)),
        cmd.StressCheck(
            actor="Tommy",
            sample="unnatural: see a creature or machine that cannot logically exist",
            source="the thing in the font",
            dice=(3, 0),
        ),
        cmd.Coerce(
            coercer="Agnes",
            target="Marge",
            gauge="unnatural",
            threat="the Well will take your son",
            coercer_passions=("noble",),
            dice=(1, 1),
        ),
        cmd.AnswerCoercion(target="Marge", answer="refuse", dice=(9, 0)),
        cmd.StartConflict(
            sides=(
                cmd.SideSpec(actor="Dana", roll="Connect", stake="Marge goes home"),
                cmd.SideSpec(actor="Agnes", roll="Prophet of the Hollow", stake="Marge stays"),
            ),
            about="who Marge listens to",
            compressed=True,
        ),
        cmd.GridironRoll(dice=(3, 2)),
        cmd.GridironRoll(dice=(5, 5)),
        cmd.GridironRoll(dice=(8, 8)),
        cmd.GridironRoll(dice=(2, 0)),
        cmd.AbilityCheck(actor="Tommy", name="Street fighter", purpose="stare down the ushers", dice=(7, 2)),
        cmd.AbilityCheck(actor="Dana", name="Notice", purpose="spot the back door", dice=(8, 8)),
        cmd.SpendPassion(actor="Dana", passion="noble", dice=(1, 9)),
        cmd.ThreatGone(source="Agnes"),
    ]
    numbers = []
    for step in steps:
        events = live.execute(step, command_id=next(ids))
        numbers.append(events[0].command)
        if TRACE:
            print("\n".join(e.explain() for e in events[1:]))
    live.execute(Ruling(note="the organ starts on its own", about="Agnes"), command_id=next(ids))
    live.undo(command_id=next(ids))
    live.redo(command_id=next(ids))
    corrected = cmd.StressCheck(
        actor="Marge", gauge="violence", rank=3, source="the gunman", reaction="flee", dice=(4, 1)
    )
    live.amend(numbers[0], corrected, note="Marge rolled 41, not 61", command_id=next(ids))
    stored = (msgspec.structs.replace(e, recorded_at=0.0) for e in store.read("session"))
    return b"".join(log_lines(stored))


def final_state(path: Path) -> Any:
    store = JsonlStore(path)
    (stream,) = store.streams()
    return effective_fold(list(stored_events(store, stream)))


def state_file(path: Path) -> Path:
    return path.with_suffix(".state.json")


def write_all(*, force: bool) -> None:
    """Rewrite every golden log and its state; existing files only with `force`."""
    REPLAYS.mkdir(exist_ok=True)
    for item in SIMULATED:
        (REPLAYS / item.file).parent.mkdir(exist_ok=True)
        write_file(REPLAYS / item.file, simulated_log(item), force=force)
    write_file(REPLAYS / SESSION_FILE, session_log(), force=force)
    (REPLAYS / UA3_SESSION_FILE).parent.mkdir(exist_ok=True)
    write_file(REPLAYS / UA3_SESSION_FILE, ua3_session_log(), force=force)
    for path in sorted([*REPLAYS.glob("*.jsonl"), *REPLAYS.glob("ua3/*.jsonl")]):
        state = final_state(path)
        write_file(state_file(path), msgspec.json.format(msgspec.json.encode(state), indent=2) + b"\n", force=force)
        print(f"wrote {path.relative_to(ROOT)} and its state")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description="Rewrite the golden replays.")
    parser.add_argument("--force", action="store_true", help="replace the existing files (they always exist)")
    args = parser.parse_args(argv)
    try:
        write_all(force=args.force)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
