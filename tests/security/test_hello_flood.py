"""One message must not cost the server a broadcast to everyone (issue 21, finding 2), through a real server
with a party's limits.

A joined person who said ``hello`` with their own token on the connection that was already theirs made the
server run a disconnect and a connect, each a whole state to everyone at the table: sixteen of them at 20 a
second took an honest phone's ping from 0.2 ms to 157 ms.  Now such a hello changes nothing (its sender alone
is answered, ``welcome`` and its state), and hellos that open a table are limited per connection and per
address.  (``python -m tools hello_flood`` measures the attack; ``tests/server/test_pacing.py`` the pacer.)
"""

from __future__ import annotations

import asyncio
import json
import time

from gemtable.client import Client
from gemtable.server.limits import Limits
from tests.security.conftest import clean_log
from tests.security.test_refusals import phone_from
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run

LIMITS = Limits()
PER_CONNECTION = int(LIMITS.hello_burst)
PER_ADDRESS = int(LIMITS.address_hello_burst)
CONNECTIONS = LIMITS.connections_per_address // 2
"""The connections one device opens at most in the per-address test: 160 hellos, 100 more than the burst (20
seconds of its refill)."""


def tables_messages(phone: Client) -> int:
    return sum(1 for frame in phone.frames if json.loads(frame)["type"] in ("state", "chosen"))


async def hello(phone: Client, code: str, token: str | None = None) -> list[str]:
    """Say hello; what it was answered with (``welcome`` and ``state``, or an error's code)."""
    seen = len(phone.frames)
    await phone.send({"type": "hello", "v": 2, "code": code, **({"token": token} if token else {})})

    def answered() -> bool:
        kinds = [json.loads(frame)["type"] for frame in phone.frames[seen:]]
        return "error" in kinds or "state" in kinds

    await phone._wait(answered, 10)
    out = []
    for frame in phone.frames[seen:]:
        message = json.loads(frame)
        out.append(message["code"] if message["type"] == "error" else message["type"])
    return out


def test_a_hello_on_a_connection_that_is_that_seat_already_changes_nothing(production: ServerProcess) -> None:
    code = production.create_table()

    async def scenario() -> None:
        ann = await phone_from(production, "127.45.0.1")
        await ann.join(code, "Ann")
        bob = await phone_from(production, "127.45.0.2")
        await bob.join(code, "Bob")
        watcher = await phone_from(production, "127.45.0.3")
        await watcher.hello(code)
        await ann.until(lambda s: len(s["people"]) == 2)
        await asyncio.sleep(0.5)
        seen = tables_messages(ann), tables_messages(watcher)
        for _ in range(PER_CONNECTION):  # (the join was no hello: the whole burst is Bob's)
            assert await hello(bob, code, bob.token) == ["welcome", "state"]  # to Bob alone, and only that
            assert bob.state is not None and bob.state["me"]["name"] == "Bob"
        assert await hello(watcher, code) == ["welcome", "state"]  # an onlooker's again: the same
        await asyncio.sleep(1.0)
        assert (tables_messages(ann), tables_messages(watcher) - 1) == seen  # nobody else was told anything
        assert not ann.errors and not bob.errors
        assert await hello(bob, code, bob.token) == ["slow-down"]
        assert await hello(bob, code, bob.token) == ["slow-down"]
        errors = len(bob.errors)
        await bob.choose("deeper")  # its connection is still its seat (in the lobby: not a spectator's refusal)
        assert (await bob.error(after=errors))["code"] != "spectator"
        # Bob is still seated and connected, the same person: nothing about the table changed.
        status, summary = production.get(f"/api/tables/{code}")
        assert status == 200 and summary["taken"] == 2
        for phone in (ann, bob, watcher):
            await phone.close()

    run(scenario())
    clean_log(production)


def test_hellos_are_limited_per_address(production: ServerProcess) -> None:
    """One device opening connection after connection, each saying hello (within each one's own limit): past
    the address's burst, ``slow-down``; another address is not affected.  The bucket refills meanwhile (5 a
    second), so the device goes on until it is told to slow down, however slowly this machine answers."""
    code = production.create_table()

    async def scenario() -> tuple[list[str], float]:
        answers: list[str] = []
        phones: list[Client] = []
        started = time.monotonic()
        while "slow-down" not in answers and len(phones) < CONNECTIONS:
            phone = await phone_from(production, "127.46.0.1")
            phones.append(phone)
            for _ in range(PER_CONNECTION):
                answer = await hello(phone, code)
                answers.append("ok" if answer == ["welcome", "state"] else "/".join(answer))
                if answer != ["welcome", "state"]:
                    break
        seconds = time.monotonic() - started
        neighbour = await phone_from(production, "127.46.0.2")
        assert await hello(neighbour, code) == ["welcome", "state"]
        for phone in [*phones, neighbour]:
            await phone.close()
        return answers, seconds

    answers, seconds = run(scenario())
    assert answers[:PER_ADDRESS] == ["ok"] * PER_ADDRESS
    refilled = seconds * LIMITS.address_hellos_per_minute / 60  # (the bucket refills meanwhile: 5 a second)
    assert answers.count("ok") <= PER_ADDRESS + refilled + 1, (answers.count("ok"), seconds)
    assert "slow-down" in answers[PER_ADDRESS:] and set(answers) == {"ok", "slow-down"}
    clean_log(production)
