"""The HTTP service (`ua serve`): Litestar on uvicorn over the same session layer as the CLI.

Optional: `pip install -e '.[serve]'`. Nothing else in the engine imports this package; the CLI
imports it only inside `ua serve` and `ua serve-bench`. Modules:

- `app`: the application factory (`create_app`), routes and the one error shape;
- `bodies`: request bodies decoded strictly with msgspec into the engine's own types;
- `guard`: loopback-only unless a bearer token is set (and what a token must be);
- `origins`: whether a request comes from another site's page (refused either way);
- `openapi`: Litestar's OpenAPI 3.1 document, corrected with msgspec's own schemas;
- `sessions`: the one adapter over `engine.session` (no session logic of its own);
- `stream`: a session's events as Server-Sent Events, following the store;
- `jobs`: batch simulations and forks as jobs in their own processes;
- `static/`: the browser viewer (plain ES modules).
"""
