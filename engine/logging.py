"""structlog, configured once: diagnostics to stderr (console by default, JSON on request).

The event log is the truth; these lines are only for whoever debugs the engine.
"""

from __future__ import annotations

import logging
import sys

import structlog


def configure_logging(*, json: bool = False, verbose: bool = False) -> None:
    level = logging.DEBUG if verbose else logging.WARNING
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=_StderrLoggerFactory(),
        cache_logger_on_first_use=False,
    )


def get_logger(name: str) -> structlog.types.FilteringBoundLogger:
    logger: structlog.types.FilteringBoundLogger = structlog.get_logger(name)
    return logger


class _StderrLogger:
    """Writes each line to whatever `sys.stderr` is at that moment (tests swap it)."""

    def msg(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    log = debug = info = warning = warn = error = critical = exception = fatal = msg


class _StderrLoggerFactory:
    def __call__(self, *args: object) -> _StderrLogger:
        return _StderrLogger()
