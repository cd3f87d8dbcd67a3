"""One scripted fight: setup from a scenario, then tactics → rules → sink until it ends.

The fight runs on one working table with the ruleset's own rules: with `keep_log` a recording
sink keeps every event as a session would write it (a replay, `ua fight`); without, a counting
sink applies and counts the same facts and keeps none (a batch). Both are the same rules code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from engine.commands.base import CommandBase
from engine.dice.source import RecordingDice, SeededDice
from engine.errors import Refused
from engine.events.base import EventBase
from engine.events.commands import CommandRecorded
from engine.rules.decide import decide_and_fold
from engine.rules.registry import find_ruleset
from engine.rules.ruleset import Ruleset, Table
from engine.rules.script import Script
from engine.scenario.scenario import LoadedScenario
from engine.simulate.openings import Opening, Openings

#: A guard against a scenario whose tactics never act; the round limit ends every fight first.
STEPS_PER_ROUND: Final = 64


class RefusalChangedTable(Exception):
    """A rule refused a command after applying some of its facts: a bug in that rule (a refused
    command must change nothing), caught here rather than folded into a wrong fight."""


@dataclass(frozen=True)
class Prepared:
    """What every fight of a batch shares: the scenario, the setup events, the folded setup (also
    as a working table, copied for each fight), the tactics and what happens before the fight."""

    scenario: LoadedScenario
    setup: tuple[EventBase, ...]
    state: Any
    profiles: dict[str, Any]
    #: the commands before the fight begins (scenario triggers)
    triggers: tuple[CommandBase, ...]
    ruleset: Ruleset[Any, Any]
    table: Any
    #: what each combatant brings to a fight (what outcomes count this fight's harm from)
    baseline: dict[str, Any]

    @property
    def script(self) -> Script:
        return self.ruleset.script


def prepare(loaded: LoadedScenario, start: Any = None) -> Prepared:
    """Decide the setup once (start, join every combatant) — it draws no dice. With `start`, fights
    go on from that state instead (a what-if from the middle of a session)."""
    script = find_ruleset(loaded.scenario.ruleset).script
    state = find_ruleset(loaded.scenario.ruleset).fold(())  # its empty encounter
    setup: list[EventBase] = []
    no_dice = SeededDice(0)
    for command in script.setup(loaded):
        events, state = decide_and_fold(state, command, no_dice)
        setup.extend(events)
    if start is not None:
        state = start
    ruleset = find_ruleset(state.ruleset)
    return Prepared(
        scenario=loaded,
        setup=tuple(setup),
        state=state,
        profiles=script.profiles(loaded),
        triggers=script.opening(loaded),
        ruleset=ruleset,
        table=ruleset.thaw(state),
        baseline=script.baseline(state),
    )


@dataclass(init=False)
class FightRun:
    """A finished fight: its working table (frozen into `state` on demand), its log (when kept)
    and what the tallies need."""

    seed: int
    table: Table
    events: list[EventBase] = field(default_factory=list)
    event_count: int = 0
    refusals: int = 0
    #: The `Refused` message of each refused command, in order (a scenario or rules defect).
    refusal_reasons: list[str] = field(default_factory=list)
    commands: int = 0
    dealt: dict[str, int] = field(default_factory=dict)
    faces_drawn: int = 0
    choices_drawn: int = 0

    def __init__(self, seed: int, table: Table) -> None:
        # written out, not generated: a batch makes one per fight (a compiled build runs this)
        self.seed = seed
        self.table = table
        self.events = []
        self.event_count = 0
        self.refusals = 0
        self.refusal_reasons = []
        self.commands = 0
        self.dealt = {}
        self.faces_drawn = 0
        self.choices_drawn = 0

    @property
    def state(self) -> Any:
        return self.table.freeze()


class _Fight:
    """The fight loop of `run_fight`: each command decided on the table, its facts to the sink."""

    def __init__(self, prep: Prepared, seed: int, keep_log: bool, record: bool, opening: Opening | None) -> None:
        self.prep = prep
        self.dice = SeededDice(seed, opening.faces if opening is not None else 0)
        table = (prep.table if opening is None else opening.table).clone()
        table.seed = seed
        self.run = FightRun(seed=seed, table=table)
        self.keep_log = keep_log
        self.sink = prep.ruleset.sink(table, record=keep_log or record)
        self.opened = opening is not None
        if opening is not None:
            self.sink.count = opening.events
        if keep_log:
            started = msgspec.structs.replace(prep.setup[0], seed=seed)
            self.run.events = [started, *prep.setup[1:]]

    def step(self, command: CommandBase) -> None:
        """Decide one command; a refused one draws nothing and changes nothing (as in a session)."""
        sink, dice = self.sink, self.dice
        start, count = dice.position, sink.count
        mark = len(sink.events) if sink.events is not None else 0
        recording = RecordingDice(dice) if self.keep_log else None
        try:
            self.prep.ruleset.handle(sink, command, recording or dice)
        except Refused:
            dice.position = start
            if sink.count != count:
                raise RefusalChangedTable(f"{type(command).__name__} was refused after changing the table") from None
            raise
        if recording is not None:
            self._record(command, recording, start, mark)

    def _record(self, command: CommandBase, recording: RecordingDice, start: int, mark: int) -> None:
        """As a live session writes it: the command's record first, then its events, all marked
        with its number (so the log re-decides)."""
        run, sink = self.run, self.sink
        run.commands += 1
        record = CommandRecorded(
            id=run.commands,
            issued=command,
            dice_used=tuple(recording.faces),
            seeded_from=start,
            seeded_count=self.dice.position - start,
            command=run.commands,
        )
        events = sink.recorded
        decided = [msgspec.structs.replace(e, command=record.id) for e in events[mark:]]
        sink.emit(record)
        events[mark:] = [record, *decided]

    def opening(self) -> bool:
        """Scenario madness triggers, then initiative (I2-1…I2-4); False when the fight cannot
        begin. A what-if run starts mid-fight instead (`ua session fork`)."""
        if self.opened or self.run.table.phase != "setup":
            return True
        for trigger in self.prep.triggers:
            try:
                self.step(trigger)
            except Refused as exc:
                self.refused(exc)
        try:
            self.step(self.prep.script.begin())
        except Refused as exc:
            self.refused(exc)
            return False
        return True

    def refused(self, exc: Refused) -> None:
        """A scripted command the rules refused: counted, and why (a scenario or rules defect)."""
        self.run.refusals += 1
        self.run.refusal_reasons.append(exc.message)

    def can_keep_opening(self) -> bool:
        """An opening is kept when it is a pure function of its faces: no AI choice, and no
        refused command (whose faces would be read again), and nothing dealt yet."""
        run = self.run
        return not self.dice.ai_position and not run.refusals and not any(r.dealt for r in run.table.rows)

    def rounds(self) -> None:
        table, profiles, dice, script = self.run.table, self.prep.profiles, self.dice, self.prep.script
        limit = STEPS_PER_ROUND * (script.max_rounds(table) + 1) * max(1, len(table.rows))
        for _ in range(limit):
            phase = table.phase
            if phase == "ended":
                break
            command = script.next_command(table, profiles, dice)
            try:
                self.step(command)
            except Refused as exc:
                self.refused(exc)
                self.step(script.instead(table, phase))

    def finished(self) -> FightRun:
        run = self.run
        run.dealt = {r.id: r.dealt for r in run.table.rows}
        run.event_count = len(self.prep.setup) + self.sink.count
        if self.keep_log:
            run.events.extend(self.sink.recorded)
        run.faces_drawn = self.dice.position
        run.choices_drawn = self.dice.ai_position
        return run


def run_fight(
    prep: Prepared,
    seed: int,
    *,
    keep_log: bool = False,
    record: bool = False,
    opening_only: bool = False,
    openings: Openings | None = None,
) -> FightRun:
    """Fight one fight with the dice of `seed`; tactics draw only from the AI stream.

    `keep_log` keeps the whole log as a session writes it (command records included); `record`
    builds every event without keeping a log (the reference check of a batch); neither: the
    facts are applied and counted only, and the opening may come from `openings` (a batch's
    cache; each one fought is kept there). `opening_only` stops once the fight has begun
    (scenario madness triggers, initiative)."""
    counting = not (keep_log or record)
    cached = openings.find(seed) if openings is not None and counting else None
    fight = _Fight(prep, seed, keep_log, record, cached)
    began = fight.opening()
    if openings is not None and counting and cached is None and began and fight.can_keep_opening():
        openings.keep(seed, Opening(fight.run.table.clone(), fight.dice.position, fight.sink.count))
    if began and not opening_only:
        fight.rounds()
    return fight.finished()


