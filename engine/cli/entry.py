"""The `ua` command's entry point: the application loads with the cyclic garbage collector off.

Loading typer, rich, msgspec and the command's modules makes a few hundred thousand objects that
live as long as the process, and no garbage worth a collection; the collector would walk them
dozens of times meanwhile (about 5 % of a session command). It is on again before the command runs,
so a long batch collects as usual."""

from __future__ import annotations

import gc


def main() -> None:
    gc.disable()
    try:
        from engine.cli import app
    finally:
        gc.enable()
    app.main()
