"""The executor seam: one batch, the same tallies in this process and on the local pool for any
chunk size; results taken in span order whatever order the tasks finish in; a stopped batch is
exactly the batch of its first fights; Ctrl-C never cuts a chunk fought in this process; the
default install never imports Dask, and asking for it without the extra is one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.errors import InvalidInput
from engine.scenario.scenario import load_scenario
from engine.simulate.batch import run_batch
from engine.simulate.compare import Variant, run_compare
from engine.simulate.executors import BackendError, InProcess, in_order, local_executor, open_executor, run_job
from engine.simulate.interrupts import Interrupts
from engine.simulate.pool import LocalPool, usable_cpus
from engine.simulate.spans import Spans

ROOT = Path(__file__).resolve().parents[1]
KNIFE = load_scenario(ROOT / "scenarios" / "knife-vs-22.toml")
BRAWL = load_scenario(ROOT / "scenarios" / "bar-brawl.toml")


@pytest.mark.parametrize("chunk", [1, 97, 1000, None])
def test_a_batch_is_the_same_in_this_process_and_on_the_pool_for_any_chunk_size(chunk: int | None) -> None:
    _, alone, picks_alone = run_batch(BRAWL, 1200, 5, keep=3, executor=InProcess(), chunk_size=1200)
    _, pooled, picks_pooled = run_batch(BRAWL, 1200, 5, keep=3, executor=LocalPool(2), chunk_size=chunk)
    assert pooled == alone
    assert [picks_pooled.indices(w) for w in ("best", "worst", "random")] == [
        picks_alone.indices(w) for w in ("best", "worst", "random")
    ]


def test_a_comparison_is_the_same_in_this_process_and_on_the_pool() -> None:
    arms = [Variant(name="a", loaded=KNIFE), Variant(name="b", loaded=BRAWL)]
    alone = run_compare(arms, 600, 3, executor=InProcess(), chunk_size=600)
    assert run_compare(arms, 600, 3, executor=LocalPool(2), chunk_size=50) == alone


class _Done:
    """A finished task whose result is ready."""

    def __init__(self, value: Any, *, finished: bool = True) -> None:
        self.value, self.finished = value, finished

    def result(self) -> Any:
        if not self.finished:
            raise KeyboardInterrupt  # waiting on it is where Ctrl-C lands
        return self.value


def test_results_are_taken_in_span_order_with_a_bounded_window() -> None:
    submitted: list[int] = []
    taken: list[tuple[Any, int]] = []
    most_in_flight = 0

    def submit(span: tuple[int, int]) -> _Done:
        nonlocal most_in_flight
        submitted.append(span[0])
        most_in_flight = max(most_in_flight, len(submitted) - len(taken))
        return _Done(f"span {span[0]}")

    in_order(submit, Spans(n=100, size=10), 3, lambda r, stop: taken.append((r, stop)), finished=bool, stop=list)
    assert taken == [(f"span {i}", i + 10) for i in range(0, 100, 10)]
    assert most_in_flight == 3


def test_ctrl_c_takes_only_the_finished_spans_before_the_first_unfinished_and_stops_the_rest() -> None:
    state = {0: True, 10: True, 20: False, 30: True}  # span 30 finished early, after 20 did not
    handles = {first: _Done(first, finished=done) for first, done in state.items()}
    taken: list[int] = []
    stopped: list[list[Any]] = []
    with pytest.raises(KeyboardInterrupt):
        in_order(
            lambda span: handles[span[0]],
            Spans(n=40, size=10),
            10,
            lambda r, stop: taken.append(r),
            finished=lambda h: h.finished,
            stop=stopped.append,
        )
    assert taken == [0, 10]  # never 30: a stopped batch is its first fights
    assert [[h.value for h in handles_left] for handles_left in stopped] == [[20, 30]]


def test_a_failing_task_stops_the_tasks_left_and_its_error_goes_on() -> None:
    class Broken(_Done):
        def result(self) -> Any:
            raise ValueError("a bug in a task")

    stopped: list[list[Any]] = []
    with pytest.raises(ValueError, match="a bug in a task"):
        in_order(lambda span: Broken(0), Spans(n=40, size=10), 2, lambda r, s: None, finished=bool, stop=stopped.append)
    assert stopped


@pytest.mark.parametrize("executor", [InProcess(), LocalPool(2)], ids=["in-process", "pool"])
def test_a_batch_stopped_by_ctrl_c_is_exactly_the_batch_of_its_first_fights(executor: Any) -> None:
    def stop_after_three_chunks(done: int) -> None:
        if done >= 3 * 250:
            raise KeyboardInterrupt

    _, stopped, _ = run_batch(
        KNIFE, 5_000, 9, executor=executor, chunk_size=250, interruptible=True, progress=stop_after_three_chunks
    )
    assert stopped.fights % 250 == 0 and 750 <= stopped.fights < 5_000
    assert run_batch(KNIFE, stopped.fights, 9)[1] == stopped


class _SignalsItself:
    """A job whose second chunk gets a real SIGINT half-way through, and goes on."""

    engine = "any"

    def open(self) -> Any:
        def run(first: int, stop: int) -> tuple[int, int]:
            if first == 10:
                os.kill(os.getpid(), signal.SIGINT)
            return first, stop

        return run


def test_ctrl_c_in_a_chunk_fought_in_this_process_waits_for_the_chunk_to_finish() -> None:
    taken: list[tuple[int, int]] = []
    stopped = run_job(_SignalsItself(), 50, taken.append, executor=InProcess(), interruptible=True, chunk_size=10)
    assert stopped is True
    assert taken == [(0, 10), (10, 20)]  # the interrupted chunk finished and was kept; no third


def test_interrupts_wait_for_a_deferred_block() -> None:
    interrupts = Interrupts()
    with pytest.raises(KeyboardInterrupt), interrupts.deferred():
        interrupts(signal.SIGINT, None)
        assert interrupts.pending  # still inside: nothing raised yet
    assert not interrupts.pending


def test_one_worker_runs_in_this_process_and_more_on_the_pool() -> None:
    assert isinstance(local_executor(1), InProcess)
    pool = local_executor(3, oversubscribe=True)
    assert isinstance(pool, LocalPool) and pool.slots == 3
    assert local_executor(300).slots == min(300, usable_cpus())  # issue 26: at most a process a CPU


def test_a_scheduler_is_refused_for_the_local_backend() -> None:
    with pytest.raises(InvalidInput, match="--scheduler is for a Dask cluster"), open_executor(
        "local", workers=2, scheduler="tcp://127.0.0.1:8786"
    ):
        pass


def test_dask_without_the_extra_is_one_error_with_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(BackendError) as caught, open_executor("dask", workers=2):
        pass
    assert caught.value.message == "--backend dask needs Dask distributed, which is not installed"
    assert caught.value.hint.startswith("pip install -e '.[distributed]'")


def test_the_default_install_the_cli_and_the_api_never_import_dask(tmp_path: Path) -> None:
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(sorted({'dask', 'distributed'} & set(sys.modules)), file=sys.stderr))\n"
        "import engine.api\n"
        "from engine.cli.app import main\n"
        "main()\n"
    )
    args = ["simulate", str(ROOT / "scenarios" / "knife-vs-22.toml"), "-n", "300", "--workers", "2", "--json"]
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "[]"
