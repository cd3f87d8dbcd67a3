"""Finding the characters a ua3 command names, and rolling for them: the rating chosen, every
shift named (C-12), the next-roll shifts they carry (U-16), flip-flop only with the obsession
(U-19, C-9), passions in play (U-21)."""

from __future__ import annotations

from typing import Literal, NoReturn

from engine.dice.checks import CheckResult, CheckSpec, Kind, Shift, roll_check
from engine.dice.source import DiceSource
from engine.errors import Refused
from engine.events.ua3 import PassionSpent
from engine.rules.passions import Mode, on_failure
from engine.rules.ua3.abilities import Option, best, for_ability, identity_options, relationship_with
from engine.rules.ua3.table import Row, Table
from engine.state.ua3.sheet import GAUGES, U18, GaugeName, Passion

#: Statuses in which a character rolls nothing (U-2).
OUT = ("dead", "unconscious")


def person(t: Table, actor_id: str) -> Row:
    row = t.by_id.get(actor_id)
    if row is None:
        known = ", ".join(t.by_id) or "none yet"
        raise Refused(f"no character {actor_id!r} in this encounter", hint=f"characters: {known}")
    return row


def able(t: Table, actor_id: str, what: str) -> Row:
    """The character, unless it is dead or unconscious (U-2)."""
    row = person(t, actor_id)
    if row.status in OUT:
        raise Refused(f"{actor_id} is {row.status} and cannot {what} (U-2)")
    return row


def rated_options(
    row: Row, ability: str, feature: Literal["resists", "coerces"], gauge: str, people: tuple[str, ...]
) -> tuple[list[Option], Option]:
    """What `row` may roll for `ability` on `gauge` — the ability or an identity standing in for
    it (U-18, U-19), an identity whose `feature` lists the gauge, a relationship with any of
    `people` (U-20) — and the best of them (`pick`'s), remembered with its ratings (`Row.ratings`:
    pure functions of the sheet, the gauges and the names)."""
    ratings = row.ratings()
    key = "\n".join((ability, feature, gauge, *people))
    found = ratings.get(key)
    if found is None:
        options = for_ability(row.sheet, row.gauges, ability) + identity_options(row.sheet, feature, gauge)
        options += relationship_with(row.sheet, *people)
        found = ratings[key] = (options, best(options))
    return found


def coercing_options(coercer: Row, target: Row | None, gauge: str) -> tuple[list[Option], Option]:
    """U-15: what `coercer` may roll to coerce `target` on `gauge` — the gauge's coercing ability
    (U-18) or an identity standing in for it, a `coerces` identity (U-19), a relationship with
    the target (U-20) — and the best of them."""
    people = (target.id, target.name) if target is not None else ()
    return rated_options(coercer, U18[gauge].coerced_with, "coerces", gauge, people)


def best_coercion(coercer: Row, target: Row | None) -> tuple[GaugeName, Option]:
    """U-15, U-19: the gauge whose coercing rating is the best `coercer` has against `target`,
    with that rating (a tie: the first gauge in U-18's order)."""
    found: tuple[GaugeName, Option] | None = None
    for gauge in GAUGES:
        option = coercing_options(coercer, target, gauge)[1]
        if found is None or option.rating > found[1].rating:
            found = (gauge, option)
    assert found is not None
    return found


def spec_for(
    row: Row | None,
    option: Option,
    *,
    kind: Kind = "major",
    shifts: tuple[Shift, ...] = (),
    minimum: int | None = None,
    roll_anyway: bool = False,
    carried: tuple[Shift, ...] = (),
) -> CheckSpec:
    """The check of rolling `option`: its rating, the shifts given and those the roller carries
    to its next roll (U-16), flip-flop with an obsession identity (C-9)."""
    if minimum is not None and not 1 <= minimum <= 100:
        raise Refused(f"a minimum roll is 1–100, got {minimum}", hint="C-8")
    pending = row.next_roll if row is not None else carried
    if not shifts and not pending and kind == "major" and minimum is None and not roll_anyway:
        return _plain(option)
    return CheckSpec(
        kind=kind,
        rating=option.rating,
        shifts=(*shifts, *pending),
        minimum=minimum,
        flip=option.flip,
        roll_anyway=roll_anyway,
        label=option.label,
    )


def _plain(option: Option) -> CheckSpec:
    """The plain major check of rolling `option` (no shifts, no minimum), a value made once
    per option (options are remembered on the rows)."""
    spec = option.plain
    if spec is None:
        spec = option.plain = CheckSpec(kind="major", rating=option.rating, flip=option.flip, label=option.label)
    return spec


def check_orientation(spec: CheckSpec, flipped: bool | None) -> None:
    if flipped is not None and not spec.flip:
        _not_flipped(spec.label)


def check_flip(option: Option, flipped: bool | None) -> None:
    """`check_orientation` of rolling `option` (its checks flip as it does), no check made."""
    if flipped is not None and not option.flip:
        _not_flipped(option.label)


def _not_flipped(label: str) -> NoReturn:
    raise Refused(
        f"a roll with {label} may not be flip-flopped", hint="only rolls with the obsession identity flip (U-19, C-9)"
    )


def roll(spec: CheckSpec, dice: DiceSource, flipped: bool | None, who: str, rule: str = "") -> CheckResult:
    """`who` rolls `spec` (T-1), read as `flipped` states or the better way (C-11)."""
    check_orientation(spec, flipped)
    return roll_check(spec, dice, flipped=flipped, who=who, rule=rule)


def require_passion(t: Table, row: Row, kind: str) -> Passion:
    """The sheet's passion of that kind, unless the character is burned out (U-24), lacks it,
    or spent it this session (U-21, as C-10): refused."""
    if row.burned_out(t.settings):
        raise Refused(f"{row.id} is burned out and has no passions (U-24, U-21)")
    passion = next((p for p in row.sheet.passions if p.kind == kind), None)
    if passion is None:
        raise Refused(f"{row.id} has no {kind} passion on the sheet (U-21)")
    allowed = t.settings.passion_uses_per_session
    if row.passions_spent.count(kind) >= allowed:
        raise Refused(
            f"{row.id}'s {kind} passion is already spent this session",
            hint=f"each passion {allowed}× per session (setting passion_uses_per_session, U-21)",
        )
    return passion


def in_play(t: Table, row: Row, kinds: tuple[str, ...]) -> None:
    """U-15, U-21: passions said to be in play are on the sheet, once each, not burned out."""
    if not kinds:
        return
    if len(set(kinds)) != len(kinds):
        raise Refused(f"a passion of {row.id} is named twice", hint="each passion counts once (U-15)")
    for kind in kinds:
        if row.burned_out(t.settings):
            raise Refused(f"{row.id} is burned out and has no passions in play (U-24, U-21)")
        if not any(p.kind == kind for p in row.sheet.passions):
            raise Refused(f"{row.id} has no {kind} passion on the sheet (U-21)")


def with_passion(
    row: Row, passion: Passion | None, mode: Mode, result: CheckResult, dice: DiceSource
) -> tuple[list[PassionSpent], CheckResult]:
    """U-21: a passion in play changes the failed roll (reroll or flip-flop), when it can help."""
    if passion is None:
        return [], result
    after = on_failure(result, mode, dice, who=row.id)
    if after is None:
        return [], result
    spent = PassionSpent(
        actor=row.id, passion=passion.kind, mode=mode, trigger=passion.trigger, before=result, after=after
    )
    return [spent], after
