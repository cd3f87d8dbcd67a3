"""The session service at a table (RULES T-1…T-5, DESIGN "The table"): who plays which character,
the action that waits on a player's dice, and the answers that let it be decided.

A user action (a command, the fight's beginning, a stretch of NPC turns) is decided with the
session's `Table` (`OwnedDice`); one that needs a played character's roll nobody gave raises
`Waiting`, is kept beside the log (`WaitingAction`, never in it) and answered with `WaitsOn`
(the CLI's exit code 5, HTTP's 202). Each answer decides the whole action again from the start
with every answer so far, under the command id it was first given (decisions are pure, so the
log is the one giving those dice up front would have written). While it waits, the session
refuses any other action, naming what it waits on."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar

import msgspec

from engine.commands.base import CommandBase
from engine.errors import InvalidInput, Refused
from engine.rules.registry import ruleset_of
from engine.session.live import LiveEncounter
from engine.session.owners import AUTO, ROLL_FOR_ME, Request, Table, Waiting
from engine.session.reader import SessionReader, one_at_a_time
from engine.session.seats import (
    Seats,
    WaitingAction,
    WaitsOn,
    load_answered,
    load_seats,
    load_waiting,
    save_answered,
    save_seats,
    save_waiting,
    waits_message,
)
from engine.store.base import new_command_id

Given = Mapping[str, tuple[int, ...]]
#: How a waiting action is decided again: (service, session name, command id, its args) → result.
Resume = Callable[[Any, str, str, dict[str, msgspec.Raw]], Any]


class AtTable(SessionReader):
    """The table's part of `SessionService` (see the module)."""

    #: How each kind of waiting action is decided again (filled in by `SessionService`).
    resumers: ClassVar[dict[str, Resume]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: session → the table of the user action being decided in it, and its rolls counted
        self._runs: dict[str, tuple[Table, dict[str, int]]] = {}

    # -- players and standing choices ----------------------------------------------------------

    @one_at_a_time
    def seats(self, name: str) -> Seats:
        """Who plays which character in session `name` (T-2), and their standing choices (T-3)."""
        self.open(name)
        return load_seats(self.store, name)

    @one_at_a_time
    def seat(self, name: str, played: Mapping[str, str]) -> Seats:
        """Make `played` (character → player) played characters of session `name` (T-2)."""
        session = self.open(name)
        for who in played:
            if session.state.combatant(who) is None:
                known = ", ".join(c.id for c in session.state.combatants)
                raise InvalidInput(
                    f"no combatant {who!r} in session {name!r}", where="--players", hint=f"combatants: {known}"
                )
        from engine.store.participants import participants_of

        book = participants_of(self.store)
        for player in dict.fromkeys(played.values()):
            book.add_player(name, player, [who for who, by in played.items() if by == player])
        return load_seats(self.store, name)

    @one_at_a_time
    def prefer(self, name: str, who: str, choices: Mapping[str, str]) -> Seats:
        """Standing choices for a played character (T-3), e.g. `roll_for_me=all` (every roll of
        theirs drawn from the seed at once) or `roll_for_me=none`, and the ruleset's own (ua2:
        `initiative=roll|default|ambush`)."""
        session = self.open(name)
        choices_of = ruleset_of(session.state).standing_choices
        allowed = {"roll_for_me": ("all", "none"), **{k: (*v, AUTO) for k, v in choices_of.items()}}
        seats = load_seats(self.store, name)
        if who not in seats.played:
            played = ", ".join(seats.played) or "none"
            raise InvalidInput(
                f"{who} is not a played character of session {name!r}", where="WHO", hint=f"played characters: {played}"
            )
        for key, value in choices.items():
            if value not in allowed.get(key, ()):
                known = "; ".join(f"{k}={'|'.join(v)}" for k, v in allowed.items())
                raise InvalidInput(f"unknown standing choice {key}={value}", where="KEY=VALUE", hint=known)
        prefer = {**seats.prefer, who: {**seats.prefer.get(who, {}), **choices}}
        seats = msgspec.structs.replace(seats, prefer=prefer)
        save_seats(self.store, name, seats)
        return seats

    # -- requests -------------------------------------------------------------------------------

    @one_at_a_time
    def waiting(self, name: str) -> WaitingAction | None:
        """The action session `name` waits on, with its open requests (None: nothing waits)."""
        self.open(name)
        return load_waiting(self.store, name)

    @one_at_a_time
    def give(
        self, name: str, request: str, *, dice: tuple[int, ...] = (), choose: str = "", roll_for_me: bool = False
    ) -> Any:
        """Answer request `request` of the waiting action with `dice`, or `choose` one of a
        choice's options, or `roll_for_me` (the seed draws it; a choice: the automatic one, T-3),
        and decide the action again: its result, or `WaitsOn` its next requests."""
        self.open(name)
        waiting = load_waiting(self.store, name)
        done = load_answered(self.store, name)
        open_now = waiting is not None and any(r.id == request for r in waiting.requests)
        if done is not None and request in done.answers and not open_now:
            # an answer sent again after its action was decided: that action's result (a retry)
            return self.resumers[done.action](self, name, done.command_id, done.args)
        if waiting is None:
            raise Refused(f"session {name!r} waits on nothing", hint="ua session requests NAME")
        asked = next((r for r in waiting.requests if r.id == request), None)
        if asked is None:
            raise InvalidInput(
                f"no open request {request!r} in session {name!r}",
                where="REQUEST",
                hint=f"open: {waits_message(waiting)}",
            )
        answer = _answer(asked, dice, choose, roll_for_me)
        waiting = msgspec.structs.replace(waiting, answers={**waiting.answers, request: answer})
        save_waiting(self.store, name, waiting)
        return self.resumers[waiting.action](self, name, waiting.command_id, waiting.args)

    @one_at_a_time
    def cancel(self, name: str) -> WaitingAction:
        """Drop the waiting action: nothing of it is recorded."""
        self.open(name)
        waiting = load_waiting(self.store, name)
        if waiting is None:
            raise Refused(f"session {name!r} waits on nothing", hint="ua session requests NAME")
        save_waiting(self.store, name, None)
        return waiting

    # -- deciding a user action at the table -----------------------------------------------------

    @contextmanager
    def at_table(
        self, name: str, command_id: str | None, action: str, args: dict[str, Any], *, given: Given, draw_rest: bool
    ) -> Iterator[str]:
        """Decide a user action (`action`, called with `args`) with the session's table, yielding
        its command id (fresh if none): a nested step of an action already at the table runs
        inside it. A session with no played characters and no dice given by owner has no table."""
        runs = self._runs
        if name in runs:
            yield command_id or new_command_id()
            return
        waiting = load_waiting(self.store, name)
        if waiting is not None and waiting.command_id != command_id:
            raise Refused(
                f"session {name!r} waits on {waits_message(waiting)}",
                hint="answer: ua session give NAME REQUEST --dice T,U (or --roll-for-me); or ua session cancel NAME",
            )
        seats = load_seats(self.store, name)
        command_id = command_id or new_command_id()
        if not seats.played and not given:
            yield command_id
            return
        answers = waiting.answers if waiting is not None else {}
        table = Table(
            played=seats.played,
            answers=answers,
            given=given,
            roll_for_me=seats.roll_for_me,
            prefer=seats.prefer,
            draw_rest=draw_rest,
        )
        runs[name] = (table, {})
        try:
            yield command_id
        except Waiting as stopped:
            encoded = {key: msgspec.Raw(msgspec.json.encode(value)) for key, value in args.items()}
            kept = WaitingAction(
                command_id=command_id, action=action, args=encoded, answers=answers, requests=stopped.requests
            )
            save_waiting(self.store, name, kept)
            raise WaitsOn(kept, where=name) from None
        else:
            if waiting is not None:
                save_answered(self.store, name, waiting)
        finally:
            runs.pop(name, None)

    @contextmanager
    def seated(self, session: LiveEncounter) -> Iterator[None]:
        """`session` decides with the table of the action it is in (if any) while this lasts."""
        run = self._runs.get(session.stream)
        if run is None:
            yield
            return
        session.table, session.roll_counts = run
        try:
            yield
        finally:
            session.table = None


def _answer(asked: Request, dice: tuple[int, ...], choose: str, roll_for_me: bool) -> tuple[int, ...] | str:
    """The answer to `asked` one of `dice`, `choose` and `roll_for_me` gives, checked against it."""
    if sum((bool(dice), bool(choose), roll_for_me)) != 1:
        how = "--choose OPTION" if asked.kind == "choice" else "--dice"
        raise InvalidInput(f"answer with {how} or with --roll-for-me", where=asked.id, hint=_dice_hint(asked))
    if roll_for_me:
        return ROLL_FOR_ME
    if asked.kind == "choice":
        values = [o.value for o in asked.options]
        if choose not in values:
            says = "; ".join(f"{o.value}: {o.says}" for o in asked.options)
            raise InvalidInput(f"{asked.what} is one of {', '.join(values)}", where="--choose", hint=says)
        return choose
    if choose or len(dice) != asked.faces:
        raise InvalidInput(
            f"{asked.what} reads {asked.faces} faces, not {len(dice)}", where="--dice", hint=_dice_hint(asked)
        )
    return dice


def _dice_hint(request: Request) -> str:
    if request.kind == "choice":
        return f"ua session give NAME {request.id} --choose {'|'.join(o.value for o in request.options)}"
    faces = ",".join(["T", "U"]) if request.faces == 2 else ",".join(["N"] * request.faces)
    return f"ua session give NAME {request.id} --dice {faces} (or --roll-for-me)"


def decoded_command(raw: msgspec.Raw) -> CommandBase:
    from engine.commands import command_decoder

    command: CommandBase = command_decoder.decode(raw)
    return command
