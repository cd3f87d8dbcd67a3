"""A client generated from the served document by `openapi-python-client`, unmodified, drives a
ua2 session (commands, a retry by Command-Id, undo, export, import) and a ua3 session on a real
server — the README's promise (issue 31). The generator pins another typer than ours, so it lives
in a venv of its own: `UA_OPENAPI_CLIENT` names its executable, else `.venv-openapi/` of the
repository (the README's test command makes it); without it the test skips, saying so."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from litestar.testing import TestClient

from engine.service.app import create_app
from engine.service.bench import running_server
from tests.service.conftest import config_for

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = Path(os.environ.get("UA_OPENAPI_CLIENT", ROOT / ".venv-openapi" / "bin" / "openapi-python-client"))
PACKAGE = "unknown_armies_encounter_engine_client"
DRIVER = Path(__file__).with_name("generated_driver.py")

pytestmark = pytest.mark.skipif(
    not GENERATOR.is_file(),
    reason=f"no openapi-python-client at {GENERATOR}: python -m venv .venv-openapi && "
    ".venv-openapi/bin/pip install openapi-python-client==0.29.1 (or set UA_OPENAPI_CLIENT)",
)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding the package generated from the served document, unmodified."""
    folder = tmp_path_factory.mktemp("client")
    with TestClient(create_app(config_for(folder / "doc.sqlite"))) as c:
        (folder / "schema.json").write_text(json.dumps(c.get("/schema").json()))
    out = folder / "out"
    done = subprocess.run(
        [str(GENERATOR), "generate", "--path", "schema.json", "--meta", "none", "--output-path", str(out)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out.rename(folder / PACKAGE)
    return folder


@pytest.mark.parametrize("edition", ["ua2", "ua3"])
def test_a_generated_client_drives_a_session(generated: Path, edition: str, tmp_path: Path) -> None:
    """The driver (`generated_driver.py`) runs in the generator's venv, with the generated package
    alone: a ua2 fight with a retry, undo, export and import; a ua3 stress check, fight and NPCs."""
    with running_server(tmp_path / "s.sqlite") as base:
        done = subprocess.run(
            [str(GENERATOR.parent / "python"), str(DRIVER), edition, base, str(generated)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{edition}: driven by the generated client" in done.stdout
