"""Getting the TV on (issue 22 §3) through a real server: a TV's pairing code, sent a table by a phone, used
once, lapsing, and guessed at no faster than table codes."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from gemtable.server.pairing import PAIR_SECONDS, MemoryBoard, PairingError, Pairings, normal_pairing
from tests.server.harness import ServerProcess


def call(server: ServerProcess, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture
def server(tmp_path: Path) -> Any:
    s = ServerProcess(tmp_path / "data").start()
    yield s
    s.stop()


def test_a_phone_sends_the_tv_to_its_table_once(server: ServerProcess) -> None:
    code = server.create_table()
    status, opened = call(server, "POST", "/api/pairings")
    assert status == 201 and normal_pairing(opened["pairing"]) == opened["pairing"] and opened["seconds"] == 300
    pairing, secret = opened["pairing"], opened["secret"]
    assert call(server, "GET", f"/api/pairings/{pairing}?secret={secret}") == (200, {"table": None, "url": None})
    assert call(server, "GET", f"/api/pairings/{pairing}?secret=not-the-tvs")[0] == 404  # only that TV reads it
    spaced = f"{pairing[:2]}%20{pairing[2:]}"  # as a person types it (the phone's page encodes the space)
    assert call(server, "POST", f"/api/pairings/{spaced}", {"table": code.lower()}) == (200, {"table": code})
    status, body = call(server, "POST", f"/api/pairings/{pairing}", {"table": code})
    assert status == 409 and body["error"] == "pairing-used"
    assert call(server, "GET", f"/api/pairings/{pairing}?secret={secret}") == (
        200,
        {"table": code, "url": f"/t/{code}/tv"},
    )
    assert call(server, "GET", f"/api/pairings/{pairing}?secret={secret}")[0] == 404  # used once: gone


def test_bad_requests_get_clear_answers(server: ServerProcess) -> None:
    code = server.create_table()
    pairing = call(server, "POST", "/api/pairings")[1]["pairing"]
    status, body = call(server, "POST", f"/api/pairings/{pairing}", {"table": "QQQQ"})
    assert status == 404 and body["error"] == "no-table"
    junk: object
    for junk in ({"table": 5}, [], "x", {"tables": code}):
        status, body = call(server, "POST", f"/api/pairings/{pairing}", junk)
        assert status == 400 and body["error"] == "bad-request"
    status, body = call(server, "POST", "/api/pairings/12x4", {"table": code})
    assert status == 404 and body["error"] == "no-pairing"


def test_guessing_pairing_codes_spends_the_tries_of_table_codes(server: ServerProcess) -> None:
    code = server.create_table()
    opened = call(server, "POST", "/api/pairings")[1]
    wrong = f"{(int(opened['pairing']) + 1) % 10000:04d}"
    answers = [call(server, "POST", f"/api/pairings/{wrong}", {"table": code})[0] for _ in range(14)]
    assert answers[:12] == [404] * 12 and answers[12:] == [429, 429]
    assert call(server, "GET", f"/api/tables/{code}")[0] == 429  # the same budget as table codes


def test_a_pairing_lapses_and_a_full_board_refuses_new_ones() -> None:
    now = [0.0]
    board = MemoryBoard(clock=lambda: now[0])
    pairings = Pairings(board)

    async def scenario() -> None:
        pairing, secret = await pairings.open()
        assert await pairings.poll(pairing, secret) is None
        now[0] = PAIR_SECONDS + 0.1
        with pytest.raises(PairingError) as lapsed:
            await pairings.poll(pairing, secret)
        assert lapsed.value.code == "no-pairing"
        with pytest.raises(PairingError):
            await pairings.send(pairing, "ABCD")
        for _ in range(2000):
            await pairings.open()
        with pytest.raises(PairingError) as full:
            await pairings.open()
        assert full.value.code == "slow-down"

    asyncio.run(scenario())
