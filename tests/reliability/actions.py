"""User actions made of several commands (issue 26), and a refusal injected at any one of their
steps: the scenarios they run on, and a decision that runs out of dice when asked to."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from engine.errors import DiceError
from engine.session.live import LiveEncounter
from engine.store.base import EventStore
from engine.store.jsonl import log_lines

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
#: ua2, a shipped scenario with a madness trigger (M2-8) for each of the humans.
CELLAR = SCENARIOS / "the-thing-in-the-cellar.toml"
#: ua3, a shipped scenario; `ambush_with_triggers` adds a stress check for the police (U-25).
AMBUSH = SCENARIOS / "ua3" / "full-auto-ambush.toml"
TRIGGER = '\n[[triggers]]\ngauge = "violence"\nrank = 6\nwho = "police"\nsource = "the first burst"\n'
#: What a decision given too few dice says (`TableDice` with no fallback).
TOO_FEW = "not enough dice were given for this roll"


def ambush_with_triggers(folder: Path) -> Path:
    """The full-auto ambush with a Violence 6 stress check for each cop before the fight."""
    if not (folder / "characters").exists():
        shutil.copytree(AMBUSH.parent / "characters", folder / "characters")
    path = folder / "ambush.toml"
    path.write_text(AMBUSH.read_text() + TRIGGER)
    return path


class Decisions:
    """Counts the decisions (`LiveEncounter._decide`) made while installed; with `fail_at` N,
    the Nth is given too few dice (`DiceError`, as a person's dice that run out)."""

    def __init__(self, fail_at: int = 0) -> None:
        self.fail_at = fail_at
        self.made = 0

    @contextmanager
    def installed(self, monkeypatch: pytest.MonkeyPatch) -> Iterator[Decisions]:
        decide = LiveEncounter._decide

        def counted(session: LiveEncounter, *args: Any, **kwargs: Any) -> Any:
            self.made += 1
            if self.made == self.fail_at:
                raise DiceError(TOO_FEW, where="--dice", hint="give the faces of every roll")
            return decide(session, *args, **kwargs)

        with monkeypatch.context() as patch:
            patch.setattr(LiveEncounter, "_decide", counted)
            yield self


def decisions(monkeypatch: pytest.MonkeyPatch, action: Callable[[], object]) -> int:
    """How many decisions `action` makes (run once, nothing refused)."""
    with Decisions().installed(monkeypatch) as counted:
        action()
    return counted.made


def exported(store: EventStore, name: str) -> bytes:
    """The session's log as `ua session export` writes it."""
    return b"".join(log_lines(store.read(name)))


def facts(store: EventStore, name: str) -> list[tuple[str, bytes]]:
    """What the session's log says, without its metadata (command ids, times)."""
    return [(e.type, e.data) for e in store.read(name)]
