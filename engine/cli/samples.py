"""`ua stress-checks`: the seed's sample stress checks (U-25), the catalog `ua session stress
--sample` names them from."""

from typing import Annotated

import typer

from engine.cli.common import JsonOption, console, emit_json
from engine.errors import InvalidInput
from engine.text import shown


def stress_checks(
    gauge: Annotated[str | None, typer.Argument(help="Only this gauge's samples.")] = None,
    json: JsonOption = False,
) -> None:
    """The seed's sample stress checks (U-25), gauge by gauge: name one with `ua session stress
    NAME ACTOR --sample "violence: kill someone in a fight"` (rank: the range's lower bound)."""
    from engine.rules.ua3.samples import samples
    from engine.state.ua3.sheet import GAUGES

    if gauge is not None and gauge.casefold() not in GAUGES:
        raise InvalidInput(f"unknown gauge {gauge!r}", where="GAUGE", hint="gauges: " + ", ".join(GAUGES))
    chosen = [s for s in samples() if gauge is None or s.gauge == gauge.casefold()]
    if json:
        emit_json(
            {
                "samples": [
                    {"name": s.name, "gauge": s.gauge, "text": s.text, "low": s.low, "high": s.high} for s in chosen
                ]
            }
        )
        return
    for s in chosen:
        console.print(shown(f"{s.gauge} {s.low}–{s.high}  {s.name}"), markup=False)
