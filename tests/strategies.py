"""Hypothesis strategies built from msgspec type information, so every event type is covered
as soon as it joins the union (no hand-written strategy to forget)."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import msgspec.inspect as mi
from hypothesis import strategies as st

from engine.text import BIDI_CONTROLS

#: Text a person may write: no control characters, separators or bidirectional controls (engine.text).
_CHARACTERS = st.characters(
    codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp"), exclude_characters="".join(sorted(BIDI_CONTROLS))
)
_TEXT = st.text(alphabet=_CHARACTERS, max_size=12)


def _int(t: mi.IntType) -> st.SearchStrategy[int]:
    lo = t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else -(10**6))
    hi = t.le if t.le is not None else (t.lt - 1 if t.lt is not None else 10**6)
    return st.integers(lo, hi)


def _str(t: mi.StrType) -> st.SearchStrategy[str]:
    lo = t.min_length or 0
    hi = t.max_length if t.max_length is not None else max(lo, 12)
    return st.text(
        alphabet=_CHARACTERS,
        min_size=lo,
        max_size=min(hi, lo + 12),
    )


def _float(t: mi.FloatType) -> st.SearchStrategy[float]:
    lo = t.ge if t.ge is not None else t.gt
    hi = t.le if t.le is not None else t.lt
    return st.floats(
        min_value=lo,
        max_value=hi,
        exclude_min=t.gt is not None,
        exclude_max=t.lt is not None,
        allow_nan=False,
        allow_infinity=False,
        width=64,
    )


def _built(cls: type, fields: dict[str, Any]) -> Any:
    """An instance, or None when its own `__post_init__` refuses these fields."""
    try:
        return cls(**fields)
    except ValueError:
        return None


@cache
def _struct(cls: type) -> st.SearchStrategy[Any]:
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    fields = {f.name: from_info(f.type) for f in info.fields}
    if getattr(cls, "__post_init__", None) is None:
        return st.builds(cls, **fields)
    return st.fixed_dictionaries(fields).map(lambda kw: _built(cls, kw)).filter(lambda x: x is not None)


def from_info(t: mi.Type) -> st.SearchStrategy[Any]:
    if isinstance(t, mi.IntType):
        return _int(t)
    if isinstance(t, mi.FloatType):
        return _float(t)
    if isinstance(t, mi.AnyType):
        return st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), _TEXT)
    if isinstance(t, mi.BoolType):
        return st.booleans()
    if isinstance(t, mi.StrType):
        return _str(t)
    if isinstance(t, mi.NoneType):
        return st.none()
    if isinstance(t, mi.LiteralType):
        return st.sampled_from(t.values)
    if isinstance(t, mi.StructType):
        return _struct(t.cls)
    if isinstance(t, mi.UnionType):
        return st.one_of(*(from_info(x) for x in t.types))
    if isinstance(t, mi.TupleType):
        return st.tuples(*(from_info(x) for x in t.item_types))
    if isinstance(t, mi.VarTupleType):
        return st.lists(from_info(t.item_type), max_size=3).map(tuple)
    if isinstance(t, mi.ListType):
        return st.lists(from_info(t.item_type), max_size=3)
    if isinstance(t, mi.DictType):
        return st.dictionaries(from_info(t.key_type), from_info(t.value_type), max_size=3)
    if isinstance(t, mi.BytesType):
        return st.binary(max_size=8)
    if isinstance(t, mi.AnyType):  # a document (a ruleset's settings): plain JSON values
        return st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), _TEXT)
    raise NotImplementedError(f"no strategy for {t!r}")


def instances_of(cls: type) -> st.SearchStrategy[Any]:
    """Any valid instance of a msgspec Struct type."""
    return _struct(cls)


def encodable(value: Any) -> Any:
    return msgspec.to_builtins(value)
