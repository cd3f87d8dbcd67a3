"""`LiveEncounter.atomic`: the commands run inside one block are decided one after another on a
working state and stored in one append at its end, or not at all (issue 26) — on every store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.commands import RollCheck, Ruling, StartEncounter
from engine.dice.checks import CheckSpec
from engine.errors import ConcurrencyConflict, Refused
from engine.events.commands import CommandRecorded
from engine.session.live import LiveEncounter, load_state
from engine.store.base import EventStore
from engine.store.jsonl import JsonlStore
from engine.store.memory import MemoryStore
from engine.store.sqlite import SqliteStore

CHECK = RollCheck(spec=CheckSpec(kind="major", rating=45))
#: Events of the start every test stores first.
START = 2
STORES: dict[str, Callable[[Path], EventStore]] = {
    "memory": lambda folder: MemoryStore(),
    "sqlite": lambda folder: SqliteStore(folder / "s.sqlite"),
    "jsonl": lambda folder: JsonlStore(folder / "s.jsonl"),
}


@pytest.fixture(params=list(STORES))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> EventStore:
    made: EventStore = STORES[request.param](tmp_path)
    LiveEncounter(made, "s").execute(StartEncounter(seed=3), command_id="start")
    assert made.version("s") == START
    return made


def cursors(session: LiveEncounter) -> tuple[object, ...]:
    return session.state, session.version, session.next_id, session.dice_position, len(session.records)


def test_the_commands_of_a_block_are_one_append_each_seeing_the_one_before(store: EventStore) -> None:
    session = LiveEncounter(store, "s")
    appends: list[int] = []
    append = store.append

    def counted(*args: object) -> int:
        appends.append(1)
        return append(*args)  # type: ignore[arg-type]

    store.append = counted  # type: ignore[method-assign]
    with session.atomic():
        a = session.execute(CHECK, command_id="a")
        b = session.execute(CHECK, command_id="b")
        assert store.version("s") == START and session.version == START + len(a) + len(b)  # held, not stored
    assert len(appends) == 1 and store.version("s") == session.version
    assert [e.command_id for e in store.read("s")][START:] == ["a"] * len(a) + ["b"] * len(b)
    assert load_state(store, "s") == session.state and session.next_id == 4
    first, second = a[0], b[0]
    assert isinstance(first, CommandRecorded) and isinstance(second, CommandRecorded)
    assert (first.id, second.id) == (2, 3) and second.seeded_from == first.seeded_from + first.seeded_count


def test_a_block_that_fails_stores_nothing_and_leaves_the_session_as_it_was(store: EventStore) -> None:
    session = LiveEncounter(store, "s")
    session.execute(CHECK)
    before, stored = cursors(session), list(store.read("s"))
    with pytest.raises(Refused), session.atomic():
        session.execute(CHECK)
        session.execute(Ruling(note="the lights go out"))
        raise Refused("the GM takes it back")
    assert cursors(session) == before and list(store.read("s")) == stored
    assert session.preview(CHECK) == LiveEncounter(store, "s").preview(CHECK)  # the dice go on as the log says


def test_a_failed_step_inside_a_block_undoes_only_itself(store: EventStore) -> None:
    session = LiveEncounter(store, "s")
    with session.atomic():
        kept = session.execute(CHECK, command_id="kept")
        with pytest.raises(Refused), session.atomic():
            session.execute(Ruling(note="dropped"), command_id="dropped")
            raise Refused("not this one")
        after = session.execute(CHECK, command_id="after")
    assert [e.command_id for e in store.read("s")][START:] == ["kept"] * len(kept) + ["after"] * len(after)
    assert store.read_command("s", "dropped") == []
    assert load_state(store, "s") == session.state


def test_a_retry_inside_a_block_answers_what_the_block_holds(store: EventStore) -> None:
    session = LiveEncounter(store, "s")
    with session.atomic():
        first = session.execute(CHECK, command_id="once")
        assert session.execute(CHECK, command_id="once") == first
    assert len(store.read_command("s", "once")) == len(first) and store.version("s") == START + len(first)


def test_a_race_at_the_end_of_a_block_stores_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    LiveEncounter(SqliteStore(path), "s").execute(StartEncounter(seed=3))
    session = LiveEncounter(SqliteStore(path), "s")
    before = cursors(session)
    with pytest.raises(ConcurrencyConflict, match=f"not {START}"), session.atomic():
        session.execute(CHECK)
        theirs = LiveEncounter(SqliteStore(path), "s").execute(Ruling(note="another terminal"))
    assert cursors(session) == before and SqliteStore(path).version("s") == START + len(theirs)


def test_a_session_opened_from_its_snapshot_reads_what_a_block_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long session opens from its snapshot without reading its log; inside a block its records
    (read on first use) are the stored ones and then the held ones, and no snapshot is saved of
    events not stored yet."""
    monkeypatch.setattr(LiveEncounter, "snapshot_every", 4)
    path = tmp_path / "s.sqlite"
    first = LiveEncounter(SqliteStore(path), "s")
    first.execute(StartEncounter(seed=3))
    for _ in range(3):
        first.execute(CHECK)
    session = LiveEncounter(SqliteStore(path), "s")
    with pytest.raises(Refused), session.atomic():
        held = session.execute(CHECK)
        assert session.records[-len(held) :] == list(enumerate(held, start=first.version + 1))
        assert session.state_at(session.version) == session.state
        raise Refused("taken back")
    assert session.records == first.records and SqliteStore(path).version("s") == first.version
    with session.atomic():
        for _ in range(3):
            session.execute(CHECK)
    assert LiveEncounter(SqliteStore(path), "s").state == session.state == load_state(SqliteStore(path), "s")
