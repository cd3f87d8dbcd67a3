"""`ua serve` from the CLI: it refuses to serve other machines without a token. (That no other
command imports the extra: tests/cli/test_serve_is_optional.py, which needs no extra.)"""

from __future__ import annotations

from typer.testing import CliRunner

from engine.cli.app import app


def test_serving_other_machines_needs_a_token() -> None:
    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert "needs a token" in result.output
    short = CliRunner().invoke(app, ["serve", "--token", "short"])
    assert short.exit_code == 2 and "16 characters" in short.output
