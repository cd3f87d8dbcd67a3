"""CI runs what the README tells a newcomer to run: `.ci/run` ends with the README's test command,
verbatim, and installs every extra whose tests would otherwise be skipped."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_test_command() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("**Test it**") :]
    block = re.search(r"```sh\n(.*?)\n```", section, re.S)
    assert block is not None
    return block.group(1).strip()


def test_ci_runs_the_readmes_test_command_verbatim() -> None:
    command = readme_test_command()
    lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.strip()]
    assert lines[-1] == command
    extras = re.search(r"-e '\.\[([^\]]*)\]'", command)
    assert extras is not None and {"test", "serve", "distributed"} <= set(extras.group(1).split(","))
    assert "apt-get install -y -qq chromium" in (ROOT / ".ci" / "run").read_text()  # the viewer's tests need it
