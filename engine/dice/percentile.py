"""The percentile roll (D-1…D-7): two d10 faces, read as rolled or flip-flopped."""

import msgspec

from engine.dice.faces import digit_sum, face_value, percentile_value, read_value

__all__ = ["Percentile", "face_value", "percentile", "percentile_value"]


class Percentile(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """Two d10 faces as rolled (tens first) and whether they were read flip-flopped (D-4)."""

    tens: int
    ones: int
    flipped: bool = False

    @property
    def read_tens(self) -> int:
        return self.ones if self.flipped else self.tens

    @property
    def read_ones(self) -> int:
        return self.tens if self.flipped else self.ones

    @property
    def value(self) -> int:
        """D-1 on the orientation used."""
        return read_value(self.tens, self.ones, self.flipped)

    @property
    def is_crit(self) -> bool:
        """D-2: value 1."""
        return self.value == 1

    @property
    def is_fumble(self) -> bool:
        """D-2: value 100."""
        return self.value == 100

    @property
    def is_matched(self) -> bool:
        """D-3: both faces equal and the value is not 100 (a flip cannot change a match)."""
        return self.tens == self.ones and self.value != 100

    @property
    def digit_sum(self) -> int:
        """D-5: each face counted with 0 as 10; range 2–20 (47 → 11, 07 → 17, 00 → 20)."""
        return digit_sum(self.tens, self.ones)

    def flip(self) -> "Percentile":
        """D-4: the same dice read the other way round."""
        return _rolls.roll_of(self.tens, self.ones, not self.flipped)

    def describe(self) -> str:
        """`4,7 = 47` or, flipped, `7,2 flipped = 27`."""
        suffix = " flipped" if self.flipped else ""
        return f"{self.tens},{self.ones}{suffix} = {self.value:02d}"



def percentile(tens: int, ones: int, flipped: bool = False) -> Percentile:
    """The roll of these faces, read as rolled or flip-flopped (a shared value)."""
    return _rolls.roll_of(tens, ones, flipped)


from engine.dice import rolls as _rolls  # noqa: E402  (the shared rolls; imported last)
