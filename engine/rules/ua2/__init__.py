"""Unknown Armies, 2nd edition: registers the ua2 rules with `decide`."""

from engine.rules import common as _common  # noqa: F401
from engine.rules.ua2 import combat as _combat  # noqa: F401
from engine.rules.ua2 import madness as _madness  # noqa: F401
from engine.rules.ua2 import skills as _skills  # noqa: F401
