"""The dice source (D-8): every die the engine uses comes from here.

A seeded source is counter-based: face *k* of a named stream is a pure function of
``(seed, stream, k)`` — a SplitMix64 hash — so it never depends on what else was drawn.
The ``dice`` stream feeds the rules; the ``ai`` stream feeds tactics, so an AI choice never
shifts a die. A table source replays faces a person rolled, then falls back to a seeded
source (or refuses) when they run out.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Final, NamedTuple, Protocol

from engine.dice.percentile import Percentile
from engine.dice.rolls import roll_of
from engine.dice.splitmix import COMPILED, MASK, LimbStream, face_at, mix64
from engine.errors import DiceError
from engine.hashing import blake2b

if TYPE_CHECKING:
    from engine.dice.spec import CheckSpec

DICE: Final = "dice"
AI: Final = "ai"


@cache
def _stream_key(stream: str) -> int:
    """A stream's own key (the same for every seed)."""
    return mix64(int.from_bytes(blake2b(stream.encode(), digest_size=8).digest(), "little"))


def stream_base(seed: int, stream: str) -> int:
    """The per-(seed, stream) key every face of that stream is hashed from."""
    return mix64((seed & MASK) ^ _stream_key(stream))


def face(seed: int, stream: str, k: int) -> int:
    """Face *k* (0-based) of a stream: a d10 face 0–9, a pure function of its arguments."""
    return face_at(stream_base(seed, stream), k, 10)


def derive_seed(batch_seed: int, index: int) -> int:
    """The seed of fight *index* of a batch: independent of worker count and order."""
    return mix64(mix64(batch_seed & MASK) ^ ((index + 1) * 0xD1B54A32D192ED03 & MASK))


class DiceSource(Protocol):
    """Where rules get dice. `faces_used` lists every face drawn, in order."""

    def d10(self) -> int:
        """One d10 face, 0–9."""
        ...

    def choose(self, n: int) -> int:
        """An AI choice in 0…n−1 from a stream separate from the dice."""
        ...


class _Stream:
    """One stream's faces, in whichever form of SplitMix64 is fast here (`splitmix`)."""

    __slots__ = ("base", "limbs")

    def __init__(self, base: int) -> None:
        self.base = base
        self.limbs = LimbStream(base) if COMPILED else None

    def face(self, k: int, sides: int) -> int:
        limbs = self.limbs
        return limbs.face(k, sides) if limbs is not None else face_at(self.base, k, sides)


class SeededDice:
    """Counter-based dice: face k of the dice stream is `face(seed, "dice", k)`."""

    __slots__ = ("_ai", "_dice", "ai_position", "position", "seed")

    def __init__(self, seed: int, position: int = 0, ai_position: int = 0) -> None:
        self.seed = seed
        self.position = position
        self.ai_position = ai_position
        self._dice = _Stream(stream_base(seed, DICE))
        self._ai: _Stream | None = None  # keyed on the first AI choice (many fights make none)

    def d10(self) -> int:
        k = self.position
        self.position = k + 1
        return self._dice.face(k, 10)

    def two_d10(self) -> tuple[int, int]:
        """Two faces in a row (a percentile roll's tens and ones), in one call for hot loops."""
        k = self.position
        self.position = k + 2
        return self._dice.face(k, 10), self._dice.face(k + 1, 10)

    def choose(self, n: int) -> int:
        if n <= 0:
            raise ValueError("choose needs at least one option")
        if self._ai is None:
            self._ai = _Stream(stream_base(self.seed, AI))
        k = self.ai_position
        self.ai_position = k + 1
        return self._ai.face(k, n)


class TableDice:
    """Faces rolled at the table, used in order; then the fallback source, if any.

    `exhausted_hint` is shown when faces run out and there is no fallback.
    """

    def __init__(
        self,
        faces: Iterable[int],
        fallback: DiceSource | None = None,
        *,
        exhausted_hint: str = "give more dice, e.g. --dice 4,7",
    ) -> None:
        self.faces = tuple(faces)
        for f in self.faces:
            if not isinstance(f, int) or not 0 <= f <= 9:
                raise DiceError(f"a die face must be 0–9, got {f!r}", hint="faces are d10 faces, 0–9")
        self.used = 0
        self.fallback = fallback
        self.exhausted_hint = exhausted_hint

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.used

    def d10(self) -> int:
        if self.used < len(self.faces):
            self.used += 1
            return self.faces[self.used - 1]
        if self.fallback is None:
            raise DiceError("not enough dice were given for this roll", hint=self.exhausted_hint)
        return self.fallback.d10()

    def choose(self, n: int) -> int:
        if self.fallback is None:
            return 0
        return self.fallback.choose(n)


def roll_percentile(dice: DiceSource) -> Percentile:
    """D-1: tens die first, then ones die."""
    if isinstance(dice, SeededDice):  # the batch's source: called directly (compiled)
        tens, ones = dice.two_d10()
        return roll_of(tens, ones)
    tens = dice.d10()
    return roll_of(tens, dice.d10())


def roll_dn(dice: DiceSource, n: int) -> tuple[int, ...]:
    """D-7: n ten-sided dice; their faces (sum with `sum_faces`)."""
    return tuple(dice.d10() for _ in range(n))


def parse_faces(text: str) -> tuple[int, ...]:
    """`"4,7"` or `"4 7"` or `"47"` → (4, 7); each face 0–9."""
    cleaned = text.replace(",", " ").split()
    if len(cleaned) == 1 and cleaned[0].isdigit() and len(cleaned[0]) > 1:
        cleaned = list(cleaned[0])
    faces: list[int] = []
    for part in cleaned:
        if not part.isdigit() or not 0 <= int(part) <= 9:
            raise DiceError(
                f"bad die face {part!r} in {text!r}",
                hint="give d10 faces 0–9, tens first: --dice 4,7",
            )
        faces.append(int(part))
    if not faces:
        raise DiceError("no dice given", hint="give d10 faces 0–9, tens first: --dice 4,7")
    return tuple(faces)


class Roll(NamedTuple):
    """Whose roll the next faces are (T-1): `who` rolls `what` (a percentile check of `spec`, or
    `faces` single dice), for `rule`."""

    who: str
    what: str
    rule: str = ""
    spec: CheckSpec | None = None
    faces: int = 2


def rolling(
    dice: DiceSource, who: str, what: str, *, rule: str = "", spec: CheckSpec | None = None, faces: int = 2
) -> None:
    """Say whose roll the next faces are, so that a live table's source can take them from their
    owner (T-1, T-3); a seeded source (a batch) has no owners and ignores it."""
    if type(dice) is SeededDice:
        return
    hook = getattr(dice, "rolling", None)
    if hook is not None:
        hook(Roll(who, what, rule, spec, faces))


class Choice(NamedTuple):
    """A choice the rules leave to `who` (T-1): `key` names it ("initiative"), `options` are
    (value, what it does), for `rule`."""

    who: str
    key: str
    what: str
    options: tuple[tuple[str, str], ...]
    rule: str = ""


def choosing(dice: DiceSource, choice: Choice, automatic: str) -> str:
    """What `choice.who` chooses: at a live table its owner's answer (T-3); elsewhere — a batch,
    an NPC — `automatic`, the choice an automated combatant makes."""
    if type(dice) is SeededDice:
        return automatic
    hook = getattr(dice, "choosing", None)
    return automatic if hook is None else str(hook(choice, automatic))


class RecordingDice:
    """Wraps a source and keeps every face it hands out, in order (for the command record)."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.faces: list[int] = []

    def d10(self) -> int:
        f = self.inner.d10()
        self.faces.append(f)
        return f

    def choose(self, n: int) -> int:
        return self.inner.choose(n)

    def rolling(self, roll: Roll) -> None:
        hook = getattr(self.inner, "rolling", None)
        if hook is not None:
            hook(roll)

    def choosing(self, choice: Choice, automatic: str) -> str:
        hook = getattr(self.inner, "choosing", None)
        return automatic if hook is None else str(hook(choice, automatic))
