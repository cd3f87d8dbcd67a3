"""Events: round-trip encoding, stable tags, explanations, upcasting and named errors."""

from __future__ import annotations

from typing import get_args

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.commands import Ruling, StartEncounter
from engine.errors import CorruptLog, OutOfOrder, UnknownEventType
from engine.events import (
    EVENT_TYPES,
    UPCASTERS,
    CommandRecorded,
    EncounterStarted,
    Event,
    GmRuling,
    decode,
    decoder_of,
    encode,
    event_union,
    log_decoder,
    ruleset_started,
    tag_of,
    upcaster,
)
from engine.reducers import fold, fold_positions
from engine.rules.registry import available, command_types, event_types
from tests.strategies import instances_of

#: Any event of any ruleset, as the union decodes them (a command's record holds any command).
any_event = st.one_of(*(instances_of(t) for t in get_args(Event)))


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


def _record(command: msgspec.Struct) -> bytes:
    return encode(CommandRecorded(id=1, issued=command, command=1))


@pytest.mark.parametrize("ruleset", available())
def test_a_rulesets_decoder_reads_its_own_events_and_commands_only(ruleset: str) -> None:
    own = decoder_of(ruleset)
    assert {_tag(t) for t in get_args(event_union(ruleset))} == {_tag(t) for t in event_types(ruleset)}
    start = StartEncounter(ruleset=ruleset)
    assert own.decode(_record(start)) == CommandRecorded(id=1, issued=start, command=1)
    foreign = [kind for kind in command_types() if kind not in command_types(ruleset)]
    assert foreign
    for kind in foreign:
        data = b'{"type": "command_recorded", "id": 1, "issued": {"command": "%s"}}' % _tag(kind).encode()
        with pytest.raises(msgspec.ValidationError, match=r"Invalid value .* `\$\.issued\.command`"):
            own.decode(data)


def _tag(kind: type) -> str:
    return str(getattr(kind, "__origin__", kind).__struct_config__.tag)


def test_the_event_types_are_every_rulesets_each_tag_once() -> None:
    assert set(EVENT_TYPES) == {kind for name in available() for kind in event_types(name)}
    assert len({_tag(t) for t in EVENT_TYPES}) == len(EVENT_TYPES)


@pytest.mark.parametrize(
    ("first", "ruleset"),
    [
        (_record(StartEncounter(ruleset="ua3")), "ua3"),
        (_record(StartEncounter()), "ua2"),
        (encode(EncounterStarted(ruleset="ua3")), "ua3"),
        (_record(Ruling(note="a log that starts mid-way")), None),
        (encode(GmRuling(note="x")), None),
        (b'{"type": "command_recorded", "issued": 3}', None),
        (b"[1, 2", None),
    ],
)
def test_a_log_names_its_ruleset_by_its_first_event(first: bytes, ruleset: str | None) -> None:
    assert ruleset_started(first) == ruleset


def test_a_log_of_a_ruleset_the_registry_lacks_is_read_by_every_rulesets_decoder() -> None:
    assert log_decoder(_record(StartEncounter(ruleset="ua9"))) is decoder_of(None)
    assert log_decoder(encode(GmRuling(note="x"))) is decoder_of(None)
    assert log_decoder(encode(GmRuling(note="x")), "ua3") is decoder_of("ua3")
