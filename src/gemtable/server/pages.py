"""The pages: start, table (phone and TV), results, rules, the web manifest, and the static files."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from gemtable.server.static import CompressedStatic

WEB = Path(__file__).resolve().parent.parent / "web"


def page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def serve(request: Request) -> Response:
        path = WEB / name
        if not path.exists():
            return PlainTextResponse("the pages are not built into this copy of gemtable", status_code=404)
        return FileResponse(path, headers={"Cache-Control": "no-cache"})

    return serve


def routes() -> list[BaseRoute]:
    found: list[BaseRoute] = [
        Route("/", page("index.html")),
        Route("/t/{code}", page("phone.html")),
        Route("/t/{code}/tv", page("tv.html")),
        Route("/t/{code}/results/{number}", page("results.html")),
        Route("/rules", page("rules.html")),
        Route("/rules/{game}", page("rules.html")),
        Route("/manifest.webmanifest", page("manifest.webmanifest")),
    ]
    if (WEB / "static").is_dir():
        found.append(Mount("/static", CompressedStatic(WEB / "static"), name="static"))
    return found


__all__ = ["WEB", "page", "routes"]
