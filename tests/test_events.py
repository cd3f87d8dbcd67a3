"""Events: round-trip encoding, stable tags, explanations, upcasting and named errors."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import CorruptLog, OutOfOrder, UnknownEventType
from engine.events import (
    EVENT_TYPES,
    UPCASTERS,
    EncounterStarted,
    GmRuling,
    decode,
    encode,
    tag_of,
    upcaster,
)
from engine.reducers import fold, fold_positions
from tests.strategies import instances_of

any_event = st.one_of(*(instances_of(t) for t in EVENT_TYPES))


@settings(max_examples=300)
@given(any_event)
def test_decode_of_encode_is_the_same_event(event: msgspec.Struct) -> None:
    assert decode(encode(event)) == event


@pytest.mark.parametrize("event_type", EVENT_TYPES, ids=lambda t: t.__name__)
def test_every_event_type_has_an_explicit_stable_tag(event_type: type) -> None:
    tag = event_type.__struct_config__.tag
    assert isinstance(tag, str)
    assert tag != event_type.__name__  # explicit snake_case, not the class name
    assert tag == tag.lower()


@settings(max_examples=200)
@given(any_event)
def test_every_event_explains_itself_in_one_sentence(event: msgspec.Struct) -> None:
    text = event.explain()  # type: ignore[attr-defined]
    assert text and "\n" not in text


def test_tags_are_unique() -> None:
    tags = [t.__struct_config__.tag for t in EVENT_TYPES]
    assert len(tags) == len(set(tags))


def test_an_unknown_event_type_is_a_named_error() -> None:
    with pytest.raises(UnknownEventType):
        decode(b'{"type": "teleported", "who": "Vic"}')


def test_a_broken_event_is_a_corrupt_log_naming_where() -> None:
    with pytest.raises(CorruptLog, match=r"log\.jsonl line 3"):
        decode(b'{"type": "gm_ruling"', where="log.jsonl line 3")


def test_an_old_schema_version_is_upcast_on_read() -> None:
    key = ("gm_ruling", 0)
    try:

        @upcaster("gm_ruling", 0)
        def _v0_to_v1(raw: dict[str, object]) -> dict[str, object]:
            return {"type": raw["type"], "note": raw.pop("text"), "about": ""}

        event = decode(b'{"type": "gm_ruling", "text": "the chair breaks"}', schema_version=0)
        assert event == GmRuling(note="the chair breaks")
    finally:
        UPCASTERS.pop(key, None)


def test_a_version_from_the_future_is_refused() -> None:
    with pytest.raises(CorruptLog, match="newer"):
        decode(encode(GmRuling(note="x")), schema_version=99)


def test_fold_checks_positions_are_consecutive() -> None:
    start = EncounterStarted(ruleset="ua2")
    assert fold_positions([(1, start), (2, GmRuling(note="a"))]).version == 2
    with pytest.raises(OutOfOrder):
        fold_positions([(1, start), (3, GmRuling(note="a"))])


def test_fold_of_nothing_is_the_empty_encounter() -> None:
    assert fold([]).version == 0


def test_tag_of_names_the_stored_type() -> None:
    assert tag_of(GmRuling(note="x")) == "gm_ruling"
