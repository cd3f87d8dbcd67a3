"""How deep JSON nests, measured on its bytes before any parser sees them: a document, a request
body or a log line nested deeper than `MAX_DEPTH` is refused in one line, so no decoder ever
recurses far enough to raise `RecursionError`.

The scan is a few C-speed passes (no Python loop over the bytes): strings are blanked out (a
bracket inside a string is text), every byte but a bracket is dropped, and what remains is
measured (see `too_deep`). A line with no more brackets than the limit is not scanned at all.
"""

from __future__ import annotations

from itertools import accumulate, count
from operator import sub

from engine.errors import EngineError, InvalidInput

#: Deepest nesting of lists and objects (tables) accepted anywhere: files, logs, request bodies.
#: Real data is far shallower: a sheet needs 4, a scenario 7, a session's deepest log line (its
#: start command's record, the scenario inside) 10 (`tests/reliability/test_deep_json_is_refused.py`).
MAX_DEPTH = 32
#: What is wrong with a document nested deeper, and what to do.
TOO_DEEP = f"nested deeper than {MAX_DEPTH} levels"
HINT = f"no ua document nests more than {MAX_DEPTH} lists and objects deep; flatten it"

_BRACKETS = b"[]{}"
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _BRACKETS)
#: An opening bracket counts 2 and a closing one 0: after the k-th bracket (from 1), the depth is
#: the running sum minus k.
_WEIGHTS = bytes.maketrans(_BRACKETS, b"\x02\x00\x02\x00")
_PARENS = bytes.maketrans(_BRACKETS, b"()()")


def depth(data: bytes | str) -> int:
    """The deepest nesting of `data` as JSON (0 for a scalar; strings are not counted)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    brackets = _outside_strings(raw).translate(_WEIGHTS, _NOT_BRACKETS)
    return max(map(sub, accumulate(brackets), count(1)), default=0)


def too_deep(data: bytes | str, limit: int = MAX_DEPTH) -> bool:
    """True when `data` nests deeper than `limit`. Cheap: a line with few brackets is not scanned;
    else matched pairs are peeled off, innermost first, one C-speed pass a level (pass k removes
    every pair of height k), and only a document left with unclosed brackets is measured."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    brackets = _outside_strings(raw).translate(_PARENS, _NOT_BRACKETS)
    height = 0  # every pair of this height or less is peeled off
    while (peeled := brackets.replace(b"()", b"")) != brackets:
        brackets, height = peeled, height + 1
        if height > limit:
            return True
    unclosed = len(brackets) - brackets.count(b")")  # what remains is `)…)(…(`
    return unclosed + height > limit and depth(raw) > limit


def _outside_strings(raw: bytes) -> bytes:
    """`raw` without its strings: escaped backslashes, then escaped quotes, go first (pairs from
    the left, as a decoder reads them), then every other piece between quotes is inside one."""
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    return b"".join(raw.split(b'"')[::2])


def check_depth(data: bytes | str, *, where: str, error: type[EngineError] = InvalidInput, hint: str = HINT) -> None:
    """Raise `error` (one line naming `where`) when `data` nests deeper than `MAX_DEPTH`."""
    if too_deep(data):
        raise error(TOO_DEEP, where=where, hint=hint)
