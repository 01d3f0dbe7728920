"""The protocol document says exactly what the server does (issue 21, finding 8), through a real server.

An independent client written from ``docs/protocol.md`` alone found: a message without ``v`` was spoken to in
version 2; version 1 connections received ``"v": 2`` on every message; at a table mixing versions a version 1
neighbour received a whole state for each change of mind of a version 2 player; ``idle`` and ``gone`` were
not documented; a version 1 ``sync`` was answered.  Each is decided, documented, and held here.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import websockets

from gemtable.client import Client
from gemtable.server import protocol as p
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_protocol_v2 import settle, table_frames
from tests.server.test_table_life import LONG, person

DOC = Path(__file__).parents[2] / "docs" / "protocol.md"


def kinds_and_versions(client: Client, since: int = 0) -> list[tuple[str, Any]]:
    return [(m["type"], m.get("v")) for m in (json.loads(f) for f in client.frames[since:])]


def test_a_message_without_v_speaks_version_1_and_every_answer_says_so(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=0.5)

    async def scenario() -> None:
        ann = await Client.open(server.ws)
        await ann.join(code, "Ann")
        bob = await Client.open(server.ws)
        await bob.join(code, "Bob")
        raw = Client(await websockets.connect(server.ws, max_size=2**22))  # says no "v" at all
        await raw.send({"type": "hello", "code": code})
        await raw.until(lambda s: s["code"] == code)
        old = await Client.open(server.ws, version=1)
        await old.hello(code, tv=True)
        await ann.start()
        everyone = (ann, bob, raw, old)
        await asyncio.gather(*(c.until(lambda s: s["phase"] == "playing") for c in everyone))
        await settle(*everyone)
        marks = [len(c.frames) for c in everyone]
        await bob.choose("camp")
        for _ in range(4):  # Bob changes his mind four times: nobody else's view changes
            await settle(*everyone)
            await bob.choose("deeper" if (bob.state or {})["me"]["choice"] == "camp" else "camp")
        await settle(*everyone)
        for client in (raw, old):  # version 1 (said, or by default): whole states, "v": 1 on everything
            got = table_frames(client, marks[everyone.index(client)])
            assert [f["type"] for f in got] == ["state"], got  # the first choice only: "someone has chosen"
            assert person(got[0]["table"], "Bob")["chosen"] is True
            assert {v for _, v in kinds_and_versions(client)} == {1}
        assert [f["type"] for f in table_frames(ann, marks[0])] == ["chosen"]  # version 2: one small message
        assert {v for _, v in kinds_and_versions(ann)} == {2}
        # Errors and pongs too, before and after a hello.
        lone = Client(await websockets.connect(server.ws))
        await lone.send({"type": "ping"})
        await lone.send({"type": "choose", "move": "camp"})
        await lone.error()
        await lone.send({"type": "hello", "v": 2, "code": "QQQQ"})
        await lone.error(after=1)
        await lone.send({"type": "ping", "v": 2})
        await lone._wait(lambda: sum('"pong"' in f for f in lone.frames) == 2)
        assert kinds_and_versions(lone) == [("pong", 1), ("error", 1), ("error", 2), ("pong", 2)]
        # A version this server does not speak, or a "v" of another kind: refused as such.
        for v in (3, 0, "2", 2.5):
            errors = len(lone.errors)
            await lone.send_raw(json.dumps({"type": "hello", "code": code, "v": v}))
            assert (await lone.error(after=errors))["code"] == "bad-version", v
        # Version 1 may ask for the whole state too (it never needs to): answered with one.
        seen = len(old.frames)
        await old.send(p.Sync(v=1))
        await old._wait(lambda: len(table_frames(old, seen)) == 1)
        for client in (*everyone, lone):
            await client.close()

    run(scenario())


def test_the_document_names_every_error_and_the_defaults() -> None:
    text = DOC.read_text("utf-8")
    table = text[text.index("## Errors") : text.index("## HTTP")]
    for code in ("idle", "gone", "too-many-changes", "slow-down", "bad-version"):
        assert f"`{code}`" in table, code
    assert "without `v`" in text and "version 1" in text
    schema = p.schema()
    hello = schema["$defs"]["Hello"]
    assert "v" not in hello.get("required", [])
    v = hello["properties"]["v"]
    assert {"enum": [1, 2]} in v["anyOf"] or v.get("enum") == [1, 2], v
