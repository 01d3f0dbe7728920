"""Cross-site use of a guest's browser (issue 13, finding 3), with real requests to a real server.

WebSocket handshakes and POSTs whose ``Origin`` is not this server's are refused (403); a request without
``Origin`` (not from a web page) is allowed; ``POST /api/tables`` needs ``Content-Type: application/json``.
``tests/web/test_cross_site.py`` tries the same from another site's page in Chromium.
"""

from __future__ import annotations

import asyncio
import http.client
import json
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from gemtable.client import Client
from tests.security.conftest import TunedServer, clean_log
from tests.server.harness import ServerProcess, free_port
from tests.server.test_game_flow import run

BODY = json.dumps({"game": "expedition"}).encode()


def post(server: ServerProcess, headers: dict[str, str], body: bytes = BODY) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("POST", "/api/tables", body, headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def tables(server: ServerProcess) -> int:
    status, node = server.get("/api/node")
    assert status == 200
    return int(node["runs"])


async def handshake(server: ServerProcess, origin: str | None) -> int:
    """The HTTP status of a WebSocket handshake with this ``Origin`` (101 if it opened)."""
    try:
        ws = await websockets.connect(server.ws, origin=origin, open_timeout=10)  # type: ignore[arg-type]
    except websockets.InvalidStatus as exc:
        return int(exc.response.status_code)
    await ws.close()
    return 101


FOREIGN = ["http://evil.example", "null", "https://127.0.0.1", "file://", "http://127.0.0.1:1"]


def test_other_origins_cannot_open_a_websocket(production: ServerProcess) -> None:
    other_port = f"http://127.0.0.1:{free_port()}"  # another program's pages on this very machine

    async def scenario() -> None:
        for origin in [*FOREIGN, other_port, f"http://localhost:{free_port()}"]:
            assert await handshake(production, origin) == 403, origin
        for ours in (
            None,
            production.base,
            f"http://localhost:{production.port}",
            f"HTTP://LOCALHOST:{production.port}",
        ):
            assert await handshake(production, ours) == 101, ours
        # And a handshake that was let in works as a phone: from our own page's origin.
        phone = Client(await websockets.connect(production.ws, origin=production.base, open_timeout=10))  # type: ignore[arg-type]
        code = await asyncio.to_thread(production.create_table)
        assert (await phone.join(code, "Ann"))["me"]["name"] == "Ann"
        await phone.close()

    run(scenario())
    clean_log(production)


def test_other_origins_cannot_create_tables(production: ServerProcess) -> None:
    before = tables(production)
    for origin in [*FOREIGN, f"http://127.0.0.1:{free_port()}"]:
        status, body = post(production, {"Content-Type": "application/json", "Origin": origin})
        assert (status, body["error"]) == (403, "cross-origin"), origin
    assert tables(production) == before
    for headers in (
        {"Content-Type": "application/json", "Origin": production.base},
        {"Content-Type": "application/json; charset=utf-8"},  # no Origin: not from a web page
        {"Content-Type": "application/json", "Origin": f"http://localhost:{production.port}"},
    ):
        status, body = post(production, headers)
        assert status == 201, (headers, body)
    assert tables(production) == before + 3


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""])
def test_a_new_table_is_sent_as_json(production: ServerProcess, kind: str) -> None:
    """What a plain HTML form (or a "simple" cross-site fetch) can send is refused, even without Origin."""
    before = tables(production)
    status, body = post(production, {"Content-Type": kind} if kind else {})
    assert (status, body["error"]) == (415, "bad-request")
    assert tables(production) == before


def test_the_host_may_allow_another_origin(tuned: Callable[..., TunedServer]) -> None:
    server = tuned(extra=["--allow-origin", "https://games.example.org"])
    status, _ = post(server, {"Content-Type": "application/json", "Origin": "https://games.example.org"})
    assert status == 201

    async def scenario() -> None:
        assert await handshake(server, "https://games.example.org") == 101
        assert await handshake(server, "https://games.example.org:8443") == 403
        assert await handshake(server, "http://games.example.org") == 403

    run(scenario())
