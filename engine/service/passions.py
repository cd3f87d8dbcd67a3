"""Passions over HTTP, as `ua session passion` (C-10; ua3 U-21): what a character has left and
whether its last roll failed (so a page can offer the passion), and spending one on that roll —
a check rerolled or flip-flopped in place, an attack or madness check amended to have spent it."""

from __future__ import annotations

from typing import Annotated, Any

import anyio.to_thread
import msgspec
from litestar import Request, get, post
from litestar.params import FromPath

from engine.errors import InvalidInput
from engine.service import bodies, models, sessions
from engine.state.sheet import PassionKind, PassionMode


class PassionSpending(models.Request, frozen=True):
    """`actor` spends `passion` on its last roll, which must have failed. `dice`: the reroll's
    faces (a played character's own, T-3: or `roll_for_me`, the seed rolls it; an NPC's are
    drawn when not given); `flipped`: a rerolled obsession check's orientation."""

    actor: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    passion: PassionKind
    mode: PassionMode = "reroll"
    dice: Annotated[list[Annotated[int, msgspec.Meta(ge=0, le=9)]], msgspec.Meta(max_length=16)] = msgspec.field(
        default_factory=list
    )
    flipped: bool | None = None
    roll_for_me: bool = False


class PassionLeft(models.Response, frozen=True):
    kind: str
    trigger: str
    left: int


class LastRollView(models.Response, frozen=True):
    """The roll a passion would change: what it was, its outcome, whether it failed, and whether
    a passion already changed it."""

    what: str
    outcome: str
    failed: bool
    changed: bool = False


class Passions(models.Response, frozen=True):
    who: str
    passions: list[PassionLeft]
    last_roll: LastRollView | None


def _service(request: Request[Any, Any, Any]) -> Any:
    return request.app.state.service


def passions_of(service: Any, name: str, who: str) -> Passions:
    state = service.sessions.state(name)
    who = service.sessions.combatant_id(state, who, where="who")
    c = next(x for x in state.combatants if x.id == who)
    allowed = int(state.settings.passion_uses_per_session)
    left = [
        PassionLeft(kind=p.kind, trigger=p.trigger, left=max(0, allowed - c.passions_spent.count(p.kind)))
        for p in c.sheet.passions
    ]
    return Passions(who=who, passions=left, last_roll=_last_roll(service, name, state, c))


def _last_roll(service: Any, name: str, state: Any, c: Any) -> LastRollView | None:
    if state.ruleset == "ua3":  # U-21: the last check the state keeps
        check = c.last_check
        if check is None:
            return None
        return LastRollView(what=check.spec.label, outcome=check.outcome, failed=not check.success)
    last = service.sessions.last_roll(name, c.id)
    if last is None:
        return None
    return LastRollView(
        what=last.what, outcome=last.result.outcome, failed=not last.result.success, changed=last.passion
    )


@get(
    "/sessions/{name:str}/passions/{who:str}",
    sync_to_thread=True,
    summary="A combatant's passions left and last roll",
    tags=["passions"],
)
def passions(request: Request[Any, Any, Any], name: FromPath[str], who: FromPath[str]) -> Passions:
    """`who`'s passions and uses left (C-10), and its last roll (a passion changes it if it failed)."""
    return passions_of(_service(request), name, who)


@post(
    "/sessions/{name:str}/passions",
    status_code=200,
    opt={"body": PassionSpending},
    summary="Spend a passion on the last roll",
    tags=["passions"],
)
async def spend_passion(request: Request[Any, Any, Any], name: FromPath[str]) -> models.CommandResult:
    """Spend a passion on the actor's last roll, as `ua session passion` (C-10, U-21)."""
    body = bodies.decode_body(await request.body(), PassionSpending)
    if body.mode == "flip" and body.dice:
        raise InvalidInput("a flip-flop reads the same dice the other way round", where="$.dice", hint="leave it out")
    service = _service(request)
    done = await anyio.to_thread.run_sync(
        lambda: service.sessions.passion(
            name,
            body.actor,
            body.passion,
            body.mode,
            dice=tuple(body.dice),
            flipped=body.flipped,
            draw_rest=body.roll_for_me or None,
        )
    )
    service.changes.poke()
    return sessions.command_result(done, "")


ROUTES = [passions, spend_passion]
DOCUMENTED = [Passions]
