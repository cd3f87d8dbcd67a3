"""Long batches: a progress bar with the rate and the time left on stderr (when it is a
terminal), and an estimate before a batch that will take more than a minute."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text

from engine.cli.common import err_console

#: A batch expected to take longer than this (seconds) says so before it starts.
SAY_ESTIMATE_OVER = 60.0
#: Two workers do about this much more than one (fork, merging, the parent's share).
POOL_EFFICIENCY = 0.9


class FightsPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f} fights/s", style="progress.data.speed")


@contextmanager
def progress_bar(total: int, show: bool, what: str = "fights") -> Iterator[Callable[[int], None] | None]:
    """`advance(done)` for a rich bar on stderr, or None when not shown."""
    if not show:
        yield None
        return
    bar = Progress(
        TextColumn(what),
        BarColumn(),
        MofNCompleteColumn(),
        FightsPerSecond(),
        TimeRemainingColumn(),
        console=err_console.rich,
        transient=False,
    )
    with bar:
        task = bar.add_task(what, total=total)
        yield lambda done: bar.update(task, completed=done)


def duration(seconds: float) -> str:
    """`3 min 20 s`, `2 h 5 min`, `45 s`."""
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"


def say_estimate(fights: int, workers: int, seconds_per_fight: float) -> float:
    """Print the estimate when the batch will take more than a minute; return it (seconds)."""
    estimate = seconds_per_fight * fights / (workers * POOL_EFFICIENCY if workers > 1 else 1)
    if estimate > SAY_ESTIMATE_OVER:
        rate = fights / estimate
        err_console.print(
            f"estimate: about {duration(estimate)} for {fights:,} fights on {workers} "
            f"worker{'s' if workers > 1 else ''} (about {rate:,.0f} fights/s, from a short sample); "
            "Ctrl-C stops it and reports the fights finished",
            markup=False,
        )
    return estimate
