"""`ua session npc`: the scripted combatants of a session act by their tactics — the scenario the
session stores (its start command's document) names them — until a player must act, the fight
ends, or `--steps` commands have run. Each is an ordinary command of the log (undo, amend and
audit see it); the tactics' own choices come from the AI stream (seeded by the session's seed
and the log's version), never from the dice. Works for any ruleset with a script."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from engine.cli.common import JsonOption, console, emit_json
from engine.cli.session import DEFAULT_DB, CommandIdOpt, Db, Name, _changed, app, open_session
from engine.cli.views import events_json, render_events
from engine.dice.source import SeededDice
from engine.errors import ConcurrencyConflict, EngineError, InvalidInput
from engine.rules.decide import decide
from engine.rules.registry import ruleset_of
from engine.session.scenario import stored_scenario
from engine.store.base import new_command_id
from engine.text import shown


@app.command("npc")
def npc(
    name: Name,
    everyone: Annotated[
        bool, typer.Option("--all", help="Script the players' side too (default: only the other sides act).")
    ] = False,
    steps: Annotated[int, typer.Option("--steps", min=1, max=10_000, help="At most this many commands.")] = 200,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Let the NPCs act by their tactics: begin the fight, their declarations (the players
    declare after them), their turns, their answers to coercion — until a player must act."""
    session = open_session(db, name)
    loaded = stored_scenario(session.records, where=f"session {name}")
    script = ruleset_of(session.state).script
    profiles = script.profiles(loaded)
    players = set() if everyone else {f.id for f in loaded.fighters if f.side == loaded.players}
    scripted = {k: v for k, v in profiles.items() if k not in players}
    base = command_id or new_command_id()
    done: list[dict[str, Any]] = []
    for step in range(1, steps + 1):
        state = session.state
        ruleset = ruleset_of(state)
        table = ruleset.thaw(state)
        if table.phase == "ended":
            break
        if table.phase == "setup":
            command = script.begin()
        elif table.phase in ("acting", "ambush") and table.current not in scripted:
            break  # a player's turn
        else:
            try:
                command = script.next_command(table, scripted, SeededDice(session.seed, 0, state.version))
            except AssertionError:
                break  # nobody's turn to script
        try:  # a command that would change nothing is not written (the players' declarations come next)
            if not decide(state, command, SeededDice(0)):
                break
        except EngineError:
            pass  # the session's own decision below says why
        try:
            events = session.execute(command, command_id=f"{base}.{step}")
        except ConcurrencyConflict:
            raise _changed(name) from None
        except EngineError as exc:
            raise InvalidInput(
                f"the tactics chose {type(command).__name__}, which the rules refuse: {exc}",
                where=f"session {name}",
                hint="act for that combatant yourself (ua session play), or amend the scenario's tactics",
            ) from None
        if json:
            done.extend(events_json(events, session.result_at))
        else:
            render_events(events, session.result_at)
    state = session.state
    now = ruleset_of(state).acting_now(state)
    if json:
        emit_json({"session": name, "events": done, "turn": now, "phase": ruleset_of(state).thaw(state).phase})
    else:
        phase = ruleset_of(state).thaw(state).phase
        console.print(shown(f"now: {now + ' acts' if now else phase}"), markup=False)
