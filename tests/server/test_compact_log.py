"""The log does not only grow (issue 21, finding 3), through a real server and its SQLite file.

Seven sockets toggling deeper/camp wrote 4,116 ``chose`` events in 30 s, all kept for ever; a table whose log
held a million of them took 1.5 s to rebuild.  Now one seat may change its choice at most
``MAX_CHANGES`` times a decision (then ``too-many-changes``, its choice standing), and once a game is over
and saved its ``chose`` events leave the log (the reveals hold every move that counted; the record is kept
apart), while the table still restarts exactly.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from typing import Any

from gemtable.client import Client
from gemtable.games import GameRecord, replay
from gemtable.store.sqlite import SqliteStore
from gemtable.table import Table
from gemtable.table.table import MAX_CHANGES
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_protocol_v2 import settle
from tests.server.test_table_life import LONG, person

EN = "src/gemtable/web/static/i18n/errors.en.json"  # (the refusals' words)


def rows(server: ServerProcess, code: str) -> list[tuple[int, dict[str, Any]]]:
    db = sqlite3.connect(server.data / "gemtable.sqlite3")
    try:
        found = db.execute("SELECT seq, body FROM events WHERE code = ? ORDER BY seq", (code,)).fetchall()
    finally:
        db.close()
    return [(int(seq), json.loads(body)) for seq, body in found]


async def answer(client: Client, move: str) -> str:
    """Choose ``move``; ``ok`` once the server showed it as this phone's choice, or the error's code."""
    errors = len(client.errors)
    await client.choose(move, decision=(client.state or {})["decision"])
    await client._wait(
        lambda: len(client.errors) > errors or ((client.state or {}).get("me") or {}).get("choice") == move, 10
    )
    return client.errors[-1]["code"] if len(client.errors) > errors else "ok"


def test_a_seat_changes_its_mind_at_most_ten_times_a_decision(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=0.5)

    async def scenario() -> None:
        ann, bob = await Client.open(server.ws), await Client.open(server.ws)
        await ann.join(code, "Ann")
        await bob.join(code, "Bob")
        await ann.start()
        await ann.until(lambda s: s["phase"] == "playing")
        moves = ["deeper", "camp"]
        answers = [await answer(ann, moves[i % 2]) for i in range(MAX_CHANGES + 1)]  # a choice, 10 changes
        assert answers == ["ok"] * (MAX_CHANGES + 1)
        stands = moves[MAX_CHANGES % 2]
        assert await answer(ann, moves[(MAX_CHANGES + 1) % 2]) == "too-many-changes"
        assert "your choice stands" in ann.errors[-1]["message"]
        await settle(ann, bob)
        assert (ann.state or {})["me"]["choice"] == stands  # it stands, and the same move again is no change
        assert await answer(ann, stands) == "ok"  # (at once: the choice shown was already this one)
        # Handled before Bob's choice below (two phones' messages have no order between them on the server),
        # and no error came of it:
        await settle(ann)
        assert len(ann.errors) == 1
        assert person(bob.state or {}, "Ann")["chosen"]
        # The next decision: a fresh count.
        await bob.choose("deeper", decision=(bob.state or {})["decision"])
        await ann.until(lambda s: len(s["state"]["path"]) == 2 and s["me"]["choice"] is None)
        assert [await answer(ann, moves[i % 2]) for i in range(3)] == ["ok"] * 3
        await ann.close()
        await bob.close()

    run(scenario())
    chose = [e for _, e in rows(server, code) if e["type"] == "chose"]
    assert len(chose) == MAX_CHANGES + 1 + 1 + 3  # Ann's, Bob's, Ann's three: the refused change wrote nothing
    with open(EN, encoding="utf-8") as f:
        assert f"{MAX_CHANGES} times" in json.load(f)["err.too-many-changes"]  # the page says the same number


def test_a_finished_games_changes_of_mind_leave_the_log_and_the_table_restarts_exactly(
    server: ServerProcess,
) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=0.5, options={"caves": 1})
    tokens: dict[str, str] = {}

    async def game() -> dict[str, Any]:
        clients = {name: await Client.open(server.ws) for name in ("Ann", "Bob", "Cat", "Dan")}
        for name, client in clients.items():
            await client.join(code, name)
            tokens[name] = client.token or ""
        ann, bob, _, _ = clients.values()
        await ann.start()
        await asyncio.gather(*(c.until(lambda s: s["phase"] == "playing") for c in clients.values()))
        for _ in range(3):  # three cards: three change their mind (Dan waits), then all go deeper
            for client in [*clients.values()][:3]:
                for move in ("camp", "deeper", "camp"):
                    assert await answer(client, move) == "ok"
            path = len((ann.state or {})["state"]["path"])
            for client in clients.values():
                await client.choose("deeper", decision=(client.state or {})["decision"])

            def moved_on(state: dict[str, Any], before: int = path) -> bool:
                return len(state["state"]["path"]) > before

            await asyncio.gather(*(c.until(moved_on) for c in clients.values()))
        midgame = [e for _, e in rows(server, code) if e["type"] == "chose"]
        assert len(midgame) >= 3 * 3 * 4  # a game in progress keeps its choices (a restart needs them)
        for client in clients.values():  # everyone walks out: the only cave, and the game, are over
            await client.choose("camp", decision=(client.state or {})["decision"])
        final = await bob.until(lambda s: s["phase"] == "results")
        await settle(*clients.values())
        for client in clients.values():
            await client.close()
        return final

    final = run(game())
    deadline = time.monotonic() + 10
    while any(e["type"] == "chose" for _, e in rows(server, code)) and time.monotonic() < deadline:
        time.sleep(0.1)
    kept = rows(server, code)
    assert not [e for _, e in kept if e["type"] == "chose"]  # every change of mind is gone
    numbers = [seq for seq, _ in kept]
    assert numbers[0] == 1 and numbers[-1] > len(numbers)  # numbers of the others unchanged (gaps)
    status, record = server.get(f"/api/tables/{code}/games/1")
    assert status == 200 and replay(GameRecord.from_json(record)).scores() == final["state"]["scores"]
    log = asyncio.run(SqliteStore(server.data / "gemtable.sqlite3").load(code))
    assert len(log) == numbers[-1]  # placeholders where events were pruned
    rebuilt = Table.rebuild(log)
    assert rebuilt.moment.phase == "results" and rebuilt.play.game is not None
    assert rebuilt.play.game.scores() == final["state"]["scores"] and rebuilt.log.events == numbers[-1]

    server.kill()  # SIGKILL, then the table from its compacted log
    server.start()

    async def back() -> None:
        bob = await Client.open(server.ws)
        state = await bob.hello(code, tokens["Bob"])
        assert state["phase"] == "results" and state["me"]["name"] == "Bob"
        assert state["state"] == final["state"] and state["game_number"] == final["game_number"]
        assert [(p["name"], p["chair"]) for p in state["people"]] == [(p["name"], p["chair"]) for p in final["people"]]
        assert [n["id"] for n in state["news"]] == [n["id"] for n in final["news"]]  # (numbered by event)
        ann = await Client.open(server.ws)
        await ann.hello(code, tokens["Ann"])
        await ann.start()  # and the next game is played as ever
        await bob.until(lambda s: s["phase"] == "playing" and s["game_number"] == 2)
        await ann.close()
        await bob.close()

    run(back())
