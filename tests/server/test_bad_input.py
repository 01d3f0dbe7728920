"""Every kind of bad message gets a clear error; nothing changes; everyone else plays on."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gemtable.client import Client
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_table_life import LONG


@pytest.fixture
def strict_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with the default limits, as a party would run it (scripted decks allowed)."""
    proc = ServerProcess(tmp_path / "data", extra=["--allow-scripts"]).start()
    try:
        yield proc
    finally:
        proc.stop()


async def seated_pair(server: ServerProcess, code: str) -> tuple[Client, Client]:
    ann, bob = await Client.open(server.ws), await Client.open(server.ws)
    await ann.join(code, "Ann")
    await bob.join(code, "Bob")
    await ann.start()
    await ann.until(lambda s: s["phase"] == "playing")
    await bob.until(lambda s: s["phase"] == "playing")
    return ann, bob


async def answer(client: Client, raw: str | bytes | dict[str, Any]) -> dict[str, Any]:
    """Send one bad message; return the error it earns, after checking the connection still answers."""
    seen = len(client.errors)
    if isinstance(raw, dict):
        await client.send(raw)
    else:
        await client.send_raw(raw)
    error = await client.error(after=seen)
    pongs = sum(1 for f in client.frames if '"pong"' in f)
    await client.send({"type": "ping"})
    await client._wait(lambda: sum(1 for f in client.frames if '"pong"' in f) > pongs, 5)
    return error


BAD: list[tuple[str | bytes, str]] = [
    ("not json", "bad-json"),
    ("[1, 2, 3]", "bad-message"),
    ('{"no": "type"}', "bad-message"),
    ('{"type": "teleport"}', "unknown-type"),
    ('{"type": "choose", "move": 5}', "bad-message"),
    ('{"type": "choose", "move": "deeper", "extra": 1}', "bad-message"),
    ('{"type": "choose", "move": "deeper", "v": 99}', "bad-version"),
    (json.dumps({"type": "join", "name": "x" * 5000}), "too-large"),
    ("[" * 2000 + "]" * 2000, "bad-message"),
    (b'{"type": "ping"}', "binary"),
    ('{"type": "choose", "move": "sideways"}', "illegal-move"),
    ('{"type": "choose", "move": "deeper", "decision": 0}', "stale"),
    ('{"type": "remove_bot", "chair": 7}', "not-host"),
    ('{"type": "add_bot", "bot": "cautious"}', "not-host"),
    ('{"type": "start"}', "not-host"),
    ('{"type": "join", "code": "ZZZZ", "name": "Eve"}', "no-table"),
]


def test_every_bad_message_gets_a_clear_error_and_changes_nothing(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=1)

    async def scenario() -> None:
        ann, bob = await seated_pair(server, code)
        before = json.dumps((await bob.until(lambda s: True))["state"])
        for raw, expected in BAD:
            error = await answer(bob, raw)
            assert error["code"] == expected, (raw[:60], error)
            assert error["message"]
        after = await bob.until(lambda s: True)
        assert json.dumps(after["state"]) == before
        assert not any(p["chosen"] for p in after["people"])
        # Both still play normally.
        await ann.choose("deeper")
        await bob.choose("deeper", decision=after["decision"])
        state = await ann.until(lambda s: len(s["state"]["path"]) == 2)
        assert state["state"]["reveal"]["deeper"] == [0, 1]

    run(scenario())


def test_spectators_forged_and_stale_tokens_cannot_act(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60)

    async def scenario() -> None:
        ann, bob = await seated_pair(server, code)
        token = bob.token
        spectator = await Client.open(server.ws)
        state = await spectator.hello(code)
        assert state["me"] is None
        assert (await answer(spectator, {"type": "choose", "move": "camp"}))["code"] == "spectator"
        forger = await Client.open(server.ws)
        await forger.send({"type": "hello", "code": code, "token": "A" * 32})
        assert (await forger.error())["code"] == "unknown-token"
        assert (await answer(forger, {"type": "choose", "move": "camp"}))["code"] == "no-table"  # not even looking on
        # Bob leaves; his old token is worth nothing now, on any phone.
        await bob.leave()
        await ann.until(lambda s: all(p["name"] != "Bob" or p["status"] == "gone" for p in s["people"]))
        stale = await Client.open(server.ws)
        await stale.send({"type": "hello", "code": code, "token": token})
        assert (await stale.error())["code"] == "unknown-token"
        # A token of this table does not open another table.
        other = server.create_table()
        thief = await Client.open(server.ws)
        await thief.send({"type": "hello", "code": other, "token": ann.token})
        assert (await thief.error())["code"] == "unknown-token"
        # A phone that was replaced by a newer one cannot act any more.
        newer = await Client.open(server.ws)
        await newer.hello(code, ann.token)
        await ann._wait(lambda: ann.closed, 10)
        assert ann.replaced

    run(scenario())


def test_names_are_trimmed_unique_limited_and_kept_as_plain_data(server: ServerProcess) -> None:
    code = server.create_table()

    async def scenario() -> None:
        a = await Client.open(server.ws)
        state = await a.join(code, "  <b>Ann</b>\u200b  <i>&amp;</i> ")
        assert state["me"]["name"] == "<b>Ann</b> <i>&amp;</i>"
        b = await Client.open(server.ws)
        for name, expected in (
            ("", "bad-name"),
            ("   ", "bad-name"),
            ("x" * 25, "bad-name"),
            ("Bob\u0000", "bad-name"),
            ("<B>ANN</B> <I>&AMP;</I>", "name-taken"),
        ):
            await b.send({"type": "join", "code": code, "name": name})
            assert (await b.error(after=len(b.errors)))["code"] == expected
        state = await b.join(code, "Bob")
        assert [p["name"] for p in state["people"]] == ["<b>Ann</b> <i>&amp;</i>", "Bob"]

    run(scenario())


def test_a_flood_is_slowed_then_cut_off_while_the_table_plays_on(strict_server: ServerProcess) -> None:
    code = strict_server.create_table(script=LONG, seconds=60)

    async def scenario() -> None:
        ann, bob = await seated_pair(strict_server, code)
        flooder = await Client.open(strict_server.ws)
        await flooder.hello(code)
        for _ in range(400):
            if flooder.closed:
                break
            try:
                await flooder.send({"type": "ping"})
            except Exception:
                break
        await flooder._wait(lambda: flooder.closed, 10)
        assert any(e["code"] == "slow-down" for e in flooder.errors)
        await ann.choose("deeper")
        await bob.choose("camp")
        state = await ann.until(lambda s: len(s["state"]["path"]) == 2)
        assert state["state"]["reveal"]["leavers"] == [1]

    run(scenario())


def test_guessing_table_codes_is_rate_limited_per_address(strict_server: ServerProcess) -> None:
    real = strict_server.create_table()

    async def scenario() -> None:
        guesser = await Client.open(strict_server.ws)
        codes = []
        for i in range(30):
            await guesser.send({"type": "hello", "code": "QQQ" + "ACDEFHJKLMNPQRTUVWXY"[i % 20]})
            codes.append((await guesser.error(after=i))["code"])
        assert codes[0] == "no-table"
        assert codes[-1] == "slow-down"
        # Even the right code is refused to this address for now.
        await guesser.send({"type": "hello", "code": real})
        assert (await guesser.error(after=30))["code"] == "slow-down"

    run(scenario())
    status, body = strict_server.get("/api/tables/QQQQ")
    assert status == 429 and body["error"] == "slow-down"


def test_bad_http_requests_get_clear_errors(server: ServerProcess) -> None:
    for body, expected in (
        ({"game": "chess"}, "bad-request"),
        ({"preset": "nope"}, "bad-request"),
        ({"options": {"relics": "yes"}}, "bad-request"),
        ({"seconds": 0}, "bad-request"),
        ({"options": {"secret_mode": True}}, "bad-request"),
    ):
        status, answer_ = server.post("/api/tables", body)
        assert status == 400 and answer_["error"] == expected and answer_["message"], body
    status, answer_ = server.get("/api/tables/ABCD/games/x")
    assert status == 400
    status, answer_ = server.get("/api/tables/ABCD/games/1")
    assert status == 404 and answer_["error"] == "no-record"


def test_scripted_decks_are_refused_unless_the_server_allows_them(tmp_path: Path) -> None:
    party = ServerProcess(tmp_path / "party", extra=[]).start()
    try:
        status, body = party.post("/api/tables", {"game": "expedition", "script": [["5"]]})
        assert status == 400 and "scripted" in body["message"]
    finally:
        party.stop()


def test_security_headers_are_on_every_response(server: ServerProcess) -> None:
    import urllib.request

    with urllib.request.urlopen(server.base + "/api/games") as response:
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert response.headers["x-content-type-options"] == "nosniff"


_ = asyncio
