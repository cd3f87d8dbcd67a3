"""The participant book, the same contract over memory and SQLite: tokens kept only as their
SHA-256, found again by the token, ended at once by a revocation, players without a token."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import InvalidInput, NotFound
from engine.store.memory import MemoryStore
from engine.store.participants import participants_of, played_characters
from engine.store.sqlite import SqliteStore


@pytest.fixture(params=["memory", "sqlite"])
def store(request: Any, tmp_path: Path) -> Iterator[Any]:
    made = MemoryStore() if request.param == "memory" else SqliteStore(tmp_path / "s.sqlite")
    yield made
    made.close()


def test_a_player_recorded_without_a_token_gains_one_by_an_invite(store: Any) -> None:
    book = participants_of(store)
    book.add_player("duel", "Ana", ["Rosa"])
    assert played_characters(store, "duel") == {"Rosa": "Ana"}
    assert [p.status for p in book.of("duel")] == ["no link"]
    done = book.invite_player("duel", ["Rosa"])
    assert done.participant.name == "Ana" and not done.replaced  # the same player, now with a link
    assert book.by_token(done.token) == done.participant
    assert played_characters(store, "duel") == {"Rosa": "Ana"}


def test_only_the_tokens_hash_is_kept(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite")
    done = participants_of(store).invite_player("duel", ["Rosa"])
    store.close()
    with sqlite3.connect(tmp_path / "s.sqlite") as conn:
        rows = conn.execute("SELECT * FROM participants").fetchall()
    stored = repr(rows)
    assert done.token not in stored
    assert hashlib.sha256(done.token.encode()).hexdigest() in stored
    assert len(done.token) >= 43  # 32 random bytes, URL-safe: at least 128 bits


def test_a_revoked_token_is_refused_at_once_even_by_another_process_view(tmp_path: Path) -> None:
    cli, server = SqliteStore(tmp_path / "s.sqlite"), SqliteStore(tmp_path / "s.sqlite")
    done = participants_of(cli).invite_player("duel", ["Rosa", "Vic"], "Ana")
    assert participants_of(server).by_token(done.token) is not None  # the server sees the invite
    participants_of(cli).revoke("duel", "Vic")  # by a character played
    assert participants_of(server).by_token(done.token) is None
    (ana,) = participants_of(server).of("duel")
    assert ana.status == "revoked" and ana.characters == ("Rosa", "Vic")  # still their player
    cli.close()
    server.close()


def test_inviting_a_player_again_ends_the_earlier_link(store: Any) -> None:
    book = participants_of(store)
    first = book.invite_player("duel", ["Rosa"])
    second = book.invite_player("duel", ["Rosa"])
    assert second.replaced
    assert book.by_token(first.token) is None and book.by_token(second.token) is not None


def test_a_character_has_one_player(store: Any) -> None:
    book = participants_of(store)
    book.add_player("duel", "Ana", ["Rosa"])
    with pytest.raises(InvalidInput, match="already played by Ana"):
        book.add_player("duel", "Bo", ["Rosa"])
    book.add_player("duel", "Bo", ["Vic"])
    with pytest.raises(InvalidInput, match="played by 2 players"):
        book.invite_player("duel", ["Rosa", "Vic"])


def test_viewers_play_no_one_and_sessions_do_not_share_participants(store: Any) -> None:
    book = participants_of(store)
    viewer = book.invite_viewer("duel")
    book.invite_player("other", ["Rosa"])
    assert viewer.participant.role == "viewer" and viewer.participant.characters == ()
    assert played_characters(store, "duel") == {}
    assert [p.session for p in book.of("other")] == ["other"]
    with pytest.raises(NotFound, match="no participant 'Rosa'"):
        book.revoke("duel", "Rosa")


def test_a_deleted_sessions_participants_go_with_it(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite")
    from engine.store.base import NewEvent

    store.append("duel", [NewEvent(event_id="e1", command_id="c1", type="t", schema_version=1, data=b"{}")], 0)
    done = participants_of(store).invite_player("duel", ["Rosa"])
    store.delete("duel")
    assert participants_of(store).by_token(done.token) is None
    assert participants_of(store).of("duel") == []
    store.close()


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=0, max_size=60))
def test_no_other_token_finds_a_participant(guess: str) -> None:
    """Law: a participant is found by its own token only (an unknown or empty one finds none)."""
    store = MemoryStore()
    book = participants_of(store)
    done = book.invite_player("duel", ["Rosa"])
    found = book.by_token(guess)
    assert (found is not None) == (guess == done.token)
