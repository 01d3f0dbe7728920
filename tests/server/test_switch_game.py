"""The host switches the game at the same table, through a real server and real WebSockets: every phone and the
TV get the new game's lobby (same code, no new join, the TV still paired), people beyond its chairs watch, a
game of it is played, and a restart keeps the switch."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gemtable.cli import main
from gemtable.client import Client
from gemtable.games import GameRecord, replay
from tools.oracles import normal_view, rebuilt_views, record_problems

from .harness import ServerProcess
from .test_game_flow import play_until_over, run


def test_the_host_switches_to_booty_hunter_at_the_same_table_and_a_restart_keeps_it(server: ServerProcess) -> None:
    code = server.create_table(seconds=30)

    async def scenario() -> None:
        names = ("Ann", "Bob", "Cy", "Dee")
        phones = [await Client.open(server.ws) for _ in names]
        for phone, name in zip(phones, names, strict=True):
            await phone.join(code, name)
        tv = await Client.open(server.ws)
        await tv.hello(code, tv=True)
        ann, dee = phones[0], phones[3]
        await ann.change_settings(game="booty")
        for client in (*phones, tv):
            state = await client.until(lambda s: s["game"] == "booty")
            assert state["chairs"] == 3 and state["phase"] == "lobby" and state["code"] == code
        state = await dee.until(lambda s: s["game"] == "booty")
        assert state["me"]["chair"] is None and state["me"]["status"] == "watching"  # the fourth: watches
        await ann.start()
        state = await tv.until(lambda s: s["phase"] == "playing")
        assert state["game"] == "booty" and state["game_number"] == 1
        for client in (*phones, tv):
            await client.close()

    run(scenario())
    server.kill()
    server.start()

    async def after() -> None:
        tv = await Client.open(server.ws)
        state = await tv.hello(code, tv=True)
        assert state["game"] == "booty" and state["phase"] == "playing"
        await tv.close()

    run(after())


def test_a_bot_added_mid_game_and_a_table_that_switched_games_replay_from_their_records(
    server: ServerProcess, tmp_path: Path
) -> None:
    """Through a real server: an expedition with a bot added in cave 1 (it plays cave 2), Booty Hunter with a bot
    that takes a colour mid-game, the expedition again ended early.  Each record, as the results page downloads it,
    replays exactly (``gemtable replay`` says so too); the table the server shows is the table its SQLite log
    rebuilds, and a restart brings it back the same."""
    code = server.create_table(
        script=[["5", "7", "spiders", "spiders"]] * 2, options={"caves": 2}, seconds=30, pause=0.5
    )

    async def scenario() -> dict[str, Any]:
        ann, bob = [await Client.open(server.ws) for _ in range(2)]
        await ann.join(code, "Ann")
        await bob.join(code, "Bob")
        await ann.start()
        await ann.until(lambda s: s["phase"] == "playing")
        await ann.add_bot("cautious")  # in cave 1: it walks in at cave 2
        state = await ann.until(lambda s: any(p["bot"] for p in s["people"]))
        assert next(p for p in state["people"] if p["bot"])["status"] == "waiting"
        await play_until_over([ann, bob], "camp")

        await ann.change_settings(game="booty")
        await ann.until(lambda s: s["game"] == "booty" and not any(p["bot"] for p in s["people"]))
        await ann.add_bot("greedy")
        await ann.until(lambda s: sum(p["chair"] is not None for p in s["people"]) == 3)
        await ann.start()
        await ann.until(lambda s: s["phase"] == "playing" and s["game"] == "booty")
        await bob.leave()  # a stand-in bot plays his colour; the host seats a bot there: it plays on with it
        await ann.until(lambda s: sum(p["chair"] is not None for p in s["people"]) == 2)
        await ann.add_bot("random")
        await ann.until(lambda s: any(n["kind"] == "took_seat" for n in s["news"]))
        state = await play_turns(ann, 3)
        await ann.end()
        await ann.until(lambda s: s["phase"] == "results" and s["game_number"] == state["game_number"])

        await ann.change_settings(game="expedition")
        await ann.until(lambda s: s["game"] == "expedition")
        await ann.add_bot("odds")
        await ann.start()
        state = await ann.until(lambda s: s["phase"] == "playing" and bool(s["me"]["moves"]))
        await ann.choose("deeper", state["decision"])
        await ann.until(lambda s: s["decision"] > state["decision"])
        await ann.end()
        await ann.until(lambda s: s["phase"] == "results" and s["game_number"] == 3)
        tv = await Client.open(server.ws)
        seen = await tv.hello(code, tv=True)
        for client in (ann, bob, tv):
            await client.close()
        return seen

    seen = run(scenario())
    for number, game in ((1, "expedition"), (2, "booty"), (3, "expedition")):
        status, record = server.get(f"/api/tables/{code}/games/{number}/record.json")
        assert status == 200 and record["game"] == game, (number, record)
        assert replay(GameRecord.from_json(record)).scores() == record["scores"]
        assert record_problems(record) == ([], 0), number
        path = tmp_path / f"game-{number}.json"
        path.write_text(json.dumps(record))
        assert main(["replay", str(path)]) == 0, number
    first = server.get(f"/api/tables/{code}/games/1")[1]
    ada = next(int(seat) for seat, bot in first["bots"].items() if bot == "cautious")
    rounds = [item[1] for item in first["inputs"] if item[0] == "round"]
    assert ada not in rounds[0] and ada in rounds[1]
    second = server.get(f"/api/tables/{code}/games/2")[1]
    assert "random" in second["bots"].values() and any(n["kind"] == "took_seat" for n in second["history"])
    assert seen["results"] == [1, 2, 3]
    assert rebuilt_views(server.data / "gemtable.sqlite3", [code])[code] == normal_view(seen)
    server.kill()
    server.start()

    async def after() -> dict[str, Any]:
        tv = await Client.open(server.ws)
        state = await tv.hello(code, tv=True)
        await tv.close()
        return state

    assert normal_view(run(after())) == normal_view(seen)


async def play_turns(client: Client, placements: int) -> dict[str, Any]:
    """Booty Hunter until ``placements`` tiles lie on the board: ``client`` places its tiles on the first spot it
    is offered, the bots theirs."""
    while True:
        state = await client.until(
            lambda s: s["state"]["placements"] >= placements or (bool(s["me"]["moves"]) and s["phase"] == "playing")
        )
        if state["state"]["placements"] >= placements:
            return state
        await client.choose(state["me"]["moves"][0], state["decision"])
        await client.until(after_decision(state["decision"]))


def after_decision(decision: int) -> Callable[[dict[str, Any]], bool]:
    return lambda state: bool(state["decision"] > decision)
