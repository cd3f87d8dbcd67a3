"""ua2 combat rules (I2, C2, H2): importing the modules registers their commands with `decide`."""

from engine.rules.ua2.combat import actions as actions
from engine.rules.ua2.combat import attack as attack
from engine.rules.ua2.combat import healing as healing
from engine.rules.ua2.combat import initiative as initiative
from engine.rules.ua2.combat import turns as turns
