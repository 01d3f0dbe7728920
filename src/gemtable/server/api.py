"""The HTTP API: tables (create, look up, QR code, records), the games' manifests, the protocol's schema,
where phones join, and the node's health.  See ``docs/protocol.md``."""

from __future__ import annotations

import io
import json
from typing import Any

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from gemtable.bots import bot_names
from gemtable.games import GameError, manifests
from gemtable.server import protocol as p
from gemtable.server.card import card_svg, night_svg
from gemtable.server.hub import Hub, normal_code
from gemtable.server.limits import AddressLimiter, address_key
from gemtable.server.origin import from_another_site
from gemtable.server.pairing import PAIR_SECONDS, PairingError, Pairings, board_for
from gemtable.server.replay import replay_json
from gemtable.server.site import Site
from gemtable.store import Store
from gemtable.table import TableError
from gemtable.table.night import places, standings

PAIRINGS_PER_MINUTE = 6.0
PAIRING_BURST = 10
"""Pairing codes one address may ask for (a TV asks for one when it opens /tv and when one lapses)."""
QR_CACHE = 4096
"""Tables whose join QR code is kept (each about 4 KB of SVG; the oldest is dropped first)."""
REPLAY_CACHE = 32
"""Replays kept, as sent (a whole Booty Hunter game is about 200 KB and 40 ms of the rules to make; the oldest is
dropped first): a page opened by a table of phones at once, or a language switch back, makes it once."""


class Api:
    """The routes under ``/api`` (and ``/healthz``), over one hub, store and site."""

    def __init__(self, hub: Hub, store: Store, site: Site) -> None:
        self.hub = hub
        self.store = store
        self.site = site
        self.qr_cache: dict[str, bytes] = {}
        self.replay_cache: dict[tuple[object, ...], bytes] = {}
        self.pairings = Pairings(board_for(store))
        self.pair_opens = AddressLimiter(PAIRINGS_PER_MINUTE / 60, PAIRING_BURST)

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/games", self.catalogue),
            Route("/api/server", self.server_info),
            Route("/api/schema", self.schema),
            Route("/api/tables", self.create_table, methods=["POST"]),
            Route("/api/tables/{code}", self.table_summary),
            Route("/api/tables/{code}/qr.svg", self.table_qr),
            Route("/api/tables/{code}/games", self.night),
            Route("/api/tables/{code}/night.svg", self.night_card),
            Route("/api/tables/{code}/games/{number}", self.game_record),
            Route("/api/tables/{code}/games/{number}/record.json", self.game_record_file),
            Route("/api/tables/{code}/games/{number}/card.svg", self.game_card),
            Route("/api/tables/{code}/games/{number}/replay.json", self.game_replay),
            Route("/api/pairings", self.open_pairing, methods=["POST"]),
            Route("/api/pairings/{pairing}", self.poll_pairing),
            Route("/api/pairings/{pairing}", self.send_to_tv, methods=["POST"]),
            Route("/healthz", self.health),
            Route("/api/node", self.node),
        ]

    async def create_table(self, request: Request) -> Response:
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            return _error("bad-request", "send the table's settings as JSON (Content-Type: application/json)", 415)
        try:
            data = json.loads(await _body(request, self.hub.limits.max_body))
        except _TooLarge:
            return _error("too-large", f"a table's settings take at most {self.hub.limits.max_body} bytes", 413)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return _error("bad-request", "send the table's settings as JSON", 400)
        try:
            table = await self.hub.create(_address(request), data)
        except TableError as exc:
            return _error(exc.code, exc.message, {"slow-down": 429, "disk-full": 507}.get(exc.code, 400))
        return JSONResponse({"code": table.code, "url": self.site.join_url(table.code)}, status_code=201)

    async def table_summary(self, request: Request) -> Response:
        live = await self._lookup(request)
        if isinstance(live, Response):
            return live
        table = live.table
        return JSONResponse(
            {
                "code": table.code,
                "game": table.kind.name,
                "title": table.kind.title,
                "phase": table.moment.phase,
                "chairs": table.kind.max_seats,
                "taken": sum(1 for chair in table.chairs() if chair is not None),
                "queue": len(table.queue()),
                "url": self.site.join_url(table.code),
            }
        )

    async def table_qr(self, request: Request) -> Response:
        """The join QR code of an existing table, made once: an unknown code is a 404 that draws from
        the same per-address limit as any other lookup of a code."""
        if refused := self._cross_site(request):
            return refused
        code = normal_code(request.path_params["code"])
        if not self.hub.lookups.peek(_address(request)):  # out of tries: refused even for a code in the cache
            return _error("slow-down", "too many tries; wait a minute before trying another code", 429)
        svg = self.qr_cache.get(code)
        if svg is None:
            live = await self._lookup(request)
            if isinstance(live, Response):
                return live
            svg = self.qr_cache[live.code] = _qr_svg(self.site.join_url(live.code))
            if len(self.qr_cache) > QR_CACHE:
                del self.qr_cache[next(iter(self.qr_cache))]
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    async def game_record(self, request: Request) -> Response:
        record = await self._record(request)
        return record if isinstance(record, Response) else JSONResponse(record)

    async def game_record_file(self, request: Request) -> Response:
        """The record as a file to keep (``Content-Disposition: attachment``): the same JSON as
        :meth:`game_record`, which holds nothing a finished game's page does not show (its deck is no secret
        once the game is over)."""
        record = await self._record(request)
        if isinstance(record, Response):
            return record
        name = _file_name(record, "json")
        return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def game_card(self, request: Request) -> Response:
        """The game's result card, an SVG made from its record (``server/card.py``), its words in ``?lang=``."""
        record = await self._record(request)
        if isinstance(record, Response):
            return record
        svg = card_svg(record, request.query_params.get("lang", "en"))
        headers = {
            "Content-Disposition": f'inline; filename="{_file_name(record, "svg")}"',
            "Cache-Control": "no-cache",
        }  # (no style sheet, no script in it: the server's Content-Security-Policy holds for it too)
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def game_replay(self, request: Request) -> Response:
        """The finished game's replay (``server/replay.py``): its steps, each with a spectator's view after it,
        made from its record by the game's rules, and the replay page's words in ``?lang=``.  A game still being
        played has no record: a 404, as for a number never played."""
        record = await self._record(request)
        if isinstance(record, Response):
            return record
        lang = request.query_params.get("lang", "en")
        # A finished game's record never changes; a code used again, by a new table, has other games (finished
        # at another time), so the time it finished is in the key.
        key = (record.get("table"), record.get("number"), record.get("finished_at"), record.get("seed"), lang)
        body = self.replay_cache.get(key)
        if body is None:
            try:
                doc = replay_json(record, lang)
            except GameError as exc:  # (a table's record replays: this is a record the rules no longer take)
                return _error("bad-record", f"this game's record does not replay: {exc}", 422)
            body = json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
            self.replay_cache[key] = body
            if len(self.replay_cache) > REPLAY_CACHE:
                del self.replay_cache[next(iter(self.replay_cache))]
        return Response(body, media_type="application/json", headers={"Cache-Control": "no-cache"})

    async def night(self, request: Request) -> Response:
        """The table's finished games, in order: for each its number, game, when it finished, names, scores,
        winners and whether the host ended it early; and the night's standings (``table/night.py``) — the
        night's list, ``/t/CODE/night``, and the TV's standings."""
        found = await self._night(request)
        if isinstance(found, Response):
            return found
        code, records = found
        through = request.query_params.get("through", "")  # the standings as they stood after game N
        counted = [r for r in records if r.get("number", 0) <= int(through)] if through.isdigit() else records
        board = [entry.to_json() for entry in standings(counted)]
        return JSONResponse({"code": code, "games": [_summary(record) for record in records], "standings": board})

    async def night_card(self, request: Request) -> Response:
        """The night's card: its standings as an SVG picture to keep (``?lang=hu``)."""
        found = await self._night(request)
        if isinstance(found, Response):
            return found
        code, records = found
        svg = night_svg(code, records, standings(records), request.query_params.get("lang", "en"))
        headers = {"Content-Disposition": f'inline; filename="gemtable-{code}-night.svg"', "Cache-Control": "no-cache"}
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def _night(self, request: Request) -> tuple[str, list[Any]] | Response:
        """The code and the finished games' records of the table the request names, or the error answer."""
        if refused := self._cross_site(request):
            return refused
        code = normal_code(request.path_params["code"])
        address = _address(request)
        try:  # a table unknown here is a miss, as any other lookup of a code
            await self.hub.spend_try(address)
        except TableError as exc:
            return _error(exc.code, exc.message, 429)
        try:
            known = len(code) == 4 and await self.store.exists(code)
            records = await self.store.records_of(code) if known else []
        except BaseException:
            await self.hub.refund_try(address)
            raise
        if not known:
            return _error("no-table", "there is no table with that code", 404)
        await self.hub.refund_try(address)
        return code, list(records)

    async def _record(self, request: Request) -> Any:
        """The record of the finished game the request names, or the error answer: 400 for a number that is
        none, 404 for a game that did not finish (or a table that does not exist), 429 past the tries."""
        if refused := self._cross_site(request):
            return refused
        code = normal_code(request.path_params["code"])
        try:
            number = int(request.path_params["number"])
        except ValueError:
            return _error("bad-request", "a game number is a whole number", 400)
        if not 1 <= number < 2**63:  # beyond what the store can even look up
            return _error("no-record", "no finished game with that number at that table", 404)
        address = _address(request)
        try:  # a miss draws from the same tries as any other lookup of a code (a table's names are here)
            await self.hub.spend_try(address)
        except TableError as exc:
            return _error(exc.code, exc.message, 429)
        try:
            record = await self.store.record(code, number)
        except BaseException:
            await self.hub.refund_try(address)
            raise
        if record is None:
            return _error("no-record", "no finished game with that number at that table", 404)
        await self.hub.refund_try(address)
        return record

    # --- getting the TV on (pairing.py) -------------------------------------------------------------------

    async def open_pairing(self, request: Request) -> Response:
        """A TV's ``/tv`` page asks for a pairing code to show."""
        if not self.pair_opens.allow(_address(request)):
            return _error("slow-down", "too many pairing codes from this address; wait a minute", 429)
        try:
            code, secret = await self.pairings.open()
        except PairingError as exc:
            return _error(exc.code, exc.message, 429)
        return JSONResponse({"pairing": code, "secret": secret, "seconds": PAIR_SECONDS}, status_code=201)

    async def poll_pairing(self, request: Request) -> Response:
        """The TV asks whether a phone sent it to a table (``?secret=`` from its ``open_pairing``)."""
        try:
            table = await self.pairings.poll(request.path_params["pairing"], request.query_params.get("secret"))
        except PairingError as exc:
            return _error(exc.code, exc.message, 404)
        return JSONResponse({"table": table, "url": None if table is None else f"/t/{table}/tv"})

    async def send_to_tv(self, request: Request) -> Response:
        """A phone at a table types the TV's pairing code: that TV opens the table (``{"table": CODE}``).  A
        wrong pairing code is a miss, drawn from the same tries per address as a wrong table code."""
        address = _address(request)
        try:
            data = json.loads(await _body(request, 256))
        except (_TooLarge, ValueError, UnicodeDecodeError, RecursionError):
            return _error("bad-request", 'send {"table": CODE} as JSON', 400)
        if not isinstance(data, dict) or not isinstance(data.get("table"), str):
            return _error("bad-request", 'send {"table": CODE} as JSON', 400)
        try:
            local = await self.hub.find(address, data["table"])
            await self.hub.spend_try(address)
        except TableError as exc:
            return _error(exc.code, exc.message, 429 if exc.code == "slow-down" else 404)
        try:
            await self.pairings.send(request.path_params["pairing"], local.table.code)
        except PairingError as exc:
            return _error(exc.code, exc.message, 409 if exc.code == "pairing-used" else 404)  # a miss: the try stays
        await self.hub.refund_try(address)
        return JSONResponse({"table": local.table.code})

    async def catalogue(self, request: Request) -> Response:
        """Every game's manifest (see ``gemtable.games.manifest``) and its bots: the pages are built from these."""
        games = [{**manifest.to_json(), "bots": bot_names(manifest.name)} for manifest in manifests()]
        return JSONResponse({"games": games, "protocol": p.VERSION})

    async def server_info(self, request: Request) -> Response:
        """Where phones join: the pages build every link from this, never from their own location.  With a public
        URL set (``--public-url``: a server on the internet, say) that URL alone: the host's other addresses (its LAN,
        container bridges, a VPN) are nobody's business."""
        site = self.site
        urls = [site.public_url] if site.chosen else list(site.urls)
        return JSONResponse({"public_url": site.public_url, "urls": urls, "reachable": site.reachable})

    async def schema(self, request: Request) -> Response:
        return JSONResponse(p.schema())

    async def health(self, request: Request) -> Response:
        return PlainTextResponse("ok")

    async def node(self, request: Request) -> Response:
        tables = self.hub.node.tables.values()
        return JSONResponse(
            {
                "node": self.hub.node.id,
                "runs": sum(1 for local in tables if local.owned),
                "follows": sum(1 for local in tables if not local.owned),
                "busy": self.hub.busy,
            }
        )

    def _cross_site(self, request: Request) -> Response | None:
        """A lookup of a code made by another site's page (an ``<img>`` of a QR code, say) is refused before it
        is looked up: it would spend the guessing tries of the guest whose browser it runs in, and lock
        their own phone out (``origin.from_another_site``)."""
        if from_another_site(request.headers, self.site):
            return _error("cross-origin", "another site's page may not look tables up here; open the table's link", 403)
        return None

    async def _lookup(self, request: Request) -> Any:
        if refused := self._cross_site(request):
            return refused
        try:
            return await self.hub.find(_address(request), request.path_params["code"])
        except TableError as exc:
            return _error(exc.code, exc.message, 429 if exc.code == "slow-down" else 404)


def _address(request: Request) -> str:
    return address_key(request.client.host if request.client else "?")


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
    segno.make(url, error="m").save(
        out, kind="svg", xmldecl=False, nl=False, scale=8, border=2, dark="#111", light="#fff"
    )
    return out.getvalue()


def _file_name(record: dict[str, Any], suffix: str) -> str:
    """``gemtable-ABCD-game-3.json``: a file name made of the table's code (letters) and the game's number."""
    code = normal_code(str(record.get("table", ""))) or "table"
    number = record.get("number")
    return f"gemtable-{code}-game-{number if isinstance(number, int) else 0}.{suffix}"


def _summary(record: dict[str, Any]) -> dict[str, Any]:
    """What the night's list shows of a finished game."""
    return {
        "number": record.get("number"),
        "game": record.get("game"),
        "finished_at": record.get("finished_at"),
        "names": record.get("names", {}),
        "scores": record.get("scores"),
        "winners": record.get("winners"),
        "places": {str(row.seat): row.place for row in places(record)},
        "ended": record.get("ended") is not None,
    }


def _error(code: str, message: str, status: int) -> Response:
    return JSONResponse({"error": code, "message": message}, status_code=status)


__all__ = ["QR_CACHE", "REPLAY_CACHE", "Api"]
