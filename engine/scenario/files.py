"""Safe loading of TOML, YAML and JSON documents into msgspec types, with one-line errors.

Generic: knows nothing about sheets or scenarios. `load_document(path, Type)` reads a file
(format chosen by its extension), parses it with a safe parser, and converts the result into
`Type` with `msgspec.convert(..., strict=True)` (no silent coercion: `"50"` is not `50`).

Every failure is a `FileError` (an `InvalidInput`) whose one-line message names the file and,
for a value of the wrong shape, the `$.path` msgspec reports — never a traceback:

- missing, a directory, not a regular file (FIFO, device), unreadable;
- larger than `MAX_BYTES` (checked with `stat` before reading, and again while reading);
- not UTF-8 (a leading UTF-8 byte-order mark is accepted);
- syntax errors, with the line and column (a file cut short: where it ends);
- YAML anchors or aliases (refused while composing, so a "billion laughs" file cannot expand),
  explicit tags other than the standard scalar/collection ones, several documents;
- nesting deeper than `MAX_DEPTH`; NaN or an infinity anywhere (`$.path`); a control character
  other than a tab or line break, or a bidirectional control, in any text (`$.path`);
- unknown fields, missing fields, wrong types and out-of-range values (msgspec's `$.path`).

Decisions (the brief left them open): YAML implicit timestamps stay strings (`2001-01-01` is text,
not a date); YAML 1.1 booleans (`yes`/`no`) keep their standard meaning; duplicate keys are an
error in YAML (TOML refuses them itself; JSON keeps the last, as msgspec does).
"""

from __future__ import annotations

import math
import re
import stat as stat_mode
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from engine.errors import InvalidInput
from engine.nesting import HINT as DEPTH_HINT
from engine.nesting import MAX_DEPTH, TOO_DEEP
from engine.nesting import too_deep as nests_too_deep
from engine.text import describe, first_unsafe, one_line, split_validation_error

T = TypeVar("T")

#: Largest document accepted, in bytes (1 MiB). A sheet is a few hundred bytes.
MAX_BYTES = 1024 * 1024
#: File extension → format.
FORMATS: dict[str, str] = {".toml": "toml", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}

_FORMATS_HINT = "use a .toml, .yaml, .yml or .json file"


class FileError(InvalidInput):
    """Raised when a document file cannot be read, parsed or converted into its type (exit 1).

    `where` is the file as given; `message` ends with `at $.path` when the problem is a value;
    `file`, `json_path` and `reason` keep the parts apart for callers and `--json` output.
    """

    exit_code = 1

    def __init__(self, file: str, reason: str, *, json_path: str = "", hint: str = "") -> None:
        self.file = one_line(file, limit=1000)
        self.reason = one_line(reason)
        self.json_path = one_line(json_path)
        message = f"{self.reason} at {self.json_path}" if self.json_path else self.reason
        super().__init__(message, where=self.file, hint=one_line(hint))


def load_document(path: str | Path, type_: type[T], *, hint: str = "") -> T:
    """Read, parse and convert the document at `path` into `type_`; `FileError` on any failure.

    `hint` is shown with shape errors (unknown, missing or wrong-typed fields), e.g. where to
    find the schema.
    """
    path = Path(path)
    name = str(path)
    data = read_limited(path)
    return decode_document(data, name=name, type_=type_, hint=hint)


def read_limited(path: Path, limit: int = MAX_BYTES, *, any_format: bool = False) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; the size is checked before reading.
    Unless `any_format`, the extension must name one of `FORMATS`."""
    name = str(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise FileError(name, "no such file", hint="check the path") from None
    except NotADirectoryError:
        raise FileError(name, "no such file (a parent is not a directory)") from None
    except OSError as exc:
        raise FileError(name, f"cannot read the file: {exc.strerror or exc}") from None
    except ValueError:  # a NUL in the path
        raise FileError(name, "not a valid file name") from None
    if stat_mode.S_ISDIR(info.st_mode):
        raise FileError(name, "is a directory, not a file", hint=_FORMATS_HINT)
    if not stat_mode.S_ISREG(info.st_mode):
        raise FileError(name, "is not a regular file", hint=_FORMATS_HINT)
    if info.st_size > limit:
        raise _too_large(name, info.st_size, limit)
    if not any_format and path.suffix.lower() not in FORMATS:
        raise _unknown_format(name, path.suffix)
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)  # the file may have grown since `stat`
    except OSError as exc:
        raise FileError(name, f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise _too_large(name, len(data), limit)
    return data


def decode_document(data: bytes, *, name: str, type_: type[T], hint: str = "") -> T:
    """Parse `data` (format from `name`'s extension) and convert it into `type_`."""
    return convert_document(parse_document(data, name=name), name=name, type_=type_, hint=hint)


def parse_document(data: bytes, *, name: str) -> Any:
    """Parse `data` (format from `name`'s extension) into plain values (tables, lists, scalars)."""
    suffix = Path(name).suffix.lower()
    fmt = FORMATS.get(suffix)
    if fmt is None:
        raise _unknown_format(name, suffix)
    if len(data) > MAX_BYTES:
        raise _too_large(name, len(data), MAX_BYTES)
    text = _utf8(data, name)
    obj = _PARSERS[fmt](text, name)
    return obj


def convert_document(obj: Any, *, name: str, type_: type[T], hint: str = "") -> T:
    """A parsed document (plain dicts, lists and values, from a file or built by a program)
    checked (`check_values`) and converted into `type_`, strictly: errors at their `$.path`."""
    check_values(obj, name)
    try:
        return msgspec.convert(obj, type=type_, strict=True)
    except msgspec.ValidationError as exc:
        problems = _problems(obj, type_, str(exc))
        reason, json_path = problems[0]
        if len(problems) > 1:
            also = "; ".join(f"{r} at {p}" for r, p in problems[1:])
            hint = f"{len(problems)} problems; also: {also}" + (f"; {hint}" if hint else "")
        raise FileError(name, reason, json_path=json_path, hint=hint) from None


#: At most this many problems of one document are listed.
MAX_PROBLEMS = 12


def _problems(obj: Any, type_: Any, first: str) -> list[tuple[str, str]]:
    """(reason, $.path) of every problem `convert` finds in `obj`, not only the first: each bad
    value is taken out of a copy and the copy converted again (a missing required field stops
    the search there). Enum errors name the valid values."""
    import copy

    problems: list[tuple[str, str]] = []
    doc = copy.deepcopy(obj)
    text = first
    while True:
        reason, json_path = split_validation_error(text)
        if "Invalid enum value" in reason:
            valid = _literals_at(type_, _tokens(json_path))
            if valid:
                reason += f" (valid: {', '.join(map(str, valid))})"
        problems.append((reason, json_path))
        if len(problems) >= MAX_PROBLEMS or not _take_out(doc, _tokens(json_path)):
            break
        try:
            msgspec.convert(doc, type=type_, strict=True)
        except msgspec.ValidationError as exc:
            text = str(exc)
            again, at = split_validation_error(text)
            if "missing required field" in again or (again, at) in problems:
                break  # what was taken out was needed: the rest cannot be checked past it
            continue
        break
    return problems


def _tokens(json_path: str) -> list[str | int]:
    """`$.combatants[0].reaction` → ["combatants", 0, "reaction"]."""
    out: list[str | int] = []
    for name, index in re.findall(r"\.([^.\[]+)|\[(\d+)\]", json_path.removeprefix("$")):
        out.append(int(index) if index else name)
    return out


def _take_out(doc: Any, tokens: list[str | int]) -> bool:
    """Remove the value at `tokens` from its object (a list item is not removed); whether it was."""
    if not tokens or not isinstance(tokens[-1], str):
        return False
    parent = doc
    for token in tokens[:-1]:
        try:
            parent = parent[token]
        except (KeyError, IndexError, TypeError):
            return False
    if isinstance(parent, dict) and tokens[-1] in parent:
        del parent[tokens[-1]]
        return True
    return False


def _literals_at(type_: Any, tokens: list[str | int]) -> list[Any]:
    """The values a Literal (or enum) type at `tokens` of `type_` allows, if it is one."""
    from msgspec import inspect

    def members(info: Any) -> list[Any]:
        return list(info.types) if isinstance(info, inspect.UnionType) else [info]

    infos: list[Any] = [inspect.type_info(type_)]
    for token in tokens:
        nxt: list[Any] = []
        for info in (m for i in infos for m in members(i)):
            if isinstance(token, int) and isinstance(info, (inspect.ListType, inspect.VarTupleType)):
                nxt.append(info.item_type)
            elif isinstance(token, str) and isinstance(info, inspect.StructType):
                nxt += [f.type for f in info.fields if f.encode_name == token]
            elif isinstance(token, str) and isinstance(info, inspect.DictType):
                nxt.append(info.value_type)
        infos = nxt
    values: list[Any] = []
    for info in (m for i in infos for m in members(i)):
        if isinstance(info, inspect.LiteralType):
            values += list(info.values)
        elif isinstance(info, inspect.EnumType):
            values += [e.value for e in info.cls]
    return values


# --- reading ---------------------------------------------------------------------------------


def _too_large(name: str, size: int, limit: int) -> FileError:
    return FileError(
        name,
        f"is {size:,} bytes, larger than the {limit:,}-byte limit",
        hint="is this the right file? documents are small text files",
    )


def _unknown_format(name: str, suffix: str) -> FileError:
    what = f"unknown file type {suffix!r}" if suffix else "no file extension"
    return FileError(name, what, hint=_FORMATS_HINT)


def _utf8(data: bytes, name: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FileError(
            name,
            f"not UTF-8 text: byte {exc.start} (line {line}) is not valid UTF-8",
            hint="save the file as UTF-8",
        ) from None
    return text.removeprefix("\ufeff")


def _line_column(text: str, byte: int) -> tuple[int, int]:
    before = text.encode("utf-8")[:byte].decode("utf-8", errors="ignore")
    line = before.count("\n") + 1
    return line, len(before) - (before.rfind("\n") + 1) + 1


def _at_end(text: str) -> str:
    """`line L, column C` of the end of `text` (where a file cut short stops)."""
    line, column = _line_column(text, len(text.encode("utf-8")))
    return f"line {line}, column {column}, the end of the file"


# --- parsers ---------------------------------------------------------------------------------


def _parse_toml(text: str, name: str) -> Any:
    import tomllib  # on first use: a session's own commands read no files

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        reason = str(exc).replace("(at end of document)", f"(at {_at_end(text)})")
        raise FileError(name, f"TOML syntax error: {reason}", hint="see https://toml.io") from None
    except RecursionError:
        raise too_deep(name) from None


def _parse_json(text: str, name: str) -> Any:
    if nests_too_deep(text):  # before the decoder, which would recurse
        raise too_deep(name)
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError as exc:
        reason = str(exc).removeprefix("JSON is malformed: ")
        found = re.search(r"\(byte (\d+)\)$", reason)
        if found:
            line, column = _line_column(text, int(found.group(1)))
            reason = f"{reason[: found.start()].rstrip()} (line {line}, column {column})"
        elif "truncated" in reason:
            reason = f"the document ends too soon (at {_at_end(text)})"
        raise FileError(name, f"JSON syntax error: {reason}") from None
    except RecursionError:
        raise too_deep(name) from None


def _parse_yaml(text: str, name: str, loader_class: Any = None) -> Any:
    from engine.scenario.yaml_loader import parse_yaml  # PyYAML loads only for a YAML file

    return parse_yaml(text, name, loader_class)


_PARSERS = {"toml": _parse_toml, "json": _parse_json, "yaml": _parse_yaml}


# --- depth -----------------------------------------------------------------------------------


def too_deep(name: str) -> FileError:
    return FileError(name, TOO_DEEP, hint=DEPTH_HINT)


def check_values(obj: Any, name: str) -> None:
    """One pass over a parsed document (iteratively: no recursion): lists and tables nested no
    deeper than `MAX_DEPTH`, no NaN or infinity, no unsafe character in any text (a tab or line
    break is allowed; names refuse them by their own types)."""
    stack: list[tuple[Any, int, str]] = [(obj, 0, "$")]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, dict):
            if depth >= MAX_DEPTH:
                raise too_deep(name)
            for key, child in value.items():
                _check_text(str(key), name, path)
                stack.append((child, depth + 1, f"{path}.{key}"))
        elif isinstance(value, list):
            if depth >= MAX_DEPTH:
                raise too_deep(name)
            stack.extend((child, depth + 1, f"{path}[{i}]") for i, child in enumerate(value))
        elif isinstance(value, float) and not math.isfinite(value):
            raise FileError(
                name,
                f"{value} is not a number that can be stored",
                json_path=path,
                hint="give a finite number (NaN and infinities are not allowed)",
            )
        elif isinstance(value, str):
            _check_text(value, name, path)


def _check_text(text: str, name: str, path: str) -> None:
    bad = first_unsafe(text, lines=True)
    if bad is not None:
        raise FileError(name, f"text contains {describe(bad)}", json_path=path, hint="write plain text")
