"""The percentile model (D-1…D-7) and the counter-based dice source (D-8)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dice.percentile import Percentile
from engine.dice.source import AI, SeededDice, TableDice, derive_seed, face, parse_faces, stream_base
from engine.dice.splitmix import LimbStream, face_at, join, mix64, mix_limbs, split
from engine.errors import DiceError


@pytest.mark.parametrize(
    ("tens", "ones", "value"),
    [(4, 7, 47), (0, 7, 7), (0, 0, 100), (0, 1, 1), (9, 9, 99), (1, 0, 10)],
)
def test_value_is_tens_then_ones_and_double_zero_is_100_d1(tens: int, ones: int, value: int) -> None:
    assert Percentile(tens=tens, ones=ones).value == value


def test_crit_is_01_and_fumble_is_00_d2() -> None:
    """D-2: a crit is value 1 (dice 0,1), a fumble value 100 (dice 0,0)."""
    assert Percentile(tens=0, ones=1).is_crit
    assert Percentile(tens=0, ones=0).is_fumble
    assert not Percentile(tens=1, ones=0).is_crit


def test_matched_means_equal_faces_except_00_d3() -> None:
    """D-3: matched means tens = ones and a value other than 100: 11, 22, … 99."""
    assert [v for v in range(1, 101) if Percentile(tens=v // 10 % 10, ones=v % 10).is_matched] == [
        11,
        22,
        33,
        44,
        55,
        66,
        77,
        88,
        99,
    ]


def test_flip_flop_swaps_dice_and_keeps_them_as_rolled_d4() -> None:
    """D-4: a flip-flop reads the dice the other way round; the dice as rolled are kept."""
    roll = Percentile(tens=7, ones=2).flip()
    assert (roll.tens, roll.ones, roll.value) == (7, 2, 27)
    assert Percentile(tens=1, ones=0).flip().value == 1  # 10 → 01, a crit
    assert Percentile(tens=0, ones=0).flip().value == 100


@pytest.mark.parametrize(("tens", "ones", "total"), [(4, 7, 11), (0, 7, 17), (0, 0, 20), (1, 1, 2)])
def test_digit_sum_counts_zero_as_ten_d5(tens: int, ones: int, total: int) -> None:
    assert Percentile(tens=tens, ones=ones).digit_sum == total


def test_face_k_depends_only_on_seed_stream_and_k_d8() -> None:
    a = SeededDice(42)
    drawn = [a.d10() for _ in range(50)]
    assert drawn == [face(42, "dice", k) for k in range(50)]
    b = SeededDice(42, position=30)
    assert [b.d10() for _ in range(20)] == drawn[30:]


@given(st.integers(0, 2**64 - 1), st.integers(0, 500), st.integers(0, 30))
def test_two_faces_at_once_are_the_next_two_faces_d8(seed: int, k: int, ai_draws: int) -> None:
    """`two_d10` (the simulator's percentile roll) is faces k and k+1, as two `d10` calls."""
    dice = SeededDice(seed, position=k, ai_position=ai_draws)
    assert dice.two_d10() == (face(seed, "dice", k), face(seed, "dice", k + 1))
    assert dice.position == k + 2 and dice.ai_position == ai_draws
    assert dice.d10() == face(seed, "dice", k + 2)


def test_ai_choices_come_from_their_own_stream_d8() -> None:
    dice = SeededDice(7)
    picks = [dice.choose(1000) for _ in range(20)]
    assert picks == [face_of_ai(7, k) for k in range(20)] and dice.position == 0


def face_of_ai(seed: int, k: int) -> int:
    """Choice k of the AI stream over 1000 options: the stream's counter-based hash (D-8)."""
    return mix64(stream_base(seed, AI) ^ ((k * 0x9E3779B97F4A7C15) & (2**64 - 1))) % 1000


@given(st.integers(0, 2**64 - 1), st.integers(0, 500), st.integers(0, 50))
def test_ai_choices_never_shift_the_dice_d8(seed: int, k: int, ai_draws: int) -> None:
    plain = SeededDice(seed, position=k)
    mixed = SeededDice(seed, position=k)
    for _ in range(ai_draws):
        mixed.choose(6)
    assert plain.d10() == mixed.d10() == face(seed, "dice", k)


def test_faces_are_roughly_uniform() -> None:
    counts = [0] * 10
    dice = SeededDice(7)
    for _ in range(20_000):
        counts[dice.d10()] += 1
    assert all(1_800 < c < 2_200 for c in counts)


def test_derived_seeds_differ_per_fight() -> None:
    assert len({derive_seed(1, i) for i in range(1_000)}) == 1_000
    assert derive_seed(1, 5) == derive_seed(1, 5) != derive_seed(2, 5)


def test_table_dice_are_used_first_then_the_fallback() -> None:
    dice = TableDice((4, 7), fallback=SeededDice(3))
    assert [dice.d10(), dice.d10()] == [4, 7]
    assert dice.d10() == face(3, "dice", 0)


def test_table_dice_without_fallback_say_more_are_needed() -> None:
    dice = TableDice((4,))
    dice.d10()
    with pytest.raises(DiceError, match="not enough dice"):
        dice.d10()


@pytest.mark.parametrize(("text", "faces"), [("4,7", (4, 7)), ("4 7", (4, 7)), ("47", (4, 7)), ("0,0", (0, 0))])
def test_dice_entered_at_the_table_parse(text: str, faces: tuple[int, ...]) -> None:
    assert parse_faces(text) == faces


@pytest.mark.parametrize("text", ["", "4,x", "10,2", "-1"])
def test_bad_table_dice_are_refused(text: str) -> None:
    with pytest.raises(DiceError):
        parse_faces(text)


@given(z=st.integers(0, 2**64 - 1))
def test_splitmix_on_limbs_is_the_plain_hash_d8(z: int) -> None:
    """D-8: the dice hash on 22-bit limbs (the compiled build's form) is SplitMix64 exactly."""
    assert join(split(z)) == z
    assert join(mix_limbs(*split(z))) == mix64(z)


@given(base=st.integers(0, 2**64 - 1), k=st.integers(0, 2**40), sides=st.integers(1, 1000))
def test_faces_on_limbs_are_the_plain_faces_d8(base: int, k: int, sides: int) -> None:
    assert LimbStream(base).face(k, sides) == face_at(base, k, sides)


def test_the_limb_constants_are_the_hash_constants_split_d8() -> None:
    import engine.dice.splitmix as m

    assert split(m.GOLDEN) == (m.G0, m.G1, m.G2)
    assert split(m.MUL1) == (m.C10, m.C11, m.C12)
    assert split(m.MUL2) == (m.C20, m.C21, m.C22)
