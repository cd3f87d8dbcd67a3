"""The browser pages beside the viewer: the GM console (`/gm/NAME`) and the player page
(`/play/NAME`, the invite's token in the URL's fragment). Code only, no data: anyone may load
them; what they then ask the API for is held to the token they send (`access`)."""

from __future__ import annotations

from pathlib import Path

from litestar import get
from litestar.params import FromPath
from litestar.response import File

STATIC = Path(__file__).resolve().parent / "static"


def _page(name: str) -> File:
    return File(STATIC / name, content_disposition_type="inline", media_type="text/html")


@get("/gm/{name:str}", include_in_schema=False, sync_to_thread=False)
def gm_console(name: FromPath[str]) -> File:
    return _page("gm.html")


@get("/play/{name:str}", include_in_schema=False, sync_to_thread=False)
def player_page(name: FromPath[str]) -> File:
    return _page("play.html")


ROUTES = [gm_console, player_page]
