"""Whole games through a real server process, real WebSockets and a real SQLite file."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from gemtable.client import Client
from gemtable.games import GameRecord, replay
from tests.server.harness import ServerProcess

# A deck per cave: treasure first, then a quick collapse, so caves are short and known.
SHORT = [["5", "spiders", "7", "spiders"]] * 5


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 120))


def me(state: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = state["me"]
    return found


def to_act(state: dict[str, Any]) -> bool:
    return state["phase"] == "playing" and bool(state["me"]["moves"])


async def play_until_over(clients: list[Client], choice: str = "deeper") -> dict[str, Any]:
    """Every client answers every decision with ``choice`` until the results stand."""

    async def play(client: Client) -> None:
        answered: set[tuple[int, int, int]] = set()
        while True:
            state = await client.until(
                lambda s: s["phase"] == "results" or (to_act(s) and key(s) not in answered), timeout=60
            )
            if state["phase"] == "results":
                return
            answered.add(key(state))
            await client.choose(choice)

    await asyncio.gather(*(play(c) for c in clients))
    return clients[0].state or {}


def key(state: dict[str, Any]) -> tuple[int, int, int]:
    game = state["state"]
    return state["game_number"], game["cave"], len(game["path"])


def test_three_players_play_a_whole_game_and_its_record_replays(server: ServerProcess) -> None:
    code = server.create_table(script=SHORT, seconds=5, pause=0.5)

    async def scenario() -> dict[str, Any]:
        ann, bob, cat = [await Client.open(server.ws) for _ in range(3)]
        await ann.join(code, "Ann")
        await bob.join(code, "Bob")
        await cat.join(code, "Cat")
        await ann.until(lambda s: len(s["people"]) == 3)
        assert me(ann.state or {})["host"] is True
        await ann.start()
        await ann.until(lambda s: s["phase"] == "playing")

        # Ann walks out after the first card of every cave, the others go deeper into the collapse.
        async def ann_camps() -> None:
            done: set[tuple[int, int, int]] = set()
            while True:
                s = await ann.until(lambda s: s["phase"] == "results" or (to_act(s) and key(s) not in done), 60)
                if s["phase"] == "results":
                    return
                done.add(key(s))
                await ann.choose("camp")

        await asyncio.gather(ann_camps(), play_until_over([bob, cat]))
        final = await ann.until(lambda s: s["phase"] == "results")
        for c in (ann, bob, cat):
            await c.close()
        return final

    final = run(scenario())
    game = final["state"]
    scores = game["scores"]
    # Ann banks 5 // 3 = 1 gem in each cave, plus the 2 lying on the path: 3 a cave, 15 in all.
    assert scores[0] == 15
    assert scores[1] == scores[2] == 0
    assert game["winners"] == [0]
    status, record = server.get(f"/api/tables/{code}/games/1")
    assert status == 200
    replayed = replay(GameRecord.from_json(record))
    assert replayed.scores() == record["scores"] == scores
    assert record["names"] == {"0": "Ann", "1": "Bob", "2": "Cat"}


def test_the_api_describes_games_and_serves_a_schema_and_qr(server: ServerProcess) -> None:
    status, games = server.get("/api/games")
    assert status == 200 and games["games"][0]["name"] == "expedition"
    for game in games["games"]:  # each game's manifest: what the pages are built from
        assert game["dynamics"] in ("simultaneous", "turns") and game["seats"] in ("player", "chair")
        assert game["presets"] and all({"name", "label", "options"} <= set(p) for p in game["presets"])
        assert all({"key", "type", "default", "label", "offered"} <= set(o) for o in game["options"])
        assert game["seconds"]["default"] in game["seconds"]["choices"] and game["bots"] and game["page"]
    booty = next(g for g in games["games"] if g["name"] == "booty")
    assert {o["key"]: o["default"] for o in booty["options"]} == {"scoring": 1, "touching": "scores", "tie": "share"}
    status, schema = server.get("/api/schema")
    assert status == 200 and "$defs" in schema and "Choose" in json.dumps(schema)
    code = server.create_table()
    status, svg = server.get(f"/api/tables/{code}/qr.svg")
    assert status == 200 and b"<svg" in svg
    status, summary = server.get(f"/api/tables/{code}")
    assert status == 200 and summary["code"] == code and summary["chairs"] == 8
