"""Protocol version 2 through a real server: a secret choice is a small ``chosen`` message, table messages
are numbered, a phone that misses one asks for the whole state and ends up right, and a version 1 phone at
the same table still gets a whole state after every change."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import msgspec
import websockets

from gemtable.client import Client
from gemtable.server import protocol as p
from gemtable.server.limits import Limits
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_table_life import LONG, person

PACE = Limits().broadcast_seconds + 0.02
"""A table's pacer sends what it held back by then (``gemtable.server.pacing``)."""


async def settle(*clients: Client) -> None:
    """Until each client has everything sent to it so far: what they sent before is handled (a pong comes after
    what was queued before it), then what the table's pacer held back has gone out (a ping that arrives after
    the held broadcast was due is answered after it)."""

    async def one(client: Client) -> None:
        pongs = sum('"pong"' in f for f in client.frames)
        await client.send(p.Ping())
        await client._wait(lambda: sum('"pong"' in f for f in client.frames) > pongs, 10)

    await asyncio.gather(*(one(c) for c in clients))
    await asyncio.sleep(PACE)
    await asyncio.gather(*(one(c) for c in clients))


def table_frames(client: Client, since: int = 0) -> list[dict[str, Any]]:
    return [json.loads(f) for f in client.frames[since:] if json.loads(f)["type"] in ("state", "chosen")]


def same_view(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return {**a, "remaining_ms": 0} == {**b, "remaining_ms": 0}


def test_a_choice_is_a_small_message_to_the_room_and_its_maker_alone_hears_what_it_was(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=0.5)

    async def scenario() -> None:
        ann, bob, cat, eve = [await Client.open(server.ws) for _ in range(4)]
        old = await Client.open(server.ws, version=1)  # a page loaded before the upgrade: version 1
        for client, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
            await client.join(code, name)
        await eve.hello(code)
        await old.hello(code, tv=True)
        await ann.start()
        everyone = (ann, bob, cat, eve, old)
        await asyncio.gather(*(c.until(lambda s: s["phase"] == "playing") for c in everyone))
        await settle(*everyone)
        marks = [len(c.frames) for c in everyone]

        await bob.choose("camp")
        await settle(bob, *everyone)
        bob_id = person(ann.state or {}, "Bob")["id"]
        for client, mark in zip(everyone, marks, strict=True):
            got = table_frames(client, mark)
            assert len(got) == 1, got
            if client is old:  # version 1: a whole state, as before
                assert got[0]["type"] == "state" and person(got[0]["table"], "Bob")["chosen"] is True
                continue
            assert got[0]["type"] == "chosen" and got[0]["people"] == [bob_id]
            assert ("choice" in got[0]) == (client is bob)
            assert len(json.dumps(got[0])) < 100  # a few bytes, not a 3-4 KB state
        assert (bob.state or {})["me"]["choice"] == "camp"
        assert person(eve.state or {}, "Bob")["chosen"] and person(ann.state or {}, "Bob")["chosen"]

        # Bob changes his mind: the others are told nothing new (in either version: issue 21), he is told his
        # new choice.
        marks = [len(c.frames) for c in everyone]
        await bob.choose("deeper")
        await settle(bob, *everyone)
        for client, mark in zip(everyone, marks, strict=True):
            got = table_frames(client, mark)
            if client is bob:
                assert [(f["type"], f["people"], f["choice"]) for f in got] == [("chosen", [], "deeper")]
            else:
                assert got == []

        # Every table message is numbered, one after the other, and every frame is a protocol message.
        for client in everyone:
            numbers = [f["seq"] for f in table_frames(client)]
            assert numbers == list(range(1, len(numbers) + 1))
            for raw in client.frames:
                p.decode_server(raw)

        # Whatever each phone pieced together is the state the server shows it when asked.
        for client in everyone:
            pieced = client.state or {}
            seen = len(client.frames)
            await client.send({"type": "sync", "v": 2})
            whole = await client.until(lambda s: True, after=seen)
            assert same_view(pieced, whole)
            assert table_frames(client, seen)[-1]["seq"] == table_frames(client)[-2]["seq"] + 1

        # The reveal is a whole state to everyone.
        marks = [len(c.frames) for c in everyone]
        await ann.choose("deeper")
        await cat.choose("camp")
        await asyncio.gather(*(c.until(lambda s: s["state"]["reveal"] is not None) for c in everyone))
        for client, mark in zip(everyone, marks, strict=True):
            assert table_frames(client, mark)[-1]["type"] == "state"

    run(scenario())


class Forgetful(Client):
    """A phone that loses the first ``chosen`` message sent to it (as if it never came)."""

    lost: list[str]

    def _take(self, message: p.ServerMessage) -> None:
        if isinstance(message, p.Chosen) and not getattr(self, "lost", None):
            self.lost = [msgspec.json.encode(message).decode()]
            return
        super()._take(message)


def test_a_phone_that_misses_a_message_asks_for_the_whole_state_and_ends_up_right(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=0.5)

    async def scenario() -> None:
        ann = Forgetful(await websockets.connect(server.ws, max_size=2**22))
        bob, cat, dan = [await Client.open(server.ws) for _ in range(3)]
        for client, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat"), (dan, "Dan")):
            await client.join(code, name)
        await ann.start()
        await asyncio.gather(*(c.until(lambda s: s["phase"] == "playing") for c in (ann, bob, cat, dan)))
        await bob.choose("deeper")
        await settle(ann, bob)
        assert len(ann.lost) == 1 and ann.syncs == 0
        assert not person(ann.state or {}, "Bob")["chosen"]  # what a lost message does
        await cat.choose("camp")  # the next number comes: one is missing, so Ann asks for the whole state
        await ann.until(lambda s: person(s, "Cat")["chosen"])
        assert ann.syncs == 1
        assert person(ann.state or {}, "Bob")["chosen"] and person(ann.state or {}, "Cat")["chosen"]
        await dan.choose("deeper")
        state = await ann.until(lambda s: person(s, "Dan")["chosen"])
        assert ann.syncs == 1  # back in step: the next one applies
        seen = len(ann.frames)
        await ann.send({"type": "sync", "v": 2})
        assert same_view(state, await ann.until(lambda s: True, after=seen))
        await ann.choose("camp")
        reveal = (await bob.until(lambda s: s["state"]["reveal"] is not None))["state"]["reveal"]
        assert sorted(reveal["leavers"]) == [0, 2]

    run(scenario())


def test_the_schema_says_version_2_and_describes_chosen_and_sync(server: ServerProcess) -> None:
    status, schema = server.get("/api/schema")
    assert status == 200 and schema["version"] == 2
    text = json.dumps(schema)
    assert '"chosen"' in text and '"sync"' in text and '"seq"' in text
