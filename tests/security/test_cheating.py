"""Cheating, tried through a real server: every attempt is refused, and changes nothing for anyone.

There is no seat field in any message: the connection's person decides who acts (``Hub._command``),
and a person is bound to a connection only by ``join`` (a fresh token) or by ``hello`` with that
person's token.  ``tests/server/test_bad_input.py`` already covers a spectator choosing, forged and
stale tokens, a token of another table and a replaced phone being closed; these go further.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from gemtable.client import Client
from gemtable.games import find_game
from gemtable.table import Settings, Table, TableError
from tests.server.harness import ServerProcess
from tests.server.test_bad_input import answer, seated_pair
from tests.server.test_game_flow import run
from tests.server.test_table_life import LONG, person
from tools.oracles import moves_by_decision


def chosen(state: dict[str, Any], name: str) -> bool:
    return bool(person(state, name)["chosen"])


def test_nobody_can_act_for_another_seat(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60)

    async def scenario() -> None:
        ann, bob = await seated_pair(server, code)
        for extra in (
            {"seat": 1},
            {"person": bob.person},
            {"player": 1},
            {"token": bob.token},
            {"as": "Bob"},
            {"chair": 1},
            {"id": bob.person},
            {"me": {"id": bob.person}},
        ):
            error = await answer(ann, {"type": "choose", "move": "camp", **extra})
            assert error["code"] == "bad-message", extra
        # A repeated key is one key: the last one wins, and it is still Ann choosing.
        await ann.send_raw('{"type": "choose", "move": "camp", "move": "deeper"}')
        state = await bob.until(lambda s: chosen(s, "Ann"))
        assert not chosen(state, "Bob")
        assert (await ann.until(lambda s: s["me"]["choice"] is not None))["me"]["choice"] == "deeper"
        # Everything Ann sent is about Ann: Bob still has to choose, and his view never shows Ann's choice.
        assert all('"choice":"deeper"' not in f and '"choice": "deeper"' not in f for f in bob.frames)
        await bob.choose("camp")
        state = await bob.until(lambda s: s["state"]["reveal"] is not None)
        assert state["state"]["reveal"]["deeper"] == [0] and state["state"]["reveal"]["leavers"] == [1]

    run(scenario())


def test_choosing_again_changes_the_choice_and_counts_once(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=0.5)

    async def scenario() -> None:
        ann, bob = await seated_pair(server, code)
        decision = (ann.state or {})["decision"]
        for move in ("deeper", "deeper", "camp", "camp", "deeper", "camp"):
            await ann.choose(move, decision)
        await ann.until(lambda s: s["me"]["choice"] == "camp")
        await bob.choose("deeper", decision)
        state = await ann.until(lambda s: s["state"]["reveal"] is not None)
        reveal = state["state"]["reveal"]
        assert (reveal["deeper"], reveal["leavers"]) == ([1], [0])  # her last word, once
        # Out of the cave, Ann cannot choose again; an old decision is stale; the new one is Bob's alone.
        assert (await answer(ann, {"type": "choose", "move": "deeper", "decision": decision}))["code"] == "stale"
        assert (await answer(ann, {"type": "choose", "move": "deeper"}))["code"] == "not-your-turn"
        # Bob walks out too: the game's record holds one move per seat per decision, the last one chosen.
        await bob.choose("camp")
        await bob.until(lambda s: s["state"]["cave"] == 2 or s["phase"] == "pause")

    run(scenario())


def test_a_choice_after_the_deadline_is_refused_even_before_the_clock_catches_up() -> None:
    game = find_game("expedition")
    settings = Settings("expedition", "table", {}, game.rules_json("table", {}), seconds=10, pause=1, script=LONG)
    table = Table.create("ACDE", settings, 0.0)
    ann, bob = table.join("Ann", "h-ann", 0.0), table.join("Bob", "h-bob", 0.0)
    for p in (ann, bob):
        table.connect(p.id, 0.0)
    table.start(ann.id, 1, 0.0)
    table.tick(0.0)
    deadline = table.moment.deadline
    assert deadline is not None
    table.choose(ann.id, "deeper", deadline - 0.001)  # just in time
    with pytest.raises(TableError) as late:
        table.choose(bob.id, "deeper", deadline)  # the timer has not fired yet: still too late
    assert late.value.code == "stale"
    table.tick(deadline)
    assert table.play.game is not None
    record = table.game_record()
    assert record["inputs"][-2:] == [[0, "deeper"], [1, "camp"]]  # Bob's silence counted, not his late word


def test_the_deadline_refuses_a_late_choice_on_the_wire(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=1, pause=30)

    async def scenario() -> None:
        ann, bob = await seated_pair(server, code)
        decision = (bob.state or {})["decision"]
        await ann.choose("deeper", decision)
        state = await bob.until(lambda s: s["state"]["reveal"] is not None, timeout=10)  # Bob said nothing
        assert state["state"]["reveal"]["leavers"] == [1]
        assert (await answer(bob, {"type": "choose", "move": "deeper", "decision": decision}))["code"] == "stale"

    run(scenario())


def test_a_token_opens_its_own_seat_at_its_own_table_only(server: ServerProcess) -> None:
    here, there = server.create_table(script=LONG, seconds=60), server.create_table(script=LONG, seconds=60)

    async def scenario() -> None:
        ann, bob = await seated_pair(server, here)
        token = ann.token or ""
        for forged in (
            token.upper(),
            token.lower(),
            token[:-1],
            token + "A",
            f" {token}",
            f"{token} ",
            token[::-1],
            json.dumps(token),
            token.replace("-", "_") if "-" in token else "x" + token[1:],
        ):
            if forged == token:
                continue
            thief = await Client.open(server.ws)
            await thief.send({"type": "hello", "code": here, "token": forged})
            assert (await thief.error())["code"] == "unknown-token"
            assert (await answer(thief, {"type": "choose", "move": "camp"}))["code"] == "no-table"
            assert thief.state is None and not any('"welcome"' in f for f in thief.frames)  # it was told nothing
            await thief.close()
        # Ann's token at another table: a spectator there, and nothing she can do.
        elsewhere = await Client.open(server.ws)
        await elsewhere.send({"type": "hello", "code": there, "token": token})
        assert (await elsewhere.error())["code"] == "unknown-token"
        for message in ({"type": "choose", "move": "camp"}, {"type": "start"}, {"type": "leave"}):
            assert (await answer(elsewhere, message))["code"] == "no-table"
        # Joining there is a new person, with a new token; Ann's seat here is untouched.
        await elsewhere.join(there, "Ann")
        assert elsewhere.token != token
        assert not ann.closed and not ann.replaced
        await ann.choose("camp")
        assert (await bob.until(lambda s: chosen(s, "Ann")))["me"]["name"] == "Bob"

    run(scenario())


def test_spectators_and_the_tv_can_do_nothing_but_watch(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60)

    async def scenario() -> None:
        ann, _bob = await seated_pair(server, code)
        for tv in (False, True):
            watcher = await Client.open(server.ws)
            await watcher.hello(code, tv=tv)
            for message in (
                {"type": "choose", "move": "camp"},
                {"type": "choose", "move": "deeper", "decision": 1},
                {"type": "start"},
                {"type": "leave"},
                {"type": "add_bot", "bot": "odds"},
                {"type": "remove_bot", "chair": 0},
            ):
                assert (await answer(watcher, message))["code"] == "spectator", (tv, message)
        state = await ann.until(lambda s: True)
        assert [p["name"] for p in state["people"]] == ["Ann", "Bob"]
        assert not any(p["chosen"] for p in state["people"])

    run(scenario())


def test_a_replaced_phone_is_refused_even_for_what_it_had_already_sent(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60)

    async def scenario() -> None:
        _ann, bob = await seated_pair(server, code)
        old = await websockets.connect(server.ws)
        await old.send(json.dumps({"type": "hello", "code": code, "token": bob.token}))  # Bob's second phone
        while '"state"' not in await old.recv():
            pass
        newer = await Client.open(server.ws)
        await newer.send({"type": "hello", "code": code, "token": bob.token})  # and a third one
        for _ in range(20):  # the second phone keeps talking while it is being replaced
            try:
                await old.send(json.dumps({"type": "choose", "move": "camp"}))
            except websockets.ConnectionClosed:
                break
        await newer.until(lambda s: s["me"] is not None)
        heard = []
        try:
            async for raw in old:
                heard.append(json.loads(raw))
        except websockets.ConnectionClosed:
            pass
        assert old.close_code == 4000
        kinds = [m["type"] for m in heard]
        assert "replaced" in kinds
        after = [m for m in heard[kinds.index("replaced") + 1 :] if m["type"] != "state"]
        assert all(m["type"] == "error" and m["code"] == "spectator" for m in after), after
        # Whatever got in before the replacement was Bob's own move; after it, only the newest phone speaks.
        await newer.choose("deeper")
        state = await newer.until(lambda s: s["me"]["choice"] == "deeper")
        assert state["me"]["name"] == "Bob"
        assert bob.replaced and bob.closed

    run(scenario())


def test_a_player_who_left_or_lost_the_chair_cannot_act(server: ServerProcess) -> None:
    """Eight chairs full and one in the queue; one player's phone dies; at the next cave they are away, their
    chair goes to the queue, and when they come back they can only watch."""
    code = server.create_table(script=[["5", "snakes", "snakes"]] * 5, seconds=1.5, pause=0.5)

    async def scenario() -> None:
        players = [await Client.open(server.ws) for _ in range(8)]
        for i, client in enumerate(players):
            await client.join(code, f"P{i}")
        queue = await Client.open(server.ws)
        assert (await queue.join(code, "Queue"))["me"]["status"] == "watching"
        await players[0].start()
        await players[0].until(lambda s: s["phase"] == "playing")
        token = players[7].token
        await players[7].close()  # P7's phone dies in the first cave
        for client in players[:7]:
            await client.choose("camp")
        state = await queue.until(lambda s: s["me"]["chair"] is not None and s["phase"] == "playing", timeout=20)
        assert state["me"]["chair"] == 7  # P7 sat out a whole cave: away, the chair went to the queue
        back = await Client.open(server.ws)
        state = await back.hello(code, token)
        assert state["me"]["name"] == "P7" and state["me"]["chair"] is None and state["me"]["moves"] == []
        assert (await answer(back, {"type": "choose", "move": "deeper"}))["code"] == "not-your-turn"
        # The host cannot throw a person out of a chair (only bots), nor start over mid-game.
        assert (await answer(players[0], {"type": "remove_bot", "chair": 1}))["code"] == "no-bot"
        assert (await answer(players[0], {"type": "start"}))["code"] == "in-game"
        # P1 leaves for good: from then on that phone is a spectator, and the token opens nothing.
        gone_token = players[1].token
        await players[1].leave()
        await players[1].until(lambda s: s["me"] is None)
        assert (await answer(players[1], {"type": "choose", "move": "deeper"}))["code"] == "spectator"
        ghost = await Client.open(server.ws)
        await ghost.send({"type": "hello", "code": code, "token": gone_token})
        assert (await ghost.error())["code"] == "unknown-token"

    run(scenario())


def test_replayed_messages_are_refused_or_harmless(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=0.5)

    async def scenario() -> dict[str, Any]:
        ann, bob = await seated_pair(server, code)
        first = (ann.state or {})["decision"]
        sent = [json.dumps({"type": "choose", "v": 1, "move": "deeper", "decision": first})]
        await ann.send_raw(sent[0])
        await bob.choose("deeper", first)
        await ann.until(lambda s: s["decision"] > first)
        for raw in sent * 3:  # the same frame again, later: too late for that decision, and said so
            assert (await answer(ann, raw))["code"] == "stale"
        assert (await answer(ann, {"type": "join", "v": 1, "code": code, "name": "Ann"}))["code"] == "already-seated"
        again = await ann.hello(code, ann.token)  # saying hello again with one's own token: still oneself
        assert again["me"]["name"] == "Ann" and not ann.replaced
        state = await bob.until(lambda s: True)
        assert not any(p["chosen"] for p in state["people"])

        # Walk out of every cave at once: a short game whose record is checked below.
        async def play(client: Client) -> None:
            done: set[int] = set()
            while True:
                s = await client.until(
                    lambda s: s["phase"] == "results" or (bool(s["me"]["moves"]) and s["decision"] not in done), 30
                )
                if s["phase"] == "results":
                    return
                done.add(s["decision"])
                await client.choose("camp", s["decision"])

        await asyncio.gather(play(ann), play(bob))
        return await ann.until(lambda s: s["phase"] == "results")

    final = run(scenario())
    status, record = server.get(f"/api/tables/{code}/games/1")
    assert status == 200
    moves = moves_by_decision(record)
    assert moves[0][(1, 1)] == moves[1][(1, 1)] == "deeper"  # once each, as chosen
    assert set(moves[0].values()) == {"deeper", "camp"}
    assert final["state"]["scores"] == record["scores"]
