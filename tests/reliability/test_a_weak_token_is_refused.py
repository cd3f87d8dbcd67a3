"""Issue 26: `ua serve --token` took sixteen spaces, after which nothing authenticated. A token is at
least 16 visible ASCII characters (no whitespace), at least 8 of them different; a weak one is one
line and exit 2 from `--token` and `$UA_SERVE_TOKEN` alike, and refused by the library's config."""

from __future__ import annotations

import secrets
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

pytest.importorskip("litestar", reason="the service needs the serve extra: pip install -e '.[serve]'")

from engine.cli.app import app
from engine.errors import InvalidInput
from engine.service.app import ServiceConfig
from tests.reliability.served import ua_serve

WEAK = {
    "sixteen spaces": " " * 16,
    "fifteen characters": "0123456789abcde",
    "sixteen of one character": "a" * 16,
    "seven different characters": "abcdefgabcdefgabcdefg",
    "a tab inside": "0123456789\tabcdef",
    "a space inside": "0123456789 abcdef",
    "a line break inside": "0123456789\nabcdef",
    "a leading space": " 0123456789abcdef",
    "not ASCII": "0123456789abcdéf",
    "empty": "",
}
REASONS = ("at least 16 characters", "only visible ASCII", "at least 8 different characters")


@pytest.mark.parametrize("token", list(WEAK.values()), ids=list(WEAK))
def test_a_weak_token_is_one_line_and_exit_2_from_the_option_and_the_environment(tmp_path: Path, token: str) -> None:
    folder = ["--db", str(tmp_path)]  # no database: were the token taken, this fails rather than serves
    for args, env, where in (
        (["serve", *folder, "--token", token], {}, "--token"),
        (["serve", *folder], {"UA_SERVE_TOKEN": token}, "$UA_SERVE_TOKEN"),
    ):
        if where == "$UA_SERVE_TOKEN" and token == "":
            continue  # an empty variable is no token at all: loopback only, as documented
        result = CliRunner().invoke(app, args, env=env)
        assert result.exit_code == 2, (args, result.output)
        line = result.output.strip()
        assert "\n" not in line and "Traceback" not in line
        assert line.startswith(f"error: {where}: ") and any(r in line for r in REASONS), line
        assert "openssl rand -hex 16" in line
        if token.strip():
            assert token not in line  # a refused secret is not echoed


@pytest.mark.parametrize("token", list(WEAK.values()), ids=list(WEAK))
def test_the_library_refuses_a_weak_token_too(tmp_path: Path, token: str) -> None:
    with pytest.raises(InvalidInput, match="token") as refused:
        ServiceConfig(db=tmp_path / "s.sqlite", token=token)
    assert refused.value.where == "ServiceConfig.token"
    assert not (tmp_path / "s.sqlite").exists()


def test_a_token_like_openssl_rand_hex_16_is_served_and_needed(tmp_path: Path) -> None:
    token = secrets.token_hex(16)  # what `openssl rand -hex 16` prints: 32 of 0-9a-f
    with ua_serve(tmp_path / "s.sqlite", env={"UA_SERVE_TOKEN": token}) as base:
        assert httpx.get(f"{base}/sessions").status_code == 401
        assert httpx.get(f"{base}/sessions", headers={"Authorization": "Bearer " + "0" * 32}).status_code == 401
        assert httpx.get(f"{base}/sessions", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    with ua_serve(tmp_path / "s.sqlite", "--token", token) as base:
        assert httpx.get(f"{base}/sessions", headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_any_long_varied_visible_token_is_accepted(tmp_path: Path) -> None:
    for token in ("0123456789abcdef", "Zm9vYmFyYmF6cXV4LXRva2Vu", "a-token-of-sixteen-chars", "!#$%&()*+,-./:;<"):
        assert ServiceConfig(db=tmp_path / "s.sqlite", token=token).token == token
