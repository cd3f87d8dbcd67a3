"""`ua serve-bench`: the service's figures on a real server (uvicorn in this process, on a free
loopback port, over a temporary database). Every loop is bounded; all traffic is to 127.0.0.1.

1. A session command over HTTP on a warm server: the median and 95th percentile latency; beside
   it, in the same run, the same command as a CLI process (`ua session roll … --db`) on the same
   database, each a new process as a GM's terminal runs it.
2. Concurrent clients on one session, each command sent with the version it read and a command
   id, resent with the same id after a 409 or a lost answer: every acknowledged command must be
   in the log exactly once, and no answer may be a 5xx.
3. Concurrent clients each sending rolled checks with command ids (valid in any order, so no
   expected version): commands per second sustained on one session, each in the log once.
4. SSE followers at once: each must receive every event, in order.

`--against DIR` instead times this checkout's server and the one of the checkout at DIR (say,
`git worktree add /tmp/main main`), interleaved, for the same figures of two versions.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import uvicorn

from engine.service.app import ServiceConfig, create_app

SCENARIO = "knife-vs-22"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(db: Path, token: str | None = None) -> Iterator[str]:
    """A uvicorn server in a thread of this process; yields its base URL."""
    port = free_port()
    config = uvicorn.Config(
        create_app(ServiceConfig(db=db, token=token)), host="127.0.0.1", port=port, log_level="error"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _ruling(note: str) -> dict[str, Any]:
    return {"command": {"command": "ruling", "note": note}}


def _new(client: httpx.Client, name: str) -> int:
    r = client.post("/sessions", json={"name": name, "scenario": {"name": SCENARIO}, "seed": 7})
    r.raise_for_status()
    return int(r.json()["version"])


def latency(client: httpx.Client, commands: int) -> dict[str, Any]:
    _new(client, "latency")
    times = []
    for i in range(commands + 20):
        body = {"command": {"command": "check", "spec": {"kind": "major", "rating": 45}}}
        started = time.perf_counter()
        r = client.post("/sessions/latency/commands", json=body, headers={"Command-Id": f"lat-{i}"})
        elapsed = time.perf_counter() - started
        r.raise_for_status()
        if i >= 20:  # the first ones warm the server up
            times.append(elapsed * 1000)
    times.sort()
    return {
        "commands": commands,
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(_percentile(times, 0.95), 2),
        "p99_ms": round(_percentile(times, 0.99), 2),
    }


def _percentile(ordered: list[float], q: float) -> float:
    return ordered[max(0, int(len(ordered) * q + 0.5) - 1)]


#: A rolled check (valid in any order, so sent with no `expected_version`).
ROLL = {"command": {"command": "check", "spec": {"kind": "major", "rating": 45}}}


def throughput(base: str, clients: int, each: int, name: str = "busy") -> dict[str, Any]:
    """`clients` threads on one session, each sending `each` rolled checks with command ids (no
    expected version): commands per second sustained, and every acknowledged one in the log once."""
    with httpx.Client(base_url=base, timeout=30) as setup:
        _new(setup, name)
        setup.post(f"/sessions/{name}/commands", json=ROLL, headers={"Command-Id": "warm"}).raise_for_status()
        before = int(setup.get(f"/sessions/{name}").json()["version"])
    acknowledged: list[str] = []
    failed: list[int] = []
    lock = threading.Lock()
    go = threading.Barrier(clients + 1)

    def client_loop(number: int) -> None:
        with httpx.Client(base_url=base, timeout=30) as client:
            go.wait()
            for i in range(each):
                command_id = f"c{number}-{i}-{uuid.uuid4().hex[:8]}"
                r = client.post(f"/sessions/{name}/commands", json=ROLL, headers={"Command-Id": command_id})
                with lock:
                    (acknowledged.append(command_id) if r.status_code == 200 else failed.append(r.status_code))

    threads = [threading.Thread(target=client_loop, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    go.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    with httpx.Client(base_url=base, timeout=30) as client:
        exported = client.get(f"/sessions/{name}/export").content.splitlines()
    ids = [msgspec.json.decode(line)["command_id"] for line in exported[before:]]
    in_log = {i for i in ids}
    return {
        "clients": clients,
        "each": each,
        "acknowledged": len(acknowledged),
        "failed": len(failed),
        "exactly_once": set(acknowledged) == in_log and len(in_log) == len(acknowledged),
        "seconds": round(elapsed, 2),
        "per_second": round(len(acknowledged) / elapsed, 1),
    }


#: This checkout: the folder holding `engine/`.
HERE = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def server_of(source: Path, db: Path) -> Iterator[str]:
    """A server of the checkout at `source`, in a process of its own (the clients' threads never
    share its interpreter), the engine imported from there: the same figures for two versions."""
    port = free_port()
    serve = (  # the engine from `source`, not the one installed (an editable install's finder comes first)
        "import sys; sys.meta_path[:] = [f for f in sys.meta_path if 'Editable' not in type(f).__name__];"
        f" sys.path.insert(0, {str(source.resolve())!r});"
        "import uvicorn; from pathlib import Path; from engine.service.app import ServiceConfig, create_app;"
        " uvicorn.run(create_app(ServiceConfig(db=Path(sys.argv[1]))), host='127.0.0.1', port=int(sys.argv[2]),"
        " log_level='error')"
    )
    env = {**os.environ, "PYTHONPATH": str(source.resolve()), "UA_PURE_PYTHON": "1"}
    process = subprocess.Popen([sys.executable, "-c", serve, str(db), str(port)], env=env, cwd=source)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{base}/health", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"the server of {source} did not start") from None
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def compare(against: Path, *, commands: int, clients: int, each: int, rounds: int = 3) -> dict[str, Any]:
    """This checkout's server and `against`'s, interleaved `rounds` times (each a fresh database):
    the medians of each figure, so both versions see the same machine load."""
    runs: dict[str, list[dict[str, Any]]] = {"this": [], "against": []}
    logging.getLogger("httpx").setLevel(logging.WARNING)
    for _ in range(rounds):
        for label, source in (("this", HERE), ("against", against)):
            with (
                tempfile.TemporaryDirectory(prefix="ua-serve-bench-") as folder,
                server_of(source, Path(folder) / "b.sqlite") as base,
            ):
                with httpx.Client(base_url=base, timeout=30) as client:
                    one = latency(client, commands)
                busy = throughput(base, clients, each)
            runs[label].append({**one, **{f"busy_{k}": v for k, v in busy.items()}})
    keys = ("median_ms", "p95_ms", "p99_ms", "busy_per_second")
    medians = {label: {k: statistics.median(run[k] for run in found) for k in keys} for label, found in runs.items()}
    once = all(run["busy_exactly_once"] for found in runs.values() for run in found)
    lines = [
        f"{label}: median {m['median_ms']} ms, p95 {m['p95_ms']} ms, p99 {m['p99_ms']} ms;"
        f" {clients} clients on one session: {m['busy_per_second']} commands/s"
        for label, m in (("this checkout", medians["this"]), (f"{against}", medians["against"]))
    ]
    lines.append(f"every acknowledged command in the log exactly once: {'yes' if once else 'NO'} ({rounds} rounds)")
    return {"this": medians["this"], "against": medians["against"], "runs": runs, "exactly_once": once, "lines": lines}


def _ua() -> list[str]:
    """How to run the CLI: the `ua` script beside this Python, else the module."""
    script = Path(sys.executable).with_name("ua")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-c", "from engine.cli.entry import main; main()"]


def cli_latency(db: Path, commands: int) -> dict[str, Any]:
    """The same command as `latency` times, each run as a new `ua session roll` process on the
    server's database (the session `latency` made), as a GM's terminal runs it."""
    ua = _ua()
    times = []
    for i in range(commands + 1):
        args = [*ua, "session", "roll", "latency", "--kind", "major", "--rating", "45"]
        args += ["--command-id", f"cli-{i}", "--db", str(db)]
        started = time.perf_counter()
        done = subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            raise RuntimeError(f"ua session roll failed: {done.stderr.strip()[:500]}")
        if i >= 1:  # the first one warms the file cache
            times.append(elapsed * 1000)
    return {"commands": commands, "median_ms": round(statistics.median(times), 1)}


def concurrent(base: str, clients: int, each: int) -> dict[str, Any]:
    with httpx.Client(base_url=base, timeout=30) as setup:
        _new(setup, "crowd")
    acknowledged: list[str] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def client_loop(number: int) -> None:
        with httpx.Client(base_url=base, timeout=30) as client:
            for i in range(each):
                note = f"client {number} command {i}"
                command_id = str(uuid.uuid4())
                for _ in range(1000):  # bounded: give up on a command after that many conflicts
                    version = client.get("/sessions/crowd").json()["version"]
                    body = {**_ruling(note), "expected_version": version}
                    r = client.post("/sessions/crowd/commands", json=body, headers={"Command-Id": command_id})
                    with lock:
                        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                    if r.status_code == 200:
                        with lock:
                            acknowledged.append(note)
                        break
                    if r.status_code != 409:
                        break

    started = time.perf_counter()
    threads = [threading.Thread(target=client_loop, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    with httpx.Client(base_url=base, timeout=30) as client:
        lines = client.get("/sessions/crowd/log").json()["lines"]
    notes = [line["explanation"] for line in lines if line["type"] == "gm_ruling"]
    counts = {note: sum(text.endswith(": " + note) for text in notes) for note in acknowledged}
    once = all(c == 1 for c in counts.values()) and len(notes) == len(acknowledged)
    return {
        "clients": clients,
        "each": each,
        "acknowledged": len(acknowledged),
        "in_log": len(notes),
        "exactly_once": once,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "server_errors": sum(v for k, v in statuses.items() if k >= 500),
        "seconds": round(elapsed, 2),
    }


def followers(base: str, count: int, commands: int = 100) -> dict[str, Any]:
    with httpx.Client(base_url=base, timeout=30) as setup:
        _new(setup, "followed")
    received: list[list[int]] = [[] for _ in range(count)]
    ready = threading.Barrier(count + 1)
    final = threading.Event()
    expected_last = [0]

    def follow(index: int) -> None:
        with httpx.Client(base_url=base, timeout=30) as client, client.stream("GET", "/sessions/followed/events") as r:
            ready.wait()
            for line in r.iter_lines():
                if line.startswith("id:"):
                    received[index].append(int(line[3:].strip()))
                    if final.is_set() and received[index][-1] >= expected_last[0]:
                        return

    threads = [threading.Thread(target=follow, args=(i,), daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    ready.wait()
    with httpx.Client(base_url=base, timeout=30) as client:
        for i in range(commands):
            client.post("/sessions/followed/commands", json=_ruling(f"note {i}")).raise_for_status()
        expected_last[0] = int(client.get("/sessions/followed").json()["version"])
    final.set()
    deadline = time.monotonic() + 30
    for t in threads:
        t.join(timeout=max(0.1, deadline - time.monotonic()))
    wanted = list(range(1, expected_last[0] + 1))
    complete = sum(r == wanted for r in received)
    return {"followers": count, "events": expected_last[0], "complete_and_in_order": complete}


def run_bench(*, commands: int, clients: int, each: int, followers: int, cli_commands: int = 20) -> dict[str, Any]:
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request otherwise
    follower_count = followers
    with (
        tempfile.TemporaryDirectory(prefix="ua-serve-bench-") as folder,
        running_server(Path(folder) / "b.sqlite") as base,
    ):
        with httpx.Client(base_url=base, timeout=30) as client:
            one = latency(client, commands)
        cli = cli_latency(Path(folder) / "b.sqlite", cli_commands) if cli_commands else None
        with httpx.Client(base_url=base, timeout=30) as client:  # the server saw the CLI's commands
            version = int(client.get("/sessions/latency").json()["version"])
        one["version_after_cli"] = version
        many = concurrent(base, clients, each)
        busy = throughput(base, clients, each)
        streams = globals()["followers"](base, follower_count)
    ok = (
        one["median_ms"] <= 15
        and many["exactly_once"]
        and busy["exactly_once"]
        and many["server_errors"] == 0
        and streams["complete_and_in_order"] == follower_count
    )
    lines = [
        f"one command over HTTP, warm server: median {one['median_ms']} ms, p95 {one['p95_ms']} ms,"
        f" p99 {one['p99_ms']} ms ({one['commands']} commands)",
        *(
            [
                f"the same command as a CLI process (ua session roll, same database): median {cli['median_ms']} ms"
                f" ({cli['commands']} commands) — {cli['median_ms'] / max(one['median_ms'], 0.01):.0f}× the HTTP median"
            ]
            if cli
            else []
        ),
        f"{many['clients']} clients × {many['each']} commands on one session: {many['acknowledged']} acknowledged,"
        f" {many['in_log']} in the log, exactly once: {'yes' if many['exactly_once'] else 'NO'};"
        f" 5xx answers: {many['server_errors']}; statuses {msgspec.json.encode(many['statuses']).decode()};"
        f" {many['seconds']} s",
        f"{busy['clients']} clients × {busy['each']} rolled checks with command ids (no expected version) on one"
        f" session: {busy['per_second']} commands/s sustained; {busy['acknowledged']} acknowledged, in the log"
        f" exactly once: {'yes' if busy['exactly_once'] else 'NO'}",
        f"SSE: {streams['complete_and_in_order']} of {streams['followers']} followers got all"
        f" {streams['events']} events in order",
    ]
    return {
        "ok": ok,
        "latency": one,
        "cli": cli,
        "concurrent": many,
        "throughput": busy,
        "sse": streams,
        "lines": lines,
    }
