"""Which engine a process runs: the version and a fingerprint that changes with any source or
data file (its content or its name), and not with caches of compiled bytecode."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.simulate.identity import OtherEngine, check_engine, engine_identity, fingerprint


def _tree(root: Path) -> Path:
    (root / "rules").mkdir(parents=True)
    (root / "rules" / "combat.py").write_text("DAMAGE = 4\n")
    (root / "data.toml").write_text("cap = 25\n")
    return root


def test_the_fingerprint_changes_with_a_source_s_content_or_name(tmp_path: Path) -> None:
    root = _tree(tmp_path / "engine")
    first = fingerprint(root)
    assert fingerprint(root) == first
    (root / "rules" / "combat.py").write_text("DAMAGE = 5\n")
    changed = fingerprint(root)
    assert changed != first
    (root / "rules" / "combat.py").rename(root / "rules" / "melee.py")
    assert fingerprint(root) not in (first, changed)


def test_the_fingerprint_covers_data_files_and_ignores_bytecode_caches(tmp_path: Path) -> None:
    root = _tree(tmp_path / "engine")
    first = fingerprint(root)
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "combat.cpython-311.pyc").write_bytes(b"\0compiled")
    (root / "notes.txt").write_text("not a source")
    assert fingerprint(root) == first
    (root / "data.toml").write_text("cap = 30\n")
    assert fingerprint(root) != first


def test_this_engine_names_its_version_and_the_fingerprint_of_its_package() -> None:
    assert engine_identity() == f"ua-engine {engine.__version__}, sources {fingerprint(Path(engine.__file__).parent)}"


def test_a_job_made_by_another_engine_is_refused_naming_both_and_where() -> None:
    check_engine(engine_identity(), "here")
    with pytest.raises(OtherEngine) as caught:
        check_engine("ua-engine 0.0.9, sources 0000000000000000", "worker tcp://10.0.0.5:40000")
    error = caught.value
    assert error.where == "worker tcp://10.0.0.5:40000"
    other = "ua-engine 0.0.9, sources 0000000000000000"
    assert error.message == f"runs {engine_identity()}, but the batch was made by {other}"
    assert "same ua-engine" in error.hint and "\n" not in str(error)
