"""What a ua3 sheet must satisfy beyond its shape (msgspec checks types and ranges — notches
0–9 hardened and 0–5 failed, U-18 — while loading). Each problem names its `$.path`:

- identity names are unique, and none is named like an ability (U-1, U-19);
- a `substitutes` feature names abilities, `resists` and `coerces` name gauges (U-19);
- at most one identity is the obsession (U-19, C-9);
- at most five relationships, at most one linked to each gauge, each to a gauge or its role
  (U-20);
- at most one passion of each kind; the fear names a gauge, the others do not (U-21);
- the wounds already taken are below the wound threshold (U-2).

Warnings are what a GM may want to know without the sheet being wrong: two identities setting
the wound threshold or the initiative (the highest counts), a burned-out character's passions
(U-24), a gauge with five failed notches (a trauma, U-23).
"""

from __future__ import annotations

from typing import NamedTuple

from engine.rules.ua3.abilities import ability_named, gauge_named, label, linked_gauge, wound_threshold
from engine.state.ua3.sheet import ABILITIES, GAUGES, MAX_RELATIONSHIPS, U18, Ua3Sheet

ABILITY_HINT = "abilities: " + ", ".join(label(a) for a in ABILITIES) + " (U-1)"
GAUGE_HINT = "gauges: " + ", ".join(GAUGES) + " (U-18)"
ROLE_HINT = "a gauge (" + ", ".join(GAUGES) + ") or its role (" + ", ".join(U18[g].relationship for g in GAUGES) + ")"


class Problem(NamedTuple):
    """One thing about a sheet: where (`$.path`), what, and a hint."""

    path: str
    message: str
    hint: str = ""


def sheet_problems(sheet: Ua3Sheet, *, default_threshold: int = 50) -> list[Problem]:
    """Everything wrong with a ua3 sheet, in field order."""
    problems: list[Problem] = []
    problems += _identities(sheet)
    problems += _relationships(sheet)
    problems += _passions(sheet)
    threshold = wound_threshold(sheet, default_threshold)
    if sheet.wounds >= threshold:
        problems.append(
            Problem(
                "$.wounds",
                f"{sheet.wounds} wounds reach the wound threshold {threshold}: the character would be dead (U-2)",
                "wounds count up from 0; give fewer",
            )
        )
    return problems


def sheet_warnings(sheet: Ua3Sheet, *, burnout_at: int = 25) -> list[Problem]:
    """What a GM may want to know about a sound sheet."""
    warnings: list[Problem] = []
    for feature in ("wound_threshold", "initiative"):
        setting = [i for i, x in enumerate(sheet.identities) if getattr(x, feature)]
        if len(setting) > 1:
            warnings.append(
                Problem(
                    f"$.identities[{setting[1]}].{feature}",
                    f"{len(setting)} identities set the {feature.replace('_', ' ')}: the highest rating counts (U-19)",
                )
            )
    total = sheet.gauges.hardened_total
    if total >= burnout_at and sheet.passions:
        warnings.append(
            Problem(
                "$.passions", f"{total} hardened notches in all: burned out, the passions do not count (U-24, U-21)"
            )
        )
    for gauge in GAUGES:
        if sheet.gauges.of(gauge).trauma:
            warnings.append(Problem(f"$.gauges.{gauge}.failed", f"five failed {gauge} notches: a trauma (U-23)"))
    return warnings


def _identities(sheet: Ua3Sheet) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    obsession: int | None = None
    for i, identity in enumerate(sheet.identities):
        at = f"$.identities[{i}]"
        key = identity.name.casefold()
        if key in seen:
            problems.append(
                Problem(f"{at}.name", f"duplicate identity {identity.name!r} (also $.identities[{seen[key]}])")
            )
        seen.setdefault(key, i)
        if ability_named(identity.name) is not None:
            problems.append(
                Problem(
                    f"{at}.name",
                    f"the identity {identity.name!r} is named like an ability (U-1)",
                    "name the identity (Cop, Street fighter…) and list the ability under substitutes",
                )
            )
        for j, name in enumerate(identity.substitutes):
            if ability_named(name) is None:
                problems.append(
                    Problem(f"{at}.substitutes[{j}]", f"unknown ability {name!r} (U-19 substitutes)", ABILITY_HINT)
                )
        for feature in ("resists", "coerces"):
            for j, name in enumerate(getattr(identity, feature)):
                if gauge_named(name) is None:
                    what = "an ability, not a gauge" if ability_named(name) else "unknown gauge"
                    problems.append(
                        Problem(f"{at}.{feature}[{j}]", f"{what} {name!r} (U-19 {feature} names gauges)", GAUGE_HINT)
                    )
        if identity.obsession:
            if obsession is not None:
                first = sheet.identities[obsession].name
                problems.append(
                    Problem(
                        f"{at}.obsession",
                        f"two obsessions: {first!r} and {identity.name!r}; one identity may be the obsession "
                        "(U-19, C-9)",
                    )
                )
            else:
                obsession = i
    return problems


def _relationships(sheet: Ua3Sheet) -> list[Problem]:
    problems: list[Problem] = []
    if len(sheet.relationships) > MAX_RELATIONSHIPS:
        problems.append(
            Problem(
                f"$.relationships[{MAX_RELATIONSHIPS}]",
                f"{len(sheet.relationships)} relationships: at most {MAX_RELATIONSHIPS}, one linked to each "
                "gauge (U-20)",
            )
        )
    linked: dict[str, int] = {}
    for i, relationship in enumerate(sheet.relationships):
        gauge = linked_gauge(relationship.gauge)
        if gauge is None:
            problems.append(
                Problem(
                    f"$.relationships[{i}].gauge",
                    f"{relationship.gauge!r} is neither a gauge nor a relationship's role (U-20)",
                    ROLE_HINT,
                )
            )
        elif gauge in linked:
            problems.append(
                Problem(
                    f"$.relationships[{i}].gauge",
                    f"two relationships linked to {gauge} ({U18[gauge].relationship}; also "
                    f"$.relationships[{linked[gauge]}]): one linked to each gauge (U-20)",
                )
            )
        else:
            linked[gauge] = i
    return problems


def _passions(sheet: Ua3Sheet) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for i, passion in enumerate(sheet.passions):
        at = f"$.passions[{i}]"
        if passion.kind in seen:
            problems.append(
                Problem(f"{at}.kind", f"a second {passion.kind} passion (also $.passions[{seen[passion.kind]}]) (U-21)")
            )
        seen.setdefault(passion.kind, i)
        if passion.kind == "fear" and passion.gauge is None:
            problems.append(Problem(f"{at}.gauge", "the fear names a gauge (U-21)", GAUGE_HINT))
        if passion.kind != "fear" and passion.gauge is not None:
            problems.append(Problem(f"{at}.gauge", f"only the fear names a gauge, not the {passion.kind} (U-21)"))
    return problems
