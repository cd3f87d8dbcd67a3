"""Issue 26: `--scheduler` at a service that is no Dask scheduler — one that speaks first (a banner,
as SSH does: Dask read it as a length and tried to allocate 2.82 EiB, a 93-line traceback after
21 s) or an HTTP server (`ua serve`, a dashboard: it hung) — is one line and exit 2, well within
30 s (`CONNECT_SECONDS` to connect, `GREETING_SECONDS` for the greeting). Loopback only."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.cli.test_session_cli import Ua

pytest.importorskip("distributed")

from engine.simulate import cluster

ROOT = Path(__file__).resolve().parents[2]
KNIFE = str(ROOT / "scenarios" / "knife-vs-22.toml")


@contextlib.contextmanager
def tcp_server(greeting: bytes) -> Iterator[str]:
    """A loopback TCP server that writes `greeting` to every connection at once, then waits."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            held.append(conn)
            with contextlib.suppress(OSError):
                conn.sendall(greeting)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in held:
            conn.close()
        listener.close()


class _Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"hello")

    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def http_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def refused(tmp_path: Path, address: str, *args: str) -> tuple[str, float]:
    started = time.monotonic()
    line = Ua(tmp_path).fails(*args, "--backend", "dask", "--scheduler", address, code=2)
    return line, time.monotonic() - started


@pytest.mark.parametrize(
    "greeting",
    [b"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n", b"220 mail.example ESMTP ready\r\n", b"\xff" * 64, b"hi"],
    ids=["ssh", "smtp", "bytes", "short"],
)
def test_a_service_that_speaks_first_is_one_line_at_once(tmp_path: Path, greeting: bytes) -> None:
    with tcp_server(greeting) as address:
        for args in (("simulate", KNIFE, "-n", "100"), ("compare", KNIFE, "--variant", "a:settings.max_rounds=9")):
            line, seconds = refused(tmp_path, address, *args)
            assert f"{address} is not a Dask scheduler: it greets with" in line, line
            assert seconds < 10, seconds


def test_an_http_server_is_one_line_within_the_greeting_timeout(tmp_path: Path) -> None:
    with http_server() as address:
        line, seconds = refused(tmp_path, address, "simulate", KNIFE, "-n", "100")
    assert f"{address} is not a Dask scheduler: it said nothing in 5 s" in line, line
    assert "--scheduler" in line and "dashboard" in line
    assert cluster.GREETING_SECONDS <= seconds < cluster.GREETING_SECONDS + 10 < 30, seconds


def test_ua_serves_own_port_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    from engine.service.bench import running_server

    with running_server(tmp_path / "s.sqlite") as base:
        address = "tcp://" + base.removeprefix("http://")
        line, seconds = refused(tmp_path, address, "bench", KNIFE, "-n", "100")
    assert "is not a Dask scheduler" in line and seconds < 20, (line, seconds)


def test_a_peer_that_hangs_up_at_once_is_one_line(tmp_path: Path) -> None:
    listener = socket.create_server(("127.0.0.1", 0))

    def hang_up() -> None:
        conn, _ = listener.accept()
        conn.close()

    thread = threading.Thread(target=hang_up, daemon=True)
    thread.start()
    address = f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    line, seconds = refused(tmp_path, address, "simulate", KNIFE, "-n", "100")
    listener.close()
    assert "closed the connection without a greeting" in line and seconds < 10


def test_a_real_scheduler_passes_the_greeting_check() -> None:
    from distributed import LocalCluster

    quiet = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}
    with LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=None, scheduler_kwargs=quiet) as real:
        for _ in range(3):
            cluster.check_greeting(real.scheduler_address)  # and it keeps serving after each
        from distributed import Client

        with Client(real.scheduler_address, timeout=10, set_as_default=False) as client:
            assert client.scheduler_info()["type"] == "Scheduler"
