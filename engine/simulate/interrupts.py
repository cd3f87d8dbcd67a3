"""Ctrl-C during a batch: a KeyboardInterrupt only where the batch can stop cleanly.

Two moments must never be cut: absorbing a chunk's result (a half-merged tally would be wrong),
and fighting a chunk in this process (the compiled rules cannot unwind an exception raised into
them by a signal handler: the process aborts). During either, Ctrl-C is noted and raised as
soon as the moment is over. Signals reach the main thread only; elsewhere nothing is installed.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Interrupts:
    """The SIGINT handler of a batch: KeyboardInterrupt, except inside `deferred()`."""

    def __init__(self) -> None:
        self.deferring = False
        self.pending = False

    def __call__(self, signum: int, frame: object) -> None:
        if self.deferring:
            self.pending = True
        else:
            raise KeyboardInterrupt

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """Ctrl-C waits until the block is over, then raises KeyboardInterrupt."""
        if self.deferring:  # nested: the outer block raises
            yield
            return
        self.deferring = True
        try:
            yield
        finally:
            self.deferring = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def handling(interrupts: Interrupts) -> Iterator[Interrupts]:
    """`interrupts` handles SIGINT for the block (on the main thread)."""
    if not _on_main_thread():
        yield interrupts
        return
    previous = signal.signal(signal.SIGINT, interrupts)
    try:
        yield interrupts
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def ignoring() -> Iterator[None]:
    """SIGINT is ignored for the block: a second Ctrl-C must not cut a clean-up short. Processes
    started inside it inherit the ignoring (a terminal's Ctrl-C reaches the whole group)."""
    if not _on_main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
