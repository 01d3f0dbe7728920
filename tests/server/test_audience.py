"""The audience plays, through a real server over real WebSockets: a watcher predicts during a whole short
scripted game, is refused after the reveal, scores; the players and the TV never learn a prediction before
the reveal (not even that one was made: no frame reaches them for it); after a kill -9 her points are back."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from gemtable.client import Client
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run

# One cave: a treasure, a first spider, a treasure, the second spider (the collapse).
SCRIPT = [["5", "spiders", "7", "spiders"]]


def question(state: dict[str, Any]) -> dict[str, Any] | None:
    mine = (state.get("me") or {}).get("audience") or {}
    found: dict[str, Any] | None = mine.get("open")
    return found


def asked_key(state: dict[str, Any]) -> str | None:
    found = question(state)
    return None if found is None else str(found["key"])


def new_question(after: str) -> Any:
    return lambda s: asked_key(s) not in (None, after)


def predicted(key: str) -> Any:
    return lambda s: asked_key(s) == key and s["me"]["audience"]["mine"] is not None


def ponged(client: Client, seen: int) -> Any:
    return lambda: any('"pong"' in frame for frame in client.frames[seen:])


async def wait_quiet(clients: list[Client]) -> list[int]:
    """Each client's frame count once nothing more is on its way (a ping answered after what was sent)."""
    for client in clients:
        seen = len(client.frames)
        await client.send({"type": "ping", "v": 2})
        await client._wait(ponged(client, seen))
    return [len(c.frames) for c in clients]


def test_a_watcher_predicts_a_whole_game_is_refused_after_the_reveal_and_nobody_else_learns_it(
    server: ServerProcess,
) -> None:
    code = server.create_table(script=SCRIPT, seconds=30, pause=0.5, options={"caves": 1})

    async def scenario() -> str:
        ann, bob, cat = [await Client.open(server.ws) for _ in range(3)]
        tv = await Client.open(server.ws)
        for client, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
            await client.join(code, name)
        await tv.hello(code, tv=True)
        await ann.start()
        await ann.until(lambda s: s["phase"] == "playing")
        ivy = await Client.open(server.ws)  # she arrives during the cave: a chair, no seat in it: she watches
        await ivy.join(code, "Ivy")
        first = question(await ivy.until(lambda s: question(s) is not None))
        assert first is not None and first["out"] == [0, 1, 2] and first["collapse"] is True
        players = [ann, bob, cat, tv]
        before = await wait_quiet(players)
        mark = [len(c.frames) for c in players]
        await ivy.predict(first["key"], out=[0, 2], collapse=False)
        mine = await ivy.until(lambda s: s["me"]["audience"]["mine"] is not None)
        assert mine["me"]["audience"]["mine"] == {"out": [0, 2], "collapse": False, "leader": None}
        await ivy.predict(first["key"], out=[0], collapse=False)  # a change of mind
        await ivy.until(lambda s: s["me"]["audience"]["mine"]["out"] == [0])
        assert await wait_quiet(players) == [n + 1 for n in before], "a prediction sends the others nothing"
        # Nothing another watcher could be shown of Ivy's call reached a player or the TV before the reveal.
        for client, start in zip(players, mark, strict=True):
            for frame in client.frames[start:]:
                data = json.loads(frame)
                if data.get("type") == "state":
                    assert data["table"]["audience"] is None
                    assert (data["table"]["me"] or {}).get("audience") is None
        # The reveal: Ann walks out, Bob and Cat go on into the first spider (no collapse).
        await ann.choose("camp")
        await bob.choose("deeper")
        await cat.choose("deeper")
        shown = await tv.until(lambda s: s["audience"] is not None)
        assert shown["audience"]["last"] == {
            "key": first["key"],
            "watchers": 1,
            "out": {"0": 1},
            "collapse": {"yes": 0, "no": 1},
        }
        assert shown["audience"]["standings"] == [{"id": ivy.person, "name": "Ivy", "points": 2, "rank": 1}]
        errors = len(ivy.errors)
        await ivy.predict(first["key"], collapse=True)
        refused = await ivy.error(after=errors)
        assert refused["code"] == "locked" and "reveal" in refused["message"]
        # The second and third decisions: she calls the collapse at the third (the second spider).
        for call in (False, True):
            asked = question(await ivy.until(new_question(first["key"])))
            assert asked is not None
            await ivy.predict(asked["key"], collapse=call)
            await ivy.until(predicted(asked["key"]))
            await bob.choose("deeper")
            await cat.choose("deeper")
            first = asked
        final = await ivy.until(lambda s: s["phase"] == "results")
        assert final["me"]["audience"]["score"] == 4 and final["me"]["audience"]["rank"] == 1
        spectator = await Client.open(server.ws)
        await spectator.hello(code)
        await spectator.predict(first["key"], collapse=True)
        assert (await spectator.error())["code"] == "spectator"
        for client in (*players, ivy, spectator):
            await client.close()
        return ivy.token or ""

    token = run(asyncio.wait_for(scenario(), 60))
    server.kill()  # SIGKILL: the table comes back from its log, the audience's calls and points with it
    server.start()

    async def after_restart() -> dict[str, Any]:
        ivy = await Client.open(server.ws)
        await ivy.hello(code, token)
        state = await ivy.until(lambda s: s["me"] is not None)
        await ivy.close()
        return state

    back = run(asyncio.wait_for(after_restart(), 30))
    assert back["me"]["audience"]["score"] == 4 and back["me"]["audience"]["rank"] == 1
    assert back["audience"]["standings"] == [{"id": back["me"]["id"], "name": "Ivy", "points": 4, "rank": 1}]
    status, record = server.get("/api/tables/" + code + "/games/1")
    assert status == 200 and "audience" not in json.dumps(record) and "predicted" not in json.dumps(record)
