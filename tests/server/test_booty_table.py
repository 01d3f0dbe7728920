"""Booty Hunter on the same tables: three phones through the real server, turn by turn."""

from __future__ import annotations

import asyncio
from typing import Any

from gemtable.client import Client
from gemtable.games import GameRecord, replay
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run

BAG = {"bag": [1, 5, 9, 13, 17, 21, 25, 29, 33], "first": 0}


def test_three_phones_play_a_short_booty_game_turn_by_turn(server: ServerProcess) -> None:
    status, body = server.post(
        "/api/tables", {"game": "booty", "script": BAG, "seconds": 30, "countdown": 0, "ready_check": False}
    )
    assert status == 201, body
    code = body["code"]

    async def scenario() -> dict[str, Any]:
        clients = [await Client.open(server.ws) for _ in range(3)]
        for i, client in enumerate(clients):
            state = await client.join(code, f"P{i}")
            assert state["chairs"] == 3
        extra = await Client.open(server.ws)
        state = await extra.join(code, "Dee")  # a fourth person watches
        assert state["me"]["status"] == "watching"
        await clients[0].start()

        async def play(client: Client) -> None:
            done: set[int] = set()
            while True:
                s = await client.until(
                    lambda s: s["phase"] == "results" or (bool(s["me"]["moves"]) and s["decision"] not in done), 60
                )
                if s["phase"] == "results":
                    return
                done.add(s["decision"])
                assert s["state"]["drawn"] is not None  # my drawn tile, shown to me
                assert [p["name"] for p in s["people"] if p["to_act"]] == [s["me"]["name"]]  # one at a time
                await client.choose(s["me"]["moves"][0], decision=s["decision"])

        await asyncio.gather(*(play(c) for c in clients))
        final = await extra.until(lambda s: s["phase"] == "results")
        # Out of turn: refused.
        await clients[1].send({"type": "choose", "move": "0,0,0"})
        assert (await clients[1].error())["code"] in ("no-decision", "not-your-turn")
        return final

    final = run(scenario())
    game = final["state"]
    assert game["over"] and game["placements"] == 9
    assert len(game["scoring"]) == len(game["diamonds"])
    status, record = server.get(f"/api/tables/{code}/games/1")
    assert status == 200
    assert replay(GameRecord.from_json(record)).scores() == record["scores"] == game["scores"]
