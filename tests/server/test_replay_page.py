"""A finished game's replay (issue 42, item 4) through a real server: the steps the API computes from the record
match the record (every reveal's choices, every tile, the final scores), a game under way has none, and a bad
address gets a clear error; and the steps of many bot games, from the rules alone."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from gemtable.client import Client
from gemtable.games import BadRecord, GameRecord, find_manifest, replay, replay_steps
from gemtable.play import play_bots
from tests.server.harness import ServerProcess
from tests.server.test_booty_table import BAG
from tests.server.test_game_flow import key, run, to_act
from tests.server.test_night_kept import fetch

CAVES = [["5", "7", "spiders", "9", "spiders"], ["3", "relic", "snakes", "snakes"]]
"""Two caves: a walk-out at every card count, the second Spiders collapsing on the one who stayed; then a relic
taken by the one who walks out alone, and the second Snakes."""
LIMITS = [2, 99, 3]
"""Each phone walks out once the path holds this many cards (the second never does)."""


def play_expedition(server: ServerProcess, code: str) -> None:
    async def scenario() -> None:
        clients = [await Client.open(server.ws) for _ in LIMITS]
        for i, client in enumerate(clients):
            await client.join(code, f"P{i}")
        await clients[0].until(lambda s: len(s["people"]) == len(LIMITS))
        await clients[0].start()

        async def play(client: Client, limit: int) -> None:
            done: set[tuple[int, int, int]] = set()
            while True:
                s = await client.until(lambda s: s["phase"] == "results" or (to_act(s) and key(s) not in done), 30)
                if s["phase"] == "results":
                    return
                done.add(key(s))
                await client.choose("camp" if len(s["state"]["path"]) >= limit else "deeper")

        await asyncio.gather(*(play(c, limit) for c, limit in zip(clients, LIMITS, strict=True)))
        for client in clients:
            await client.close()

    run(scenario())


def moves_between(record: dict[str, Any], steps: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The record's moves, grouped as the steps end: what each step's ``moves`` must be."""
    groups, start = [], 0
    for step in steps:
        inputs = record["inputs"][start : step["input"] + 1]
        groups.append({str(item[0]): item[1] for item in inputs if isinstance(item[0], int)})
        start = step["input"] + 1
    assert start == len(record["inputs"])  # every input is in a step
    return groups


def test_an_expedition_replays_card_by_card_with_every_choice(server: ServerProcess) -> None:
    code = server.create_table(script=CAVES, options={"caves": 2}, seconds=10, pause=0.5)
    play_expedition(server, code)
    status, record = server.get(f"/api/tables/{code}/games/1")
    assert status == 200
    status, replay = server.get(f"/api/tables/{code}/games/1/replay.json")
    assert status == 200
    steps = replay["steps"]
    assert replay["game"] == "expedition" and replay["table"] == code and replay["number"] == 1
    assert replay["names"] == record["names"] and replay["drawing"] == "/games/expedition/replay.js"
    assert [step.get("moves", {}) for step in steps] == moves_between(record, steps)
    # Each reveal shows the choices the record holds: who went deeper, who walked out.
    reveals = [step for step in steps if "moves" in step]
    for step in reveals:
        reveal = step["view"]["reveal"]
        assert reveal["deeper"] == sorted(int(s) for s, move in step["moves"].items() if move == "deeper")
        assert reveal["leavers"] == sorted(int(s) for s, move in step["moves"].items() if move == "camp")
    # The caves as scripted: two starts, the cards one by one, the relic to the lone leaver, two collapses.
    assert [step["view"]["cave"] for step in steps if "round" in step] == [1, 2]
    paths = [[card["card"] for card in step["view"]["path"]] for step in steps]
    assert paths[0] == ["5"] and ["5", "7", "spiders", "9", "spiders"] in paths
    assert [step["view"]["collapsed_by"] for step in reveals if step["view"]["collapsed_by"]] == ["spiders", "snakes"]
    relic = next(step for step in reveals if step["view"]["reveal"]["relics"])
    assert relic["moves"] == {"0": "camp", "1": "deeper", "2": "deeper"}
    assert len(reveals) == sum(1 for item in record["inputs"] if item[0] == 1)  # the one who never walks out
    last = steps[-1]["view"]
    assert last["scores"] == record["scores"] and last["winners"] == record["winners"]
    assert "rules" not in last and replay["rules"]["caves"] == 2  # the rules once
    # The words come with it, in the language asked for (English for another).
    assert replay["lang"] == "en" and replay["strings"]["rp.next"].startswith("Next")
    assert replay["strings"]["rpx.took"] and replay["strings"]["game.expedition"]
    hu = server.get(f"/api/tables/{code}/games/1/replay.json?lang=hu")[1]
    assert hu["lang"] == "hu" and hu["strings"]["rp.next"].startswith("Tovább") and hu["steps"] == steps
    assert server.get(f"/api/tables/{code}/games/1/replay.json?lang=xx")[1]["lang"] == "en"
    status, page = server.get(f"/t/{code}/games/1/replay")
    assert status == 200 and b"/static/js/replay.js" in page


def play_booty(server: ServerProcess) -> str:
    """A Booty Hunter table where three phones place the scripted bag's nine tiles: its code, game 1 finished."""
    status, body = server.post(
        "/api/tables", {"game": "booty", "script": BAG, "seconds": 30, "countdown": 0, "ready_check": False}
    )
    assert status == 201, body
    code: str = body["code"]

    async def scenario() -> None:
        clients = [await Client.open(server.ws) for _ in range(3)]
        for i, client in enumerate(clients):
            await client.join(code, f"P{i}")
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
                await client.choose(s["me"]["moves"][-1], decision=s["decision"])

        await asyncio.gather(*(play(c) for c in clients))

    run(scenario())
    return code


def test_a_booty_game_replays_tile_by_tile(server: ServerProcess) -> None:
    code = play_booty(server)
    record = server.get(f"/api/tables/{code}/games/1")[1]
    status, replay = server.get(f"/api/tables/{code}/games/1/replay.json?lang=ja")
    assert status == 200 and replay["lang"] == "ja" and replay["drawing"] == "/games/booty/replay.js"
    steps = replay["steps"]
    moves = [item for item in record["inputs"] if isinstance(item[0], int)]
    assert len(steps) == 1 + len(moves) == 10  # the start, then one step a tile
    assert [step["moves"] for step in steps[1:]] == [{str(seat): move} for seat, move in moves]
    assert [len(step["view"]["board"]) for step in steps] == list(range(10))
    for step, (seat, move) in zip(steps[1:], moves, strict=True):  # the tile placed is where the move says
        placed = max(step["view"]["board"], key=lambda cell: cell["order"])
        assert f"{placed['x']},{placed['y']},{placed['rotation']}" == move, (seat, move)
    assert steps[-1]["view"]["scores"] == record["scores"] and steps[-1]["view"]["winners"] == record["winners"]


def test_a_game_under_way_has_no_replay_and_bad_addresses_are_told_why(server: ServerProcess) -> None:
    code = server.create_table(script=[["5", "7", "9"]], options={"caves": 1}, seconds=30)

    async def scenario() -> Any:
        ann, bob = Client.connect(server.ws), Client.connect(server.ws)
        async with ann as a, bob as b:
            await a.join(code, "Ann")
            await b.join(code, "Bob")
            await a.until(lambda s: len(s["people"]) == 2)
            await a.start()
            await a.until(lambda s: s["phase"] == "playing")
            return fetch(server, f"/api/tables/{code}/games/1/replay.json")

    status, _, body = run(scenario())
    answer = json.loads(body)
    assert status == 404 and answer["error"] == "no-record" and "finished" in answer["message"]
    assert b"7" not in body and b"path" not in body  # nothing of the cave under way
    for path, want in ((f"{code}/games/x", 400), (f"{code}/games/0", 404), ("QQQQ/games/1", 404)):
        status, _, body = fetch(server, f"/api/tables/{path}/replay.json")
        assert status == want and json.loads(body)["message"], path
    status, _, _ = fetch(server, f"/api/tables/{code}/games/1/replay.json", **{"Sec-Fetch-Site": "cross-site"})
    assert status == 403
    assert server.get(f"/t/{code}/games/1/replay")[0] == 200  # the page itself says why, from the same answer


@pytest.mark.parametrize("game", ["expedition", "booty"])
def test_the_steps_of_many_games_are_their_records_decisions(game: str) -> None:
    """The rules alone, over 40 expeditions and 8 Booty Hunter games of bots: a simultaneous decision is one
    step with every seat's choice (the seats the reveal shows), a move of a game of turns one step; the last view's
    scores are the game's; a game the host ended ends with its end; a record that does not finish is refused."""
    manifest = find_manifest(game)
    bots = {"expedition": ["cautious", "odds", "random", "random"], "booty": ["random"] * 3}[game]
    for seed in range(40 if manifest.simultaneous else 8):
        state = play_bots(game, {}, bots, seed)
        record = state.record().to_json()
        steps = replay_steps(GameRecord.from_json(record), manifest.simultaneous, finished=True)
        assert [step.get("moves", {}) for step in steps] == moves_between(record, steps)
        assert [step["round"] for step in steps if "round" in step] == [
            i[1] for i in record["inputs"] if i[0] == "round"
        ]
        assert steps[-1]["view"]["scores"] == state.scores() and steps[-1]["view"]["winners"] == state.winners()
        if manifest.simultaneous:
            for step in (step for step in steps if "moves" in step):
                reveal = step["view"]["reveal"]
                assert sorted(int(seat) for seat in step["moves"]) == sorted(reveal["deeper"] + reveal["leavers"])
        else:
            assert all(len(step.get("moves", {})) <= 1 for step in steps)
    # Ended by the host halfway: the last step is the end, with the scores as they stood.
    half = record["inputs"][: len(record["inputs"]) // 2]
    ended = GameRecord.from_json({**record, "inputs": [*half, ["end"]]})
    steps = replay_steps(ended, manifest.simultaneous, finished=True)
    assert steps[-1]["end"] is True and steps[-1]["view"]["scores"] == replay(ended).scores()
    with pytest.raises(BadRecord, match="do not finish"):
        replay_steps(GameRecord.from_json({**record, "inputs": half}), manifest.simultaneous, finished=True)
    with pytest.raises(BadRecord):  # a forged input: the reason, never another exception
        replay_steps(GameRecord.from_json({**record, "inputs": [*half, [0, "nowhere"]]}), manifest.simultaneous)
