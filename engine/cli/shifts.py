"""`--shift` values as the commands take them (`-10`, `focus=+20`): their own module, so a session
action parses its shifts without loading the check commands."""

from __future__ import annotations

from engine.dice.checks import Shift
from engine.errors import InvalidInput


def parse_shift(text: str, index: int) -> Shift:
    """`-10` (source `shift #1`) or `focus=+20` / `focus:+20`."""
    source, amount = f"shift #{index}", text
    for sep in ("=", ":"):
        if sep in text:
            source, amount = (part.strip() for part in text.rsplit(sep, 1))
            break
    try:
        return Shift(source=source or f"shift #{index}", amount=int(amount))
    except ValueError:
        raise InvalidInput(
            f"bad shift {text!r}",
            where="--shift",
            hint="give a signed number, e.g. --shift -10 or --shift focus=+20",
        ) from None
