"""One scripted fight: setup from a scenario, then tactics → decide → fold until it ends."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

import engine.rules.ua2  # noqa: F401  (registers the rules)
from engine.commands import BeginFight, MadnessCheck, StartEncounter
from engine.commands.base import CommandBase
from engine.commands.combat import Declare, DoNothing
from engine.dice.source import RecordingDice, SeededDice
from engine.errors import Refused
from engine.events.base import EventBase
from engine.events.combat import AttackResolved, WoundsInflicted
from engine.events.commands import CommandRecorded
from engine.reducers.fold import apply
from engine.rules.decide import decide_and_fold
from engine.scenario.scenario import LoadedScenario
from engine.state.encounter import Encounter
from engine.tactics import Profile, choose_command, declarations

#: A guard against a scenario whose tactics never act; the round limit ends every fight first.
STEPS_PER_ROUND = 64


@dataclass(frozen=True)
class Prepared:
    """What every fight of a batch shares: the scenario, the setup events, the folded setup."""

    scenario: LoadedScenario
    setup: tuple[EventBase, ...]
    state: Encounter
    profiles: dict[str, Profile]
    triggers: tuple[MadnessCheck, ...]


def prepare(loaded: LoadedScenario, start: Encounter | None = None) -> Prepared:
    """Decide the setup once (start, join every combatant) — it draws no dice. With `start`, fights
    go on from that state instead (a what-if from the middle of a session)."""
    state = Encounter()
    setup: list[EventBase] = []
    no_dice = SeededDice(0)
    commands: list[CommandBase] = [
        StartEncounter(ruleset=loaded.scenario.ruleset, title=loaded.scenario.title, settings=loaded.settings)
    ]
    commands += [f.joins() for f in loaded.fighters]
    for command in commands:
        events, state = decide_and_fold(state, command, no_dice)
        setup.extend(events)
    profiles = {f.id: Profile(rules=f.rules, cherry=f.cherry, at_range=f.at_range) for f in loaded.fighters}
    triggers = []
    for t in loaded.scenario.triggers:
        for f in loaded.fighters:
            if t.who in ("all", f.side, f.id):
                cause = t.cause or f"{t.meter} {t.rank} (scenario trigger)"
                triggers.append(MadnessCheck(actor=f.id, meter=t.meter, rank=t.rank, source=t.source or cause))
    if start is not None:
        state = start
    return Prepared(scenario=loaded, setup=tuple(setup), state=state, profiles=profiles, triggers=tuple(triggers))


@dataclass
class FightRun:
    """A finished fight: its final state, its log (when kept) and what the tallies need."""

    seed: int
    state: Encounter
    events: list[EventBase] = field(default_factory=list)
    event_count: int = 0
    refusals: int = 0
    #: The `Refused` message of each refused command, in order (a scenario or rules defect).
    refusal_reasons: list[str] = field(default_factory=list)
    commands: int = 0
    dealt: dict[str, int] = field(default_factory=dict)
    faces_drawn: int = 0
    choices_drawn: int = 0


def run_fight(prep: Prepared, seed: int, *, keep_log: bool = False, opening_only: bool = False) -> FightRun:
    """Fight one fight with the dice of `seed`; tactics draw only from the AI stream.
    `opening_only` stops once the fight has begun (scenario madness triggers, initiative)."""
    dice = SeededDice(seed)
    started = prep.setup[0]
    state = msgspec.structs.replace(prep.state, seed=seed)
    run = FightRun(seed=seed, state=state, dealt={f.id: 0 for f in prep.scenario.fighters})
    if keep_log:
        run.events.append(msgspec.structs.replace(started, seed=seed))
        run.events.extend(prep.setup[1:])
    run.event_count = len(prep.setup)

    def refused(exc: Refused) -> None:
        run.refusals += 1
        run.refusal_reasons.append(exc.message)

    def step(command: CommandBase) -> None:
        nonlocal state
        start = dice.position
        try:
            events, after = recorded(command) if keep_log else decide_and_fold(state, command, dice)
        except Refused:
            dice.position = start  # a refused command draws nothing (as in a live session)
            raise
        actor = state.fight.current
        for e in events:
            if isinstance(e, AttackResolved) and e.hit is not None:
                run.dealt[e.attacker] = run.dealt.get(e.attacker, 0) + e.hit.amount
            elif isinstance(e, WoundsInflicted) and actor is not None and e.target != actor:
                run.dealt[actor] = run.dealt.get(actor, 0) + e.amount
        state = after
        run.event_count += len(events)
        if keep_log:
            run.events.extend(events)

    def recorded(command: CommandBase) -> tuple[list[EventBase], Encounter]:
        """The command's events after its record, as a live session writes them (so it re-decides),
        and the state after them."""
        start = dice.position
        recording = RecordingDice(dice)
        events, after = decide_and_fold(state, command, recording)
        run.commands += 1
        record = CommandRecorded(
            id=run.commands,
            issued=command,  # type: ignore[arg-type]
            dice_used=tuple(recording.faces),
            seeded_from=start,
            seeded_count=dice.position - start,
            command=run.commands,
        )
        return [record, *(msgspec.structs.replace(e, command=record.id) for e in events)], apply(after, record)

    if state.fight.phase == "setup":  # a what-if run starts mid-fight instead (`ua session fork`)
        for trigger in prep.triggers:
            try:
                step(trigger)
            except Refused as exc:
                refused(exc)
        try:
            step(BeginFight())
        except Refused as exc:
            refused(exc)
            return _finished(run, state, dice)
    if opening_only:
        return _finished(run, state, dice)
    limit = STEPS_PER_ROUND * (state.settings.max_rounds + 1) * max(1, len(state.combatants))
    for _ in range(limit):
        fight = state.fight
        if fight.phase == "ended":
            break
        if fight.phase == "declare":
            command: CommandBase = declarations(state, prep.profiles, dice)
        else:
            actor = fight.current
            assert actor is not None
            command = choose_command(state, actor, prep.profiles, dice)
        try:
            step(command)
        except Refused as exc:
            refused(exc)
            if fight.phase == "declare":
                step(Declare())  # nothing declared
            else:
                assert fight.current is not None
                step(DoNothing(actor=fight.current))
    return _finished(run, state, dice)


def _finished(run: FightRun, state: Encounter, dice: SeededDice) -> FightRun:
    run.state = state
    run.faces_drawn = dice.position
    run.choices_drawn = dice.ai_position
    return run
