"""The end of a fight (C2-33): one side left able to act, the round limit, the GM's word."""

from __future__ import annotations

import msgspec
import pytest

from engine.commands.combat import Attack, BeginFight, DoNothing, EndFight, Flee, Surrender
from engine.commands.madness import MadnessCheck
from engine.errors import Refused
from engine.events import combat as ev
from engine.events.base import EventBase
from engine.events.madness import MadnessCheckResolved
from engine.settings import Settings
from tests.fixtures import Table
from tests.rules.support import QUIET, arena, fighter, of, one


def two_on_one(settings: Settings = QUIET) -> Table:
    return arena(
        ("ann", "a", fighter("Ann", init=40, firearms=90, weapons=[".44 revolver"]), ".44 revolver"),
        ("bob", "b", fighter("Bob", init=20)),
        ("cy", "b", fighter("Cy", init=10)),
        settings=settings,
    )


def test_the_fight_ends_when_only_one_side_can_act_c2_33() -> None:
    t = two_on_one()
    t.do(Attack(actor="ann", target="bob", dice=(5, 8)))
    t.do(Flee(actor="cy"))
    ended = t.state.fight.result
    assert ended is not None and ended.winner == "a" and t.state.fight.phase == "ended"
    assert "side a wins" in ended.reason or ended.reason.startswith("only side a")


def test_fled_and_surrendered_fighters_cannot_act_so_the_fight_ends_c2_33() -> None:
    t = two_on_one()
    t.do(DoNothing(actor="ann"))
    t.do(Surrender(actor="bob"))
    events = t.do(Flee(actor="cy"))
    end = one(events, ev.FightEnded)
    assert (end.winner, end.round) == ("a", 1) and "C2-33" in end.explain()
    assert (t.status("bob"), t.status("cy")) == ("surrendered", "fled")


def test_the_round_limit_ends_the_fight_as_a_draw_c2_33() -> None:
    t = two_on_one(msgspec.structs.replace(QUIET, max_rounds=2))
    for _ in range(2):
        for actor in ("ann", "bob", "cy"):
            events = t.do(DoNothing(actor=actor))
    end = one(events, ev.FightEnded)
    assert (end.winner, end.round) == (None, 2) and "a draw" in end.explain()
    assert "round limit (2)" in end.reason


def test_the_default_round_limit_is_100_c2_33() -> None:
    assert Settings().max_rounds == 100


def test_the_gm_may_end_the_fight_c2_33() -> None:
    t = two_on_one()
    end = one(t.do(EndFight(reason="the police arrive", winner="b")), ev.FightEnded)
    assert end.winner == "b" and "the police arrive" in end.explain()
    with pytest.raises(Refused, match="no fight"):
        t.do(EndFight())


def test_the_gm_cannot_name_a_side_that_is_not_there_c2_33() -> None:
    with pytest.raises(Refused, match="no side"):
        two_on_one().do(EndFight(winner="z"))


def test_nothing_happens_in_a_fight_that_is_over_c2_33() -> None:
    t = two_on_one()
    t.do(EndFight())
    for command in (DoNothing(actor="ann"), Attack(actor="ann", target="bob")):
        with pytest.raises(Refused, match="over"):
            t.do(command)


def test_a_fight_needs_two_sides_able_to_act_c2_33() -> None:
    t = arena(("ann", "a", fighter("Ann")), ("bob", "a", fighter("Bob")), begin=False)
    with pytest.raises(Refused, match="two sides"):
        t.do(BeginFight())


DEFAULTS = Settings()


def _ann_freezes_bob(settings: Settings = DEFAULTS) -> tuple[Table, list[EventBase]]:
    """Ann's knife misses Bob (a cut, C2-14): his first weapon attack (M2-8, violence 1) and a
    Mind roll of 95 fail, and Bob freezes (M2-4, M2-7)."""
    t = arena(
        ("ann", "a", fighter("Ann", init=40, fighting=60, weapons=["knife"]), "knife"),
        ("bob", "b", fighter("Bob", init=20, mind=30)),
        settings=settings,  # M2-8 on: Bob's first weapon attack, violence 1
    )
    events = t.do(Attack(actor="ann", target="bob", dice=(9, 9, 9, 5)))
    assert t.state.combatant("bob").reaction.kind == "freeze"  # type: ignore[union-attr]
    return t, events


def test_a_frozen_side_is_helpless_not_gone_c2_33_m2_7() -> None:
    """C2-33: a frozen combatant is standing, so the fight goes on while Ann can act against
    him: Bob loses his turn, and next round Ann attacks him again and he cannot dodge."""
    t, events = _ann_freezes_bob()
    assert not of(events, ev.FightEnded)
    skipped = one(events, ev.TurnSkipped)
    assert skipped.id == "bob" and "frozen" in skipped.reason
    assert one(events, ev.RoundStarted).round == 2
    again = t.do(Attack(actor="ann", target="bob", dice=(2, 5)))  # 25: a hit, no dodge
    hit = one(again, ev.AttackResolved)
    assert hit.target == "bob" and hit.dodge is None and hit.hit is not None


def test_killing_a_frozen_combatant_is_the_helpless_kill_check_m2_8_c2_33() -> None:
    """Killing the frozen Bob raises Ann's violence check for killing a helpless target (M2-8,
    rank 7), not the plain kill check (rank 3)."""
    t, _ = _ann_freezes_bob()
    t.do(Attack(actor="ann", target="bob", dice=(0, 1, 5, 5)))  # a crit kills (C2-10); Mind 55
    checks = [e for e in of([e for _, e in t.live.records], MadnessCheckResolved) if e.actor == "ann"]
    assert t.status("bob") == "dead"
    assert [(c.rank, "helpless" in c.cause) for c in checks] == [(7, True)]


def test_spare_helpless_ends_the_fight_when_every_standing_opponent_is_frozen_c2_33() -> None:
    """Setting `spare_helpless`: a side whose every standing opponent is frozen stops and wins."""
    _, events = _ann_freezes_bob(Settings(spare_helpless=True))
    end = one(events, ev.FightEnded)
    assert end.winner == "a" and "spares" in end.reason and not of(events, ev.TurnStarted)[1:]


def test_a_side_frozen_before_round_1_still_starts_the_fight_c2_33() -> None:
    """Bob freezes at a GM's madness check before initiative: the fight begins all the same
    (never a draw at round 0), Bob has his place in the order and loses his turns."""
    t = arena(
        ("ann", "a", fighter("Ann", init=40, weapons=["knife"]), "knife"),
        ("bob", "b", fighter("Bob", init=20, mind=30)),
        begin=False,
    )
    t.do(MadnessCheck(actor="bob", meter="unnatural", rank=4, source="the thing", dice=(9, 9)))
    events = t.begin()
    assert not of(events, ev.FightEnded)
    assert one(events, ev.OrderSet).order == ("ann", "bob")
    turn = t.do(Attack(actor="ann", target="bob", dice=(8, 8)))  # 88 misses (a cut)
    assert one(turn, ev.TurnSkipped).id == "bob"


def test_no_one_standing_able_to_act_is_a_draw_c2_33() -> None:
    """Both frozen before the fight: no standing combatant can act, so it ends at once, a draw."""
    t = arena(
        ("ann", "a", fighter("Ann", init=40, mind=30)),
        ("bob", "b", fighter("Bob", init=20, mind=30)),
        begin=False,
    )
    for who in ("ann", "bob"):
        t.do(MadnessCheck(actor=who, meter="unnatural", rank=4, source="the thing", dice=(9, 9)))
    end = one(t.begin(), ev.FightEnded)
    assert end.winner is None and "frozen" in end.reason


def test_a_killer_frozen_by_the_kill_check_still_wins_for_its_side_c2_33_m2_8() -> None:
    """Decision: nobody can act, but only Ann's side is still on its feet (frozen) — it wins."""
    settings = msgspec.structs.replace(QUIET, violence_kill=3)
    t = arena(
        ("ann", "a", fighter("Ann", init=40, firearms=90, weapons=[".44 revolver"]), ".44 revolver"),
        ("bob", "b", fighter("Bob", init=20)),
        settings=settings,
    )
    events = t.do(Attack(actor="ann", target="bob", dice=(5, 8, 9, 9)))  # 58 kills; Mind roll 99 fails
    assert t.status("bob") == "dead"
    end = one(events, ev.FightEnded)
    assert end.winner == "a" and "still standing" in end.reason
