"""Hypothesis settings for the suite: no per-example deadline (a loaded machine is slow, not
wrong); under CI the examples are derandomized so a run is reproducible."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
