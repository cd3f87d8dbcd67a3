"""Store tests log (torn tails); send those lines to the stderr of the test running now.

`engine.logging.configure_logging` binds the `sys.stderr` of the moment it runs; after a CLI
test that is a capture stream pytest has closed since, and a warning would fail to print.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import structlog

from engine.logging import configure_logging


@pytest.fixture(autouse=True)
def _logging_to_the_current_stderr() -> Iterator[None]:
    before = structlog.get_config()
    configure_logging()
    yield
    structlog.configure(**before)
