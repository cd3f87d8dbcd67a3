"""`ua odds`, `ua check`, `ua roll` through typer's runner."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from engine.cli.app import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_odds_major_45_are_exact_c13() -> None:
    code, out, _ = run("odds", "--kind", "major", "--rating", "45", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["odds"]["crit"] == 0.01
    assert data["odds"]["matched_success"] == 0.04
    assert data["exact"]["failure"] == "49/100"
    assert sum(data["odds"].values()) == 1.0


def test_odds_with_flip_are_the_flip_flop_odds_c9() -> None:
    code, out, _ = run("odds", "--kind", "major", "--rating", "45", "--flip", "--json")
    assert code == 0
    assert json.loads(out)["exact"]["crit"] == "2/100"


def test_check_significant_52_is_a_weak_success_c4() -> None:
    code, out, _ = run(
        "check",
        "--kind",
        "significant",
        "--rating",
        "45",
        "--stat",
        "60",
        "--dice",
        "5,2",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert (data["outcome"], data["target"], data["value"]) == ("weak_success", 45, 52)


def test_check_shows_every_shift_by_source_c12() -> None:
    code, out, _ = run(
        "check",
        "--kind",
        "significant",
        "--rating",
        "45",
        "--stat",
        "60",
        "--dice",
        "5,2",
        "--shift",
        "-10",
        "--shift",
        "+20",
        "--json",
    )
    data = json.loads(out)
    assert code == 0
    assert [s["amount"] for s in data["shifts"]] == [-10, 20]
    assert all(s["source"] for s in data["shifts"])
    assert data["target"] == 55
    assert data["outcome"] == "success"


def test_named_shifts_keep_their_source() -> None:
    _, out, _ = run(
        "check",
        "--kind",
        "major",
        "--rating",
        "40",
        "--dice",
        "3,0",
        "--shift",
        "focus=+10",
        "--json",
    )
    assert json.loads(out)["shifts"] == [{"source": "focus", "amount": 10}]


def test_check_with_a_seed_is_reproducible() -> None:
    a = run("check", "--kind", "major", "--rating", "40", "--seed", "11", "--json")[1]
    b = run("check", "--kind", "major", "--rating", "40", "--seed", "11", "--json")[1]
    assert a == b
    assert json.loads(a)["seed"] == 11


def test_readable_output_explains_the_roll() -> None:
    code, out, _ = run("check", "--kind", "major", "--rating", "45", "--dice", "4,7")
    assert code == 0
    assert "47" in out and "failure" in out


def test_roll_reports_the_special_readings() -> None:
    code, out, _ = run("roll", "--seed", "3", "-n", "5", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["rolls"]) == 5
    for r in data["rolls"]:
        assert r["value"] == (100 if r["tens"] == r["ones"] == 0 else 10 * r["tens"] + r["ones"])


def test_bad_input_is_one_line_and_a_non_zero_exit() -> None:
    for args in (
        ("check", "--kind", "bogus"),
        ("check", "--kind", "major", "--rating", "40", "--dice", "5"),
        ("check", "--kind", "major", "--rating", "40", "--dice", "a,b"),
        ("check", "--kind", "major", "--rating", "40", "--shift", "lots"),
        ("odds", "--kind", "major", "--minimum", "400"),
        ("nonsense",),
    ):
        code, out, err = run(*args)
        assert code != 0, args
        assert len(err.strip().splitlines()) == 1, (args, err)
        assert err.startswith("error:"), err
        assert "Traceback" not in err + out
