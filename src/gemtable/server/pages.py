"""The pages: start, table (phone and TV), results, the night's games, a game's replay, rules, the web manifest,
and the static files: the shared ones under ``/static/``, and each registered game's own ``web/`` folder under
``/games/<name>/``."""

from __future__ import annotations

import mimetypes
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from gemtable.games import Manifest, manifests
from gemtable.server.static import CompressedStatic

WEB = Path(__file__).resolve().parent.parent / "web"


def page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def serve(request: Request) -> Response:
        path = WEB / name
        if not path.exists():
            return PlainTextResponse("the pages are not built into this copy of gemtable", status_code=404)
        # Read whole (a few KB): the response holds no open file while a slow reader takes it.
        media = mimetypes.guess_type(name)[0] or "text/html"
        return Response(path.read_bytes(), media_type=media, headers={"Cache-Control": "no-cache"})

    return serve


def routes() -> list[BaseRoute]:
    found: list[BaseRoute] = [
        Route("/", page("index.html")),
        Route("/t/{code}", page("phone.html")),
        Route("/t/{code}/tv", page("tv.html")),
        Route("/tv", page("tv-pair.html")),
        Route("/t/{code}/results/{number}", page("results.html")),
        Route("/t/{code}/night", page("night.html")),
        Route("/t/{code}/games/{number}/replay", page("replay.html")),
        Route("/rules", page("rules.html")),
        Route("/rules/{game}", page("rules.html")),
        Route("/manifest.webmanifest", page("manifest.webmanifest")),
    ]
    if (WEB / "static").is_dir():
        found.append(Mount("/static", CompressedStatic(WEB / "static"), name="static"))
    for manifest in manifests():
        folder = game_web(manifest)
        if folder is not None:
            found.append(Mount(manifest.web_url.rstrip("/"), CompressedStatic(folder)))
    return found


def game_web(manifest: Manifest) -> Path | None:
    """A game's ``web/`` folder, found through its package's resources (so a game from ``GEMTABLE_GAMES``
    ships its files the same way); None when it has none."""
    if not manifest.package:
        return None
    folder = resources.files(manifest.package).joinpath("web")
    if not isinstance(folder, Path) or not folder.is_dir():
        return None  # a package that is not a folder (a zip) or has no web files: the stand-in page
    return folder


__all__ = ["WEB", "game_web", "page", "routes"]
