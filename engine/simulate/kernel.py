"""The fast path of a batch: a scripted fight fought on plain numbers, held equal to the engine.

`fight.run_fight` — commands decided into events and folded into states — is the reference. The
kernel fights the same fight with the same dice (the fight's dice stream, face by face, in the
same order) and the same tactic choices (its AI stream), but keeps only what the batch report
needs: statuses, wounds, notches, rounds, and how many events the reference would have written.

The opening (scenario madness triggers, initiative, an ambush's start) is fought on the reference
engine — once for the batch when it draws no dice, else once per fight — and the kernel takes over
from the state it leaves. It models strikes with fists, melee weapons and guns (C2-1, C2-7 …
C2-14), dodges (C2-15, C2-16), focus (C2-5), draws, jams and standing up (C2-3), the ambush round
(I2-3), the cherries More Hurt, Big Hurt, New Damage and Knock Down (C2-22, C2-23, C2-29, C2-30),
wounds and their shifts (C2-31, C2-32), flight and surrender (C2-33), the violence checks a fight
raises (M2-2 … M2-5, M2-8) with their reactions (M2-4, M2-7), and the end of the fight (C2-33).
Anything else — grips, conditions, the other cherries, suppressive fire, divided or special
attacks, a knock-down during an ambush — raises `Unsupported`, and that fight is fought again on
the reference engine.

The rule arithmetic is the engine's own (outcome classes and orientation, damage, wound shifts,
dodge effects, target selection, threat); only the order of play is written again here, on
mutable numbers, and tests hold the two paths equal fight by fight (tests/test_kernel.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.dice.checks import SUCCESSES, Outcome, Prefer, major_outcome, takes_flip
from engine.dice.percentile import face_value, percentile_value
from engine.dice.source import SeededDice
from engine.rules.ua2.combat import damage as dmg
from engine.rules.ua2.combat.aftermath import FIGHT_SOURCE, PERMANENT_OVER
from engine.rules.ua2.combat.dodge import dodge_effect
from engine.rules.ua2.combat.situation import attack_skill, skill_spec, wound_shift
from engine.rules.ua2.combat.turns import full_order
from engine.settings import Settings
from engine.simulate.fight import STEPS_PER_ROUND, FightRun, Prepared, run_fight
from engine.simulate.outcome import CombatantEnd, FightOutcome
from engine.state.encounter import Combatant, Encounter, Status
from engine.state.fight import Fighter
from engine.state.sheet import MAX_FAILED, MAX_HARDENED, METERS, Sheet
from engine.state.weapons import FISTS, Weapon
from engine.tactics.choose import FRENZY_ACTIONS, mode_fits, pick_target, threat
from engine.tactics.rules import TacticRule

_HITS = frozenset({"crit", "matched_success", "success"})
_MISSES = frozenset({"failure", "matched_failure", "fumble"})
_CHERRIES = frozenset({"more_hurt", "big_hurt", "new_damage", "knock_down"})


class Unsupported(Exception):
    """The fight reached a rule the kernel does not model: the reference engine fights it."""


@dataclass(frozen=True, slots=True)
class _Check:
    """A sheet's major check, short of shifts: base rating, untrained (C-7), flip-flop (C-9).
    `tables` keeps, per (target, preference), the outcome and value read for each of the 100
    rolls, computed once by the engine's own C-11/C-13 functions."""

    base: int
    untrained: bool
    flip: bool
    cherries: bool = False  # C2-22: the obsession hand-to-hand skill earns cherries
    tables: dict[tuple[int, Prefer], list[tuple[Outcome, int]]] = field(default_factory=dict, compare=False)


def _outcomes(check: _Check, target: int, prefer: Prefer) -> list[tuple[Outcome, int]]:
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
class _Arm:
    """A weapon as one wielder uses it: the facts the rules read, worked out once."""

    weapon: Weapon
    name: str
    kind: str  # the AttackResolved weapon kind: firearm, melee or unarmed
    bonus: int  # C2-7
    cap: int | None  # C2-9
    knife: bool  # C2-14: a penetrating melee weapon cuts on a failed attack
    nonlethal: bool  # C2-10
    check: _Check  # the attack check (C2-1)
    threat: int  # how dangerous its wielder looks with it in hand (tactics)


def _arm(c: Combatant, weapon: Weapon) -> _Arm:
    skill, stat = attack_skill(c, weapon, "strike")
    spec = skill_spec(c, skill, stat, [])
    h2h = c.sheet.hand_to_hand
    cherries = weapon.hand_to_hand and c.sheet.is_obsession(h2h) and spec.label.casefold() == h2h.casefold()
    kind = "firearm" if weapon.kind == "firearm" else ("melee" if weapon.kind == "melee" else "unarmed")
    return _Arm(
        weapon=weapon,
        name=weapon.name,
        kind=kind,
        bonus=weapon.bonus,
        cap=weapon.cap,
        knife=weapon.kind == "melee" and weapon.penetrating,
        nonlethal=weapon.nonlethal,
        check=_Check(spec.base_rating, spec.untrained, spec.flip, cherries),
        threat=threat(c.sheet, weapon),
    )


Test = Callable[["_Fight", "_Fighter"], bool]


@dataclass(frozen=True, slots=True)
class _Rule:
    """A tactic rule with its conditions as quick tests; `chance` (C: an AI draw) comes last."""

    rule: TacticRule
    tests: tuple[Test, ...]
    chance: int | None  # out of 1000
    always: bool


def _rule(rule: TacticRule, at_range: bool) -> _Rule | None:
    """`tactics.choose.holds` as tests over a kernel fight, without those that cannot change in
    one; None when the rule can never hold in it (held, holding, prone never happen here)."""
    w = rule.when
    if (w.at_range is not None and at_range != w.at_range) or w.held or w.holding:
        return None
    tests: list[Test] = []
    if w.wounds_below is not None:
        below = w.wounds_below
        tests.append(lambda fight, me: _fraction(me) < below)
    if w.wounds_at_least is not None:
        least = w.wounds_at_least
        tests.append(lambda fight, me: _fraction(me) >= least)
    if w.enemies_at_least is not None:
        most_few = w.enemies_at_least
        tests.append(lambda fight, me: len(fight.enemies(me)) >= most_few)
    if w.enemies_at_most is not None:
        most_many = w.enemies_at_most
        tests.append(lambda fight, me: len(fight.enemies(me)) <= most_many)
    if w.allies_down is not None:
        down = w.allies_down
        tests.append(lambda fight, me: fight.allies_down(me) == down)
    if w.armed is not None:
        armed = w.armed
        tests.append(lambda fight, me: (me.in_hand.name != "fists") == armed)
    if w.holding_weapon is not None:
        name = w.holding_weapon.casefold()
        tests.append(lambda fight, me: me.in_hand.name.casefold() == name)
    if w.jammed is not None:
        jammed = w.jammed
        tests.append(lambda fight, me: (me.in_hand.name in me.jammed) == jammed)
    if w.round_at_least is not None:
        first = w.round_at_least
        tests.append(lambda fight, me: fight.round >= first)
    if w.round_at_most is not None:
        last = w.round_at_most
        tests.append(lambda fight, me: fight.round <= last)
    if w.reaction is not None:
        reaction = w.reaction
        tests.append(lambda fight, me: (me.reaction or "none") == reaction)
    if w.prone is not None:
        prone = w.prone
        tests.append(lambda fight, me: me.prone == prone)
    if w.dodged_last_round is not None:
        dodged = w.dodged_last_round
        tests.append(lambda fight, me: me.dodged_last_round == dodged)
    chance = None if w.chance is None else round(w.chance * 1000)
    return _Rule(rule, tuple(tests), chance, always=not tests and chance is None)


def _threat(c: _Fighter) -> int:
    return c.in_hand.threat


def _at_range(c: _Fighter) -> bool:
    return c.t.at_range


def _fraction(me: _Fighter) -> float:
    maximum = me.t.max_wounds
    return me.wounds / maximum if maximum else 0.0


class _Template:
    """What every fight starts a combatant with, and what never changes in a fight."""

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
        self.wounds = c.wounds
        self.status = c.status
        self.taken = sum(i.amount for i in c.injuries)
        self.hardened = c.meters.violence.hardened
        self.failed = c.meters.violence.failed
        #: Violence notches before the fight (the setup's), and those gained on other meters since.
        self.base_hardened = baseline.meters.violence.hardened
        self.base_failed = baseline.meters.violence.failed
        self.notches_before = _other_notches(c, baseline)
        self.mind = _Check(c.sheet.stats.mind, untrained=False, flip=False)  # M2-4: a Mind roll
        self.neurosis = c.meters.violence.neurosis
        self.reaction = f.default_reaction or settings.default_reaction  # M2-4, no person to choose
        self.arms = {w.name: _arm(c, w) for w in (*f.arsenal, FISTS)}
        self.arsenal = tuple(self.arms[w.name] for w in f.arsenal)
        self.in_hand = self.arms[(f.weapon() or FISTS).name]
        self.drawn_round = f.drawn_round
        self.jammed = frozenset(f.jammed)
        self.triggered = frozenset(f.triggered)
        self.rules = tuple(r for rule in profile_rules if (r := _rule(rule, at_range)) is not None)
        #: Whether a round's declarations can concern it: a focus or a kept dodge to declare, or
        #: an AI draw made while its rules are looked at (C2-4).
        self.declares = any(
            r.chance is not None
            or (r.rule.do == "attack" and r.rule.focus and r.rule.attacks == 1)
            or (r.rule.do == "dodge" and r.rule.keep_dodging)
            for r in self.rules
        )
        self.at_range = at_range
        self.dodge = _check_of(c, "Dodge", "speed")
        self.dodge_skill = c.sheet.rating("Dodge")
        self.shifts: dict[int, int] = {}

    def weapon(self, name: str) -> _Arm | None:
        wanted = name.casefold()
        for w in self.arsenal:
            if w.name.casefold() == wanted:
                return w
        return self.arms["fists"] if wanted == "fists" else None


def _other_notches(c: Combatant, baseline: Combatant) -> tuple[int, int]:
    """(hardened, failed) notches gained since `baseline` on the meters other than violence
    (the kernel marks violence notches only, M2-8)."""
    others = [m for m in METERS if m != "violence"]
    return (
        sum(c.meters.of(m).hardened - baseline.meters.of(m).hardened for m in others),
        sum(c.meters.of(m).failed - baseline.meters.of(m).failed for m in others),
    )


def _check_of(c: Combatant, skill: str, stat: str) -> _Check:
    spec = skill_spec(c, skill, stat, [])
    return _Check(spec.base_rating, spec.untrained, spec.flip)


class _Fighter:
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

    def __init__(self, t: _Template) -> None:
        self.t = t
        self.side = t.side
        self.wounds = t.wounds
        self.status = t.status
        self.taken = t.taken
        self.dealt = 0
        self.hardened = t.hardened
        self.failed = t.failed
        self.in_hand = t.in_hand
        self.drawn_round = t.drawn_round
        self.jammed = t.jammed
        self.triggered = t.triggered
        self.focus: _Fighter | None = None
        self.focus_amount = 0
        self.dodging = False
        self.continued_dodge = False
        self.dodged_last_round = False
        self.neurosis = t.neurosis
        self.reaction: str | None = None  # M2-4: kept until its source is gone
        self.reaction_source = ""
        self.notches_before = t.notches_before
        self.prone = False
        self.acted_round = -1

    def load(self, c: Combatant, f: Fighter, baseline: Combatant) -> None:
        """Take the combatant as an opening fought on the reference engine left it."""
        self.wounds = c.wounds
        self.status = c.status
        self.taken = sum(i.amount for i in c.injuries)
        violence = c.meters.violence
        self.hardened, self.failed, self.neurosis = violence.hardened, violence.failed, violence.neurosis
        self.notches_before = _other_notches(c, baseline)
        if c.reaction is not None:
            self.reaction = c.reaction.kind
            self.reaction_source = c.reaction.source
        self.in_hand = self.t.arms[(f.weapon() or FISTS).name]
        self.drawn_round = f.drawn_round
        self.jammed = frozenset(f.jammed)
        self.triggered = frozenset(f.triggered)
        self.acted_round = f.acted_round

    @property
    def able(self) -> bool:
        """C2-33: active and not frozen (M2-7)."""
        return self.status == "active" and self.reaction != "freeze"


class Kernel:
    """Fights of one prepared scenario on the fast path; `fight(seed)` or `Unsupported`.

    When the opening (scenario madness triggers, initiative) draws no dice it is the same for
    every fight and is fought once, here; otherwise each fight's opening is fought on the
    reference engine and the kernel takes over from the state it leaves."""

    def __init__(self, prep: Prepared, fixed: FightRun | None) -> None:
        self.prep = prep
        start = fixed.state if fixed is not None else prep.state
        self.settings: Settings = start.settings
        profiles = prep.profiles
        fighters = {f.id: f for f in start.fight.fighters}
        self.baseline = prep.state.combatants
        self.templates = [
            _Template(c, fighters[c.id], before, self.settings, profiles[c.id].rules, profiles[c.id].at_range)
            for c, before in zip(start.combatants, self.baseline, strict=True)
        ]
        self.cherry = {c.id: profiles[c.id].cherry for c in start.combatants}
        self.index = {c.id: i for i, c in enumerate(start.combatants)}
        self.fixed = fixed
        self.step_limit = STEPS_PER_ROUND * (self.settings.max_rounds + 1) * max(1, len(start.combatants))

    def fight(self, seed: int) -> FightOutcome:
        return _Fight(self, seed).run()


def _modelled(state: Encounter, prep: Prepared) -> bool:
    """Whether the kernel can take a fight over from this state: a round's declarations next, or
    an ambush under way (I2-3); no grips, knock-downs, conditions, Second Helpings or
    suppressive fire."""
    fight = state.fight
    if not (fight.phase == "declare" and fight.round >= 1) and not (fight.phase == "ambush" and fight.current):
        return False
    for c in state.combatants:
        if c.id not in prep.profiles:
            return False
    for f in state.fight.fighters:
        if f.in_hand != (f.weapon() or FISTS).name:
            return False  # tactics compare the name as written
        if f.prone or f.held_by or f.holding or f.conditions or f.monkey_dodge or f.no_match_benefits:
            return False
        if f.extra_attack or f.suppressing or f.reinitiative is not None:
            return False
    return True


def compile_kernel(prep: Prepared) -> Kernel | None:
    """A kernel for this scenario, or None when its fights must all go to the reference engine
    (a what-if start mid-fight, or an opening that leaves a state the kernel does not model)."""
    if prep.state.fight.phase != "setup" or prep.state.ruleset != "ua2":
        return None
    probe = run_fight(prep, 0, opening_only=True)
    if probe.faces_drawn or probe.choices_drawn:
        return Kernel(prep, None)  # the opening differs from fight to fight
    if not _modelled(probe.state, prep) or any(c.reaction is not None for c in probe.state.combatants):
        return None
    return Kernel(prep, probe)


class _Fight:
    """One fight on the fast path. Event counts follow what the reference engine emits."""

    def __init__(self, kernel: Kernel, seed: int) -> None:
        self.k = kernel
        self.settings = kernel.settings
        self.fighters = [_Fighter(t) for t in kernel.templates]
        self.winner: str | None = None
        self.ended = False
        opening = kernel.fixed or run_fight(kernel.prep, seed, opening_only=True)
        self.dice = SeededDice(seed, opening.faces_drawn, opening.choices_drawn)
        self.events = opening.event_count
        self.refusals = opening.refusals
        state = opening.state
        self.round = state.fight.round
        self.order = [self.fighters[kernel.index[fid]] for fid in state.fight.order]
        #: I2-3: during an ambush only the ambushers act; round 1 then takes everyone in order.
        self.after_ambush: list[_Fighter] | None = None
        if state.fight.phase == "ambush":
            self.turn = state.fight.turn
            self.after_ambush = [self.fighters[kernel.index[fid]] for fid in full_order(state)]
        else:
            self.turn = -1  # the round's declarations come first
        if kernel.fixed is None:
            if not _modelled(state, kernel.prep):
                raise Unsupported("the opening left a state the kernel does not model")
            fighters = {f.id: f for f in state.fight.fighters}
            for me, c, before in zip(self.fighters, state.combatants, kernel.baseline, strict=True):
                me.load(c, fighters[c.id], before)

    # -- the loop (fight.run_fight) -------------------------------------------------------------

    def run(self) -> FightOutcome:
        steps = 0
        while not self.ended:
            steps += 1
            if steps > self.k.step_limit:
                raise Unsupported("the step guard")
            if self.turn < 0:
                self.declare()
            else:
                self.act(self.order[self.turn])
        return FightOutcome(
            winner=self.winner,
            rounds=self.round,
            events=self.events,
            refusals=self.refusals,
            combatants=tuple(
                CombatantEnd(
                    id=f.t.id,
                    side=f.side,
                    status=f.status,
                    frozen=f.status == "active" and f.reaction == "freeze",
                    taken=f.taken,
                    dealt=f.dealt,
                    hardened=f.hardened + f.notches_before[0] - f.t.base_hardened,
                    failed=f.failed + f.notches_before[1] - f.t.base_failed,
                )
                for f in self.fighters
            ),
        )

    # -- tactics (tactics.choose) ----------------------------------------------------------------

    def enemies(self, me: _Fighter) -> list[_Fighter]:
        return [c for c in self.fighters if c.side != me.side and c.status == "active"]

    def holds(self, rule: _Rule, me: _Fighter) -> bool:
        for test in rule.tests:
            if not test(self, me):
                return False
        return rule.chance is None or self.dice.choose(1000) < rule.chance

    def allies_down(self, me: _Fighter) -> bool:
        return any(c.side == me.side and c is not me and c.status != "active" for c in self.fighters)

    def select_target(self, me: _Fighter, selector: str) -> _Fighter | None:
        enemies = self.enemies(me)
        if not enemies:
            return None
        if me.reaction == "frenzy":  # M2-7: only the source
            source = me.reaction_source.casefold()
            for c in enemies:
                if c.t.id.casefold() == source:
                    return c
        if len(enemies) == 1 and selector != "random":  # a random pick draws even from one
            return enemies[0]
        return pick_target(
            enemies,
            selector,
            threat=_threat,
            focusing_on_me=lambda c: c.focus is me,
            at_range=_at_range,
            choose=self.dice.choose,
        )

    def declare(self) -> None:
        """C2-4: the declarations tactics make (focus, a continued dodge), slowest first."""
        declared: list[tuple[_Fighter, _Fighter | None, int]] = []
        for me in self.order:
            if not me.able or not me.t.declares:
                continue
            frenzied = me.reaction == "frenzy"
            for compiled in me.t.rules:
                if frenzied and compiled.rule.do not in FRENZY_ACTIONS:
                    continue  # M2-7: it would not act on this rule
                if not (compiled.always or self.holds(compiled, me)):
                    continue
                rule = compiled.rule
                if rule.do == "attack" and rule.focus and rule.attacks == 1:
                    target = self.select_target(me, rule.target)
                    if target is not None:
                        declared.append((me, target, rule.focus))
                elif rule.do == "dodge" and rule.keep_dodging and me.dodged_last_round:
                    declared.append((me, None, 0))
                break
        for me, target, amount in declared:
            self.events += 1  # Declared
            if target is not None:
                me.focus, me.focus_amount = target, amount
            else:
                me.dodging = me.continued_dodge = True
        self.start_turn_from(0)

    def act(self, me: _Fighter) -> None:
        """The first rule whose conditions hold and whose action applies (choose_command)."""
        for compiled in me.t.rules:
            if (compiled.always or self.holds(compiled, me)) and self.try_rule(compiled.rule, me):
                return
        self.events += 1  # DidNothing
        self.end_turn()

    def try_rule(self, rule: TacticRule, me: _Fighter) -> bool:
        """Carry out the rule's action and return True, or False when it cannot apply now."""
        weapon = me.in_hand
        do = rule.do
        if do == "attack":
            if rule.weapon and (w := me.t.weapon(rule.weapon)) is not None and w.name != weapon.name:
                self.draw(me, w)
                return True
            if weapon.name in me.jammed or (weapon.name != "fists" and me.drawn_round == self.round):
                return False
            if rule.mode != "strike" and not mode_fits(rule, weapon.weapon):
                return False
            target = self.attack_target(me, rule)
            if target is None:
                return False
            if rule.mode != "strike" or rule.attacks > 1:
                raise Unsupported(f"a {rule.mode} attack of {rule.attacks}")
            self.attack(me, target, weapon, rule.cherry or self.k.cherry[me.t.id])
            return True
        if me.reaction == "frenzy" and do not in FRENZY_ACTIONS:
            return False  # M2-7: a frenzied combatant attacks its source
        if do == "dodge":
            self.events += 1  # DodgeDeclared
            me.dodging = True
            self.end_turn()
            return True
        if do == "draw":
            choice = self.draw_choice(me, rule.weapon)
            if choice is None:
                return False
            self.draw(me, choice)
            return True
        if do == "clear_jam":
            if weapon.name not in me.jammed:
                return False
            self.events += 1  # JamCleared
            me.jammed = me.jammed - {weapon.name}
            self.end_turn()
            return True
        if do == "stand_up":
            if not me.prone:
                return False
            self.events += 1  # StoodUp
            me.prone = False
            self.end_turn()
            return True
        if do in ("break_free", "squeeze"):
            return False  # never held or holding here
        if do == "suppress":
            if weapon.kind != "firearm" or weapon.name in me.jammed or me.drawn_round == self.round:
                return False
            if not self.enemies(me):
                return False
            raise Unsupported("suppressive fire")
        if do == "flee" or do == "surrender":  # C2-33: out of the fight, not defeated
            self.events += 1  # StatusChanged
            self.out(me, "fled" if do == "flee" else "surrendered")
            self.end_turn()
            return True
        self.events += 1  # DidNothing
        self.end_turn()
        return True

    def attack_target(self, me: _Fighter, rule: TacticRule) -> _Fighter | None:
        if me.reaction == "frenzy":  # M2-7: only the source, when it is a combatant
            index = self.k.index.get(me.reaction_source)
            if index is not None:
                source = self.fighters[index]
                return source if source.status == "active" and source is not me else None
        if me.focus is not None and me.focus.status == "active":  # keep to a declared focus (C2-5)
            return me.focus
        return self.select_target(me, rule.target)

    def draw_choice(self, me: _Fighter, named: str) -> _Arm | None:
        if named:
            w = me.t.weapon(named)
            return w if w is not None and w.name != me.in_hand.name else None
        for w in me.t.arsenal:
            if w.name != "fists" and w.name != me.in_hand.name:
                return w
        return None

    def draw(self, me: _Fighter, weapon: _Arm) -> None:
        self.events += 1  # WeaponDrawn
        me.in_hand = weapon
        me.drawn_round = self.round
        self.end_turn()

    # -- rounds and turns (combat.turns) ---------------------------------------------------------

    def start_turn_from(self, index: int) -> None:
        """The turn goes to the first fighter from `index` on who acts (combat.turns.skip_reason)."""
        order = self.order
        round_ = self.round
        for i in range(index, len(order)):
            f = order[i]
            if f.status != "active":
                continue
            if f.reaction == "freeze" or (f.acted_round != round_ and f.continued_dodge):
                self.events += 1  # TurnSkipped: frozen (M2-7), dodging all round (C2-16)
                f.acted_round = round_
                continue
            if f.acted_round == round_:
                continue  # acted before it was knocked down to the end (I2-6)
            self.events += 1  # TurnStarted
            f.acted_round = round_
            self.turn = i
            return
        self.next_round()

    def next_round(self) -> None:
        if self.round >= self.settings.max_rounds:
            self.end(None)  # C2-33: a draw at the round limit
            return
        self.events += 1  # RoundStarted
        self.round += 1
        if self.after_ambush is not None:
            self.order, self.after_ambush = self.after_ambush, None
        self.turn = -1  # declarations first
        for f in self.fighters:
            f.dodged_last_round = f.dodging
            f.dodging = f.continued_dodge = False
            f.focus = None

    def end_turn(self) -> None:
        """C2-33: the fight ends when at most one side can act; else the next turn."""
        sides = {f.side for f in self.fighters if f.status == "active" and f.reaction != "freeze"}
        if len(sides) > 1:
            self.start_turn_from(self.turn + 1)
            return
        if not sides:  # frozen fighters of one side alone still standing hold the field
            standing = {f.side for f in self.fighters if f.status == "active"}
            sides = standing if len(standing) == 1 else set()
        self.end(sides.pop() if sides else None)

    def end(self, winner: str | None) -> None:
        self.events += 1  # FightEnded
        self.winner = winner
        self.ended = True
        self.left(FIGHT_SOURCE)  # M2-4: reactions kept until the fight is over end with it

    # -- checks ------------------------------------------------------------------------------------

    def roll(self, check: _Check, target: int, prefer: Prefer) -> tuple[Outcome, int]:
        """A major check: (outcome, value as read) for the next two faces."""
        table = check.tables.get((target, prefer))
        if table is None:
            table = check.tables[(target, prefer)] = _outcomes(check, target, prefer)
        tens, ones = self.dice.two_d10()
        return table[10 * tens + ones]

    def shift(self, f: _Fighter) -> int:
        """C2-31: the wound shift on every roll."""
        t = f.t
        found = t.shifts.get(f.wounds)
        if found is None:
            found = t.shifts[f.wounds] = wound_shift(f.wounds, t.max_wounds, self.settings)
        return found

    # -- attacks (combat.attack) -----------------------------------------------------------------

    def attack(self, me: _Fighter, target: _Fighter, arm: _Arm, cherry_named: str | None) -> None:
        check = arm.check
        aim = check.base + self.shift(me)
        if me.focus is target:
            aim += me.focus_amount  # C2-5
        if target.focus is not None:
            aim += target.focus_amount  # C2-5: the target is focusing
        kind = arm.kind
        outcome, value = self.roll(check, aim, "high" if kind == "firearm" else "as_rolled")
        trigger = "shot_at" if kind == "firearm" else "attacked_with_weapon"
        first_trigger = kind != "unarmed" and trigger not in target.triggered
        if first_trigger:
            target.triggered = target.triggered | {trigger}

        avoided = half = False
        hit = outcome in _HITS
        if hit and target.dodging and target.able and target.reaction != "frenzy":
            dodge = target.t.dodge
            dodge_outcome, dodge_value = self.roll(dodge, dodge.base + self.shift(target), "high")
            effect = dodge_effect(dodge_outcome, dodge_value, value, target.t.dodge_skill)
            avoided, half = effect == "full", effect == "half"
        cherry = None
        if outcome == "matched_success" and check.cherries and not avoided:
            cherry = cherry_named or self.settings.default_cherry
            if cherry not in _CHERRIES:
                raise Unsupported(f"the {cherry} cherry")
        self.events += 1  # AttackResolved
        if hit and not avoided:
            if outcome == "crit":  # C2-10
                self.events += 1  # StatusChanged
                self.out(target, "unconscious" if arm.nonlethal else "dead")
            else:
                amount = self.damage(arm, outcome, value, cherry)
                if half:
                    amount = dmg.half_of(amount)
                me.dealt += amount
                self.wound(target, amount)
                if cherry is not None:
                    self.events += 1  # CherryTaken
                    if cherry == "knock_down" and target.status != "dead":
                        self.knock_down(me, target)
        elif outcome in _MISSES:
            self.failure_effects(me, target, arm, outcome)
        settings = self.settings
        if first_trigger:
            rank = settings.violence_first_shot_at if kind == "firearm" else settings.violence_first_weapon_attack
            self.madness(target, rank, me.t.id)
        if target.status == "dead":
            self.madness(me, settings.violence_kill, FIGHT_SOURCE)
            for ally in self.fighters:
                if ally is not target and ally is not me and ally.side == target.side and ally.status == "active":
                    self.madness(ally, settings.violence_ally_killed, me.t.id)
        self.end_turn()

    def knock_down(self, me: _Fighter, target: _Fighter) -> None:
        """C2-29, I2-6: the target falls to the end of the order; the acting fighter keeps its
        turn. (The next rounds keep this order: the fallen one ranks below everyone.)"""
        if self.after_ambush is not None:
            raise Unsupported("a knock-down in an ambush")  # it changes the ranks of round 1
        self.events += 1  # KnockedDown
        self.order.remove(target)
        self.order.append(target)
        self.turn = self.order.index(me)
        target.prone = True

    def damage(self, arm: _Arm, outcome: str, value: int, cherry: str | None) -> int:
        """C2-7, C2-9, C2-12 and the damage cherries (C2-23, C2-30); `value` as read."""
        if arm.kind == "firearm":
            return dmg.firearm_amount(value, arm.cap)
        bonus = arm.bonus
        if outcome == "matched_success" and bonus >= 6:
            base = dmg.firearm_style_amount(value, bonus)
        else:
            tens, ones = divmod(value % 100, 10)
            base = dmg.digit_sum_amount(face_value(tens) + face_value(ones), bonus)
        if cherry == "big_hurt" and bonus < 6:
            return dmg.firearm_style_amount(value, bonus)
        if cherry == "more_hurt":
            return base + face_value(self.dice.d10())
        if cherry == "new_damage":
            new_tens, new_ones = self.dice.two_d10()
            if bonus >= 6:
                return dmg.firearm_style_amount(percentile_value(new_tens, new_ones), bonus)
            return dmg.digit_sum_amount(face_value(new_tens) + face_value(new_ones), bonus)
        return base

    def failure_effects(self, me: _Fighter, target: _Fighter, arm: _Arm, outcome: str) -> None:
        """C2-11 fumbles, C2-13 matched failures, C2-14 knives cut."""
        if outcome == "fumble":
            self.events += 1  # WeaponJammed or WoundsInflicted
            if arm.kind == "firearm":
                me.jammed = me.jammed | {arm.name}
            else:
                self.wound(me, 20 + arm.bonus)
            return
        if outcome == "matched_failure" and arm.kind == "melee" and arm.bonus:
            self.events += 1  # WoundsInflicted
            self.wound(me, arm.bonus)
        if arm.knife and target.status != "dead":
            self.events += 1  # WoundsInflicted
            me.dealt += 1
            self.wound(target, 1)

    def wound(self, f: _Fighter, amount: int) -> None:
        """The wound and its status (C2-31, C2-32); the caller counts the wounding event."""
        f.wounds -= amount
        f.taken += amount
        if amount > PERMANENT_OVER:
            self.events += 1  # PermanentDamage
        if f.status == "dead":
            return
        if f.wounds <= self.settings.dead_at:
            self.events += 1  # StatusChanged
            self.out(f, "dead")
        elif f.wounds <= self.settings.incapacitated_at and f.status == "active":
            self.events += 1  # StatusChanged
            self.out(f, "incapacitated")

    def out(self, f: _Fighter, status: Status) -> None:
        """The fighter leaves the fight (the caller counts its StatusChanged)."""
        f.status = status
        f.dodging = f.continued_dodge = False
        self.left(f.t.id)

    def left(self, source: str) -> None:
        """M2-4: reactions kept for `source` end now that it is gone."""
        key = source.strip().casefold()
        for f in self.fighters:
            if f.reaction is not None and f.reaction_source.strip().casefold() == key:
                self.events += 1  # ReactionEnded
                f.reaction = None

    def madness(self, f: _Fighter, rank: int, source: str) -> None:
        """M2-2 … M2-5 and M2-7 for a violence check the fight raises (M2-8)."""
        if rank <= 0 or f.status != "active":
            return
        self.events += 1  # MadnessCheckResolved
        if f.hardened >= rank:  # M2-2
            return
        if f.failed < MAX_FAILED:  # else M2-3: an automatic failure, nothing rolled or marked
            outcome, _ = self.roll(f.t.mind, f.t.mind.base, "as_rolled")
            self.events += 2  # CheckRolled, NotchMarked
            if outcome in SUCCESSES:
                f.hardened = min(MAX_HARDENED, f.hardened + 1)
                return
            f.failed += 1
            if f.failed == MAX_FAILED and not f.neurosis:  # M2-5
                self.events += 1  # NeurosisMarked
                f.neurosis = True
        reaction = f.t.reaction
        self.events += 1  # ReactionTaken
        f.reaction = reaction
        f.reaction_source = source
        if reaction == "flee":  # M2-7: leaves the fight
            self.events += 1  # StatusChanged
            self.out(f, "fled")
