"""`--help` a GM can read on an 80-column terminal (issue 31): each option's help whole beside
it, never cut ("settings.max_roun…"), each command's first sentence whole in a group's list,
and `--backend` naming the extra Dask needs."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from engine.cli.app import app

runner = CliRunner()


def help_of(*command: str, columns: int = 80) -> str:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.stdout


def words(text: str) -> str:
    """The text with its line breaks and indents undone (what is said, however it wraps)."""
    return re.sub(r"\s+", " ", text)


def cut(out: str) -> list[str]:
    """Lines a formatter shortened: ending in an ellipsis (rich's "settings.max_roun…", click's
    "digit..."), the usage line's `ARGS...` aside."""
    return [line for line in out.splitlines() if line.rstrip().endswith(("…", "...")) and "Usage:" not in line]


@pytest.mark.parametrize(
    "command", [("simulate",), ("compare",), ("fight",), ("session", "attack"), ("session", "declare-action"), ()]
)
def test_at_80_columns_no_line_is_wider_and_nothing_is_cut(command: tuple[str, ...]) -> None:
    out = help_of(*command)
    assert max(len(line) for line in out.splitlines()) <= 80
    assert cut(out) == []


def test_an_options_help_is_shown_whole_at_80_columns() -> None:
    said = words(help_of("simulate"))
    assert (
        "Change a scenario field for this run (repeatable): settings.max_rounds=20, "
        "combatants.Rosa.tactics=cautious, combatants.Rosa.stats.body=60." in said
    )


def test_backend_help_names_the_distributed_extra() -> None:
    for command in ("simulate", "compare", "bench"):
        assert "needs the distributed extra: pip install -e '.[distributed]'" in words(help_of(command))


def test_a_groups_list_gives_each_commands_first_sentence_whole() -> None:
    said = words(help_of())
    assert "roll Roll percentile dice: value, crit, fumble, match, digit sum (D-1…D-5)." in said


def test_a_long_list_of_choices_is_said_in_the_help_not_in_a_metavar() -> None:
    said = words(help_of("session", "attack"))
    assert "--cherry CHERRY The cherry on a matched success (C2-22): big_hurt, blind," in said
