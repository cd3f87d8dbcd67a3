"""A real `ua serve` for the reliability tests: its own process on a free loopback port, as a user
starts it, stopped (by its pid) when the test is done."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from engine.service.bench import free_port

UA = [sys.executable, "-c", "from engine.cli.app import main; main()"]


@contextlib.contextmanager
def ua_serve(db: Path, *options: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """`ua serve --db DB --port FREE OPTIONS…` until it answers `/health`; yields its base URL."""
    port = free_port()
    process = subprocess.Popen(
        [*UA, "serve", "--db", str(db), "--port", str(port), *options],
        env={**os.environ, "UA_PURE_PYTHON": "1", **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"ua serve ended: {process.stderr.read().decode() if process.stderr else ''}")
            with contextlib.suppress(httpx.TransportError):
                httpx.get(f"{base}/health", timeout=2)
                break
            if time.monotonic() > deadline:
                raise RuntimeError("ua serve did not start within 60 s")
            time.sleep(0.1)
        yield base
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()
        if process.stderr:
            process.stderr.close()
