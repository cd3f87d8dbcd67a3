"""The script of a ruleset whose fights cannot be scripted yet. Kept out of the compiled
`engine.rules.script` (mypyc cannot compile one method bound to many names)."""

from __future__ import annotations

from typing import Any


class Unscripted:
    """The script of a ruleset whose combatants cannot yet be scripted into fights: every part
    refuses with one clear line (`InvalidInput`), so batches and what-ifs of its scenarios stop
    before anything runs."""

    def __init__(self, ruleset: str, why: str) -> None:
        self.ruleset = ruleset
        self.why = why

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        from engine.errors import InvalidInput

        raise InvalidInput(
            f"{self.ruleset} scenarios cannot be fought as scripted fights: {self.why}",
            hint="play it as a session: ua session new NAME --scenario FILE",
        )

    setup = opening = begin = profiles = next_command = instead = baseline = ends = max_rounds = _refuse
