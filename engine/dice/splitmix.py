"""SplitMix64 — the dice source's hash (D-8) — in two exact forms.

`mix64` is the plain form on Python integers. A 64-bit value does not fit a compiled build's
machine integers (63 bits and a tag), so there it would fall back to slow arbitrary-precision
arithmetic on every die; `LimbStream` computes the same faces on three limbs of 22, 22 and 20
bits, where every product and carry fits a machine word (typed `i64`, a compiled build keeps
them as plain machine integers; as plain Python they are ints). The engine uses the limbs when
this module is compiled and the plain form otherwise (the limbs are slower as plain Python);
tests hold the two equal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # mypyc's native 64-bit integer (an int when not compiled)
    from mypy_extensions import i64

MASK: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15
MUL1: Final = 0xBF58476D1CE4E5B9
MUL2: Final = 0x94D049BB133111EB

#: Whether this module runs compiled (then the limbs are the fast form).
COMPILED: Final = not __file__.endswith(".py")


def mix64(z: int) -> int:
    """SplitMix64's finaliser: a bijective avalanche on 64-bit integers."""
    if COMPILED:  # the limbs passed one by one: a compiled build keeps them machine integers
        a0, a1, a2 = split(z)
        return join(mix_limbs(a0, a1, a2))
    return plain_mix64(z)


def plain_mix64(z: int) -> int:
    """`mix64` on Python integers."""
    z = (z + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * MUL1) & MASK
    z = ((z ^ (z >> 27)) * MUL2) & MASK
    return z ^ (z >> 31)


def face_at(base: int, k: int, sides: int) -> int:
    """Face `k` of a stream with this base, in 0…sides−1."""
    return plain_mix64(base ^ ((k * GOLDEN) & MASK)) % sides


# -- on limbs: z = a0 + a1·2²² + a2·2⁴⁴ ------------------------------------------------------

# (Final constants: the compiled build inlines them.)
_L: Final = 22
_M22: Final = (1 << 22) - 1
_M20: Final = (1 << 20) - 1

def split(z: int) -> tuple[i64, i64, i64]:
    return z & _M22, (z >> 22) & _M22, (z >> 44) & _M20


def join(a: tuple[i64, i64, i64]) -> int:
    a0, a1, a2 = a
    return int(a0) | (int(a1) << 22) | (int(a2) << 44)


def _add(a0: i64, a1: i64, a2: i64, c0: i64, c1: i64, c2: i64) -> tuple[i64, i64, i64]:
    s0 = a0 + c0
    s1 = a1 + c1 + (s0 >> _L)
    return s0 & _M22, s1 & _M22, (a2 + c2 + (s1 >> _L)) & _M20


def _mul(a0: i64, a1: i64, a2: i64, c0: i64, c1: i64, c2: i64) -> tuple[i64, i64, i64]:
    """a·c mod 2⁶⁴: each partial product below 2⁴⁴, each sum below 2⁴⁷."""
    p0 = a0 * c0
    p1 = a0 * c1 + a1 * c0 + (p0 >> _L)
    p2 = a0 * c2 + a1 * c1 + a2 * c0 + (p1 >> _L)
    return p0 & _M22, p1 & _M22, p2 & _M20


def _xorshift(a0: i64, a1: i64, a2: i64, s: i64) -> tuple[i64, i64, i64]:
    """a ^ (a >> s) for 22 ≤ s < 44."""
    q = s - _L
    return a0 ^ ((a1 >> q) | ((a2 << (_L - q)) & _M22)), a1 ^ (a2 >> q), a2


# GOLDEN, MUL1 and MUL2 on limbs (split(GOLDEN) and so on; tests check them)
G0: Final = 0xa7c15
G1: Final = 0x26e5fd
G2: Final = 0x9e377
C10: Final = 0x24e5b9
C11: Final = 0x1db473
C12: Final = 0xbf584
C20: Final = 0x3111eb
C21: Final = 0x26ec4c
C22: Final = 0x94d04


def mix_limbs(a0: i64, a1: i64, a2: i64) -> tuple[i64, i64, i64]:
    """`mix64` on limbs."""
    a0, a1, a2 = _add(a0, a1, a2, G0, G1, G2)
    a0, a1, a2 = _xorshift(a0, a1, a2, 30)
    a0, a1, a2 = _mul(a0, a1, a2, C10, C11, C12)
    a0, a1, a2 = _xorshift(a0, a1, a2, 27)
    a0, a1, a2 = _mul(a0, a1, a2, C20, C21, C22)
    return _xorshift(a0, a1, a2, 31)


class LimbStream:
    """The faces of one stream (its base given), computed on limbs."""

    __slots__ = ("b0", "b1", "b2")

    def __init__(self, base: int) -> None:
        self.b0, self.b1, self.b2 = split(base)

    def face(self, k: int, sides: int) -> int:
        """`face_at(base, k, sides)`: z mod n is r0 + r1·(2²² mod n) + r2·(2⁴⁴ mod n), mod n."""
        k0, k1, k2 = split(k)
        g0, g1, g2 = _mul(k0, k1, k2, G0, G1, G2)
        r0, r1, r2 = mix_limbs(self.b0 ^ g0, self.b1 ^ g1, self.b2 ^ g2)
        if sides == 10:
            return (r0 + 4 * r1 + 6 * r2) % 10  # 2²² ≡ 4 and 2⁴⁴ ≡ 6 (mod 10)
        return (r0 + r1 * ((1 << 22) % sides) + r2 * ((1 << 44) % sides)) % sides
