"""Rules: pure `decide` functions, one sub-package per edition. Checks (C-*) live in engine.dice."""
