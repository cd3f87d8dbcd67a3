"""The build: the engine's hot modules compiled with mypyc when they can be, else pure Python.

`pip install .` (or `-e .`) compiles the rules, tactics and fight loop into C extensions
(mypyc, from the build requirements) for batch speed; the modules stay importable as plain
Python. If compiling fails (no C compiler, a mypyc error), the install goes on without the
extensions, and the engine runs as pure Python with the same results. `UA_PURE_PYTHON=1` at
install time skips compiling; at run time it makes the engine import its .py sources even where
a compiled build exists (how the tests check both).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from glob import glob
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

#: The modules a batch spends its time in (the rules, the working table, tactics, the fight), and
#: the loop decoding a long log.
HOT = sorted(
    {
        *glob("engine/rules/ua2/*.py"),
        *glob("engine/rules/ua2/combat/*.py"),
        *glob("engine/rules/ua3/*.py"),
        *glob("engine/rules/ua3/combat/*.py"),
        "engine/tactics/ua3.py",
        "engine/tactics/ua3_script.py",
        "engine/rules/sink.py",
        "engine/rules/ruleset.py",
        "engine/rules/common.py",
        "engine/tactics/choose.py",
        "engine/tactics/conditions.py",
        "engine/tactics/script.py",
        "engine/rules/script.py",
        "engine/simulate/fight.py",
        "engine/simulate/outcome.py",
        "engine/simulate/openings.py",
        "engine/dice/source.py",
        "engine/dice/judge.py",
        "engine/dice/splitmix.py",
        "engine/dice/rolls.py",
        "engine/dice/faces.py",
        "engine/state/ua3/spaces.py",
        "engine/session/rows.py",
    }
    - {
        "engine/rules/ua2/__init__.py",
        "engine/rules/ua2/combat/__init__.py",
        "engine/rules/ua2/creation.py",
        "engine/rules/ua2/view.py",
        "engine/rules/ua3/__init__.py",
        "engine/rules/ua3/combat/__init__.py",
        "engine/rules/ua3/samples.py",  # msgspec decodes its structs: it needs their annotations
        "engine/rules/ua3/view.py",  # what a person reads (state, sheet): never in a batch
        "engine/rules/ua3/sheet_check.py",  # checked once when a sheet is loaded
    }
)


def usable_cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class OptionalBuildExt(build_ext):
    """Build the compiled modules if possible; never fail the install for them. The C compiler
    runs on every usable CPU: the extensions side by side, and the many C files of mypyc's one
    library (`multi_file`) side by side too, at most one compiler process a CPU in all."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = usable_cpus()

    def build_extensions(self) -> None:
        jobs = self.parallel if isinstance(self.parallel, int) and self.parallel > 1 else 1
        if jobs > 1:
            compile_side_by_side(self.compiler, jobs)
            # the library with the most C files is the long pole: start it first
            self.extensions.sort(key=lambda ext: -len(ext.sources))
        super().build_extensions()

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any build failure means: stay pure Python
            self._skip(exc)

    def build_extension(self, ext: object) -> None:
        try:
            super().build_extension(ext)  # type: ignore[arg-type]
        except Exception as exc:
            self._skip(exc)

    def _skip(self, exc: Exception) -> None:
        print(f"warning: the compiled build failed ({exc}); the engine runs as pure Python", file=sys.stderr)
        remove_stale_builds()


class EditableBuildPy(build_py):
    """An editable install (`pip install -e .`) also compiles the engine's sources to bytecode
    beside them, as pip does for the files of an ordinary install: where writing bytecode at run
    time is off (`PYTHONDONTWRITEBYTECODE`, common in containers), each `ua` command would
    otherwise compile every module it imports again, about a third of a session command's start.
    A source edited later is compiled afresh (its bytecode no longer matches it)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            import compileall

            compileall.compile_dir("engine", quiet=1)


def compile_side_by_side(compiler: Any, jobs: int) -> None:
    """Let `compiler` compile the sources of one call in threads, each C file its own process,
    with at most `jobs` of its processes running at once (compiling and linking alike)."""
    slots = threading.BoundedSemaphore(jobs)
    spawn: Callable[..., Any] = compiler.spawn
    compile_all: Callable[..., list[str]] = compiler.compile

    def spawn_in_a_slot(*args: Any, **kwargs: Any) -> Any:
        with slots:
            return spawn(*args, **kwargs)

    def compile_each(sources: Sequence[str], *args: Any, **kwargs: Any) -> list[str]:
        if len(sources) < 2:
            return compile_all(sources, *args, **kwargs)
        with ThreadPoolExecutor(jobs) as pool:
            parts = list(pool.map(lambda source: compile_all([source], *args, **kwargs), sources))
        return [obj for objects in parts for obj in objects]

    compiler.spawn = spawn_in_a_slot
    compiler.compile = compile_each


def remove_stale_builds(keep: Sequence[str] = ()) -> None:
    """Delete compiled modules an earlier install left beside the sources, except those of the
    `keep` sources: a module no longer compiled would otherwise be imported in place of its newer
    .py file."""
    for path in glob("engine/**/*.cpython-*.so", recursive=True):
        if path.split(".cpython-")[0] + ".py" not in keep:
            os.remove(path)
    if not keep:
        for path in glob("*__mypyc.cpython-*.so"):
            os.remove(path)


#: C flags for gcc and clang (a "unix" compiler), for fewer instructions and far fewer mispredicted
#: jumps a call: the compiled modules call one another directly, not through the dynamic linker's
#: table, and small functions are inlined into their callers (hidden: nothing outside the library
#: calls them but Python, through the module inits, which stay exported); calls into Python's own
#: library jump through its address table at once, without a stub.
LOCAL_CALLS = ["-fvisibility=hidden", "-fno-plt"]


def unix_compiler() -> bool:
    """Whether extensions are built with a gcc-like compiler (what mypyc's own flags assume)."""
    try:
        from setuptools._distutils import ccompiler, sysconfig

        compiler = ccompiler.new_compiler()
        sysconfig.customize_compiler(compiler)
        return bool(compiler.compiler_type == "unix")
    except Exception:  # cannot tell: build with mypyc's flags only
        return False


def compiled_modules() -> list[object]:
    if os.environ.get("UA_PURE_PYTHON"):
        remove_stale_builds()
        return []
    try:
        from mypyc.build import mypycify

        remove_stale_builds(keep=HOT)
        # one C file a module (`multi_file`), so that they compile side by side
        extensions = list(mypycify(HOT, opt_level="3", debug_level="0", multi_file=True))
        if unix_compiler():
            for extension in extensions:  # a new list each (they share mypyc's one)
                extension.extra_compile_args = [*extension.extra_compile_args, *LOCAL_CALLS]
        return extensions
    except (Exception, SystemExit) as exc:  # mypyc missing or failing: pure Python
        print(f"warning: not compiling ({exc}); the engine runs as pure Python", file=sys.stderr)
        remove_stale_builds()
        return []


setup(ext_modules=compiled_modules(), cmdclass={"build_ext": OptionalBuildExt, "build_py": EditableBuildPy})
