"""The ASGI application: HTTP routes, the WebSocket endpoint, the pages."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import segno
from starlette.applications import Starlette
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from gemtable.bots import bot_names
from gemtable.bus import Bus
from gemtable.games import find_game, game_names
from gemtable.server import protocol as p
from gemtable.server.conn import Conn
from gemtable.server.hub import Hub, normal_code
from gemtable.server.limits import Limits, address_key
from gemtable.server.origin import SameOrigin
from gemtable.server.security import SecurityHeaders
from gemtable.server.site import Site
from gemtable.server.static import CompressedStatic
from gemtable.store import Store
from gemtable.table import TableError

WEB = Path(__file__).resolve().parent.parent / "web"
QR_CACHE = 4096
"""Tables whose join QR code is kept (each about 4 KB of SVG; the oldest is dropped first)."""


def create_app(store: Store, *, allow_scripts: bool = False, limits: Limits | None = None,
               bus: Bus | None = None, node_id: str | None = None, hub: Hub | None = None,
               site: Site | None = None) -> Starlette:
    hub = hub or Hub(store, limits, allow_scripts=allow_scripts, bus=bus, node_id=node_id)
    site = site or Site.build(8000)
    qr_cache: dict[str, bytes] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            await store.close()
            if bus is not None:
                await bus.close()

    async def create_table(request: Request) -> Response:
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return _error("bad-request", "send the table's settings as JSON (Content-Type: application/json)", 415)
        try:
            data = json.loads(await _body(request, hub.limits.max_body))
        except _TooLarge:
            return _error("too-large", f"a table's settings take at most {hub.limits.max_body} bytes", 413)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return _error("bad-request", "send the table's settings as JSON", 400)
        try:
            table = await hub.create(_address(request), data)
        except TableError as exc:
            return _error(exc.code, exc.message, 429 if exc.code == "slow-down" else 400)
        return JSONResponse({"code": table.code, "url": site.join_url(table.code)}, status_code=201)

    async def table_summary(request: Request) -> Response:
        live = await _lookup(request)
        if isinstance(live, Response):
            return live
        table = live.table
        return JSONResponse({
            "code": table.code,
            "game": table.kind.name,
            "title": table.kind.title,
            "phase": table.phase,
            "chairs": table.kind.max_seats,
            "taken": sum(1 for chair in table.chairs() if chair is not None),
            "queue": len(table.queue()),
            "url": site.join_url(table.code),
        })

    async def table_qr(request: Request) -> Response:
        """The join QR code of an existing table, made once: an unknown code is a 404 that draws from
        the same per-address limit as any other lookup of a code."""
        code = normal_code(request.path_params["code"])
        if not hub.lookups.peek(_address(request)):  # out of tries: refused even for a code in the cache
            return _error("slow-down", "too many tries; wait a minute before trying another code", 429)
        svg = qr_cache.get(code)
        if svg is None:
            live = await _lookup(request)
            if isinstance(live, Response):
                return live
            svg = qr_cache[live.code] = _qr_svg(site.join_url(live.code))
            if len(qr_cache) > QR_CACHE:
                del qr_cache[next(iter(qr_cache))]
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    async def game_record(request: Request) -> Response:
        code = normal_code(request.path_params["code"])
        try:
            number = int(request.path_params["number"])
        except ValueError:
            return _error("bad-request", "a game number is a whole number", 400)
        if not 1 <= number < 2**63:  # beyond what the store can even look up
            return _error("no-record", "no finished game with that number at that table", 404)
        address = _address(request)
        try:  # a miss draws from the same tries as any other lookup of a code (a table's names are here)
            hub.may_look_up(address)
            record = await store.record(code, number)
            hub.looked_up(address, record is not None)
        except TableError as exc:
            if exc.code == "slow-down":
                return _error(exc.code, exc.message, 429)
            return _error("no-record", "no finished game with that number at that table", 404)
        return JSONResponse(record)

    async def catalogue(request: Request) -> Response:
        games = []
        for name in game_names():
            game = find_game(name)
            games.append({
                "name": name,
                "title": game.title,
                "presets": list(game.presets()),
                "players": [game.min_seats, game.max_seats],
                "bots": bot_names(name),
            })
        return JSONResponse({"games": games, "protocol": p.VERSION})

    async def server_info(request: Request) -> Response:
        """Where phones join: the pages build every link from this, never from their own location."""
        return JSONResponse({"public_url": site.public_url, "urls": list(site.urls), "reachable": site.reachable})

    async def schema(request: Request) -> Response:
        return JSONResponse(p.schema())

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def node(request: Request) -> Response:
        tables = hub.node.tables.values()
        return JSONResponse({
            "node": hub.node.id,
            "runs": sum(1 for local in tables if local.owned),
            "follows": sum(1 for local in tables if not local.owned),
        })

    async def _lookup(request: Request) -> Any:
        try:
            return await hub.find(_address(request), request.path_params["code"])
        except TableError as exc:
            return _error(exc.code, exc.message, 429 if exc.code == "slow-down" else 404)

    async def websocket(ws: WebSocket) -> None:
        address = address_key(ws.client.host if ws.client else "?")
        if not hub.admit(address):
            await ws.close(code=1008)
            return

        async def send(data: bytes) -> None:
            await ws.send_text(data.decode())

        conn = Conn(send, lambda code: ws.close(code=code), address, hub.limits)
        idle = asyncio.get_running_loop().call_later(hub.limits.hello_seconds, _close_if_idle, conn)
        try:  # from here on, whatever happens, the connection is counted out again (``drop``)
            await ws.accept()
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    conn.strikes += 1
                    conn.send(p.encode(p.Error(code="binary", message="send text frames of JSON")))
                    continue
                await hub.receive(conn, text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            idle.cancel()
            await hub.drop(conn)

    def page(name: str) -> Any:
        async def serve(request: Request) -> Response:
            path = WEB / name
            if not path.exists():
                return PlainTextResponse("the pages are not built into this copy of gemtable", status_code=404)
            return FileResponse(path, headers={"Cache-Control": "no-cache"})

        return serve

    routes = [
        Route("/", page("index.html")),
        Route("/t/{code}", page("phone.html")),
        Route("/t/{code}/tv", page("tv.html")),
        Route("/t/{code}/results/{number}", page("results.html")),
        Route("/rules/{game}", page("rules.html")),
        Route("/manifest.webmanifest", page("manifest.webmanifest")),
        Route("/api/games", catalogue),
        Route("/api/server", server_info),
        Route("/api/schema", schema),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{code}", table_summary),
        Route("/api/tables/{code}/qr.svg", table_qr),
        Route("/api/tables/{code}/games/{number}", game_record),
        Route("/healthz", health),
        Route("/api/node", node),
        WebSocketRoute("/ws", websocket),
    ]
    if (WEB / "static").is_dir():
        routes.append(Mount("/static", CompressedStatic(WEB / "static"), name="static"))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(SameOrigin, site=site)  # another site's page cannot act through a guest's browser
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(site.hosts), www_redirect=False)
    app.add_middleware(SecurityHeaders)
    app.state.hub = hub
    app.state.site = site
    return app


def _address(request: Request) -> str:
    return address_key(request.client.host if request.client else "?")


def _close_if_idle(conn: Conn) -> None:
    """A connection that has not opened a table in time (it holds a socket and says nothing): closed."""
    if conn.code is None and not conn.closed:
        conn.send(p.encode(p.Error(code="idle", message="say hello to a table first")))
        conn.close(1008)


class _TooLarge(Exception):
    pass


async def _body(request: Request, limit: int) -> bytes:
    """The request's body; :class:`_TooLarge` (without reading on) once it is over ``limit`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _TooLarge
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise _TooLarge
    return bytes(body)


def _qr_svg(url: str) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, nl=False, scale=8, border=2,
                                    dark="#111", light="#fff")
    return out.getvalue()


def _error(code: str, message: str, status: int) -> Response:
    return JSONResponse({"error": code, "message": message}, status_code=status)


__all__ = ["create_app"]
