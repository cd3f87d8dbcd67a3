"""`ua session …`: a GM runs an encounter at the table, one command per action, on SQLite.

Every action takes dice rolled at the table (`--dice 4,7`) or draws from the session's seed, and
`--amend N` to replace command N instead (re-resolving what followed with the same dice).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, cast

import msgspec
import typer

from engine.cli.checks import parse_shift
from engine.cli.common import JsonOption, RecoverOpt, UncheckedOpt, console, emit_json, warn
from engine.cli.views import (
    events_json,
    lines_json,
    render_events,
    render_lines,
    render_state,
    state_json,
)
from engine.commands import (
    AddCombatant,
    Attack,
    BeginFight,
    BreakFree,
    ClearJam,
    Command,
    Convalesce,
    Declare,
    Dodge,
    DoNothing,
    Draw,
    EndFight,
    FirstAid,
    Flee,
    MadnessCheck,
    MedicalCare,
    RollCheck,
    Ruling,
    SkillCheck,
    SpendPassion,
    Squeeze,
    StandUp,
    StartEncounter,
    SuppressiveFire,
    Surrender,
    Therapy,
)
from engine.commands.base import CommandBase
from engine.commands.combat import CherryName, Declaration, InitiativeChoice, Strike
from engine.commands.healing import Care
from engine.dice.checks import CheckSpec, Shift
from engine.dice.source import parse_faces
from engine.errors import ConcurrencyConflict, CorruptLog, InvalidInput, NotFound, Refused
from engine.rules.registry import available, ruleset_of
from engine.rules.unscripted import Unscripted
from engine.session.audit import narrate
from engine.session.diff import state_diff
from engine.session.live import LiveEncounter, begin_session, import_log, rehearse
from engine.state.encounter import Encounter, Reaction
from engine.state.fight import InitiativeMethod
from engine.state.sheet import MeterName, PassionKind, StatName
from engine.state.ua3.sheet import Ua3Sheet
from engine.store.base import new_command_id
from engine.store.sqlite import SqliteStore
from engine.text import check_name, shown

app = typer.Typer(help="Live sessions at the table: one command per GM action, stored in SQLite.", no_args_is_help=True)

DEFAULT_DB = "ua-sessions.sqlite"
Db = Annotated[Path, typer.Option("--db", envvar="UA_DB", help="The session database (SQLite), made on first use.")]
Name = Annotated[str, typer.Argument(help="The session's name.", show_default=False)]
Actor = Annotated[str, typer.Argument(help="Who acts.", show_default=False)]
Dice = Annotated[
    str | None, typer.Option("--dice", help="Faces rolled at the table, tens first: 4,7 (more for later rolls).")
]
Amend = Annotated[int | None, typer.Option("--amend", help="Replace command N with this one; later ones re-resolve.")]
Force = Annotated[
    bool, typer.Option("--force", help="Replace an existing file (never a database, a folder or a device).")
]
CommandIdOpt = Annotated[
    str | None,
    typer.Option(
        "--command-id",
        help="This command's id (default: a fresh one). Run a command again with its id to retry it: "
        "it is done once, however often it is sent.",
    ),
]
Shifts = Annotated[list[str] | None, typer.Option("--shift", help="A shift, N or SOURCE=N (repeatable).")]


def open_session(db: Path, name: str) -> LiveEncounter:
    if not db.exists():  # don't leave an empty database behind a typo
        raise NotFound(
            f"no session {name!r} in {db} (there is no such database yet)",
            hint="ua session list; or ua session new NAME --scenario FILE",
        )
    session = LiveEncounter(_store(db), name)
    if not session.version:
        raise NotFound(f"no session {name!r} in {db}", hint="ua session list; or ua session new NAME --scenario FILE")
    return session


def _store(db: Path) -> SqliteStore:
    """The database (made on first use), refusing a folder or anything that is not a database."""
    if db.exists() and not db.is_file():
        raise InvalidInput(f"{db} is not a database file", where="--db", hint="give a SQLite file made by ua session")
    return SqliteStore(db)


def _dice(text: str | None) -> tuple[int, ...]:
    return () if text is None else parse_faces(text)


def _shifts(texts: list[str] | None) -> tuple[Shift, ...]:
    return tuple(parse_shift(t, i) for i, t in enumerate(texts or (), start=1))


def act(
    db: Path,
    name: str,
    command: CommandBase,
    *,
    amend: int | None = None,
    json: bool = False,
    command_id: str | None = None,
    check: Callable[[Encounter], None] | None = None,
) -> None:
    """Run (or amend with) one command; a race with another writer writes nothing. `command_id`
    names it (a fresh one by default): run again with the same id, it is a retry and writes nothing.
    `check` looks at the session's state first, to refuse an argument that makes no sense there."""
    session = open_session(db, name)
    if check is not None:
        check(session.state)
    command_id = command_id or new_command_id()
    try:
        if amend is not None:
            result = session.amend(amend, command, command_id=command_id)
            _show_amendment(result, session.result_at, json, command_id)
            return
        events = session.execute(command, command_id=command_id)
    except ConcurrencyConflict:
        raise _changed(name) from None
    first = session.result_at
    if json:
        emit_json(
            {
                "events": events_json(events, first),
                "turn": ruleset_of(session.state).acting_now(session.state),
                "command_id": command_id,
            }
        )
    else:
        render_events(events, first)


def _changed(name: str) -> ConcurrencyConflict:
    return ConcurrencyConflict(
        f"session {name!r} changed while this command ran; nothing was written",
        hint="re-run the command (ua session state shows where it stands now)",
    )


def _show_amendment(result: Any, first: int, json: bool, command_id: str) -> None:
    diff = state_diff(result.before, result.after)
    if json:
        emit_json(
            {
                "changes": diff,
                "old_events": [e.explain() for e in result.old_events],
                "new_events": events_json(result.new_events, first + 1),
                "command_id": command_id,
            }
        )
        return
    console.print("[bold]amended[/bold] — what changed:")
    for line in diff or ["nothing in the state"]:
        console.print(f"  {shown(line)}", markup=False)
    console.print("[bold]before[/bold]:")
    for e in result.old_events:
        if type(e).__name__ != "CommandRecorded":
            console.print(f"  {shown(e.explain())}", markup=False, style="strike dim")
    console.print("[bold]after[/bold]:")
    render_events(result.new_events, first + 1)


@app.command("new")
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
    ruleset: Annotated[
        str | None,
        typer.Option("--ruleset", help="ua2 or ua3 (default: the scenario's, or the sheets')."),
    ] = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Start a session from a scenario (or from sheets and sides), of the ruleset the scenario or
    the sheets are for (`--ruleset` to say so: ua2 or ua3)."""
    check_name(name, "the session name", where="NAME")
    if (scenario is None) == (not sheet):
        raise InvalidInput("give --scenario FILE or one --sheet per combatant", where="ua session new")
    seed = seed if seed is not None else int.from_bytes(os.urandom(4), "little")
    if scenario is not None:
        commands = _from_scenario(scenario, ruleset, title, seed)
    else:
        commands = _from_sheets(sheet or [], ruleset, title or name, seed)
    setup = rehearse(name, commands)  # decided and storable before the database is touched
    store = _store(db)
    command_id = command_id or new_command_id()
    if not begin_session(store, name, setup, command_id=command_id):
        warn(f"note: session {name!r} was already started by command {command_id}")
    session = open_session(db, name)
    events = [event for _, event in session.records[: len(setup)]]
    if json:
        emit_json({"session": name, "seed": session.seed, "events": events_json(events, 1), "command_id": command_id})
    else:
        console.print(shown(f"session {name!r} started in {db} (seed {session.seed})"), markup=False)
        render_state(session.state)


def _ruleset_named(ruleset: str | None, where: str) -> str | None:
    if ruleset is not None and ruleset not in available():
        raise InvalidInput(f"unknown ruleset {ruleset!r}", where=where, hint=f"available: {', '.join(available())}")
    return ruleset


def _from_scenario(scenario: Path, ruleset: str | None, title: str, seed: int) -> list[CommandBase]:
    """The setup commands of a scenario file, of the ruleset it names."""
    from engine.scenario.ua3_scenario import load_ua3_scenario, scenario_ruleset, ua3_scenario_document

    named = scenario_ruleset(scenario)
    if _ruleset_named(ruleset, "--ruleset") not in (None, named):
        raise InvalidInput(
            f"{scenario} is a {named} scenario, not {ruleset}", where="--ruleset", hint="leave --ruleset out"
        )
    if named == "ua3":
        ua3 = load_ua3_scenario(scenario)
        return [
            StartEncounter(
                ruleset="ua3",
                title=title or ua3.scenario.title,
                seed=seed,
                settings=ua3.settings,
                scenario=str(scenario.resolve()),
                scenario_document=ua3_scenario_document(ua3),
            ),
            *(f.joins() for f in ua3.fighters),
        ]
    from engine.scenario.scenario import load_scenario, scenario_document  # only `new` reads scenario files

    loaded = load_scenario(scenario)
    return [
        StartEncounter(
            title=title or loaded.scenario.title,
            seed=seed,
            settings=loaded.settings,
            scenario=str(scenario.resolve()),
            scenario_document=scenario_document(loaded),
        ),
        *(f.joins() for f in loaded.fighters),
    ]


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


@app.command("list")
def list_sessions(db: Db = Path(DEFAULT_DB), json: JsonOption = False) -> None:
    """The sessions in a database."""
    store = SqliteStore(db)
    names = store.streams()
    if json:
        emit_json({"sessions": [{"name": n, "events": store.version(n)} for n in names]})
        return
    for n in names:
        console.print(shown(f"{n} ({store.version(n)} events)"), markup=False)


@app.command("begin")
def begin(
    name: Name,
    init: Annotated[list[str] | None, typer.Option("--init", help="ID=roll|default|ambush (repeatable).")] = None,
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Set initiative and begin the fight (I2-1…I2-4); unnamed combatants choose automatically."""
    choices = []
    for text in init or ():
        who, _, method = text.partition("=")
        if method not in ("roll", "default", "ambush"):
            raise InvalidInput(f"bad --init {text!r}", where="--init", hint="ID=roll, ID=default or ID=ambush")
        choices.append(InitiativeChoice(id=who, method=cast(InitiativeMethod, method)))
    command = BeginFight(initiative=tuple(choices), dice=_dice(dice))
    act(db, name, command, amend=amend, json=json, command_id=command_id)


@app.command("declare")
def declare(
    name: Name,
    focus: Annotated[
        list[str] | None, typer.Option("--focus", help="ID:TARGET:+10|+20|+30 (C2-5), repeatable.")
    ] = None,
    keep_dodging: Annotated[list[str] | None, typer.Option("--keep-dodging", help="ID keeps dodging (C2-16).")] = None,
    release: Annotated[list[str] | None, typer.Option("--release", help="ID lets go of a grip (C2-27).")] = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Round-start declarations, all at once (C2-4): focus shifts, continued dodges, releases."""
    by_id: dict[str, dict[str, Any]] = {}
    for text in focus or ():
        parts = text.split(":")
        if len(parts) != 3 or parts[2].lstrip("+") not in ("10", "20", "30"):
            raise InvalidInput(f"bad --focus {text!r}", where="--focus", hint="ID:TARGET:+10 (or +20, +30)")
        by_id.setdefault(parts[0], {}).update(focus_target=parts[1], focus=int(parts[2].lstrip("+")))
    for who in keep_dodging or ():
        by_id.setdefault(who, {})["continue_dodge"] = True
    for who in release or ():
        by_id.setdefault(who, {})["release_hold"] = True
    declarations = tuple(Declaration(id=who, **fields) for who, fields in by_id.items())
    act(db, name, Declare(declarations=declarations), amend=amend, json=json, command_id=command_id)


@app.command("focus")
def focus(
    name: Name,
    actor: Actor,
    target: Annotated[str, typer.Argument(help="The focus target.")],
    amount: Annotated[int, typer.Option("--amount", help="+10, +20 or +30.")] = 10,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Declare one focus shift at round start (C2-5); use `declare` for several declarations."""
    if amount not in (10, 20, 30):
        raise InvalidInput(f"a focus shift is +10, +20 or +30, not {amount}", where="--amount")
    declaration = Declaration(id=actor, focus_target=target, focus=cast(Literal[10, 20, 30], amount))
    act(db, name, Declare(declarations=(declaration,)), amend=amend, json=json, command_id=command_id)


@app.command("attack")
def attack(
    name: Name,
    actor: Actor,
    target: Annotated[str | None, typer.Argument(help="The target (or use --strike).")] = None,
    weapon: Annotated[str, typer.Option("--weapon", help="Default: the weapon in hand.")] = "",
    mode: Annotated[Literal["strike", "disarm", "throw_person", "throw"], typer.Option("--mode")] = "strike",
    strike: Annotated[
        list[str] | None, typer.Option("--strike", help="TARGET[:SHARE] — several attacks (C2-8).")
    ] = None,
    minimum: Annotated[int | None, typer.Option("--minimum", help="Called shot: minimum roll (C2-6).")] = None,
    called: Annotated[str, typer.Option("--called", help="What the called shot aims at.")] = "",
    skill: Annotated[str, typer.Option("--skill", help="Attack with this skill of the sheet instead.")] = "",
    untrained: Annotated[
        bool,
        typer.Option("--untrained", help="--skill is not on the sheet: roll it untrained on the weapon's stat (C-7)."),
    ] = False,
    shift: Shifts = None,
    cherry: Annotated[
        CherryName | None, typer.Option("--cherry", help="The cherry on a matched success (C2-22).")
    ] = None,
    knock_out: Annotated[
        bool, typer.Option("--knock-out", help="A crit knocks out instead of killing (C2-10).")
    ] = False,
    drop: Annotated[bool, typer.Option("--drop", help="A disarmed weapon drops instead of being taken.")] = False,
    flipped: Annotated[bool | None, typer.Option("--flipped/--as-rolled", help="State the orientation (C-11).")] = None,
    passion: Annotated[
        PassionKind | None, typer.Option("--passion", help="Spend a passion on a failed roll of this attack (C-10).")
    ] = None,
    passion_mode: Annotated[Literal["reroll", "flip"], typer.Option("--passion-mode")] = "reroll",
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Attack (C2-1): one target, or several with --strike; dice: attack, dodge, damage extras."""
    strikes = []
    for text in strike or ():
        who, _, share = text.partition(":")
        if share and not share.isdigit():
            raise InvalidInput(f"bad --strike {text!r}", where="--strike", hint="TARGET or TARGET:SHARE")
        strikes.append(Strike(target=who, share=int(share) if share else None))
    command = Attack(
        actor=actor,
        target=target or "",
        strikes=tuple(strikes),
        weapon=weapon,
        mode=mode,
        minimum=minimum,
        called=called,
        skill=skill,
        shifts=_shifts(shift),
        cherry=cherry,
        crit="knock_out" if knock_out else "kill",
        take_weapon=not drop,
        flipped=flipped,
        passion=passion,
        passion_mode=passion_mode,
        dice=_dice(dice),
    )
    on_sheet = _on_sheet(actor, skill, untrained, where="--skill", untrained_by="--untrained")
    act(db, name, command, amend=amend, json=json, command_id=command_id, check=on_sheet)


def _on_sheet(actor: str, skill: str, untrained: bool, *, where: str, untrained_by: str) -> Callable[[Encounter], None]:
    """A check that `skill` (if named) is one of the actor's sheet's skills, unless `untrained`
    (the option `untrained_by` says so)."""

    def check(state: Encounter) -> None:
        found = state.combatant(actor)
        if not skill or untrained or found is None or found.sheet.skill(skill) is not None:
            return
        skills = ", ".join(s.name for s in found.sheet.skills) or "none"
        raise InvalidInput(
            f"{actor}'s sheet has no skill {skill!r}",
            where=where,
            hint=f"skills: {skills}; add {untrained_by} to roll it untrained (C-7)",
        )

    return check


def _simple(command_type: type[CommandBase], doc: str) -> None:
    def command(
        name: Name,
        actor: Actor,
        dice: Dice = None,
        amend: Amend = None,
        command_id: CommandIdOpt = None,
        db: Db = Path(DEFAULT_DB),
        json: JsonOption = False,
    ) -> None:
        command = command_type(actor=actor, dice=_dice(dice))  # type: ignore[call-arg]
        act(db, name, command, amend=amend, json=json, command_id=command_id)

    command.__doc__ = doc
    tag = str(command_type.__struct_config__.tag).replace("_", "-")
    app.command({"break-free": "break-free", "stand-up": "stand"}.get(tag, tag))(command)


_simple(Dodge, "Dodge as this turn's action (C2-15).")
_simple(ClearJam, "Clear a jammed gun (C2-3).")
_simple(StandUp, "Stand up after a knock-down (C2-29).")
_simple(BreakFree, "Try to break a Kung Fu Grip (C2-27).")
_simple(Squeeze, "Hold on: the grip's automatic damage (C2-27).")
_simple(Flee, "Leave the fight.")
_simple(Surrender, "Give up the fight.")


@app.command("draw")
def draw(
    name: Name,
    actor: Actor,
    weapon: Annotated[str, typer.Argument(help="The weapon to draw.")],
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Draw or ready a weapon (C2-3): usable from next round."""
    act(db, name, Draw(actor=actor, weapon=weapon), amend=amend, json=json, command_id=command_id)


@app.command("nothing")
def nothing(
    name: Name,
    actor: Actor,
    reinit: Annotated[
        Literal["roll", "default"] | None,
        typer.Option("--reinit", help="roll or default: re-set initiative next round (I2-5)."),
    ] = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Spend the turn doing nothing."""
    act(db, name, DoNothing(actor=actor, reinitiative=reinit), amend=amend, json=json, command_id=command_id)


@app.command("suppress")
def suppress(
    name: Name,
    actor: Actor,
    shots: Annotated[int, typer.Option("--shots", help="More than three (C2-18).")],
    field: Annotated[str, typer.Option("--field", help="Who is in the field of fire: A,B,…")],
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Suppressive fire (C2-18)."""
    targets = tuple(t.strip() for t in field.split(",") if t.strip())
    command = SuppressiveFire(actor=actor, shots=shots, field=targets, dice=_dice(dice))
    act(db, name, command, amend=amend, json=json, command_id=command_id)


@app.command("next")
def next_turn(name: Name, command_id: CommandIdOpt = None, db: Db = Path(DEFAULT_DB), json: JsonOption = False) -> None:
    """Move on: close the round's declarations, or the current combatant does nothing."""
    session = open_session(db, name)
    fight = session.state.fight
    command: CommandBase | None = None if command_id is None else session.issued(command_id)
    if command is not None:
        pass  # a retry: the command this id moved on with, whatever the state says now
    elif fight.phase == "declare":
        command = Declare()
    elif fight.phase in ("ambush", "acting"):
        # a madness check (or the like) may have put the fighter whose turn it was out of action:
        # the turn has passed on; if it passed to the next round, its declarations come first
        actor = ruleset_of(session.state).acting_now(session.state)
        command = Declare() if actor is None else DoNothing(actor=actor)
    else:
        raise InvalidInput(f"there is no turn to move on from (the fight is {fight.phase})", where=name)
    act(db, name, command, json=json, command_id=command_id)


@app.command("end")
def end(
    name: Name,
    winner: Annotated[str | None, typer.Option("--winner", help="The winning side, if any.")] = None,
    reason: Annotated[str, typer.Option("--reason")] = "the GM ends the fight",
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """End the fight now (the GM's call)."""
    act(db, name, EndFight(winner=winner, reason=reason), json=json, command_id=command_id)


@app.command("check")
def check(
    name: Name,
    actor: Actor,
    skill: Annotated[str, typer.Argument(help="The skill rolled.")],
    kind: Annotated[Literal["minor", "significant", "major"], typer.Option("--kind")] = "significant",
    stat: Annotated[StatName | None, typer.Option("--stat", help="Untrained: the stat rolled instead (C-7).")] = None,
    shift: Shifts = None,
    minimum: Annotated[int | None, typer.Option("--minimum")] = None,
    flipped: Annotated[bool | None, typer.Option("--flipped/--as-rolled")] = None,
    roll_anyway: Annotated[
        bool, typer.Option("--roll-anyway", help="A minor check at 15+: roll for quality anyway (C-3).")
    ] = False,
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A skill check from the sheet (C-4, C-7, C-9); dice given to a minor check roll it for quality (C-3).
    In a ua3 session, SKILL names an ability, identity or relationship (U-1, as `ability`)."""
    if open_session(db, name).state.ruleset == "ua3":
        if stat is not None:
            raise InvalidInput("ua3 characters have no stats (U-1)", where="--stat", hint="name an ability or identity")
        from engine.commands.ua3 import AbilityCheck

        ability = AbilityCheck(
            actor=actor,
            name=skill,
            kind=kind,
            shifts=_shifts(shift),
            minimum=minimum,
            flipped=flipped,
            roll_anyway=roll_anyway or (kind == "minor" and dice is not None),
            dice=_dice(dice),
        )
        act(db, name, ability, amend=amend, json=json, command_id=command_id)
        return
    command = SkillCheck(
        actor=actor,
        skill=skill,
        kind=kind,
        stat=stat,
        shifts=_shifts(shift),
        minimum=minimum,
        flipped=flipped,
        roll_anyway=roll_anyway or dice is not None,
        dice=_dice(dice),
    )
    on_sheet = _on_sheet(actor, skill, stat is not None, where="SKILL", untrained_by="--stat STAT")
    act(db, name, command, amend=amend, json=json, command_id=command_id, check=on_sheet)


@app.command("roll")
def roll(
    name: Name,
    kind: Annotated[Literal["minor", "significant", "major"], typer.Option("--kind")],
    rating: Annotated[int, typer.Option("--rating", min=0, max=100, help="The rating rolled against, 0–100.")],
    shift: Shifts = None,
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A plain check by rating, recorded in the session."""
    command = RollCheck(spec=CheckSpec(kind=kind, rating=rating, shifts=_shifts(shift)), dice=_dice(dice))
    act(db, name, command, amend=amend, json=json, command_id=command_id)


@app.command("madness")
def madness(
    name: Name,
    actor: Actor,
    meter: Annotated[MeterName, typer.Argument(help="violence, unnatural, helplessness, isolation or self.")],
    rank: Annotated[int, typer.Argument(help="1–10.")],
    source: Annotated[str, typer.Option("--source", help="What triggered it (kept until it is gone).")] = "",
    reaction: Annotated[
        Reaction | None, typer.Option("--reaction", help="flee, freeze or frenzy, if it fails.")
    ] = None,
    passion: Annotated[
        PassionKind | None, typer.Option("--passion", help="Spend a passion if the Mind roll fails (C-10).")
    ] = None,
    passion_mode: Annotated[Literal["reroll", "flip"], typer.Option("--passion-mode")] = "reroll",
    shift: Shifts = None,
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A madness check (M2-2…M2-5)."""
    command = MadnessCheck(
        actor=actor,
        meter=meter,
        rank=rank,
        source=source,
        reaction=reaction,
        passion=passion,
        passion_mode=passion_mode,
        shifts=_shifts(shift),
        dice=_dice(dice),
    )
    act(db, name, command, amend=amend, json=json, command_id=command_id)


@app.command("therapy")
def therapy(
    name: Name,
    actor: Actor,
    meter: Annotated[MeterName, typer.Argument()],
    hardened: Annotated[int, typer.Option("--hardened")] = 0,
    failed: Annotated[int, typer.Option("--failed")] = 0,
    note: Annotated[str, typer.Option("--note")] = "",
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Therapy removes notches (M2-6), as many as are marked at most."""
    command = Therapy(actor=actor, meter=meter, hardened=hardened, failed=failed, note=note)

    def notches_there(state: Encounter) -> None:
        found = state.combatant(actor)
        if found is None:
            return  # the rule says who is missing
        held = found.meters.of(meter)
        for option, asked, marked in (("--hardened", hardened, held.hardened), ("--failed", failed, held.failed)):
            if asked > marked:
                raise InvalidInput(
                    f"{actor} has {marked} {option[2:]} {meter} notches; therapy cannot remove {asked}",
                    where=option,
                    hint=f"at most {marked} (M2-6)",
                )

    act(db, name, command, json=json, command_id=command_id, check=notches_there)


@app.command("passion")
def passion(
    name: Name,
    actor: Actor,
    kind: Annotated[PassionKind, typer.Argument(help="rage, fear or noble.")],
    mode: Annotated[Literal["reroll", "flip"], typer.Option("--mode", help="reroll or flip.")] = "reroll",
    dice: Dice = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Spend a passion on the last failed roll (C-10; in ua3, U-21)."""
    command: CommandBase = SpendPassion(actor=actor, passion=kind, mode=mode, dice=_dice(dice))
    if open_session(db, name).state.ruleset == "ua3":
        from engine.commands.ua3 import SpendPassion as Ua3SpendPassion

        command = Ua3SpendPassion(actor=actor, passion=kind, mode=mode, dice=_dice(dice))
    act(db, name, command, json=json, command_id=command_id)


@app.command("heal")
def heal(
    name: Name,
    healer: Annotated[str, typer.Argument()],
    patient: Annotated[str, typer.Argument()],
    injury: Annotated[int, typer.Argument(help="The injury number (see `state`).")],
    medical: Annotated[bool, typer.Option("--medical", help="Medical care for a major injury (H2-3).")] = False,
    late: Annotated[bool, typer.Option("--late", help="Medical care after the first hour (H2-3).")] = False,
    dice: Dice = None,
    amend: Amend = None,
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """First aid on a minor injury (H2-2), or --medical care on a major one (H2-3)."""
    command: CommandBase
    if medical:
        command = MedicalCare(healer=healer, patient=patient, injury=injury, within_hour=not late, dice=_dice(dice))
    else:
        command = FirstAid(healer=healer, patient=patient, injury=injury, dice=_dice(dice))
    act(db, name, command, amend=amend, json=json, command_id=command_id)


@app.command("rest")
def rest(
    name: Name,
    patient: Annotated[str, typer.Argument()],
    days: Annotated[int, typer.Option("--days")] = 1,
    care: Annotated[Care, typer.Option("--care", help="doctor, bed_rest, easy or pushing (H2-5).")] = "bed_rest",
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Convalescence, day by day (H2-5)."""
    act(db, name, Convalesce(patient=patient, days=days, care=care), json=json, command_id=command_id)


@app.command("ruling")
def ruling(
    name: Name,
    note: Annotated[str, typer.Argument(help="What the GM rules.")],
    about: Annotated[str, typer.Option("--about", help="Who or what it concerns.")] = "",
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """A GM ruling with a note (what the seeds leave to the GM)."""
    act(db, name, Ruling(note=note, about=about), json=json, command_id=command_id)


@app.command("undo")
def undo(name: Name, command_id: CommandIdOpt = None, db: Db = Path(DEFAULT_DB), json: JsonOption = False) -> None:
    """Undo the latest command that counts (its events stay in the log, struck out)."""
    _marker(db, name, "undo", json, command_id)


@app.command("redo")
def redo(name: Name, command_id: CommandIdOpt = None, db: Db = Path(DEFAULT_DB), json: JsonOption = False) -> None:
    """Redo the most recently undone command."""
    _marker(db, name, "redo", json, command_id)


def _marker(db: Path, name: str, what: str, json: bool, command_id: str | None) -> None:
    session = open_session(db, name)
    before = session.state
    command_id = command_id or new_command_id()
    try:
        if what == "undo":
            events = session.undo(command_id=command_id)
        else:
            events = session.redo(command_id=command_id)
    except ConcurrencyConflict:
        raise _changed(name) from None
    diff = state_diff(before, session.state)
    first = session.result_at
    if json:
        emit_json({"events": events_json(events, first), "changes": diff, "command_id": command_id})
        return
    render_events(events, first)
    for line in diff:
        console.print(f"  {shown(line)}", markup=False)


@app.command("amend")
def amend_json(
    name: Name,
    number: Annotated[int, typer.Argument(help="The command to replace.")],
    command: Annotated[str, typer.Option("--command", help="The corrected command as JSON.")],
    command_id: CommandIdOpt = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Replace command N with a corrected one given as JSON (or use --amend N on any action)."""
    from engine.commands import command_decoder

    try:
        corrected = command_decoder.decode(command)
    except Exception as exc:  # msgspec's errors carry the $.path
        raise InvalidInput(f"not a command: {exc}", where="--command", hint="see `ua session log --json`") from None
    act(db, name, corrected, amend=number, json=json, command_id=command_id)


@app.command("state")
def state(
    name: Name,
    at: Annotated[int | None, typer.Option("--at", help="As it was after event N.")] = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """The encounter as the GM sees it: wounds, conditions, meters, order, whose turn."""
    session = open_session(db, name)
    if at is not None and not 1 <= at <= session.version:
        raise InvalidInput(f"no event {at} in session {name!r}", where="--at", hint=f"1 to {session.version}")
    shown = session.state if at is None else session.state_at(at)
    if json:
        emit_json(state_json(shown))
    else:
        render_state(shown, title=f"{name}" + (f" after event {at}" if at else ""))


@app.command("log")
def log(
    name: Name,
    combatant: Annotated[str | None, typer.Option("--combatant", help="Only events about this combatant.")] = None,
    round_: Annotated[int | None, typer.Option("--round", help="Only this round.")] = None,
    type_: Annotated[list[str] | None, typer.Option("--type", help="Only these event types.")] = None,
    commands: Annotated[bool, typer.Option("--commands", help="Show the command records too.")] = False,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Narrate the session event by event, with rule ids and exact odds; undone work struck out."""
    session = open_session(db, name)
    lines = narrate(session.records, combatant=combatant, round_=round_, types=type_ or (), commands=commands)
    if json:
        emit_json({"session": name, "lines": lines_json(lines)})
    else:
        render_lines(lines)


@app.command("export")
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
    session = open_session(db, name)
    count = write_log(file, session.store.read(name), force=force)
    console.print(shown(f"{count} events written to {file}"), markup=False)


@app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A JSONL replay file.")],
    name: Name,
    stream: Annotated[str | None, typer.Option("--stream", help="Which stream, if the file holds several.")] = None,
    recover: RecoverOpt = False,
    unchecked: UncheckedOpt = False,
    db: Db = Path(DEFAULT_DB),
) -> None:
    """Read a JSONL log into a new session: every line checked, and every command re-decided with
    its dice (as `ua replay --verify`) before anything is stored."""
    check_name(name, "the session name", where="NAME")
    from engine.cli.replay import read_log
    from engine.session.verify import verify

    log = read_log(file, stream, recover=recover, unchecked=unchecked)  # a damaged line is refused, naming it
    result = verify(log.records)
    if not result.ok:
        raise CorruptLog(
            f"not imported: {result.mismatch}",
            where=f"{file} event {result.position}",
            hint="the log was edited, or comes from other rules; nothing was stored",
        )
    store = _store(db)
    count = import_log(store, name, log.records, log.command_ids())  # refuses a log that does not fold
    console.print(shown(f"{count} events imported into session {name!r}"), markup=False)


@app.command("fork")
def fork(
    name: Name,
    at: Annotated[int, typer.Argument(help="Start from the state after event N.")],
    simulate: Annotated[int, typer.Option("--simulate", help="How many times to fight it out from there.")] = 1000,
    seed: Annotated[int | None, typer.Option("--seed")] = None,
    workers: Annotated[int, typer.Option("--workers")] = 1,
    scenario: Annotated[
        Path | None,
        typer.Option("--scenario", help="Take the tactics from this file (default: the scenario the session stores)."),
    ] = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """What if: fight the rest of the encounter from event N many times with the scenario's tactics
    (the scenario stored in the session's own log when it was started, or --scenario FILE).

    N must be an event of the history that counts now (not one an undo or amend took out) after
    the fight began. The report is `ua simulate`'s, from that point on."""
    from engine.cli.report import render, to_csv
    from engine.cli.simulate import emit_report, stopped_early
    from engine.scenario.scenario import load_scenario
    from engine.session.history import fork_point
    from engine.session.scenario import stored_scenario
    from engine.simulate.batch import check_size
    from engine.simulate.whatif import fork_batch

    session = open_session(db, name)
    script = ruleset_of(session.state).script
    if isinstance(script, Unscripted):
        raise Refused(f"session {name!r} cannot be fought out: {script.why}", where="ua session fork")
    if not 1 <= at <= session.version:
        raise InvalidInput(f"no event {at} in session {name!r}", where=name, hint=f"1 to {session.version}")
    check_size(simulate, workers)
    records = session.records
    loaded = load_scenario(scenario) if scenario is not None else stored_scenario(records[:at], where=f"session {name}")
    try:
        state = fork_point(records, at)
    except InvalidInput as exc:
        raise InvalidInput(exc.message, where=name, hint=exc.hint) from None
    batch_seed = seed if seed is not None else 0
    report = fork_batch(state, loaded, simulate, batch_seed, workers=workers, from_event=at, interruptible=True)
    stopped_early(report["fights"], simulate)
    emit_report(report, json=json, as_csv=False, text=render, table=to_csv)


class CommandScript(msgspec.Struct, frozen=True, gc=False, kw_only=True, forbid_unknown_fields=True):
    """A file of commands, in order, as a GM played them at the table (dice included)."""

    commands: tuple[Command, ...]


def read_script(path: Path) -> list[Command]:
    """Commands from TOML/YAML/JSON (`commands = [...]`) or JSON lines (one command a line)."""
    from engine.commands import command_decoder
    from engine.scenario.files import load_document, read_limited

    if path.suffix != ".jsonl":
        return list(
            load_document(path, CommandScript, hint="each command as in `ua session log --commands --json`").commands
        )
    out = []
    text = read_limited(path, any_format=True).decode("utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                out.append(command_decoder.decode(line))
            except msgspec.ValidationError as exc:
                raise InvalidInput(f"not a command: {exc}", where=f"{path}:{number}") from None
            except msgspec.DecodeError as exc:
                raise InvalidInput(f"not JSON: {exc}", where=f"{path}:{number}") from None
    return out


@app.command("play")
def play(
    name: Name,
    script: Annotated[Path, typer.Argument(help="A file of commands with their dice (TOML, YAML, JSON or JSONL).")],
    command_id: Annotated[
        str | None,
        typer.Option(
            "--command-id",
            help="Name this run (command N is ID.N): run it again with the same id to go on where it stopped.",
        ),
    ] = None,
    db: Db = Path(DEFAULT_DB),
    json: JsonOption = False,
) -> None:
    """Replay what happened at the table: run a file of commands in order, each with its dice.

    Each command is its own transaction; the first one the rules refuse stops the run (what went
    before stays) with an error naming it. With --command-id, the commands already done by a run
    of that id are not done again."""
    commands = read_script(script)
    session = open_session(db, name)
    out: list[dict[str, Any]] = []
    for number, command in enumerate(commands, start=1):
        try:
            events = session.execute(command, command_id=f"{command_id}.{number}" if command_id else None)
        except Refused as exc:
            raise Refused(
                f"command {number} of {len(commands)} is refused: {exc.message}",
                where=str(script),
                hint=exc.hint or "fix it and play the rest",
            ) from None
        except ConcurrencyConflict:
            raise _changed(name) from None
        if json:
            out.extend(events_json(events, session.result_at))
        else:
            render_events(events, session.result_at)
    if json:
        emit_json({"session": name, "commands": len(commands), "events": out})


# the third edition's actions register on this group too (stress, coerce, gridiron, …, npc)
from engine.cli import session_npc as _npc  # noqa: E402,F401  (registers `ua session npc`)
from engine.cli import session_ua3 as _session_ua3  # noqa: E402,F401
