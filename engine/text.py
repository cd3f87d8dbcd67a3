"""Text from outside (files, options, logs) made safe: refused where it names something, escaped
wherever it is shown, so no name, note or path can rewrite a terminal line, hide text behind a
bidirectional override, or forge a line of output."""

from __future__ import annotations

import re
import unicodedata

from engine.errors import InvalidInput

#: Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069).
BIDI_CONTROLS = frozenset(map(chr, (*range(0x202A, 0x202F), *range(0x2066, 0x206A))))
#: Characters that show nothing yet change what a text reads as: zero-width space, direction marks,
#: word joiner and invisible operators, the byte-order mark, the Mongolian vowel separator. (The
#: zero-width joiner and non-joiner stay: scripts and emoji need them.)
INVISIBLE = frozenset("\u061c\u180e\u200b\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff")
#: A regular-expression class of the characters `unsafe` refuses but the tab, line feed and carriage
#: return (the other C0 ones, DEL, C1, the bidirectional controls, the invisible ones, U+2028, U+2029).
UNSAFE_CLASS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029" + "".join(
    f"\\u{ord(c):04x}" for c in sorted(BIDI_CONTROLS | INVISIBLE)
)
#: Longest name accepted (a sheet's name, a combatant's id, a session's name, a title).
MAX_NAME = 120
#: Longest text shown in one error message before it is cut short.
MAX_SHOWN = 300


def unsafe(char: str, *, lines: bool = False) -> bool:
    """True for a character that must never reach a terminal as it is: a control character (C0,
    DEL, C1 — a tab or line break too unless `lines`), a bidirectional control, an invisible one
    (`INVISIBLE`), a line or paragraph separator."""
    if lines and char in "\t\n":
        return False
    if char in BIDI_CONTROLS or char in INVISIBLE:
        return True
    return unicodedata.category(char) in ("Cc", "Zl", "Zp")


def first_unsafe(text: str, *, lines: bool = False) -> str | None:
    """The first unsafe character of `text` (see `unsafe`), if any."""
    return next((c for c in text if unsafe(c, lines=lines)), None)


def describe(char: str) -> str:
    """`U+202E (RIGHT-TO-LEFT OVERRIDE)`."""
    return f"U+{ord(char):04X} ({unicodedata.name(char, 'a control character')})"


def check_name(text: str, what: str, *, where: str = "") -> str:
    """`text` as a name (of a session, a combatant, a side, a title): one line of printable text,
    not empty, at most `MAX_NAME` characters; else `InvalidInput`."""
    if not text.strip():
        raise InvalidInput(f"{what} is empty", where=where, hint=f"give the {what} a name")
    bad = first_unsafe(text)
    if bad is not None:
        kind = "a line break" if bad in "\n\r\u2028\u2029" else describe(bad)
        raise InvalidInput(f"{what} contains {kind}", where=where, hint="names are one line of printable text")
    if len(text) > MAX_NAME:
        raise InvalidInput(f"{what} is {len(text)} characters long", where=where, hint=f"at most {MAX_NAME}")
    return text


def check_text(text: str, what: str, *, where: str = "") -> str:
    """`text` as free text (a note, a reason): line breaks and tabs are allowed, other control
    characters and bidirectional controls are not."""
    bad = first_unsafe(text, lines=True)
    if bad is not None:
        raise InvalidInput(f"{what} contains {describe(bad)}", where=where, hint="write plain text")
    return text


def shown(text: str) -> str:
    """`text` with every unsafe character written as an escape (`\\x1b`, `\\u202e`, `\\n`): safe to
    print, and nothing is hidden."""
    if not any(unsafe(c) for c in text):
        return text
    out = []
    for char in text:
        if not unsafe(char):
            out.append(char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x100:
            out.append(f"\\x{ord(char):02x}")
        else:
            out.append(f"\\u{ord(char):04x}")
    return "".join(out)


def one_line(text: str, limit: int = MAX_SHOWN) -> str:
    """`text` on one line (line breaks and tabs become spaces, runs of spaces one), every other
    unsafe character escaped, cut to `limit` characters: fit for an error message."""
    flat = re.sub(r"[\t\n\r\u2028\u2029]+", " ", text)
    flat = re.sub(r" {2,}", " ", shown(flat)).strip()
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def split_validation_error(text: str) -> tuple[str, str]:
    """msgspec's "Expected `int`, got `str` - at `$.stats.body`" → ("Expected int, got str",
    "$.stats.body"). A problem with the document as a whole is at `$`."""
    reason, sep, where = text.partition(" - at ")
    json_path = "$"
    if sep:
        found = re.search(r"`(\$[^`]*)`", where)
        json_path = found.group(1) if found else "$"
        if where.startswith("`key`"):
            reason += " for a key"
    field = _FIELD_FIRST.match(reason)
    if field:  # a struct's own check names the field it is about first (engine.settings)
        json_path, reason = f"{json_path}.{field.group(1)}", field.group(2)
    if reason.startswith("Expected"):
        reason = reason.replace("`", "")
    else:
        reason = re.sub(r"`([^`]*)`", r"'\1'", reason)
    return reason, json_path


#: "suppression_shift[1].shots: …" — a message from a struct's `__post_init__` about one field.
_FIELD_FIRST = re.compile(r"^([A-Za-z_]\w*(?:\[\d+\])*(?:\.[A-Za-z_]\w*(?:\[\d+\])*)*): (.+)$", re.S)
