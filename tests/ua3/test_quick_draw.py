"""A ua3 scenario whose answer is known exactly (as `one-shot-duel` for ua2): `quick-draw`.

With a wound threshold of 1 (U-2) any hit kills; the combat stress checks are off (U-25 ranks
0); nobody dodges (U-12). Each round Bart's gun (Gunslinger 55) goes before Ace's (Deputy 40)
by the rating each declared action uses (U-22); a jammed shooter declares clearing it (rating
0: it goes last, and shoots nobody that round). A gun hits on 01…rating (01 a crit: the cap,
U-5), 100 is a fumble that jams (U-5), matches mean nothing. So it is the Markov chain of
`tests/test_simulate.py` with Bart first."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from engine.scenario.scenario import load_scenario
from engine.simulate.batch import run_batch
from engine.simulate.pool import default_workers
from engine.simulate.stats import wilson
from tests.test_simulate import exact_first_side_wins

QUICK_DRAW = Path(__file__).resolve().parents[2] / "scenarios" / "ua3" / "quick-draw.toml"


def test_quick_draw_is_a_simple_markov_chain():
    """U-2, U-5, U-22, U-25: the terms of the chain, read from the file."""
    loaded = load_scenario(QUICK_DRAW)
    settings = loaded.settings
    assert settings.wound_threshold == 1  # U-2: 1 wound ≥ 100% of 1: dead
    assert (settings.attacked_with_weapon_rank, settings.shot_at_rank, settings.kill_rank) == (0, 0, 0)
    ace, bart = loaded.fighters
    for f, rating in ((ace, 40), (bart, 55)):
        (identity,) = f.sheet.identities
        assert identity.firearms and identity.rating == rating and not identity.obsession
        assert not any(i.wound_threshold or i.initiative for i in f.sheet.identities)
        assert f.rules[0].do == "clear_jam" and all(r.do != "dodge" for r in f.rules)
        assert next(w for w in f.arsenal if w.name == f.in_hand).kind == "firearm"


def test_quick_draw_win_rate_matches_the_exact_markov_chain():
    """U-22: Bart first; the simulated rate agrees with the exact one within its interval."""
    loaded = load_scenario(QUICK_DRAW)
    exact = exact_first_side_wins(Fraction(55, 100), Fraction(40, 100), loaded.settings.max_rounds)
    assert abs(float(exact) - 0.751810) < 1e-6
    n = 20_000
    _, tally, _ = run_batch(loaded, n, 20261201, workers=default_workers())
    assert tally.fights == n and tally.refusals == 0
    wins = tally.wins.get("bart", 0)
    low, high = wilson(wins, n)
    assert low <= float(exact) <= high, (
        f"bart wins {wins}/{n}; 95% CI [{low:.4f}, {high:.4f}]; exact {float(exact):.6f}"
    )
    assert tally.wins.get("ace", 0) + wins == n  # never a draw
