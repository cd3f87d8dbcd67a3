"""The `ua` command's entry point: the application loads with the cyclic garbage collector off.

Loading typer, rich, msgspec and the command's modules makes a few hundred thousand objects that
live as long as the process, and no garbage worth a collection; the collector would walk them
dozens of times meanwhile (about 5 % of a session command). It is on again before the command runs,
so a long batch collects as usual, and what the start made is frozen (never walked again)."""

from __future__ import annotations

import gc


def main() -> None:
    gc.disable()
    from engine.cli import app
    from engine.cli.lazy import resume_collector

    resume_collector()
    app.main()
