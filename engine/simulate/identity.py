"""Which engine a process runs: its version and a fingerprint of its sources.

A batch job carries the identity of the engine that built it, and a worker runs it only if its
own identity is the same (`engine.simulate.tasks`): a worker with other rules would give other
answers, so it is refused, never merged. The fingerprint hashes every Python source and data file
of the installed `engine` package (not the compiled extensions: a compiled build and the pure
Python sources it was built from give the same results, which the tests check).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import engine
from engine.errors import EngineError

#: The files whose content decides the answers: every source and data file of the package.
SOURCE_SUFFIXES = (".py", ".toml")


def fingerprint(root: Path) -> str:
    """A short hash of every source and data file under `root`, by relative path and content."""
    digest = hashlib.sha256()
    files = sorted(
        p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES and "__pycache__" not in p.parts and p.is_file()
    )
    for path in files:
        content = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()[:16]


@cache
def engine_identity() -> str:
    """`ua-engine 0.1.0, sources 3fa2b1c4d5e6f708`: this process's engine (computed once)."""
    return f"ua-engine {engine.__version__}, sources {fingerprint(Path(engine.__file__).parent)}"


class OtherEngine(EngineError):
    """Raised when a worker's engine is not the one that made the batch (another version, other
    sources): its answers could differ, so it runs nothing of it."""


def check_engine(made_by: str, where: str, *, runs: str | None = None) -> None:
    """Refuse to run a job made by another engine at `where`, which `runs` an engine (default:
    this process's)."""
    runs = engine_identity() if runs is None else runs
    if made_by != runs:
        raise OtherEngine(
            f"runs {runs}, but the batch was made by {made_by}",
            where=where,
            hint="install the same ua-engine (version and sources) here and on every worker, and restart the workers",
        )
