"""structlog, configured once: diagnostics to stderr (console by default, JSON on request).

The event log is the truth; these lines are only for whoever debugs the engine. structlog (and
the standard `logging`, for its levels) is imported on the first log line, not at start-up, so a
CLI command that logs nothing starts fast.
"""

from __future__ import annotations

import sys
from typing import Any

_wanted = {"json": False, "verbose": False}
_applied = False


def configure_logging(*, json: bool = False, verbose: bool = False) -> None:
    """Choose the format and level; takes effect at the first log line."""
    global _applied
    _wanted.update(json=json, verbose=verbose)
    _applied = False


def _apply() -> None:
    global _applied
    import logging

    import structlog

    renderer: Any = (
        structlog.processors.JSONRenderer() if _wanted["json"] else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[structlog.processors.add_log_level, structlog.processors.TimeStamper(fmt="iso"), renderer],
        wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG if _wanted["verbose"] else logging.WARNING),
        logger_factory=_StderrLoggerFactory(),
        cache_logger_on_first_use=False,
    )
    _applied = True


class _LazyLogger:
    """A structlog bound logger, made when first used."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, method: str) -> Any:
        import structlog

        if not _applied:
            _apply()
        return getattr(structlog.get_logger(self._name), method)


def get_logger(name: str) -> Any:
    return _LazyLogger(name)


class _StderrLogger:
    """Writes each line to whatever `sys.stderr` is at that moment (tests swap it)."""

    def msg(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    log = debug = info = warning = warn = error = critical = exception = fatal = msg


class _StderrLoggerFactory:
    def __call__(self, *args: object) -> _StderrLogger:
        return _StderrLogger()
