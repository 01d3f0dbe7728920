"""Refusals that tell nothing and cost the asker: a refused token (finding 6 of issue 13) and table codes
guessed through any route (finding 2), through a real server with production limits."""

from __future__ import annotations

import asyncio
import http.client
import json
from typing import Any

import websockets

from gemtable.client import Client
from gemtable.server.hub import CODE_ALPHABET
from gemtable.server.limits import Limits
from tests.security.conftest import clean_log
from tests.server.harness import ServerProcess
from tests.server.test_bad_input import answer
from tests.server.test_game_flow import run

TRIES = int(Limits().lookup_burst)


def get(server: ServerProcess, path: str, source: str) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        kind = response.getheader("content-type", "")
        return response.status, json.loads(body) if kind.startswith("application/json") else body
    finally:
        conn.close()


def unknown_codes(server: ServerProcess, known: set[str], n: int) -> list[str]:
    out = []
    for a in CODE_ALPHABET:
        for b in CODE_ALPHABET:
            code = f"Q{a}{b}X"
            if code not in known:
                out.append(code)
            if len(out) == n:
                return out
    return out


async def phone_from(server: ServerProcess, address: str) -> Client:
    return Client(await websockets.connect(server.ws, local_addr=(address, 0), max_size=2**22, open_timeout=10))


def test_a_refused_token_gets_one_error_and_nothing_else(production: ServerProcess) -> None:
    """A forged token, or another table's, is answered with ``unknown-token`` alone: no welcome, no state,
    the phone is bound to nothing, and a phone that was watching another table still watches it."""
    here, there = production.create_table(), production.create_table()

    async def scenario() -> None:
        ann = await Client.open(production.ws)
        await ann.join(here, "Ann")
        people = len(ann.state["people"]) if ann.state else 0
        forger = await Client.open(production.ws)
        await forger.send({"type": "hello", "code": here, "token": "A" * 32})
        assert (await forger.error())["code"] == "unknown-token"
        await forger.send({"type": "ping"})
        await forger._wait(lambda: any('"pong"' in f for f in forger.frames), 5)
        kinds = [json.loads(f)["type"] for f in forger.frames]
        assert kinds == ["error", "pong"], kinds  # told nothing of the table
        assert (await answer(forger, {"type": "choose", "move": "camp"}))["code"] == "no-table"
        # A watcher of ``there`` tries Ann's token there: refused, and still watching ``there`` only.
        watcher = await Client.open(production.ws)
        await watcher.hello(there)
        seen = len(watcher.frames)
        await watcher.send({"type": "hello", "code": there, "token": ann.token})
        assert (await watcher.error())["code"] == "unknown-token"
        assert all(json.loads(f)["type"] == "error" for f in watcher.frames[seen:])
        bob = await Client.open(production.ws)
        await bob.join(there, "Bob")  # the watcher hears of it: it still looks on at ``there``
        await watcher.until(lambda s: any(p["name"] == "Bob" for p in s["people"]), after=seen)
        assert watcher.state is not None and watcher.state["code"] == there and watcher.state["me"] is None
        # Ann's table saw nobody come: the same people, and no new state was sent to her.
        await asyncio.sleep(0.3)
        assert ann.state is not None and len(ann.state["people"]) == people
        for phone in (ann, forger, watcher, bob):
            await phone.close()

    run(scenario())
    clean_log(production)


def test_every_route_that_takes_a_code_draws_from_one_limit(production: ServerProcess) -> None:
    """Unknown codes tried through the records API, the table summary, ``hello`` and ``join`` all count
    against the same tries per address; past them, even a right code is refused, on every route."""
    code = production.create_table()
    misses = unknown_codes(production, {code}, TRIES)
    source = "127.41.0.1"
    for i, guess in enumerate(misses):
        path = f"/api/tables/{guess}/games/1" if i % 2 == 0 else f"/api/tables/{guess}"
        status, body = get(production, path, source)
        assert status == 404, (path, status, body)
    # Out of tries: the records API, the summary and the WebSocket all say so, even for the right code.
    status, body = get(production, f"/api/tables/{code}/games/1", source)
    assert (status, body["error"]) == (429, "slow-down")
    status, body = get(production, f"/api/tables/{code}", source)
    assert (status, body["error"]) == (429, "slow-down")
    assert get(production, f"/api/tables/{code}/qr.svg", "127.41.0.3")[0] == 200  # (now in the QR cache)
    status, body = get(production, f"/api/tables/{code}/qr.svg", source)  # the cache is no way round the limit
    assert (status, body["error"]) == (429, "slow-down")
    status, body = get(production, f"/api/tables/{misses[0]}/qr.svg", "127.41.0.4")
    assert (status, body["error"]) == (404, "no-table")  # and an unknown code is a miss there too

    async def scenario() -> None:
        phone = await phone_from(production, source)
        await phone.send({"type": "hello", "code": code})
        assert (await phone.error())["code"] == "slow-down"
        await phone.send({"type": "join", "code": code, "name": "Eve"})
        assert (await phone.error(after=1))["code"] == "slow-down"
        await phone.close()

    run(scenario())
    # Another address is untouched.
    assert get(production, f"/api/tables/{code}", "127.41.0.2")[0] == 200


def test_guessing_codes_through_the_records_api_alone_is_slowed(production: ServerProcess) -> None:
    """The attack of the review: ``GET /api/tables/CODE/games/N`` for code after code, from one address."""
    code = production.create_table()
    source = "127.42.0.1"
    statuses = [
        get(production, f"/api/tables/{guess}/games/1", source)[0]
        for guess in unknown_codes(production, {code}, TRIES + 8)
    ]
    assert statuses == [404] * TRIES + [429] * 8
    # The tries come back at 6 a minute; a WebSocket hello from the same address is refused meanwhile.

    async def scenario() -> None:
        phone = await phone_from(production, source)
        await phone.send({"type": "hello", "code": code})
        assert (await phone.error())["code"] == "slow-down"
        await phone.close()

    run(scenario())
    clean_log(production)
