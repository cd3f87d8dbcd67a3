"""`ua serve` from the CLI: the extra is imported only by it, and it refuses to serve other
machines without a token."""

from __future__ import annotations

import subprocess
import sys

from typer.testing import CliRunner

from engine.cli.app import build_app


def test_no_other_command_imports_the_service() -> None:
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from engine.cli.app import build_app\n"
        "for args in (['--help'], ['roll'], ['odds', '--kind', 'major', '--rating', '45'], ['session', '--help']):\n"
        "    CliRunner().invoke(build_app(args[0] if args[0] != '--help' else None), args)\n"
        "service = ('litestar', 'uvicorn', 'engine.service')\n"
        "loaded = [m for m in sys.modules if m.startswith(service)]\n"
        "print(loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_serving_other_machines_needs_a_token() -> None:
    result = CliRunner().invoke(build_app("serve"), ["serve", "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert "needs a token" in result.output
    short = CliRunner().invoke(build_app("serve"), ["serve", "--token", "short"])
    assert short.exit_code == 2 and "16 characters" in short.output
