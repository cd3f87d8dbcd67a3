"""Unknown Armies, 2nd edition: registers the ua2 rules with `decide`."""

from engine.rules import common as _common  # noqa: F401
