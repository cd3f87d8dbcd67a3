"""`ua serve`: the HTTP API, live event streams and the browser viewer (the `serve` extra);
`ua serve-bench`: its figures. Litestar and uvicorn are imported only when these commands run."""

import os
from pathlib import Path
from typing import Annotated

import typer

from engine.cli.common import JsonOption, console, emit_json
from engine.errors import InvalidInput

DEFAULT_DB = "ua-sessions.sqlite"
TOKEN_ENV = "UA_SERVE_TOKEN"


def _needs_extra() -> None:
    try:
        import litestar  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise InvalidInput(
            "the service needs the serve extra (Litestar and uvicorn)",
            where="ua serve",
            hint="pip install -e '.[serve]'",
        ) from None


def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option("--host", help="Address to listen on (loopback unless --token).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8787,
    db: Annotated[Path, typer.Option("--db", envvar="UA_DB", help="The session database (SQLite).")] = Path(DEFAULT_DB),
    token: Annotated[
        str | None,
        typer.Option("--token", envvar=TOKEN_ENV, help=f"Bearer token every request needs (or ${TOKEN_ENV})."),
    ] = None,
) -> None:
    """Serve the HTTP API (OpenAPI at /schema), live event streams and the viewer at /."""
    _needs_extra()
    from engine.service.guard import check_token, is_loopback

    if token is not None:
        source = ctx.get_parameter_source("token")
        from_env = source is not None and source.name == "ENVIRONMENT"  # typer carries its own click
        check_token(token, where=f"${TOKEN_ENV}" if from_env else "--token")
    if token is None and not is_loopback(host):
        raise InvalidInput(
            f"--host {host} serves other machines, which needs a token",
            where="--host",
            hint=f"give --token (or ${TOKEN_ENV}), or serve on 127.0.0.1",
        )
    import uvicorn

    from engine.service.app import ServiceConfig, create_app

    app = create_app(ServiceConfig(db=db.resolve(), token=token))
    shown = f"[{host}]" if ":" in host else host
    console.print(f"serving {db} on http://{shown}:{port}/ (viewer at /, API schema at /schema)", markup=False)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)


def serve_bench(
    commands: Annotated[int, typer.Option("--commands", min=10, max=100_000, help="Commands timed one by one.")] = 300,
    clients: Annotated[int, typer.Option("--clients", min=1, max=64, help="Concurrent clients.")] = 8,
    each: Annotated[int, typer.Option("--each", min=1, max=10_000, help="Commands per concurrent client.")] = 200,
    followers: Annotated[int, typer.Option("--followers", min=1, max=100, help="SSE followers at once.")] = 10,
    cli_commands: Annotated[
        int, typer.Option("--cli-commands", min=0, max=1000, help="The same command as CLI processes, for comparison.")
    ] = 20,
    against: Annotated[
        Path | None,
        typer.Option(
            "--against",
            help="Another checkout of the engine (e.g. `git worktree add /tmp/main main`): time its server and"
            " this one's, interleaved (latency and commands/s only).",
        ),
    ] = None,
    rounds: Annotated[
        int, typer.Option("--rounds", min=1, max=20, help="With --against: runs of each, interleaved.")
    ] = 3,
    json: JsonOption = False,
) -> None:
    """The service's figures on a real server (uvicorn on a free loopback port, a temporary
    database): a command's latency (beside the same command as a CLI process), concurrent clients
    on one session (checked by version; rolled checks by command id: commands/s), SSE followers."""
    _needs_extra()
    from engine.service.bench import compare, run_bench

    if against is not None:
        if not (against / "engine" / "service" / "app.py").is_file():
            raise InvalidInput(f"no engine checkout at {against}", where="--against", hint="a folder with engine/")
        compared = compare(against, commands=commands, clients=clients, each=each, rounds=rounds)
        if json:
            emit_json(compared)
            return
        for line in compared["lines"]:
            console.print(line, markup=False)
        return
    report = run_bench(
        commands=commands, clients=clients, each=each, followers=followers, cli_commands=cli_commands
    )
    if json:
        emit_json(report)
        return
    for line in report["lines"]:
        console.print(line, markup=False)
    if os.environ.get("UA_BENCH_STRICT") and not report["ok"]:
        raise typer.Exit(1)
