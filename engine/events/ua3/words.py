"""How ua3 events put things into words: gauges, rolls, reactions."""

from __future__ import annotations

from engine.dice.checks import CheckResult
from engine.events.base import OUTCOME_WORDS, describe_target

VERBS = {"flee": "flees", "freeze": "freezes", "frenzy": "frenzies"}


def gauge_title(gauge: str) -> str:
    return gauge.title()


def a_or_an(word: str) -> str:
    """`a Violence`, `an Unnatural`, `an Isolation`."""
    return f"an {word}" if word[:1].casefold() in "aeiou" and word else f"a {word}"


def rolled(result: CheckResult) -> str:
    """`Fitness 55: 61, failure` (the target with its shifts, the value read, the outcome)."""
    word = OUTCOME_WORDS[result.outcome]
    roll = result.roll
    if roll is None:
        return f"{describe_target(result.spec)}: no roll needed (C-3), {word}"
    flip = f" (dice {roll.tens},{roll.ones} flip-flopped, C-9)" if roll.flipped else ""
    return f"{describe_target(result.spec)}: {roll.value:02d}{flip}, {word}"


def until(source: str) -> str:
    return f"until {source.strip() or 'the threat'} is gone"


def reaction_words(actor: str, reaction: str, source: str) -> str:
    """`Marge flees until the gunman is gone`."""
    return f"{actor} {VERBS.get(reaction, reaction)} {until(source)}"


def sample_words(sample: str, low: int, high: int) -> str:
    """` (sample “kill someone in a fight”, 3–5)`, or nothing without a sample."""
    if not sample:
        return ""
    span = f", {low}–{high}" if low and high else ""
    return f" (sample “{sample_text(sample)}”{span})"


def sample_text(sample: str) -> str:
    """A sample's text as a phrase: `Kill someone in a fight.` → `kill someone in a fight`."""
    text = sample.strip().rstrip(".")
    return text[:1].lower() + text[1:]


def notches(n: int, kind: str, gauge: str) -> str:
    """`1 hardened violence notch`, `3 failed self notches`."""
    return f"{n} {kind} {gauge} notch{'' if n == 1 else 'es'}"


def signed(n: int) -> str:
    """A shift as a GM writes it: +10, −10 (a true minus sign)."""
    return f"−{-n}" if n < 0 else f"+{n}"
