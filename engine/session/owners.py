"""Whose dice a live table's action reads (RULES T-1…T-5), and the requests for the ones a player
owns and has not given.

The rules say whose each roll is (`engine.dice.source.rolling`); `OwnedDice` takes its faces from
their owner: the GM's flat list first (in the order read, for whoever owns them, as a command's
`dice` always meant), then that roll's answered request, then the faces given for its roller
(`--dice Dana=9,1`). A roll none of these cover is drawn from the seed when it is the GM's (an NPC:
T-2), when its player said "roll for me", or when the GM said `--draw-rest`; otherwise it is a
player's roll not given, and the action waits (T-3): a `Request` for it, and for every other
played character's roll of the same kind the action reaches (every initiative at a fight's start,
every stress check one blast raises: T-4), read on provisional faces that are never recorded.
Pure: no I/O, no clock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from engine.dice.judge import target_of
from engine.dice.odds import success_chance
from engine.dice.source import Choice, Roll, SeededDice
from engine.errors import DiceError

#: The GM, as the owner of every character nobody plays (T-2).
GM = "gm"
#: What a waiting action reads for a die nobody has given yet: never recorded (5,4 is no crit).
_PROVISIONAL = (5, 4)
#: An answer that hands the die to the seed (T-3 "roll for me").
ROLL_FOR_ME = "roll_for_me"
#: A standing choice that leaves that choice to the engine: what an automated combatant takes.
AUTO = "auto"


class Option(msgspec.Struct, frozen=True):
    """One answer to a choice, and what it does."""

    value: str
    says: str


class Request(msgspec.Struct, frozen=True, kw_only=True):
    """A die (or a choice) an action waits on: whose, which roll, for which rule, the target and
    the exact odds of success (a choice: each option and what it does)."""

    id: str
    character: str
    owner: str
    kind: str = "roll"
    what: str
    rule: str = ""
    target: int | None = None
    chance: float | None = None
    faces: int = 2
    options: tuple[Option, ...] = ()


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """Who plays what at a session, and what the action being decided was given.

    `played`: character id → player; `answers`: request id → faces, or `ROLL_FOR_ME`;
    `given`: character → faces for its rolls in this action, in the order it makes them;
    `roll_for_me`: characters whose player has every roll drawn; `prefer`: character → its
    standing choices, choice key → value (T-3)."""

    played: Mapping[str, str] = {}
    answers: Mapping[str, tuple[int, ...] | str] = {}
    given: Mapping[str, tuple[int, ...]] = {}
    roll_for_me: frozenset[str] = frozenset()
    prefer: Mapping[str, Mapping[str, str]] = {}
    draw_rest: bool = False
    #: the choices the command being decided can state (`Ruleset.stated_choices`)
    states: frozenset[str] = frozenset()


class Waiting(Exception):
    """The action waits on `requests` (T-3): nothing of it is recorded."""

    def __init__(self, requests: Sequence[Request]) -> None:
        super().__init__(", ".join(r.what for r in requests))
        self.requests = tuple(requests)


class RollRead(msgspec.Struct, frozen=True):
    """One roll as the action read it: whose, what, its faces and where they came from
    (`given` by a person, `drawn` from the seed for the GM, `for_player`: a player's roll for me,
    `by_gm`: a player's roll the GM drew with --draw-rest)."""

    who: str
    what: str
    faces: tuple[int, ...]
    source: str


def _kind(roll: Roll) -> tuple[str, str]:
    return roll.rule, roll.what


def _choice_kind(choice: Choice) -> tuple[str, str]:
    return "choice", choice.key


class OwnedDice:
    """A live table's dice for one action (see the module's doc). `counts` numbers each
    character's rolls across the steps of one user action, so request ids stay the same each
    time the action is decided again."""

    def __init__(self, table: Table, seeded: SeededDice, flat: Sequence[int], counts: dict[str, int]) -> None:
        self.table = table
        self.seeded = seeded
        self.flat = tuple(flat)
        self.flat_used = 0
        self.counts = counts
        self.given_used: dict[str, int] = {}
        self.requests: list[Request] = []
        self.reads: list[RollRead] = []
        #: the choices players made in it, (who, key, value): the command records them
        self.made: list[tuple[str, str, str]] = []
        self.drawn = 0
        self._roll: Roll | None = None
        self._faces: list[int] = []
        self._source: list[str] = []
        self._pending: tuple[int, ...] | None = None  # an answer's faces, or provisional ones
        self._waiting_kind: tuple[str, str] | None = None

    # -- the rules' side ----------------------------------------------------------------------

    def rolling(self, roll: Roll) -> None:
        self._close()
        if self._waiting_kind is not None and (
            _kind(roll) != self._waiting_kind or any(r.character == roll.who for r in self.requests)
        ):
            raise Waiting(self.requests)  # a later roll may depend on what is asked (T-3)
        self._roll = roll
        who = roll.who
        k = self.counts.get(who, 0) + 1
        self.counts[who] = k
        self._pending = None
        if self.flat_used < len(self.flat):
            return  # the GM's flat list comes first, whoever owns the roll
        answer = self.table.answers.get(self.request_id(who, k))
        left = len(self.table.given.get(who, ())) - self.given_used.get(who, 0)
        if answer is None and 0 < left < roll.faces:
            raise DiceError(
                f"{who}'s dice run out inside {who}'s {roll.what} ({left} of its {roll.faces} faces given)",
                hint=f"give every face of {who}'s rolls: --dice {who}=T,U",
            )
        if isinstance(answer, tuple):
            self._pending = answer
        elif answer is None and self._needs_request(who):
            self._open(roll, k)

    def d10(self) -> int:
        if self.flat_used < len(self.flat):
            self.flat_used += 1
            return self._read(self.flat[self.flat_used - 1], "given")
        if self._pending:
            face, self._pending = self._pending[0], self._pending[1:]
            return self._read(face, "given")
        who = self._roll.who if self._roll is not None else ""
        queue = self.table.given.get(who, ())
        used = self.given_used.get(who, 0)
        if used < len(queue):
            self.given_used[who] = used + 1
            return self._read(queue[used], "given")
        if self._waiting_kind is not None:
            return self._read(_PROVISIONAL[len(self._faces) % 2], "provisional")
        self.drawn += 1
        return self._read(self.seeded.d10(), self._drawn_as(who))

    def choose(self, n: int) -> int:
        return self.seeded.choose(n)

    def choosing(self, choice: Choice, automatic: str) -> str:
        """A choice the rules leave to `choice.who`: the player's answer or standing choice, else
        a request (an NPC's, and one its player left to the engine: `automatic`)."""
        who = choice.who
        states = self.table.states
        if who not in self.table.played or (choice.key not in states and f"{choice.key}:{who}" not in states):
            return automatic
        if self._waiting_kind is not None and _choice_kind(choice) != self._waiting_kind:
            raise Waiting(self.requests)
        values = [value for value, _ in choice.options]
        answer = self.table.answers.get(self.request_id(who, choice.key))
        if answer is None:
            answer = self.table.prefer.get(who, {}).get(choice.key)
        if answer in (ROLL_FOR_ME, "better", AUTO):  # left to the engine by its player: the automatic one
            return automatic
        if isinstance(answer, str) and answer in values:
            self.made.append((who, choice.key, answer))
            return answer
        self.requests.append(
            Request(
                id=self.request_id(who, choice.key),
                character=who,
                owner=self.table.played[who],
                kind="choice",
                what=f"{who}'s {choice.what}",
                rule=choice.rule,
                faces=0,
                options=tuple(Option(value, says) for value, says in choice.options),
            )
        )
        self._waiting_kind = _choice_kind(choice)
        return automatic

    # -- the session's side -------------------------------------------------------------------

    def finish(self) -> None:
        """After the rules: raise `Waiting` if a request is open; else check every given face was read."""
        self._close()
        if self.requests:
            raise Waiting(self.requests)

    def unread(self) -> dict[str, tuple[int, ...]]:
        """Faces given for a character that none of its rolls read (T-4: refused)."""
        return {
            who: tuple(faces[self.given_used.get(who, 0) :])
            for who, faces in self.table.given.items()
            if self.given_used.get(who, 0) < len(faces)
        }

    @staticmethod
    def request_id(who: str, k: int | str) -> str:
        return f"{who}.{k}"

    # -- inside -------------------------------------------------------------------------------

    def _needs_request(self, who: str) -> bool:
        table = self.table
        if who not in table.played or who in table.roll_for_me or table.draw_rest:
            return False
        return self.given_used.get(who, 0) >= len(table.given.get(who, ()))

    def _open(self, roll: Roll, k: int) -> None:
        spec = roll.spec
        chance = float(success_chance(spec)) if spec is not None else None
        self.requests.append(
            Request(
                id=self.request_id(roll.who, k),
                character=roll.who,
                owner=self.table.played[roll.who],
                what=f"{roll.who}'s {roll.what}",
                rule=roll.rule,
                target=target_of(spec) if spec is not None else None,
                chance=None if chance is None else round(chance, 4),
                faces=roll.faces,
            )
        )
        self._waiting_kind = _kind(roll)
        self._pending = None

    def _drawn_as(self, who: str) -> str:
        if who not in self.table.played:
            return "drawn"
        return "by_gm" if self.table.draw_rest and who not in self.table.roll_for_me else "for_player"

    def _read(self, face: int, source: str) -> int:
        self._faces.append(face)
        self._source.append(source)
        return face

    def _close(self) -> None:
        if self._faces:
            roll = self._roll
            source = self._source[0] if len(set(self._source)) == 1 else "mixed"
            self.reads.append(
                RollRead(roll.who if roll else "", roll.what if roll else "dice", tuple(self._faces), source)
            )
        self._faces, self._source = [], []
