"""Finding 4 of issue 10: a log is checked line by line when it is read. An edited line is refused
naming it; a log that ends inside a command is refused, or recovered to its last whole command
when asked; a complete last line without its newline is kept; `ua session import` re-decides
every command before it stores anything."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.errors import CorruptLog, TornTail
from engine.session.replayfile import read_replay
from engine.store.logfile import LogFile
from tests.cli.test_session_cli import SCENARIO, Ua, fight_one_round
from tests.golden import REPLAYS
from tests.logs import resign


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Ua, Path]:
    """The duel after one round of attacks, exported to duel.jsonl."""
    ua = Ua(tmp_path)
    ua.ok("session", "new", "duel", "--scenario", str(SCENARIO), "--seed", "5")
    ua.ok("session", "begin", "duel")
    ua.ok("session", "next", "duel")
    fight_one_round(ua)
    file = tmp_path / "duel.jsonl"
    assert ua("session", "export", "duel", str(file)).exit_code == 0
    return ua, file


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def attack_lines(lines: list[bytes]) -> range:
    """The lines of Vic's shot (command #6): its record, the attack, the wounds, … as exported."""
    start = next(i for i, line in enumerate(lines) if b'"attack_resolved"' in line) - 1
    end = next(i for i in range(start, len(lines)) if b'"commit":true' in lines[i])
    return range(start, end + 1)


def test_an_edited_number_is_refused_on_import_naming_the_line_and_nothing_is_stored(
    exported: tuple[Ua, Path],
) -> None:
    ua, file = exported
    lines = lines_of(file)
    index = next(i for i, line in enumerate(lines) if b'"amount":30' in line)
    lines[index] = lines[index].replace(b'"amount":30', b'"amount":3')
    edited = ua.dir / "edited.jsonl"
    edited.write_bytes(b"".join(lines))
    line = ua.fails("session", "import", str(edited), "copy", code=2)
    assert line.startswith(f"error: {edited}:{index + 1}: line {index + 1} was changed after it was written")
    assert ua.count("copy") == 0


def test_an_edit_with_a_matching_checksum_is_refused_by_re_deciding_the_log(exported: tuple[Ua, Path]) -> None:
    ua, file = exported
    lines = lines_of(file)
    index = next(i for i, line in enumerate(lines) if b'"amount":30' in line)
    lines[index] = resign(lines[index].replace(b'"amount":30', b'"amount":3'))
    forged = ua.dir / "forged.jsonl"
    forged.write_bytes(b"".join(lines))
    line = ua.fails("session", "import", str(forged), "copy", code=2)
    assert line.startswith(f"error: {forged} event {index + 1}: not imported: command #6 re-decides differently")
    assert ua.count("copy") == 0


def test_the_attack_recorded_without_its_effects_is_refused_or_recovered_to_the_command_before(
    exported: tuple[Ua, Path],
) -> None:
    ua, file = exported
    lines = lines_of(file)
    shot = attack_lines(lines)
    assert len(shot) >= 3  # the record, the attack, its wounds: one append
    cut = ua.dir / "cut.jsonl"
    cut.write_bytes(b"".join(lines[: shot.start + 2]))  # the record and the attack, not the wounds
    line = ua.fails("session", "import", str(cut), "copy", code=2)
    assert line.startswith(f"error: {cut}:{shot.start + 1}: the file ends in an append without its commit line")
    assert "--recover" in line
    assert ua.count("copy") == 0

    recovered = ua("session", "import", str(cut), "copy", "--recover")
    assert recovered.exit_code == 0, recovered.stderr
    warnings = recovered.stderr.strip().splitlines()
    assert len(warnings) == 1 and warnings[0].startswith(f"warning: {cut}:{shot.start + 1}: ")
    assert ua.count("copy") == shot.start  # every whole command before the shot, nothing of it


def test_a_torn_tail_is_warned_about_once(exported: tuple[Ua, Path]) -> None:
    ua, file = exported
    cut = ua.dir / "cut.jsonl"
    cut.write_bytes(file.read_bytes()[:-40])
    for command in (["replay", str(cut), "--recover"], ["audit", "--file", str(cut), "--recover"]):
        result = ua(*command)
        assert result.exit_code == 0, result.stderr
        assert result.stderr.count("warning:") == 1, result.stderr


def test_a_complete_last_line_without_its_newline_is_kept(exported: tuple[Ua, Path]) -> None:
    ua, file = exported
    bare = ua.dir / "bare.jsonl"
    bare.write_bytes(file.read_bytes().rstrip(b"\n"))
    result = ua("session", "import", str(bare), "copy")
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    assert ua.count("copy") == ua.count("duel") == len(lines_of(file))


# -- every cut and every edit, on every kind of golden log ----------------------------------------

GOLDEN = sorted(REPLAYS.rglob("*.jsonl"))
#: Every line of every golden log with UA_RELIABILITY_FULL=1; else a spread of them (and the last).
EVERY_LINE = os.environ.get("UA_RELIABILITY_FULL") == "1"


def whole_commands_before(lines: list[bytes], cut: int) -> int:
    """How many events the whole appends before byte `cut` hold."""
    done, offset = 0, 0
    for events, line in enumerate(lines, start=1):
        offset += len(line)
        if offset - 1 > cut:  # the line's newline is not in: it is not whole
            break
        if b'"commit":true' in line:
            done = events
    return done


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda p: p.name)
def test_every_byte_cut_of_the_last_records_is_refused_or_is_a_whole_shorter_log(golden: Path, tmp_path: Path) -> None:
    lines = lines_of(golden)
    if not EVERY_LINE:  # a whole shorter log of the first commands, as long as a short session
        end = next((i for i in range(40, len(lines)) if b'"commit":true' in lines[i]), len(lines) - 1)
        lines = lines[: end + 1]
    data = b"".join(lines)
    tail = sum(len(line) for line in lines[-6:])  # the last records: a command or two of every kind
    path = tmp_path / golden.name
    refused = shorter = 0
    for cut in range(len(data) - tail, len(data)):
        path.write_bytes(data[:cut])
        whole = whole_commands_before(lines, cut)
        log = LogFile(path)
        count = sum(1 for _ in log.events())  # what `--recover` keeps
        assert count == whole, f"cut at byte {cut}"
        if log.torn is not None:
            refused += 1
        else:  # a cut right after a command's last line (or just its newline): a whole, shorter log
            shorter += 1
            assert cut in command_ends(lines), f"cut at byte {cut}"
    assert refused > 0 and refused + shorter == tail
    path.write_bytes(data[: len(data) - tail // 2])  # and as a session import reads it:
    with pytest.raises(TornTail):
        read_replay(path)
    assert len(read_replay(path, recover=True).records) == whole_commands_before(lines, len(data) - tail // 2)


def command_ends(lines: list[bytes]) -> set[int]:
    """Where a whole shorter log may end: after a commit line, with or without its newline."""
    ends, offset = set(), 0
    for line in lines:
        offset += len(line)
        if b'"commit":true' in line:
            ends |= {offset, offset - 1}
    return ends


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda p: p.name)
def test_every_edited_line_is_refused_naming_it(golden: Path, tmp_path: Path) -> None:
    lines = lines_of(golden)
    path = tmp_path / golden.name
    step = 1 if EVERY_LINE else max(1, len(lines) // 12)
    for index in sorted({*range(0, len(lines), step), len(lines) - 1}):
        line = lines[index]
        at = line.index(b'"data":') + 20  # a byte inside the event itself
        changed = line[:at] + (b"X" if line[at : at + 1] != b"X" else b"Y") + line[at + 1 :]
        path.write_bytes(b"".join([*lines[:index], changed, *lines[index + 1 :]]))
        with pytest.raises(CorruptLog) as refused:
            read_replay(path)
        if not isinstance(refused.value, TornTail):
            assert refused.value.where == f"{path}:{index + 1}", refused.value
        else:  # the edit broke the last line's JSON: it reads as an unfinished write, refused all the same
            assert index == len(lines) - 1
