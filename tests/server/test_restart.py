"""kill -9 in the middle of a decision, start again: the table comes back whole."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from typing import Any

from gemtable.client import Client
from gemtable.games import GameRecord, replay
from gemtable.table import Table
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_table_life import LONG, person


def test_a_killed_server_comes_back_mid_cave_and_the_game_ends_as_its_log_replays(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=20, pause=0.5)
    tokens: dict[str, str] = {}

    async def before_crash() -> dict[str, Any]:
        clients = {name: await Client.open(server.ws) for name in ("Ann", "Bob", "Cat")}
        for name, client in clients.items():
            await client.join(code, name)
            tokens[name] = client.token or ""
        await clients["Ann"].start()
        await clients["Ann"].until(lambda s: s["phase"] == "playing")
        for name in ("Ann", "Bob", "Cat"):
            await clients[name].choose("deeper")
        await clients["Ann"].until(lambda s: len(s["state"]["path"]) == 2)
        await clients["Ann"].choose("camp")  # a secret, pending choice at the moment of the crash
        state = await clients["Bob"].until(lambda s: len(s["state"]["path"]) == 2 and person(s, "Ann")["chosen"])
        return state

    before = run(before_crash())
    carried = {p["seat"]: p["carried"] for p in before["state"]["players"]}
    remaining_before = before["remaining_ms"]
    server.kill()  # SIGKILL: no clean shutdown
    time.sleep(1.0)
    server.start()

    async def after_restart() -> dict[str, Any]:
        clients = {}
        for name in ("Ann", "Bob", "Cat"):
            client = await Client.open(server.ws)
            await client.hello(code, tokens[name])
            clients[name] = client
        state = await clients["Bob"].until(lambda s: s["me"] is not None and s["phase"] == "playing")
        assert state["me"]["name"] == "Bob" and state["me"]["seat"] == 1
        assert len(state["state"]["path"]) == 2
        assert {p["seat"]: p["carried"] for p in state["state"]["players"]} == carried
        # The clock went on from the stored deadline, not from zero.
        assert state["remaining_ms"] is not None and state["remaining_ms"] < remaining_before - 500
        assert person(state, "Ann")["chosen"]  # Ann's pending choice survived
        ann = await clients["Ann"].until(lambda s: s["me"] is not None)
        assert ann["me"]["choice"] == "camp"

        # Play to the end: everyone still inside goes deeper into the snakes.
        async def play(client: Client) -> None:
            done: set[tuple[int, int]] = set()
            while True:
                s = await client.until(
                    lambda s: (
                        s["phase"] == "results"
                        or (bool(s["me"]["moves"]) and (s["state"]["cave"], len(s["state"]["path"])) not in done)
                    ),
                    60,
                )
                if s["phase"] == "results":
                    return
                done.add((s["state"]["cave"], len(s["state"]["path"])))
                await client.choose("deeper")

        await asyncio.gather(*(play(c) for c in clients.values()))
        return await clients["Ann"].until(lambda s: s["phase"] == "results")

    final = run(after_restart())
    scores = final["state"]["scores"]
    status, record = server.get(f"/api/tables/{code}/games/1")
    assert status == 200
    assert replay(GameRecord.from_json(record)).scores() == scores
    # The table's whole event log, rebuilt, gives the same result.
    db = sqlite3.connect(server.data / "gemtable.sqlite3")
    import json

    events = [
        json.loads(body) for (body,) in db.execute("SELECT body FROM events WHERE code = ? ORDER BY seq", (code,))
    ]
    rebuilt = Table.rebuild(events)
    assert rebuilt.play.game is not None and rebuilt.play.game.scores() == scores
    assert rebuilt.moment.phase == "results"
