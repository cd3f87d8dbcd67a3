"""The HTTP API's routes, one router per resource, each tagged with it (a generated client groups
its functions so): the service itself, shipped scenarios, validation (documents, odds, checks),
sessions, commands, simulations and jobs, replays. Each handler is a few lines over the session
service (`engine.session.service`) or the jobs; what a request means is decided there, never here.
Requests (waiting actions) and participants get routers of their own beside these."""

from __future__ import annotations

from litestar import Router

from engine.service.routes import commands, replays, scenarios, server, sessions, simulations, validation

#: Every resource's router.
ROUTERS: list[Router] = [
    server.ROUTER,
    scenarios.ROUTER,
    validation.ROUTER,
    sessions.ROUTER,
    commands.ROUTER,
    simulations.ROUTER,
    replays.ROUTER,
]
