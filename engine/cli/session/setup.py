"""`ua session` commands that make, list, begin, export and import sessions."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, cast

import msgspec
import typer

from engine.cli.common import JsonOption, RecoverOpt, UncheckedOpt, console, emit_json, warn
from engine.cli.session.options import (
    DEFAULT_DB,
    Amend,
    CommandIdOpt,
    Db,
    Dice,
    DrawRest,
    Force,
    Full,
    Name,
    ask_dice,
    owned_dice,
    parse_dice,
    service,
)
from engine.cli.session.requests import answered
from engine.cli.session.run import act, show
from engine.cli.views import events_json, render_state
from engine.commands import AddCombatant, BeginFight, StartEncounter
from engine.commands.base import CommandBase
from engine.commands.combat import InitiativeChoice
from engine.errors import InvalidInput
from engine.rules.registry import available, ruleset_of
from engine.session.history import Record
from engine.session.seats import parse_players
from engine.session.service import Executed, SessionService
from engine.state.encounter import Reaction
from engine.state.fight import InitiativeMethod
from engine.state.ua3.sheet import Ua3Sheet
from engine.text import check_name, shown


def new(
    name: Name,
    scenario: Annotated[Path | None, typer.Option("--scenario", help="Set up from a scenario file.")] = None,
    sheet: Annotated[
        list[str] | None,
        typer.Option(
            "--sheet",
            help="ID:SIDE:PATH[:IN_HAND] — a combatant from a sheet (repeatable); for ua3 sheets "
            "ID:SIDE:PATH[:REACTION] (flee, freeze or frenzy).",
        ),
    ] = None,
    title: Annotated[str, typer.Option("--title", help="A title for the session.")] = "",
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the session's dice (default: random).")] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            help="The played characters: Rosa,Marge, each by a player of its name — their dice and "
            "choices are asked of them (T-2); the others act by the scenario's tactics (ua session npc). "
            "Default: nobody is played, the scenario's players' side is run by the GM.",
        ),
    ] = None,
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player",
            help='PLAYER:CHARACTER[,CHARACTER] — who plays which characters, e.g. "Ana:Tommy,Otis" (repeatable).',
        ),
    ] = None,
    ruleset: Annotated[
        str | None,
        typer.Option("--ruleset", help="ua2 or ua3 (default: the scenario's, or the sheets')."),
    ] = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Start a session from a scenario (or from sheets and sides), of the ruleset the scenario or
    the sheets are for (`--ruleset` to say so: ua2 or ua3). Reads no dice."""
    check_name(name, "the session name", where="NAME")
    if (scenario is None) == (not sheet):
        raise InvalidInput("give --scenario FILE or one --sheet per combatant", where="ua session new")
    seed = seed if seed is not None else int.from_bytes(os.urandom(4), "little")
    played = parse_players(players or "", tuple(player or ()))
    if scenario is not None:
        # the roster's players (who no tactics run): those named either way; `--players ""`: none
        roster = None if players is None and not player else ",".join([players or "", *played])
        commands = _from_scenario(scenario, ruleset, title, seed, roster)
    else:
        commands = _from_sheets(sheet or [], ruleset, title or name, seed)
    setup = SessionService.rehearse(name, commands)  # decided and storable before the database is touched
    played = _named_combatants(played, setup)
    sessions = service(db, create=True)
    started = sessions.start(name, setup, command_id=command_id)
    if played:
        sessions.seat(name, played)
    if started.retried:
        warn(f"note: session {name!r} was already started by command {started.command_id}")
    if json:
        emit_json(
            {
                "session": name,
                "seed": started.seed,
                "events": events_json(started.events, 1),
                "command_id": started.command_id,
            }
        )
    else:
        console.print(shown(f"session {name!r} started in {db} (seed {started.seed})"), markup=False)
        render_state(started.state)


def _ruleset_named(ruleset: str | None, where: str) -> str | None:
    if ruleset is not None and ruleset not in available():
        raise InvalidInput(f"unknown ruleset {ruleset!r}", where=where, hint=f"available: {', '.join(available())}")
    return ruleset


def _from_scenario(
    scenario: Path, ruleset: str | None, title: str, seed: int, players: str | None
) -> list[CommandBase]:
    """The setup commands of a scenario file, of the ruleset it names."""
    from engine.scenario.scenario import load_scenario  # only `new` reads scenario files
    from engine.scenario.ua3_scenario import scenario_ruleset
    from engine.session.scenario import setup_commands

    named = scenario_ruleset(scenario)
    if _ruleset_named(ruleset, "--ruleset") not in (None, named):
        raise InvalidInput(
            f"{scenario} is a {named} scenario, not {ruleset}", where="--ruleset", hint="leave --ruleset out"
        )
    loaded = load_scenario(scenario)  # either ruleset's
    chosen = _players(players, [f.id for f in loaded.fighters])
    return setup_commands(loaded, title=title, seed=seed, scenario=str(scenario.resolve()), players=chosen)


def _from_sheets(texts: list[str], ruleset: str | None, title: str, seed: int) -> list[CommandBase]:
    """The setup commands of `--sheet ID:SIDE:PATH[:EXTRA]` combatants: the sheets say their
    ruleset (`--ruleset` must agree with them)."""
    from engine.commands.ua3 import AddCharacter
    from engine.scenario.ua3_sheets import load_any_sheet

    chosen = _ruleset_named(ruleset, "--ruleset")
    joins: list[CommandBase] = []
    for text in texts:
        parts = text.split(":")
        if len(parts) not in (3, 4) or not parts[0] or not parts[1]:
            raise InvalidInput(
                f"bad --sheet {text!r}", where="--sheet", hint="ID:SIDE:PATH, or ID:SIDE:PATH:IN_HAND (ua3: :REACTION)"
            )
        loaded = load_any_sheet(parts[2])
        kind = "ua3" if isinstance(loaded, Ua3Sheet) else "ua2"
        if chosen is None:
            chosen = kind
        elif kind != chosen:
            raise InvalidInput(
                f"{parts[2]} is a {kind} sheet, and this session is {chosen}",
                where="--sheet",
                hint='every sheet of a session is for its ruleset (a ua3 sheet says ruleset = "ua3")',
            )
        extra = parts[3] if len(parts) == 4 else ""
        if isinstance(loaded, Ua3Sheet):
            if extra not in ("", "flee", "freeze", "frenzy"):
                raise InvalidInput(
                    f"bad reaction {extra!r} in --sheet {text!r}", where="--sheet", hint="flee, freeze or frenzy (U-23)"
                )
            joins.append(
                AddCharacter(
                    id=parts[0], side=parts[1], sheet=loaded, reaction=cast(Reaction, extra) if extra else None
                )
            )
        else:
            joins.append(AddCombatant(id=parts[0], side=parts[1], sheet=loaded, in_hand=extra))
    return [StartEncounter(ruleset=chosen or "ua2", title=title, seed=seed), *joins]


def _named_combatants(played: dict[str, str], setup: list[Record]) -> dict[str, str]:
    """`played` with each character spelled as the setup's combatants are (case aside)."""
    from engine.session.history import effective_fold

    ids = [c.id for c in effective_fold(setup).combatants]
    canonical = _players(",".join(played), ids) if played else ()
    return dict(zip(canonical, played.values(), strict=True))


def _players(text: str | None, ids: list[str]) -> Any:
    """`--players A,B` as the ids it names (matched case-insensitively); unset when not given."""
    if text is None:
        return msgspec.UNSET
    by_fold = {i.casefold(): i for i in ids}
    out = []
    for word in (w.strip() for w in text.split(",")):
        if not word:
            continue
        if word.casefold() not in by_fold:
            import difflib

            near = difflib.get_close_matches(word.casefold(), list(by_fold), n=1)
            meant = f"did you mean {by_fold[near[0]]!r}? " if near else ""
            raise InvalidInput(
                f"no combatant {word!r} in the scenario", where="--players", hint=f"{meant}combatants: {', '.join(ids)}"
            )
        out.append(by_fold[word.casefold()])
    return tuple(out)


def begin(
    name: Name,
    init: Annotated[list[str] | None, typer.Option("--init", help="ID=roll|default|ambush (repeatable).")] = None,
    triggers: Annotated[
        bool,
        typer.Option(
            "--triggers/--no-triggers",
            help="Make the scenario's madness triggers first (M2-8), each rolled from the seed "
            "(a terminal asks for each one's dice).",
        ),
    ] = True,
    dice: Dice = None,
    draw_rest: DrawRest = False,
    amend: Amend = None,
    full: Full = False,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Begin the fight: the scenario's madness triggers not yet made (M2-8), then initiative
    (I2-1…I2-4); unnamed combatants choose automatically. A ua3 fight begins with round 1's
    declarations (U-22), after its scenario's stress checks; the NPCs declare first.

    Dice (--dice, initiative only), in the order read: each combatant that rolls initiative, in
    the order they joined, its Speed roll (2 faces, that combatant's player); then a die for each
    combatant in a tie (I2-4). A trigger's Mind roll comes from the seed, or a terminal asks."""
    choices = []
    for text in init or ():
        who, _, method = text.partition("=")
        if method not in ("roll", "default", "ambush"):
            raise InvalidInput(f"bad --init {text!r}", where="--init", hint="ID=roll, ID=default or ID=ambush")
        choices.append(InitiativeChoice(id=who, method=cast(InitiativeMethod, method)))
    command: CommandBase = BeginFight(initiative=tuple(choices), dice=parse_dice(dice))
    state = service(db, name).state(name)
    if state.ruleset != "ua2":  # U-22: a ua3 fight begins with the round's declarations, no roll
        if choices or dice:
            raise InvalidInput(
                f"a {state.ruleset} fight's order follows the declared actions (U-22): no --init or --dice",
                where="ua session begin",
                hint="leave --init and --dice out",
            )
        command = ruleset_of(state).script.begin()
    if amend is not None:
        act(
            db,
            name,
            command,
            amend=amend,
            json=json,
            full=full,
            command_id=command_id,
            draw_rest=draw_rest,
            given=owned_dice(dice),
        )
        return
    asked = ask_dice()

    def trigger_dice(trigger: CommandBase) -> tuple[int, ...] | None:
        if asked is None:
            return None
        who = getattr(trigger, "actor", "")
        kind = getattr(trigger, "meter", "") or getattr(trigger, "gauge", "")
        what = f"{who}'s {kind} {getattr(trigger, 'rank', '')} check" + (" (Mind)" if state.ruleset == "ua2" else "")
        return asked(what)

    results = answered(
        db,
        name,
        lambda: service(db, name).begin(
            name,
            command,
            triggers=triggers,
            trigger_dice=trigger_dice,
            command_id=command_id,
            draw_rest=draw_rest,
            ask=asked,
            given=owned_dice(dice) or None,
        ),
        json=json,
    )
    if json:
        from engine.cli.session.run import result_json

        last = results[-1]
        assert isinstance(last, Executed)
        out = result_json(last)
        out["triggers"] = [result_json(r) for r in results[:-1] if isinstance(r, Executed)]
        emit_json(out)
        return
    for result in results:
        show(result, json=False)


def export(
    name: Name,
    file: Annotated[Path, typer.Argument(help="The JSONL file to write (a new file).")],
    force: Force = False,
    db: Db = Path(DEFAULT_DB),
) -> None:
    """Write the session's log as JSON lines (a replay file); an existing file only with --force."""
    from engine.safefile import check_target
    from engine.store.jsonl import write_log

    check_target(file, force=force)
    count = write_log(file, service(db, name).export(name), force=force)
    console.print(shown(f"{count} events written to {file}"), markup=False)


def import_(
    name: Annotated[str, typer.Argument(help="The new session's name (as `export NAME FILE`).", show_default=False)],
    file: Annotated[Path, typer.Argument(help="A JSONL replay file.")],
    stream: Annotated[str | None, typer.Option("--stream", help="Which stream, if the file holds several.")] = None,
    recover: RecoverOpt = False,
    unchecked: UncheckedOpt = False,
    db: Db = Path(DEFAULT_DB),
) -> None:
    """Read a JSONL log into a new session: every line checked, and every command re-decided with
    its dice (as `ua replay --verify`) before anything is stored. NAME comes first, as in
    `export NAME FILE` (the older order FILE NAME is still understood)."""

    def looks_like_a_file(text: str) -> bool:
        return Path(text).is_file() or text.endswith(".jsonl") or os.sep in text

    if looks_like_a_file(name) and not looks_like_a_file(str(file)):  # the older order: FILE NAME
        name, file = str(file), Path(name)
    check_name(name, "the session name", where="NAME")
    from engine.cli.replay import read_log

    log = read_log(file, stream, recover=recover, unchecked=unchecked)  # a damaged line is refused, naming it
    count = service(db, create=True).import_records(name, log.records, log.command_ids(), source=str(file))
    console.print(shown(f"{count} events imported into session {name!r}"), markup=False)
