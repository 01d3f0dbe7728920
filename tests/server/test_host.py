"""The host runs the night (issue 19), through a real server and real WebSockets: pause and resume (and a
paused table through ``kill -9``), the start's countdown, remove anyone, ban and lift, a stand-in host who
cannot take the table over, a Booty Hunter leave played on by a bot at its pace, ending a game, changing
the settings, handing the role on — and every refusal a clear error."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import websockets

from gemtable.client import Client
from gemtable.games import GameRecord, replay
from gemtable.server import protocol as p
from gemtable.table.table import RESUME_FLOOR
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_table_life import LONG, person

BAG = {"bag": [1, 5, 9, 13, 17, 21, 25, 29, 33], "first": 0}


async def table_of(server: ServerProcess, code: str, *names: str, address: str | None = None) -> list[Client]:
    out = []
    for i, name in enumerate(names):
        if address is None:
            client = await Client.open(server.ws)
        else:
            ws = await websockets.connect(
                server.ws, local_addr=(f"{address}.{i + 1}", 0), max_size=2**22, open_timeout=10
            )
            client = Client(ws)
        await client.join(code, name)
        out.append(client)
    return out


async def refused(client: Client, message: dict[str, Any], code: str) -> dict[str, Any]:
    seen = len(client.errors)
    await client.send({"v": 2, **message})
    error = await client.error(after=seen)
    assert error["code"] == code and error["message"], error
    return error


async def close(*clients: Client) -> None:
    for client in clients:
        await client.close()


def test_a_paused_table_holds_no_reveal_for_three_times_its_clock_and_survives_kill_9_paused(
    server: ServerProcess,
) -> None:
    code = server.create_table(script=LONG, seconds=2, pause=0.5)
    tokens: dict[str, str] = {}

    async def before() -> None:
        ann, bob, cat = await table_of(server, code, "Ann", "Bob", "Cat")
        for client, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
            tokens[name] = client.token or ""
        await refused(ann, {"type": "pause"}, "no-game")  # the lobby: no game to pause
        await ann.start()
        state = await ann.until(lambda s: s["phase"] == "playing")
        decision = state["decision"]
        await bob.choose("deeper", decision)
        await refused(bob, {"type": "pause"}, "not-host")
        await ann.pause()
        await ann.pause()  # again: harmless
        paused = await cat.until(lambda s: s["paused"] is not None)
        assert paused["paused"]["name"] == "Ann" and paused["remaining_ms"] is None
        assert 0 < paused["paused"]["remaining_ms"] <= 2000
        await asyncio.sleep(3 * 2 + 0.5)  # three times the clock: no reveal
        await cat.choose("camp", decision)  # a choice while paused: kept secret, as always
        seen = await bob.until(lambda s: person(s, "Cat")["chosen"])
        assert seen["decision"] == decision and seen["paused"] is not None and seen["me"]["choice"] == "deeper"
        assert not any('"choice":"camp"' in f for f in bob.frames)  # Cat's choice never reached Bob
        await close(ann, bob, cat)

    run(before())
    server.kill()  # SIGKILL, while paused
    time.sleep(0.5)
    server.start()

    async def after() -> None:
        ann = await Client.open(server.ws)
        bob = await Client.open(server.ws)
        await ann.hello(code, tokens["Ann"])
        await bob.hello(code, tokens["Bob"])
        state = await bob.until(lambda s: s["me"] is not None)
        assert state["paused"] is not None and state["remaining_ms"] is None and state["phase"] == "playing"
        decision = state["decision"]
        await asyncio.sleep(2.5)  # still no reveal after the restart
        assert bob.state is not None and bob.state["decision"] == decision
        await ann.resume()
        resumed = await bob.until(lambda s: s["paused"] is None)
        # The time it had left, but at least the floor.
        assert RESUME_FLOOR * 1000 - 600 <= resumed["remaining_ms"] <= RESUME_FLOOR * 1000
        revealed = await bob.until(lambda s: s["decision"] > decision, timeout=RESUME_FLOOR + 5)
        assert revealed["state"]["reveal"] is not None  # the reveal came, at the resumed decision's deadline
        await close(ann, bob)

    run(after())


def test_the_start_counts_down_on_every_screen_and_the_host_may_cancel(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=30, countdown=3)

    async def scenario() -> None:
        ann, bob = await table_of(server, code, "Ann", "Bob")
        tv = await Client.open(server.ws)
        await tv.hello(code, tv=True)
        await refused(bob, {"type": "start"}, "not-host")
        await ann.start()
        counting = await tv.until(lambda s: s["countdown"] is not None)
        assert counting["phase"] == "lobby" and 2000 <= counting["countdown"]["remaining_ms"] <= 3000
        assert counting["countdown"]["name"] == "Ann"
        await refused(bob, {"type": "cancel_start"}, "not-host")
        await refused(ann, {"type": "settings", "seconds": 10}, "starting")
        await ann.cancel_start()
        cancelled = await tv.until(lambda s: s["countdown"] is None)
        assert cancelled["news"][-1]["kind"] == "cancelled" and cancelled["news"][-1]["by"] == "Ann"
        await asyncio.sleep(3.2)
        assert tv.state is not None and tv.state["phase"] == "lobby"
        began = time.monotonic()
        await ann.start()
        await bob.until(lambda s: s["phase"] == "playing", timeout=10)
        assert time.monotonic() - began >= 2.5  # it began at the countdown's end
        await close(ann, bob, tv)

    run(scenario())


def test_a_connected_player_removed_walks_out_and_is_told_and_looks_on(server: ServerProcess) -> None:
    code = server.create_table(script=[["17", *LONG[0]]] * 5, seconds=30)

    async def scenario() -> None:
        ann, bob, cat = await table_of(server, code, "Ann", "Bob", "Cat")
        await ann.start()
        state = await ann.until(lambda s: s["phase"] == "playing")
        bob_id = person(state, "Bob")["id"]
        bob_seat = person(state, "Bob")["seat"]
        await ann.remove(bob_id)
        await bob._wait(lambda: bob.removed is not None)
        assert bob.removed is not None
        assert bob.removed == {"type": "removed", "v": 2, "ban": False, "by": "Ann", "message": bob.removed["message"]}
        watching = await bob.until(lambda s: s["me"] is None)  # a spectator now
        assert person(watching, "Bob")["status"] == "gone" and person(watching, "Bob")["left"] == "removed"
        await refused(bob, {"type": "choose", "move": "deeper"}, "spectator")
        for client in (ann, cat):
            await client.choose("deeper")
        revealed = await cat.until(lambda s: bob_seat in (s["state"]["reveal"] or {"leavers": []})["leavers"])
        r = revealed["state"]["reveal"]
        assert r["banked"][r["leavers"].index(bob_seat)] == 5  # he walked out with what he carried
        notice = next(n for n in revealed["news"] if n["kind"] == "left")
        assert (notice["name"], notice["reason"], notice["by"]) == ("Bob", "removed", "Ann")
        await close(ann, bob, cat)

    run(scenario())


def test_a_banned_person_stays_out_by_token_and_by_address_until_the_ban_is_lifted(server: ServerProcess) -> None:
    code = server.create_table()

    async def scenario() -> None:
        ann, bob = await table_of(server, code, "Ann", "Bob", address="127.61.0")
        token = bob.token
        state = await ann.until(lambda s: person(s, "Bob") is not None)
        await refused(ann, {"type": "remove", "person": "Bob"}, "bad-message")  # malformed: a clear error
        await refused(ann, {"type": "remove"}, "not-found")
        await ann.remove(person(state, "Bob")["id"], ban=True)
        await bob._wait(lambda: bob.closed)
        assert bob.removed is not None and bob.removed["ban"] is True and bob.ws.close_code == 4003
        bans = (await ann.until(lambda s: bool(s["me"]["bans"])))["me"]["bans"]
        assert bans == [{"id": 1, "name": "Bob"}]
        # The token, and a new join from Bob's address, are refused; a neighbour's is not.
        again = Client(await websockets.connect(server.ws, local_addr=("127.61.0.2", 0), open_timeout=10))
        await again.hello(code, token)
        assert again.errors[-1]["code"] == "banned"
        await again._wait(lambda: again.closed)
        fresh = Client(await websockets.connect(server.ws, local_addr=("127.61.0.2", 0), open_timeout=10))
        await fresh.send(p.Join(v=p.VERSION, code=code, name="Bobby"))
        assert (await fresh.error())["code"] == "banned"
        neighbour = await table_of(server, code, "Neighbour", address="127.61.1")
        await refused(neighbour[0], {"type": "unban", "ban": 1}, "not-host")
        await refused(ann, {"type": "unban", "ban": 9}, "not-found")
        await ann.unban(1)
        await ann.until(lambda s: not s["me"]["bans"])
        back = await table_of(server, code, "Bob", address="127.61.0")  # the same address, welcome again
        assert back[0].state is not None and back[0].state["me"]["name"] == "Bob"
        await close(ann, *neighbour, *back)

    run(scenario())


def test_a_stand_in_host_cannot_remove_the_host_and_the_role_comes_back(tmp_path: Any) -> None:
    server = ServerProcess(tmp_path / "data").start()
    try:
        status, body = server.post(
            "/api/tables", {"game": "expedition", "absent_grace": 1, "countdown": 0, "ready_check": False}
        )
        assert status == 201
        code = body["code"]

        async def scenario() -> None:
            ann, bob, cat = await table_of(server, code, "Ann", "Bob", "Cat")
            token = ann.token
            ann_id = ann.person
            await ann.close()
            stand_in = await bob.until(lambda s: s["host"] == bob.person, timeout=10)
            assert stand_in["host_owner"] == ann_id
            await refused(bob, {"type": "remove", "person": ann_id}, "first-host")
            await refused(bob, {"type": "remove", "person": ann_id, "ban": True}, "first-host")
            back = await Client.open(server.ws)
            await back.hello(code, token)
            await bob.until(lambda s: s["host"] == ann_id)
            assert back.state is not None
            await back.until(lambda s: s["me"] is not None and s["me"]["host"])
            await close(back, bob, cat)

        run(scenario())
    finally:
        server.stop()


def test_a_booty_leave_is_followed_by_the_bots_move_within_its_delay_not_the_turn_clock(
    server: ServerProcess,
) -> None:
    status, body = server.post(
        "/api/tables", {"game": "booty", "script": BAG, "seconds": 60, "countdown": 0, "ready_check": False}
    )
    assert status == 201
    code = body["code"]

    async def scenario() -> None:
        ann, bob, cat = await table_of(server, code, "Ann", "Bob", "Cat")
        await ann.start()
        state = await bob.until(lambda s: s["phase"] == "playing")
        turn = state["state"]["turn"]
        names = {"Ann": ann, "Bob": bob, "Cat": cat}
        mover = next(client for name, client in names.items() if person(state, name)["seat"] == turn)
        leaver = mover if mover is not ann else bob
        placed = state["state"]["placements"]
        seat = person(state, next(name for name, client in names.items() if client is leaver))["seat"]
        watcher = cat if leaver is not cat else ann
        await leaver.leave()
        gone = await watcher.until(lambda s: any(p["seat"] == seat and p["bot_plays"] for p in s["people"]))
        assert any(p["seat"] == seat and p["left"] == "left" for p in gone["people"])
        if leaver is mover:
            # (waited for well inside the 60 s turn clock; the table's notices say who played the turn: the bot that
            # stands in, not the clock for a silent seat, which would be told as ``missed``)
            moved = await watcher.until(lambda s: s["state"]["placements"] > placed, timeout=30)
            story = [n["kind"] for n in moved["news"]]
            assert "left" in story and "stand_in" in story
            assert not any(n["kind"] == "missed" and n.get("seat") == seat for n in moved["news"]), moved["news"]
        host = ann if ann is not leaver else bob
        await host.end()
        over = await watcher.until(lambda s: s["phase"] == "results")
        status, record = server.get(f"/api/tables/{code}/games/{over['game_number']}")
        assert status == 200 and record["ended"]["by"] in ("Ann", "Bob")
        assert record["left"][str(seat)]["reason"] == "left"
        again = replay(GameRecord.from_json(record))
        assert again.is_over() and again.scores() == record["scores"]
        # Play again is refused while a chair is empty (two of three seated).
        await refused(host, {"type": "start"}, "too-few")
        await close(*(c for c in (ann, bob, cat) if c is not leaver))

    run(scenario())


def test_the_host_hands_the_role_on_ends_the_game_and_changes_the_settings(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=30)

    async def scenario() -> None:
        ann, bob, cat = await table_of(server, code, "Ann", "Bob", "Cat")
        state = await ann.until(lambda s: person(s, "Cat") is not None)
        await refused(bob, {"type": "settings", "seconds": 20}, "not-host")
        await refused(ann, {"type": "settings", "seconds": 0}, "bad-settings")
        await refused(ann, {"type": "settings", "preset": "nope"}, "bad-settings")
        await refused(ann, {"type": "settings", "colour": "red"}, "bad-message")
        await ann.change_settings(seconds=20, options={"caves": 2})
        changed = await cat.until(lambda s: s["settings"]["seconds"] == 20)
        assert changed["settings"]["rules"]["caves"] == 2 and changed["news"][-1]["kind"] == "settings"
        await refused(ann, {"type": "host", "person": 999}, "not-found")
        await ann.hand_host(person(state, "Bob")["id"])
        handed = await cat.until(lambda s: s["host"] == person(state, "Bob")["id"])
        assert handed["host_owner"] == person(state, "Bob")["id"]
        await refused(ann, {"type": "start"}, "not-host")
        await bob.start()
        await cat.until(lambda s: s["phase"] == "playing")
        await refused(bob, {"type": "settings", "seconds": 10}, "in-game")
        await bob.end()
        over = await cat.until(lambda s: s["phase"] == "results")
        assert over["ended"] == {"by": "Bob", "move": 1}
        status, record = server.get(f"/api/tables/{code}/games/1")
        assert status == 200 and record["ended"]["by"] == "Bob" and record["inputs"][-1] == ["end"]
        await close(ann, bob, cat)

    run(scenario())


@pytest.mark.parametrize(
    "message",
    [
        {"type": "pause", "extra": 1},
        {"type": "host", "person": "Ann"},
        {"type": "remove", "person": 1, "ban": "yes"},
        {"type": "unban", "ban": None},
        {"type": "settings", "options": [1]},
    ],
)
def test_malformed_host_messages_get_a_clear_error(server: ServerProcess, message: dict[str, Any]) -> None:
    code = server.create_table()

    async def scenario() -> None:
        (ann,) = await table_of(server, code, "Ann")
        error = await refused(ann, message, "bad-message")
        assert "malformed" in error["message"]
        await ann.close()

    run(scenario())


def test_the_schema_and_the_client_speak_the_host_messages(server: ServerProcess) -> None:
    status, schema = server.get("/api/schema")
    assert status == 200
    names = {ref.split("/")[-1] for ref in (item["$ref"] for item in schema["client"]["anyOf"])}
    assert {"Pause", "Resume", "End", "Host", "ChangeSettings", "CancelStart", "Remove", "Unban"} <= names
    assert "Removed" in {ref.split("/")[-1] for ref in (item["$ref"] for item in schema["server"]["anyOf"])}
    assert set(schema["$defs"]["Remove"]["properties"]) >= {"person", "ban"}
