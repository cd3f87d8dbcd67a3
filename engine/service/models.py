"""The service's request and response bodies: msgspec structs, documented by msgspec's own JSON
Schema (see `engine.service.openapi`). Requests forbid unknown fields, as the engine's commands
do; responses may grow fields, so clients should ignore the ones they do not know.

Commands are the engine's own `Command` union (tagged by `command`), taken as they are."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from engine.commands import Command
from engine.dice.asked import AskedSpec
from engine.dice.checks import CheckSpec
from engine.rules.words import Words
from engine.simulate.batch import MAX_FIGHTS
from engine.simulate.pool import MAX_WORKERS
from engine.simulate.precision import BATCH_FIGURES, HIGHEST, LOWEST, Precision, most_fights, precision_of

#: A session's name: what the CLI's `ua session new NAME` takes, safe in a URL path.
SessionName = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]
#: A scenario document as a JSON object; checked as `ua scenario check` checks a file.
ScenarioDocument = Annotated[dict[str, Any], msgspec.Meta(extra_json_schema={"$ref": "#/components/schemas/Scenario"})]
#: A character sheet document as a JSON object; checked as `ua character check` checks a file.
SheetDocument = Annotated[dict[str, Any], msgspec.Meta(extra_json_schema={"$ref": "#/components/schemas/Sheet"})]
#: A session's state as JSON, of its ruleset (the document's `State`: each ruleset's, by `ruleset`).
StateDocument = Annotated[dict[str, Any], msgspec.Meta(extra_json_schema={"$ref": "#/components/schemas/State"})]
#: An event as JSON (the document's `Event`: every ruleset's event types, by `type`).
EventDocument = Annotated[dict[str, Any], msgspec.Meta(extra_json_schema={"$ref": "#/components/schemas/Event"})]
#: A shipped scenario's name: `knife-vs-22`, or in a ruleset's folder `ua3/the-hollow-church`.
ShippedName = Annotated[
    str,
    msgspec.Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*(/[A-Za-z0-9][A-Za-z0-9_-]*)?$"),
]
#: A batch's size and workers: `ua simulate`'s limits (`check_size`), the same numbers.
Fights = Annotated[int, msgspec.Meta(ge=1, le=MAX_FIGHTS)]
Workers = Annotated[int, msgspec.Meta(ge=1, le=MAX_WORKERS)]
Seed = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
Version = Annotated[int, msgspec.Meta(ge=0)]
Format = Literal["json", "toml", "yaml"]
#: The largest log a request may bring (an import, a replay).
MAX_LOG_BODY = 32 * 1024 * 1024


class Request(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every request body: unknown fields are refused at their `$.path`."""


class Response(msgspec.Struct, frozen=True, kw_only=True):
    """Base of every response body."""


# -- errors -------------------------------------------------------------------------------------


class ErrorBody(Response, frozen=True):
    """Every error, whatever the endpoint: what went wrong, where (a `$.path`, a field, a
    session), and a hint. `version` is the session's current version on a 409 conflict."""

    error: str
    message: str
    where: str = ""
    hint: str = ""
    status: int = 400
    version: int | None = None


# -- documents ----------------------------------------------------------------------------------


class ScenarioSource(Request, frozen=True):
    """A scenario: a shipped one by `name`, a `document` (a JSON object), or `text` in `format`
    (TOML, YAML or JSON, as a file would hold it). Exactly one of them. Sheets inside a posted
    document are given inline (`character`); paths are not accepted."""

    #: the fields of which a body gives exactly one (the document says so: `oneOf`)
    one_of: ClassVar[tuple[str, ...]] = ("name", "document", "text")

    name: ShippedName | None = None
    document: ScenarioDocument | None = None
    text: Annotated[str, msgspec.Meta(max_length=1_000_000)] | None = None
    format: Format = "toml"


class SheetSource(Request, frozen=True):
    """A character sheet: a `document` (a JSON object) or `text` in `format`. Exactly one of them."""

    one_of: ClassVar[tuple[str, ...]] = ("document", "text")

    document: SheetDocument | None = None
    text: Annotated[str, msgspec.Meta(max_length=1_000_000)] | None = None
    format: Format = "toml"
    #: Check against this tier's creation rules instead of the sheet's own.
    tier: str | None = None


class Finding(Response, frozen=True):
    """One problem found in a document: its `$.path`, the message, and whether it is an error."""

    path: str
    message: str
    severity: Literal["error", "warning"] = "error"
    hint: str = ""


class Validation(Response, frozen=True):
    """A document's check: `ok` when nothing is an error. Structural errors are findings too."""

    ok: bool
    kind: Literal["scenario", "sheet"]
    findings: list[Finding]
    summary: dict[str, Any] = msgspec.field(default_factory=dict)


class ShippedScenario(Response, frozen=True):
    name: str
    title: str
    ruleset: str
    description: str = ""
    combatants: list[str] = msgspec.field(default_factory=list)


class ShippedScenarios(Response, frozen=True):
    scenarios: list[ShippedScenario]


class ShippedDocument(Response, frozen=True):
    """A shipped scenario as a self-contained document (sheets inline), ready to change and post."""

    name: str
    document: dict[str, Any]


# -- sessions -----------------------------------------------------------------------------------


class NewSession(Request, frozen=True):
    """Start a session from a scenario (shipped or posted). `seed` defaults to a random one."""

    name: SessionName
    scenario: ScenarioSource
    seed: Seed | None = None
    title: Annotated[str, msgspec.Meta(max_length=120)] = ""
    #: the played characters (T-2), character id → its player: their dice and choices are asked
    #: of them (`GET /sessions/{name}/requests`), never drawn; everyone else's are the GM's
    played: dict[
        Annotated[str, msgspec.Meta(min_length=1, max_length=60)],
        Annotated[str, msgspec.Meta(min_length=1, max_length=60)],
    ] = msgspec.field(default_factory=dict)


class SessionInfo(Response, frozen=True):
    name: str
    version: int
    title: str = ""
    ruleset: str = ""
    phase: str = ""
    round: int = 0
    turn: str | None = None


class SessionList(Response, frozen=True):
    sessions: list[SessionInfo]


class Execute(Request, frozen=True):
    """Run one command. With `expected_version`, it runs only if the session is still at that
    version (else 409 with the current one). A `Command-Id` header makes a retry safe."""

    command: Command
    expected_version: Version | None = None


class Amend(Request, frozen=True):
    """Replace command number `number` (as the log shows it) with `command`; every later command
    is decided again with its recorded dice."""

    number: Annotated[int, msgspec.Meta(ge=1)]
    command: Command
    expected_version: Version | None = None
    note: Annotated[str, msgspec.Meta(max_length=500)] = ""


class Marker(Request, frozen=True):
    """Undo or redo; with `expected_version`, only if nothing changed meanwhile."""

    expected_version: Version | None = None


class Npc(Request, frozen=True):
    """The NPCs act by the tactics of the scenario the session was started from: first their
    responses due now (declarations in an open round, answers owed), then the NPC whose turn it
    is (or `actor`); with `all`, NPCs act until a player's turn or the fight's end."""

    actor: Annotated[str, msgspec.Meta(max_length=64)] | None = None
    all: bool = False
    expected_version: Version | None = None


class EventView(Response, frozen=True):
    """One event of a session: its position (the SSE id), type, the command it belongs to, and its
    explanation with rule ids; checks with their exact odds; struck when undone or superseded."""

    position: int
    type: str
    command: int
    round: int = 0
    explanation: str = ""
    odds: str = ""
    struck: bool = False
    note: str = ""
    event: EventDocument | None = None


class CommandResult(Response, frozen=True):
    """What a command (or undo, redo, amend) wrote: its events, the session's new version, who
    acts now; `retry` when the command id was already recorded (nothing new was written)."""

    session: str
    version: int
    events: list[EventView]
    turn: str | None = None
    command_id: str = ""
    retry: bool = False
    changes: list[str] = msgspec.field(default_factory=list)
    superseded: list[EventView] = msgspec.field(default_factory=list)


class NpcTurnView(Response, frozen=True):
    """One NPC action (`npc` empty: the NPCs' responses), why the rules refused what its
    tactics chose (it then did nothing), and the commands written (the action, then any
    responses it brought)."""

    npc: str
    refused: str = ""
    commands: list[CommandResult] = msgspec.field(default_factory=list)


class NpcResult(Response, frozen=True):
    """What the NPCs did, the session's version after it, and who acts now."""

    session: str
    version: int
    turn: str | None = None
    turns: list[NpcTurnView] = msgspec.field(default_factory=list)


class StateView(Response, frozen=True):
    """The state as folded from the log (after event `at`, or now); `state` is the ruleset's own
    state (its shape depends on `ruleset`), `turn` who acts now."""

    session: str
    version: Version
    at: Version
    ruleset: str
    turn: str | None
    state: StateDocument


class LogView(Response, frozen=True):
    session: str
    version: int
    lines: list[EventView]


class Gauge(Response, frozen=True):
    """One combatant at one point: wounds and the ruleset's other gauges (madness meters, shock
    gauges), flattened as `meter.part` → value."""

    id: str
    wounds: int = 0
    max_wounds: int = 0
    status: str = ""
    gauges: dict[str, int] = msgspec.field(default_factory=dict)


class TimelinePoint(Response, frozen=True):
    position: int
    round: int
    phase: str
    turn: str | None
    combatants: list[Gauge]


class Timeline(Response, frozen=True):
    """Every combatant's gauges after each event (position 0: before the first)."""

    session: str
    version: int
    ruleset: str
    points: list[TimelinePoint]
    #: how the ruleset names the charts' figures
    words: Words = Words()


class Luck(Response, frozen=True):
    checks: int
    expected_successes: float
    successes: int
    difference: float
    z: float


class Fairness(Response, frozen=True):
    faces: int
    counts: list[int]
    chi_square: float
    p_value: float


class Audit(Response, frozen=True):
    """As `ua audit`: each combatant's luck against the exact odds, and the dice's fairness."""

    session: str
    version: int
    luck: dict[str, Luck]
    fairness: dict[str, Fairness]
    verified: bool
    mismatch: str = ""


class Imported(Response, frozen=True):
    session: str
    version: int
    events: int


#: `--precision`: a half-width of the 95% interval, as a proportion (0.01: ±1 point).
PrecisionTarget = Annotated[float, msgspec.Meta(gt=LOWEST, lt=HIGHEST)]
PrecisionFigure = Literal["win", "dies", "down", "draw"]


class Precise(Request, frozen=True):
    """A batch that may stop early: once the 95% interval of each of `precision_of` (the players'
    side: win, dies — someone on it dies —, down — all of it is down —, draw; default win and
    dies) is within ±`precision`, tested every 1,000 fights; its size is then the most it fights
    (default 1,000,000)."""

    precision: PrecisionTarget | None = None
    precision_of: Annotated[list[PrecisionFigure], msgspec.Meta(min_length=1)] | None = None

    def stop(self) -> Precision | None:
        return precision_of(self.precision, self.precision_of, BATCH_FIGURES, names=("$.precision", "$.precision_of"))


class ImportLog(Request, frozen=True):
    """A JSON-lines log (as `ua session export` writes it), as text."""

    log: Annotated[str, msgspec.Meta(max_length=MAX_LOG_BODY)]


class Fork(Precise, frozen=True, kw_only=True):
    """What if: fight the rest from event `at` of the history that counts, `simulate` times (default
    1,000; with `precision`, the most)."""

    at: Annotated[int, msgspec.Meta(ge=1)]
    simulate: Fights | None = None
    seed: Seed = 0
    workers: Workers = 1

    def most(self) -> int:
        return most_fights(self.simulate, self.precision, 1000)


# -- checks and odds ----------------------------------------------------------------------------


#: What `POST /checks` refuses beyond the body's shape: a stated orientation of a roll that
#: may not flip (C-11).
FLIPPED_NEEDS_FLIP = {
    "not": {
        "required": ["flipped"],
        "properties": {"flipped": {"const": True}, "spec": {"properties": {"flip": {"const": False}}}},
    }
}


class CheckRequest(Request, frozen=True):
    """Resolve one check: with `dice` (two faces, tens first) as rolled at the table, else from
    `seed` (random when not given). `flipped` states the orientation (C-11)."""

    spec: AskedSpec
    #: (the document says what `POST /checks` refuses: faces 0–9, two of them or none)
    dice: Annotated[
        tuple[Annotated[int, msgspec.Meta(extra_json_schema={"minimum": 0, "maximum": 9})], ...],
        msgspec.Meta(max_length=2, extra_json_schema={"not": {"minItems": 1, "maxItems": 1}}),
    ] = ()
    seed: Seed | None = None
    flipped: bool | None = None


class Odds(Response, frozen=True):
    """Exact probability of each outcome class (C-13), of all 100 rolls."""

    spec: CheckSpec
    target: int
    rolled: bool
    odds: dict[str, float]
    exact: dict[str, str]
    success: float


class CheckOutcome(Response, frozen=True):
    spec: CheckSpec
    target: int
    outcome: str
    success: bool
    value: int | None
    dice: list[int] | None
    flipped: bool
    matched: bool
    explanation: str
    seed: int | None = None


# -- jobs ---------------------------------------------------------------------------------------


class Simulation(Precise, frozen=True, kw_only=True):
    """A batch of `n` fights of a scenario (default 1,000; with `precision`, the most), seeds
    `derive(seed, i)`: `ua simulate` as a job."""

    scenario: ScenarioSource
    n: Fights | None = None
    seed: Seed = 0
    workers: Workers = 1

    def most(self) -> int:
        return most_fights(self.n, self.precision, 1000)


class Job(Response, frozen=True):
    """A batch job: `running` until `done`, `cancelled` (its partial report kept) or `failed`."""

    id: str
    kind: Literal["simulation", "fork"]
    state: Literal["running", "done", "cancelled", "failed"]
    requested: int
    done: int
    started: float
    finished: float | None = None
    error: ErrorBody | None = None


class JobResult(Response, frozen=True):
    job: Job
    report: dict[str, Any]


class JobList(Response, frozen=True):
    jobs: list[Job]


class Health(Response, frozen=True):
    ok: bool
    version: str
    rulesets: list[str]
    auth: bool
