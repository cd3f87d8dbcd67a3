"""The kernel's fight: the order of play of `fight.run_fight` on mutable numbers, counting the
events the reference engine would write (see the package docstring)."""

from __future__ import annotations

from typing import NamedTuple

from engine.dice.checks import SUCCESSES, Outcome, Prefer
from engine.dice.percentile import face_value, percentile_value
from engine.dice.source import SeededDice
from engine.rules.ua2.combat import damage as dmg
from engine.rules.ua2.combat.aftermath import FIGHT_SOURCE, PERMANENT_OVER
from engine.rules.ua2.combat.attack import HITS
from engine.rules.ua2.combat.dodge import dodge_effect
from engine.rules.ua2.combat.situation import wound_shift
from engine.rules.ua2.combat.turns import full_order
from engine.settings import Settings
from engine.simulate.fight import STEPS_PER_ROUND, FightRun, Prepared, run_fight
from engine.simulate.kernel.combatants import Arm, Check, FighterState, Start, Template, outcomes, start_of
from engine.simulate.outcome import CombatantEnd, FightOutcome
from engine.state.encounter import Encounter, Status
from engine.state.sheet import MAX_FAILED, MAX_HARDENED, MAX_RANK
from engine.state.weapons import FISTS
from engine.tactics.choose import FRENZY_ACTIONS, draw_choice, mode_fits, pick_target
from engine.tactics.rules import TacticRule

_CHERRIES = frozenset({"more_hurt", "big_hurt", "new_damage", "knock_down"})


class Unsupported(Exception):
    """The fight reached a rule the kernel does not model: the reference engine fights it."""


class Opening(NamedTuple):
    """What the kernel takes over from an opening fought on the engine (triggers, initiative,
    an ambush's start): the events and dice it used, the order, and each combatant's `Start`."""

    events: int
    refusals: int
    reasons: tuple[str, ...]
    faces: int
    choices: int
    round: int
    order: tuple[int, ...]
    turn: int  # −1: the round's declarations come next
    after_ambush: tuple[int, ...] | None  # I2-3: round 1's order after an ambush
    starts: tuple[Start, ...] | None  # None: the opening is not one the kernel models


#: The openings kept: the next face read → the subtree of openings that read it, or the one that
#: ends with it (no opening's faces are the start of another's: it stops reading where it ends).
_Tree = dict[int, "_Tree | Opening"]

#: Distinct openings kept per worker (about 4 KB each with six combatants: memory stays bounded);
#: past it, the others are fought on the engine each time.
MAX_OPENINGS = 2_000


class Kernel:
    """Fights of one prepared scenario on the fast path; `fight(seed)` or `Unsupported`.

    The opening is fought on the reference engine. When it draws no dice it is the same for every
    fight and is fought once. Otherwise it is a pure function of the faces it reads, so each
    distinct opening is fought once and kept in a tree keyed by those faces, then found again by
    reading the fight's faces down the tree."""

    def __init__(self, prep: Prepared, fixed: FightRun | None) -> None:
        self.prep = prep
        start = fixed.state if fixed is not None else prep.state
        self.settings: Settings = start.settings
        profiles = prep.profiles
        fighters = {f.id: f for f in start.fight.fighters}
        self.baseline = prep.state.combatants
        self.templates = [
            Template(c, fighters[c.id], before, self.settings, profiles[c.id].rules, profiles[c.id].at_range)
            for c, before in zip(start.combatants, self.baseline, strict=True)
        ]
        self.cherry = {c.id: profiles[c.id].cherry for c in start.combatants}
        self.index = {c.id: i for i, c in enumerate(start.combatants)}
        self.step_limit = STEPS_PER_ROUND * (self.settings.max_rounds + 1) * max(1, len(start.combatants))
        self.fixed = self.opening_of(fixed) if fixed is not None else None
        self.openings: _Tree = {}
        self.kept = 0

    def fight(self, seed: int) -> FightOutcome:
        opening = self.fixed if self.fixed is not None else self.opening(seed)
        if opening.starts is None:
            raise Unsupported("the opening left a state the kernel does not model")
        return _Fight(self, seed, opening).run()

    def opening(self, seed: int) -> Opening:
        """This fight's opening: found by its faces, else fought on the engine (and kept)."""
        dice = SeededDice(seed)
        node: _Tree | Opening = self.openings
        while isinstance(node, dict) and node:
            node = node.get(dice.d10(), {})
        if isinstance(node, Opening):
            return node
        run = run_fight(self.prep, seed, opening_only=True)
        opening = self.opening_of(run)
        # Kept only when every face it read counts: a refused command's faces are read again.
        if not run.choices_drawn and not run.refusals and self.kept < MAX_OPENINGS:
            self.keep(seed, run.faces_drawn, opening)
        return opening

    def keep(self, seed: int, faces: int, opening: Opening) -> None:
        dice = SeededDice(seed)
        node = self.openings
        for k in range(faces):
            face = dice.d10()
            if k == faces - 1:
                node[face] = opening
            else:
                child = node.setdefault(face, {})
                assert isinstance(child, dict)  # openings are prefix-free: a leaf ends every path
                node = child
        self.kept += 1

    def opening_of(self, run: FightRun) -> Opening:
        state = run.state
        fight = state.fight
        index = self.index
        starts = None
        if _modelled(state, self.prep):
            fighters = {f.id: f for f in fight.fighters}
            starts = tuple(
                start_of(t, c, fighters[c.id], before)
                for t, c, before in zip(self.templates, state.combatants, self.baseline, strict=True)
            )
        ambush = fight.phase == "ambush"
        return Opening(
            events=run.event_count,
            refusals=run.refusals,
            reasons=tuple(run.refusal_reasons),
            faces=run.faces_drawn,
            choices=run.choices_drawn,
            round=fight.round,
            order=tuple(index[fid] for fid in fight.order),
            turn=fight.turn if ambush else -1,
            after_ambush=tuple(index[fid] for fid in full_order(state)) if ambush else None,
            starts=starts,
        )


def _modelled(state: Encounter, prep: Prepared) -> bool:
    """Whether the kernel can take a fight over from this state: a round's declarations next, or
    an ambush under way (I2-3); tactics for every combatant; no grips, knock-downs, conditions,
    Second Helpings or suppressive fire."""
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
    if not _modelled(probe.state, prep):
        return None
    return Kernel(prep, probe)


def in_hand_threat(c: FighterState) -> int:
    return c.in_hand.threat


def at_range_of(c: FighterState) -> bool:
    return c.t.at_range


def _end(f: FighterState) -> CombatantEnd:
    t = f.t
    hardened, failed = f.hardened - t.base_hardened, f.failed - t.base_failed
    notches = f.notches_before
    if hardened or failed:
        notches = (("violence", hardened, failed), *notches)  # METERS order: violence first
    others = f.others_gained
    frozen = f.status == "active" and f.reaction == "freeze"
    return CombatantEnd(
        t.id, f.side, f.status, frozen, f.taken, f.dealt, hardened + others[0], failed + others[1], f.permanent, notches
    )


class _Fight:
    """One fight on the fast path. Event counts follow what the reference engine emits."""

    def __init__(self, kernel: Kernel, seed: int, opening: Opening) -> None:
        assert opening.starts is not None
        self.k = kernel
        self.settings = kernel.settings
        fighters = self.fighters = [FighterState(t, s) for t, s in zip(kernel.templates, opening.starts, strict=True)]
        self.winner: str | None = None
        self.ended = False
        self.dice = SeededDice(seed, opening.faces, opening.choices)
        self.events = opening.events
        self.refusals = opening.refusals
        self.reasons = opening.reasons  # the kernel refuses nothing itself: only the opening can
        self.round = opening.round
        self.turn = opening.turn
        self.order = [fighters[i] for i in opening.order]
        #: I2-3: during an ambush only the ambushers act; round 1 then takes everyone in order.
        self.after_ambush = None if opening.after_ambush is None else [fighters[i] for i in opening.after_ambush]

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
        ends = tuple([_end(f) for f in self.fighters])
        return FightOutcome(self.winner, self.round, self.events, self.refusals, ends, self.reasons)

    # -- tactics (tactics.choose) ----------------------------------------------------------------

    def enemies(self, me: FighterState) -> list[FighterState]:
        return [c for c in self.fighters if c.side != me.side and c.status == "active"]

    def allies_down(self, me: FighterState) -> bool:
        return any(c.side == me.side and c is not me and c.status != "active" for c in self.fighters)

    def select_target(self, me: FighterState, selector: str) -> FighterState | None:
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
            threat=in_hand_threat,
            focusing_on_me=lambda c: c.focus is me,
            at_range=at_range_of,
            choose=self.dice.choose,
        )

    def declare(self) -> None:
        """C2-4: the declarations tactics make (focus, a continued dodge), slowest first —
        `tactics.choose.declarations` and the Declare rule, on this fight's numbers."""
        declared: list[tuple[FighterState, FighterState | None, int]] = []
        for me in self.order:
            if not me.able or not me.t.declares:
                continue
            frenzied = me.reaction == "frenzy"
            for compiled in me.t.rules:
                if frenzied and compiled.rule.do not in FRENZY_ACTIONS:
                    continue  # M2-7: it would not act on this rule
                holds = compiled.holds
                if holds is not None and not holds(self, me):
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

    def act(self, me: FighterState) -> None:
        """The first rule whose conditions hold and whose action applies (choose_command)."""
        for compiled in me.t.rules:
            holds = compiled.holds
            if (holds is None or holds(self, me)) and self.try_rule(compiled.rule, me):
                return
        self.events += 1  # DidNothing
        self.end_turn()

    def try_rule(self, rule: TacticRule, me: FighterState) -> bool:
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

    def attack_target(self, me: FighterState, rule: TacticRule) -> FighterState | None:
        if me.reaction == "frenzy":  # M2-7: only the source, when it is a combatant
            index = self.k.index.get(me.reaction_source)
            if index is not None:
                source = self.fighters[index]
                return source if source.status == "active" and source is not me else None
        if me.focus is not None and me.focus.status == "active":  # keep to a declared focus (C2-5)
            return me.focus
        return self.select_target(me, rule.target)

    def draw_choice(self, me: FighterState, named: str) -> Arm | None:
        return draw_choice(me.t.arsenal, me.in_hand.name, named, me.t.weapon)

    def draw(self, me: FighterState, weapon: Arm) -> None:
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

    def roll(self, check: Check, target: int, prefer: Prefer) -> tuple[Outcome, int]:
        """A major check: (outcome, value as read) for the next two faces."""
        table = check.tables.get((target, prefer))
        if table is None:
            table = check.tables[(target, prefer)] = outcomes(check, target, prefer)
        tens, ones = self.dice.two_d10()
        return table[10 * tens + ones]

    def shift(self, f: FighterState) -> int:
        """C2-31: the wound shift on every roll."""
        t = f.t
        found = t.shifts.get(f.wounds)
        if found is None:
            found = t.shifts[f.wounds] = wound_shift(f.wounds, t.max_wounds, self.settings)
        return found

    # -- attacks (combat.attack) -----------------------------------------------------------------

    def attack(self, me: FighterState, target: FighterState, arm: Arm, cherry_named: str | None) -> None:
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
        hit = outcome in HITS
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
        elif not hit:
            self.failure_effects(me, target, arm, outcome)
        settings = self.settings
        if first_trigger:
            rank = settings.violence_first_shot_at if kind == "firearm" else settings.violence_first_weapon_attack
            self.madness(target, rank, me.t.id)
        if target.status == "dead":  # never helpless here (M2-8): targets are active and none held
            self.madness(me, settings.violence_kill, FIGHT_SOURCE)
            for ally in self.fighters:
                if ally is not target and ally is not me and ally.side == target.side and ally.status == "active":
                    self.madness(ally, settings.violence_ally_killed, me.t.id)
        self.end_turn()

    def knock_down(self, me: FighterState, target: FighterState) -> None:
        """C2-29, I2-6: the target falls to the end of the order; the acting fighter keeps its
        turn. (The next rounds keep this order: the fallen one ranks below everyone.)"""
        if self.after_ambush is not None:
            raise Unsupported("a knock-down in an ambush")  # it changes the ranks of round 1
        if target not in self.order:  # no initiative (frozen before the fight began, M2-7)
            raise Unsupported("a knock-down of a fighter with no place in the order")
        self.events += 1  # KnockedDown
        self.order.remove(target)
        self.order.append(target)
        self.turn = self.order.index(me)
        target.prone = True

    def damage(self, arm: Arm, outcome: str, value: int, cherry: str | None) -> int:
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

    def failure_effects(self, me: FighterState, target: FighterState, arm: Arm, outcome: str) -> None:
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

    def wound(self, f: FighterState, amount: int) -> None:
        """The wound and its status (C2-31, C2-32); the caller counts the wounding event."""
        f.wounds -= amount
        f.taken += amount
        if amount > PERMANENT_OVER:
            self.events += 1  # PermanentDamage
            f.permanent += 1
        if f.status == "dead":
            return
        if f.wounds <= self.settings.dead_at:
            self.events += 1  # StatusChanged
            self.out(f, "dead")
        elif f.wounds <= self.settings.incapacitated_at and f.status == "active":
            self.events += 1  # StatusChanged
            self.out(f, "incapacitated")

    def out(self, f: FighterState, status: Status) -> None:
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

    def madness(self, f: FighterState, rank: int, source: str) -> None:
        """M2-2 … M2-5 and M2-7 for a violence check the fight raises (M2-8)."""
        if rank <= 0 or f.status != "active":
            return
        if rank > MAX_RANK:
            raise Unsupported(f"a violence check of rank {rank}")  # the engine refuses the action
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
