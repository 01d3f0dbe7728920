"""Nobody stuck, through a real server process and real WebSockets: phones closed in the lobby, the
host removing an absent person, and the host after a restart."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from gemtable.client import Client, ServerError
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_table_life import LONG, person

GRACE = 2.0
"""The tables here are created with a short absence grace (``absent_grace``), so that a test does not
wait the minute a real table does; the rules are the same."""


@pytest.mark.parametrize(("game", "chairs"), [("booty", 3), ("expedition", 8)])
def test_phones_closed_in_the_lobby_free_a_chair_and_the_host_role_for_the_one_waiting(
    server: ServerProcess, game: str, chairs: int
) -> None:
    status, body = server.post(
        "/api/tables", {"game": game, "absent_grace": GRACE, "countdown": 0, "ready_check": False}
    )
    assert status == 201, body
    code = body["code"]

    async def scenario() -> dict[str, Any]:
        closed = []
        for i in range(chairs):
            client = await Client.open(server.ws)
            await client.join(code, f"P{i}")
            closed.append(client)
        zed = await Client.open(server.ws)
        state = await zed.join(code, "Zed")
        assert state["me"]["status"] == "watching" and not state["me"]["host"]
        assert state["settings"]["absent_grace"] == GRACE
        # Before the first phone closes: the server cannot start a grace earlier (taken after the last close, it
        # was late by every close before it, and a busy machine made a grace kept exactly look short).
        closed_at = time.monotonic()
        for client in closed:  # every phone in a chair goes dark
            await client.close()
        state = await zed.until(lambda s: s["me"]["status"] == "seated" and s["me"]["host"], 30)
        assert time.monotonic() - closed_at >= GRACE  # not before the grace
        p0 = person(state, "P0")
        assert p0["status"] == "away" and p0["chair"] is None and not p0["connected"]
        await zed.start()
        return await zed.until(lambda s: s["phase"] == "playing", 30)

    state = run(scenario())
    assert state["me"]["seat"] is not None


def test_the_host_removes_an_absent_person_and_is_refused_clearly_otherwise(server: ServerProcess) -> None:
    code = server.create_table(script=LONG)

    async def scenario() -> None:
        ann, bob, cat, dee = [await Client.open(server.ws) for _ in range(4)]
        await ann.join(code, "Ann")
        await bob.join(code, "Bob")
        await cat.join(code, "Cat")
        await dee.join(code, "Dee")
        state = await ann.until(lambda s: bool(person(s, "Dee")))
        ids = {p["name"]: p["id"] for p in state["people"]}
        # Not the host; yourself; nobody: each refused, nothing changes.  (Someone connected can be removed
        # too: tests/server/test_host.py.)
        for client, target, code_ in (
            (bob, ids["Dee"], "not-host"),
            (ann, ids["Ann"], "self"),
            (ann, 999, "not-found"),
        ):
            seen = len(client.errors)
            await client.remove(target)
            error = await client.error(after=seen)
            assert error["code"] == code_ and error["message"]
        seen = len(ann.errors)
        await ann.send({"type": "remove", "v": 1, "person": "Dee"})  # not a person's number
        assert (await ann.error(after=seen))["code"] == "bad-message"
        token = dee.token
        await dee.close()
        await ann.until(lambda s: not person(s, "Dee")["connected"])
        await ann.remove(ids["Dee"])
        state = await ann.until(lambda s: not person(s, "Dee"))
        assert [p["name"] for p in state["people"] if p["chair"] is not None] == ["Ann", "Bob", "Cat"]
        # The removed phone comes back: its seat is gone, and it is told it was removed; it may join again.
        again = await Client.open(server.ws)
        with pytest.raises(ServerError):
            await again.join(code, "Ann")  # (a name taken)
        await again.hello(code, token)
        assert (await again.error(after=1))["code"] == "removed"
        for client in (ann, bob, cat, again):
            await client.close()

    run(scenario())


def test_the_host_stays_the_host_across_restarts(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=1, pause=0.5)
    tokens: dict[str, str] = {}

    async def before() -> int:
        clients = {name: await Client.open(server.ws) for name in ("Ann", "Bob", "Cat")}
        for name, client in clients.items():
            await client.join(code, name)
            tokens[name] = client.token or ""
        await clients["Ann"].start()
        state = await clients["Ann"].until(lambda s: s["phase"] == "playing")
        host = state["host"]
        assert host == person(state, "Ann")["id"]
        for client in clients.values():
            await client.close()
        return int(host)

    ann_id = run(before())
    for _ in range(2):
        server.kill()
        server.start()

        async def after() -> None:
            bob, cat = await Client.open(server.ws), await Client.open(server.ws)
            await bob.hello(code, tokens["Bob"])
            await cat.hello(code, tokens["Cat"])
            # Bob and Cat are back first; the caves go on at a second a card, and Ann is marked away at a
            # pause — but the host is whoever the log says until her absence grace is over.
            state = await bob.until(lambda s: person(s, "Ann").get("status") == "away" or s["phase"] == "results", 40)
            assert state["host"] == ann_id
            ann = await Client.open(server.ws)
            await ann.hello(code, tokens["Ann"])
            state = await ann.until(lambda s: s["me"] is not None and s["me"]["status"] != "away")
            assert state["host"] == ann_id and state["me"]["host"]
            for client in (ann, bob, cat):
                await client.close()
            await asyncio.sleep(0.2)

        run(after())
