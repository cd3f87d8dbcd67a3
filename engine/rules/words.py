"""How an edition names what its reports, plots and the viewer show: each `Ruleset` carries its
own (`Ruleset.words`), so shared renderers never ask which edition they draw."""

from __future__ import annotations

import msgspec


class Words(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """The human words for a batch report's, a plot's and the viewer's figures (JSON keys stay
    the same in every edition). The defaults are the second edition's."""

    #: what the notches measure, as a title: "madness" (M2) or "shock gauges" (U-18)
    mind: str = "madness"
    #: one of them: "meter" or "gauge"
    meter: str = "meter"
    #: what "down" counts in a report
    down: str = "incapacitated or unconscious"
    #: wounds taken in a fight, in a report or a plot
    wounds_taken: str = "wounds"
    #: the state's wounds over a log (the viewer's chart): ua2's points left, ua3's wounds taken
    wounds: str = "wound points"
    #: an injury of more than 50 in one blow (C2-32); "" where the edition has none
    permanent_damage: str = "permanent damage (C2-32)"
    #: the wounds chart's value axis: ua2 counts wound points left, ua3 wounds taken
    wounds_axis: str = "wound points left"
    #: the line drawn at each combatant's `max_wounds` on that chart ("" for none): ua3's threshold
    wound_line: str = ""
