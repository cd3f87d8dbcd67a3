"""A combatant as the kernel sees it: checks as outcome tables, weapons as the facts the rules
read, what never changes in a fight (`Template`) and what one fight changes (`FighterState`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from engine.dice.checks import Outcome, Prefer, major_outcome, takes_flip
from engine.dice.percentile import percentile_value
from engine.rules.ua2.combat.situation import attack_skill, skill_spec
from engine.settings import Settings
from engine.simulate.kernel.tactics import compile_rule
from engine.simulate.outcome import notches_gained
from engine.state.encounter import Combatant, Status
from engine.state.fight import Fighter
from engine.state.sheet import Sheet
from engine.state.weapons import FISTS, Weapon
from engine.tactics.choose import threat
from engine.tactics.rules import TacticRule


@dataclass(frozen=True, slots=True)
class Check:
    """A sheet's major check, short of shifts: base rating, untrained (C-7), flip-flop (C-9).
    `tables` is a cache: per (target, preference), the outcome and value read for each of the
    100 rolls, filled as fights need them by the engine's own C-11/C-13 functions."""

    base: int
    untrained: bool
    flip: bool
    cherries: bool = False  # C2-22: the obsession hand-to-hand skill earns cherries
    tables: dict[tuple[int, Prefer], list[tuple[Outcome, int]]] = field(default_factory=dict, compare=False)


def outcomes(check: Check, target: int, prefer: Prefer) -> list[tuple[Outcome, int]]:
    """Index 10·tens + ones → (outcome, value as read), the orientation taken as an automated
    actor takes it (C-11)."""
    table = []
    for tens in range(10):
        for ones in range(10):
            value = percentile_value(tens, ones)
            matched = tens == ones and value != 100
            outcome = major_outcome(value, matched, target, untrained=check.untrained)
            if check.flip:
                flipped_value = percentile_value(ones, tens)
                flipped = major_outcome(flipped_value, matched, target, untrained=check.untrained)
                if takes_flip(outcome, flipped, value, flipped_value, prefer):
                    outcome, value = flipped, flipped_value
            table.append((outcome, value))
    return table


@dataclass(frozen=True, slots=True)
class Arm:
    """A weapon as one wielder uses it: the facts the rules read, worked out once."""

    weapon: Weapon
    name: str
    kind: str  # the AttackResolved weapon kind: firearm, melee or unarmed
    bonus: int  # C2-7
    cap: int | None  # C2-9
    knife: bool  # C2-14: a penetrating melee weapon cuts on a failed attack
    nonlethal: bool  # C2-10
    check: Check  # the attack check (C2-1)
    threat: int  # how dangerous its wielder looks with it in hand (tactics)


def arm_of(c: Combatant, weapon: Weapon) -> Arm:
    skill, stat = attack_skill(c, weapon, "strike")
    spec = skill_spec(c, skill, stat, [])
    h2h = c.sheet.hand_to_hand
    cherries = weapon.hand_to_hand and c.sheet.is_obsession(h2h) and spec.label.casefold() == h2h.casefold()
    kind = "firearm" if weapon.kind == "firearm" else ("melee" if weapon.kind == "melee" else "unarmed")
    return Arm(
        weapon=weapon,
        name=weapon.name,
        kind=kind,
        bonus=weapon.bonus,
        cap=weapon.cap,
        knife=weapon.kind == "melee" and weapon.penetrating,
        nonlethal=weapon.nonlethal,
        check=Check(spec.base_rating, spec.untrained, spec.flip, cherries),
        threat=threat(c.sheet, weapon),
    )


class Template:
    """What never changes about a combatant in a fight (and its notches before the fight), and
    `shifts`, a cache of its wound shift (C2-31) by wound points."""

    def __init__(
        self,
        c: Combatant,
        f: Fighter,
        baseline: Combatant,
        settings: Settings,
        profile_rules: tuple[TacticRule, ...],
        at_range: bool,
    ) -> None:
        self.id = c.id
        self.side = c.side
        self.sheet: Sheet = c.sheet
        self.max_wounds = c.max_wounds
        #: Violence notches before the fight (the setup's: outcomes count notches gained).
        self.base_hardened = baseline.meters.violence.hardened
        self.base_failed = baseline.meters.violence.failed
        self.mind = Check(c.sheet.stats.mind, untrained=False, flip=False)  # M2-4: a Mind roll
        self.reaction = f.default_reaction or settings.default_reaction  # M2-4, no person to choose
        self.arms = {w.name: arm_of(c, w) for w in (*f.arsenal, FISTS)}
        self.arsenal = tuple(self.arms[w.name] for w in f.arsenal)
        self.rules = tuple(r for rule in profile_rules if (r := compile_rule(rule, at_range)) is not None)
        #: Whether a round's declarations can concern it: a focus or a kept dodge to declare, or
        #: an AI draw made while its rules are looked at (C2-4).
        self.declares = any(
            r.chance
            or (r.rule.do == "attack" and r.rule.focus and r.rule.attacks == 1)
            or (r.rule.do == "dodge" and r.rule.keep_dodging)
            for r in self.rules
        )
        self.at_range = at_range
        self.dodge = check_of(c, "Dodge", "speed")
        self.dodge_skill = c.sheet.rating("Dodge")
        self.shifts: dict[int, int] = {}

    def weapon(self, name: str) -> Arm | None:
        wanted = name.casefold()
        for w in self.arsenal:
            if w.name.casefold() == wanted:
                return w
        return self.arms["fists"] if wanted == "fists" else None


class Start(NamedTuple):
    """A combatant as the opening left it, where the kernel takes over."""

    wounds: int
    status: Status
    taken: int
    permanent: int
    hardened: int  # violence
    failed: int
    neurosis: bool
    #: (meter, hardened, failed) notches gained in the opening on the other meters that changed
    #: (the kernel marks violence notches only, M2-8), and their (hardened, failed) sums.
    notches_before: tuple[tuple[str, int, int], ...]
    others_gained: tuple[int, int]
    reaction: str | None
    reaction_source: str
    in_hand: Arm
    drawn_round: int
    jammed: frozenset[str]
    triggered: frozenset[str]
    acted_round: int


def start_of(t: Template, c: Combatant, f: Fighter, baseline: Combatant) -> Start:
    violence = c.meters.violence
    earlier = {i.id for i in baseline.injuries}
    new = [i for i in c.injuries if i.id not in earlier]
    others = tuple(n for n in notches_gained(baseline.meters, c.meters) if n[0] != "violence")
    return Start(
        wounds=c.wounds,
        status=c.status,
        taken=sum(i.amount for i in new),
        permanent=sum(i.permanent for i in new),
        hardened=violence.hardened,
        failed=violence.failed,
        neurosis=violence.neurosis,
        notches_before=others,
        others_gained=(sum(n[1] for n in others), sum(n[2] for n in others)),
        reaction=None if c.reaction is None else c.reaction.kind,
        reaction_source="" if c.reaction is None else c.reaction.source,
        in_hand=t.arms[(f.weapon() or FISTS).name],
        drawn_round=f.drawn_round,
        jammed=frozenset(f.jammed),
        triggered=frozenset(f.triggered),
        acted_round=f.acted_round,
    )


def check_of(c: Combatant, skill: str, stat: str) -> Check:
    spec = skill_spec(c, skill, stat, [])
    return Check(spec.base_rating, spec.untrained, spec.flip)


class FighterState:
    """A combatant's state during one kernel fight (mutable, thrown away after it)."""

    __slots__ = (
        "acted_round",
        "continued_dodge",
        "dealt",
        "dodged_last_round",
        "dodging",
        "drawn_round",
        "failed",
        "focus",
        "focus_amount",
        "hardened",
        "in_hand",
        "jammed",
        "neurosis",
        "notches_before",
        "others_gained",
        "permanent",
        "prone",
        "reaction",
        "reaction_source",
        "side",
        "status",
        "t",
        "taken",
        "triggered",
        "wounds",
    )

    def __init__(self, t: Template, start: Start) -> None:
        self.t = t
        self.side = t.side
        self.wounds = start.wounds
        self.status = start.status
        self.taken = start.taken
        self.permanent = start.permanent
        self.hardened = start.hardened
        self.failed = start.failed
        self.neurosis = start.neurosis
        self.notches_before = start.notches_before
        self.others_gained = start.others_gained
        self.reaction = start.reaction  # M2-4: kept until its source is gone
        self.reaction_source = start.reaction_source
        self.in_hand = start.in_hand
        self.drawn_round = start.drawn_round
        self.jammed = start.jammed
        self.triggered = start.triggered
        self.acted_round = start.acted_round
        self.dealt = 0
        self.focus: FighterState | None = None
        self.focus_amount = 0
        self.dodging = False
        self.continued_dodge = False
        self.dodged_last_round = False
        self.prone = False

    @property
    def able(self) -> bool:
        """C2-33: active and not frozen (M2-7)."""
        return self.status == "active" and self.reaction != "freeze"
