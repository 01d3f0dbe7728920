"""Arriving late, watching, timeouts, disconnects and reconnects — through a real server."""

from __future__ import annotations

from typing import Any

from gemtable.client import Client
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run

LONG = [["1", "2", "3", "4", "5", "7", "9", "11", "13", "14", "15", "17", "snakes", "snakes"]] * 5


def person(state: dict[str, Any], name: str) -> dict[str, Any]:
    """The person called ``name`` as ``state`` shows them ({} while they are not there yet)."""
    return next((p for p in state["people"] if p["name"] == name), {})


def cave(state: dict[str, Any]) -> int:
    return int(state["state"]["cave"]) if state.get("state") else 0


def test_a_late_arrival_waits_and_walks_into_the_next_cave(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=30, pause=0.5)

    async def scenario() -> None:
        ann, bob, dan = [await Client.open(server.ws) for _ in range(3)]
        await ann.join(code, "Ann")
        await bob.join(code, "Bob")
        await ann.start()
        await ann.until(lambda s: s["phase"] == "playing")
        state = await dan.join(code, "Dan")
        assert state["me"]["status"] == "waiting"
        assert state["me"]["moves"] == []
        seen = await ann.until(lambda s: person(s, "Dan").get("status") == "waiting")
        assert cave(seen) == 1
        await dan.choose("deeper")
        error = await dan.error()
        assert error["code"] == "not-your-turn"
        # Both explorers walk out: the first cave ends, and Dan walks into the second with the rest.
        await ann.choose("camp")
        await bob.choose("camp")
        state = await dan.until(lambda s: s["phase"] == "playing" and cave(s) == 2)
        assert state["me"]["status"] == "seated"
        assert state["me"]["moves"] == ["deeper", "camp"]
        inside = [p["seat"] for p in state["state"]["players"] if p["status"] == "inside"]
        assert sorted(inside) == [0, 1, 2]

    run(scenario())


def test_a_ninth_person_watches_and_takes_the_chair_someone_leaves(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=30, pause=0.5)

    async def scenario() -> None:
        clients = [await Client.open(server.ws) for _ in range(9)]
        for i, client in enumerate(clients[:8]):
            state = await client.join(code, f"P{i}")
            assert state["me"]["chair"] == i
        ninth = clients[8]
        state = await ninth.join(code, "Nina")
        assert state["me"]["status"] == "watching"
        assert state["me"]["queue_position"] == 1
        assert state["me"]["chair"] is None
        await clients[3].leave()
        state = await ninth.until(lambda s: s["me"]["chair"] is not None)
        assert state["me"]["chair"] == 3
        assert state["me"]["status"] == "seated"  # in the lobby a chair means playing
        leaver = await clients[3].until(lambda s: s["me"] is None)
        assert person(leaver, "Nina")["chair"] == 3

    run(scenario())


def test_silence_at_the_deadline_walks_a_player_out_with_their_gems(server: ServerProcess) -> None:
    # A bot answers the instant a card turns, so only Bob's silence decides what happens.
    code = server.create_table(script=[["4", "1", "2", "3", "snakes", "snakes"]] * 5, seconds=1.5, pause=30)

    async def scenario() -> None:
        bob = await Client.open(server.ws)
        await bob.join(code, "Bob")
        await bob.add_bot("cautious")
        await bob.until(lambda s: len(s["people"]) == 2)
        await bob.start()
        state = await bob.until(lambda s: s["phase"] == "playing")
        me = next(p for p in state["state"]["players"] if p["seat"] == 0)
        assert me["carried"] == 2  # the 4 split between two explorers
        # Bob says nothing.  At the deadline he walks out, banking the 2 gems he carries.
        state = await bob.until(lambda s: s["state"]["reveal"] is not None, timeout=10)
        reveal = state["state"]["reveal"]
        assert reveal["leavers"] == [0] and reveal["deeper"] == [1]
        assert reveal["banked"] == [2]
        me = next(p for p in state["state"]["players"] if p["seat"] == 0)
        assert me["status"] == "camp" and me["carried"] == 0 and me["chest"] == 2

    run(scenario())


def test_a_disconnected_phone_does_not_hold_the_table_up_and_its_player_comes_back(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=30)

    async def scenario() -> None:
        ann, bob = [await Client.open(server.ws) for _ in range(2)]
        await ann.join(code, "Ann")
        await bob.join(code, "Bob")
        token = bob.token
        await ann.start()
        await ann.until(lambda s: s["phase"] == "playing")
        await bob.close()  # Bob's phone dies in the middle of the decision
        state = await ann.until(lambda s: not person(s, "Bob")["connected"])
        await ann.choose("deeper")
        # The clock says 60 s, but a phone gone for a few seconds is silent: the reveal comes at once.
        state = await ann.until(lambda s: len(s["state"]["path"]) == 2, timeout=15)
        assert state["state"]["reveal"]["leavers"] == [1]
        # Bob's phone comes back with its token: same seat, the full current state.
        again = await Client.open(server.ws)
        state = await again.hello(code, token)
        state = await again.until(lambda s: s["me"] is not None)
        assert state["me"]["name"] == "Bob" and state["me"]["seat"] == 1
        assert len(state["state"]["path"]) == 2
        await ann.until(lambda s: person(s, "Bob")["connected"])

    run(scenario())


def test_the_same_token_on_two_phones_the_newest_wins(server: ServerProcess) -> None:
    code = server.create_table()

    async def scenario() -> None:
        first = await Client.open(server.ws)
        await first.join(code, "Ann")
        second = await Client.open(server.ws)
        state = await second.hello(code, first.token)
        state = await second.until(lambda s: s["me"] is not None)
        assert state["me"]["name"] == "Ann"
        await first._wait(lambda: first.replaced and first.closed, 10)
        assert first.replaced

    run(scenario())


def test_bots_fill_empty_chairs_and_play(server: ServerProcess) -> None:
    code = server.create_table(script=[["5", "spiders", "7", "spiders"]] * 5, seconds=5, pause=0.5)

    async def scenario() -> None:
        ann = await Client.open(server.ws)
        await ann.join(code, "Ann")
        for bot in ("random", "cautious", "odds", "montecarlo"):
            await ann.add_bot(bot)
        state = await ann.until(lambda s: len(s["people"]) == 5)
        assert sorted(p["bot"] for p in state["people"] if p["bot"]) == ["cautious", "montecarlo", "odds", "random"]
        await ann.remove_bot(1)
        state = await ann.until(lambda s: len([p for p in s["people"] if p["chair"] is not None]) == 4)
        await ann.start()
        answered: set[tuple[int, int]] = set()
        while True:
            state = await ann.until(
                lambda s: (
                    s["phase"] == "results"
                    or (bool(s["me"]["moves"]) and (cave(s), len(s["state"]["path"])) not in answered)
                ),
                60,
            )
            if state["phase"] == "results":
                break
            answered.add((cave(state), len(state["state"]["path"])))
            await ann.choose("camp")
        assert len(state["state"]["scores"]) >= 4
        assert state["state"]["winners"]

    run(scenario())
