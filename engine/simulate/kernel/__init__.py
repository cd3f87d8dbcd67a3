"""The fast path of a batch: a scripted fight fought on plain numbers, held equal to the engine.

`fight.run_fight` — commands decided into events and folded into states — is the reference. The
kernel fights the same fight with the same dice (the fight's dice stream, face by face, in the
same order) and the same tactic choices (its AI stream), but keeps only what the batch report
needs: statuses, wounds, notches, rounds, and how many events the reference would have written.

The opening (scenario madness triggers, initiative, an ambush's start) is fought on the reference
engine and the kernel takes over from the state it leaves. An opening is a pure function of the
dice faces it reads (it makes no AI choices), so each worker fights each distinct opening once,
keeps up to `MAX_OPENINGS` of them in a tree keyed by those faces, and finds a fight's opening
again by reading its faces down the tree; an opening that reads no faces is fought once in all.

It models strikes with fists, melee weapons and guns (C2-1, C2-7 … C2-14), dodges (C2-15, C2-16),
focus (C2-5), draws, jams and standing up (C2-3), the ambush round (I2-3), the cherries More Hurt,
Big Hurt, New Damage and Knock Down (C2-22, C2-23, C2-29, C2-30), wounds and their shifts (C2-31,
C2-32), flight and surrender (C2-33), the violence checks a fight raises (M2-2 … M2-5, M2-8) with
their reactions (M2-4, M2-7), and the end of the fight (C2-33). Anything else — grips, conditions,
the other cherries, suppressive fire, divided or special attacks, a knock-down during an ambush or
of a fighter with no place in the order — raises `Unsupported`, and that fight is fought again on
the reference engine.

The rule arithmetic is the engine's own (outcome classes and orientation, damage, wound shifts,
dodge effects, target selection, threat); only the order of play is written again here, on
mutable numbers, and tests hold the two paths equal fight by fight (tests/test_kernel.py).
"""

from engine.simulate.kernel.fight import Kernel, Unsupported, compile_kernel

__all__ = ["Kernel", "Unsupported", "compile_kernel"]
