"""Reference engine for Unknown Armies encounters: every roll is an event, state is a fold."""

import os

__version__ = "0.1.0"

if os.environ.get("UA_PURE_PYTHON"):  # run the .py sources even where a compiled build exists
    from engine._pure import prefer_sources

    prefer_sources()
