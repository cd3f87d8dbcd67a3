"""What runs on a worker: a packed job is opened once per worker thread and job, whatever the
number of tasks; a job from another engine is refused before its bytes are read; a long-lived
worker keeps only the newest jobs opened."""

from __future__ import annotations

import threading
from typing import Any

import msgspec
import pytest

from engine.simulate import tasks
from engine.simulate.identity import OtherEngine, engine_identity
from engine.simulate.tasks import KEEP_OPENED, Packed, pack, run_packed

OPENED: list[int] = []  # the jobs opened, in order


class Job(msgspec.Struct, frozen=True):
    """A job that counts its openings and answers with its span."""

    number: int
    engine: str = msgspec.field(default_factory=engine_identity)

    def open(self) -> Any:
        OPENED.append(self.number)
        return lambda first, stop: (self.number, first, stop)


def test_a_job_is_opened_once_for_all_its_tasks() -> None:
    OPENED.clear()
    packed = pack(Job(1))
    before = tasks.opens
    assert [run_packed(*packed, i, i + 10) for i in range(0, 50, 10)] == [(1, i, i + 10) for i in range(0, 50, 10)]
    assert OPENED == [1] and tasks.opens == before + 1


def test_each_worker_thread_opens_its_own() -> None:
    OPENED.clear()
    packed = pack(Job(2))
    run_packed(*packed, 0, 1)
    other = threading.Thread(target=run_packed, args=(*packed, 1, 2))
    other.start()
    other.join()
    assert OPENED == [2, 2]  # an opened job (its fights, their cache) is never shared by threads


def test_the_same_job_packs_to_the_same_key_and_another_to_another() -> None:
    assert pack(Job(3)).key == pack(Job(3)).key != pack(Job(4)).key


def test_a_job_from_another_engine_is_refused_before_its_bytes_are_read() -> None:
    packed = Packed(engine="ua-engine 0.0.9, sources 0000000000000000", key="k", blob=b"not a pickle at all")
    with pytest.raises(OtherEngine, match=r"made by ua-engine 0\.0\.9"):
        run_packed(*packed, 0, 10)


def test_a_worker_keeps_only_the_newest_jobs_opened() -> None:
    OPENED.clear()
    for number in range(10, 10 + KEEP_OPENED + 1):
        run_packed(*pack(Job(number)), 0, 1)
    run_packed(*pack(Job(10 + KEEP_OPENED)), 0, 1)  # the newest: still opened
    run_packed(*pack(Job(10)), 0, 1)  # the oldest: opened again
    opened_again = [*range(10, 10 + KEEP_OPENED + 1), 10]
    assert opened_again == OPENED
