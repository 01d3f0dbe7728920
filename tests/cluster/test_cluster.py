"""Three nodes sharing one real redis-server: phones on different nodes, a node killed, a node stalled."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from gemtable.client import Client
from gemtable.games import GameRecord, replay
from gemtable.games.expedition.state import ExpeditionState
from gemtable.store import pruned
from gemtable.table import Table
from tests.redis_server import RedisServer
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_table_life import LONG

pytestmark = pytest.mark.redis


class Cluster:
    def __init__(self, folder: Path) -> None:
        self.redis = RedisServer(folder / "redis").start()
        self.nodes = [
            ServerProcess(
                folder / f"node{i}", extra=["--allow-scripts", "--message-rate", "1000", "--redis", self.redis.url]
            ).start()
            for i in range(3)
        ]

    def running(self, code: str) -> ServerProcess:
        """The node process holding ``code``'s lease."""
        owner = self.owner(code)
        for node in self.nodes:
            if node.proc is not None and node.proc.poll() is None and node.get("/api/node")[1]["node"] == owner:
                return node
        raise AssertionError(f"no live node runs {code}")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        self.redis.stop()

    def events(self, code: str) -> list[dict[str, Any]]:
        client = redis.Redis.from_url(self.redis.url, decode_responses=True)
        items = client.lrange(f"gt:{{{code}}}:log", 0, -1)
        return [json.loads(e) if e else pruned() for e in items]  # (empty: a finished game's change of mind)

    def owner(self, code: str) -> str | None:
        client = redis.Redis.from_url(self.redis.url, decode_responses=True)
        value = client.get(f"gt:{{{code}}}:lease")
        return None if value is None else str(value)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    c = Cluster(tmp_path)
    try:
        yield c
    finally:
        c.stop()


async def play_out(clients: list[Client], choice: str = "deeper", timeout: float = 90) -> None:
    async def play(client: Client) -> None:
        done: set[tuple[int, int, int]] = set()
        while True:
            s = await client.until(
                lambda s: s["phase"] == "results" or (bool(s["me"] and s["me"]["moves"]) and key(s) not in done),
                timeout,
            )
            if s["phase"] == "results":
                return
            done.add(key(s))
            with_decision = s["decision"]
            try:
                await client.choose(choice, decision=with_decision)
            except Exception:
                return

    await asyncio.gather(*(play(c) for c in clients))


def key(s: dict[str, Any]) -> tuple[int, int, int]:
    return s["game_number"], s["state"]["cave"], len(s["state"]["path"])


def check_against_log(cluster: Cluster, code: str, scores: list[int]) -> None:
    events = cluster.events(code)
    rebuilt = Table.rebuild(events)
    assert rebuilt.play.game is not None and rebuilt.play.game.is_over()
    assert rebuilt.play.game.scores() == scores
    record = rebuilt.game_record()
    assert replay(GameRecord.from_json(record)).scores() == scores
    seqs = [e for e in events if e["type"] == "moves"]
    assert seqs, "the game was played"


def test_phones_on_three_nodes_play_a_whole_game(cluster: Cluster) -> None:
    code = cluster.nodes[0].create_table(script=LONG, seconds=20, pause=0.5)

    async def scenario() -> list[int]:
        clients = [await Client.open(node.ws) for node in cluster.nodes]
        for i, client in enumerate(clients):
            await client.join(code, f"P{i}")
        for client in clients:
            await client.until(lambda s: len(s["people"]) == 3)
        await clients[2].send({"type": "start"})  # not the host: refused, wherever the table runs
        assert (await clients[2].error())["code"] == "not-host"
        await clients[0].start()
        await play_out(clients)
        finals = [await c.until(lambda s: s["phase"] == "results") for c in clients]
        assert len({json.dumps(f["state"]["scores"]) for f in finals}) == 1
        status, record = cluster.nodes[1].get(f"/api/tables/{code}/games/1")
        assert status == 200 and record["scores"] == finals[0]["state"]["scores"]
        return list(finals[0]["state"]["scores"])

    scores = run(scenario())
    check_against_log(cluster, code, scores)


def test_the_node_running_a_table_is_killed_mid_decision_and_the_game_goes_on(cluster: Cluster) -> None:
    code = cluster.nodes[0].create_table(script=LONG, seconds=8, pause=0.5)
    tokens: list[str] = []

    async def first_half() -> None:
        clients = [await Client.open(node.ws) for node in cluster.nodes]
        for i, client in enumerate(clients):
            await client.join(code, f"P{i}")
            tokens.append(client.token or "")
        await clients[0].start()
        await clients[1].until(lambda s: s["phase"] == "playing")
        await clients[1].choose("deeper")  # a pending choice on the doomed node
        await clients[2].until(lambda s: any(p["chosen"] for p in s["people"]))

    run(first_half())
    owner = cluster.owner(code)
    assert owner is not None
    victim = cluster.running(code)  # kill the node that runs the table (SIGKILL)
    died = time.monotonic()
    victim.kill()
    survivors = [n for n in cluster.nodes if n is not victim]

    async def second_half() -> float:  # returns the seconds from the death to the takeover
        clients = []
        for i, token in enumerate(tokens):
            node = survivors[i % len(survivors)]
            client = await Client.open(node.ws)
            await client.hello(code, token)
            clients.append(client)
        state = await clients[0].until(lambda s: s["me"] is not None and s["phase"] == "playing", 30)
        assert state["me"]["name"] == "P0"
        while cluster.owner(code) in (None, owner):
            await asyncio.sleep(0.1)
        took_over = time.monotonic() - died
        await play_out(clients)
        return took_over

    run(second_half())  # (how fast a takeover is: `gemtable bench server --nodes 3 --kill`, not a test)
    finals = cluster.events(code)
    rebuilt = Table.rebuild(finals)
    assert rebuilt.play.game is not None and rebuilt.play.game.is_over()
    check_against_log(cluster, code, rebuilt.play.game.scores())
    # The pending choice made before the death was kept: P1 went deeper on the first card.
    first_reveal = next(e for e in finals if e["type"] == "moves")
    assert first_reveal["moves"]["1"] == "deeper"


async def ann_and_bob(cluster: Cluster, code: str, start: bool = False) -> str:
    """Ann (the host, on node 1) and Bob (on node 2) sit down, Ann starts the game if ``start``, and both
    phones go: Ann's seat token, to come back with."""
    ann, bob = await Client.open(cluster.nodes[1].ws), await Client.open(cluster.nodes[2].ws)
    await ann.join(code, "Ann")
    await bob.join(code, "Bob")
    if start:
        await ann.start()
        await ann.until(lambda s: s["phase"] == "playing")
    await ann.close()
    await bob.close()
    assert ann.token is not None
    return ann.token


def test_a_stalled_node_does_not_act_on_the_table_it_lost(cluster: Cluster) -> None:
    code = cluster.nodes[0].create_table(script=LONG, seconds=3, pause=0.5)

    run(ann_and_bob(cluster, code, start=True))
    owner = cluster.owner(code)
    stalled = cluster.running(code)
    assert stalled.proc is not None
    os.kill(stalled.proc.pid, signal.SIGSTOP)
    try:
        deadline = time.monotonic() + 20
        while cluster.owner(code) in (None, owner) and time.monotonic() < deadline:
            time.sleep(0.1)
        new_owner = cluster.owner(code)
        assert new_owner not in (None, owner), "another node took the table over"
        played = len(cluster.events(code))
        time.sleep(5)  # the new owner plays on: deadlines pass, silent players walk out
        assert len(cluster.events(code)) > played
    finally:
        os.kill(stalled.proc.pid, signal.SIGCONT)
    time.sleep(4)  # the stalled node wakes up with timers long overdue
    events = cluster.events(code)
    times = [float(e["at"]) for e in events]
    assert times == sorted(times)
    rebuilt = Table.rebuild(events)  # the log is one consistent history
    assert rebuilt.play.game is not None
    assert cluster.owner(code) == new_owner
    assert "following it now" in (stalled.data / "server.log").read_text()
    assert stalled.proc.poll() is None  # alive and serving
    assert stalled.get("/healthz")[0] == 200


def test_a_node_that_stops_hands_its_tables_over_at_once(cluster: Cluster) -> None:
    """A restart or a deploy stops a node gracefully: it lets its tables go and says so, and a node that
    follows one takes it at once (not when a command forwarded to the stopped node times out, 8 s)."""
    code = cluster.nodes[0].create_table(script=LONG, seconds=30, pause=0.5)

    token = run(ann_and_bob(cluster, code))
    assert cluster.running(code) is cluster.nodes[0]
    cluster.nodes[0].stop()
    said = "took over table " + code + ": its node stopped"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        logs = [(node.data / "server.log").read_text() for node in cluster.nodes[1:]]
        if any(said in log for log in logs):
            break
        time.sleep(0.1)
    assert sum(said in log for log in logs) == 1, "one of the followers took it when it was let go"
    assert cluster.running(code) in cluster.nodes[1:]

    async def after() -> None:
        ann = await Client.open(cluster.nodes[1].ws)
        await ann.hello(code, token)  # the host, back
        await ann.start()
        await ann.until(lambda s: s["phase"] == "playing")  # the game goes on where the table went
        await ann.close()

    run(after())


def test_redis_restarting_briefly_loses_no_banked_gem(cluster: Cluster) -> None:
    code = cluster.nodes[0].create_table(script=LONG, seconds=30, pause=0.5)

    async def before() -> dict[str, Any]:
        ann, bob = await Client.open(cluster.nodes[0].ws), await Client.open(cluster.nodes[1].ws)
        await ann.join(code, "Ann")
        await bob.join(code, "Bob")
        await ann.start()
        await ann.until(lambda s: s["phase"] == "playing")
        await ann.choose("camp")  # Ann banks what she carries
        await bob.choose("deeper")
        state = await ann.until(lambda s: s["state"]["reveal"] is not None)
        await ann.close()
        await bob.close()
        return state

    state = run(before())
    ann_chest = next(p for p in state["state"]["players"] if p["seat"] == 0)["chest"]
    assert ann_chest > 0
    cluster.redis.stop()
    time.sleep(1.5)
    cluster.redis.start()
    time.sleep(2)

    async def after() -> dict[str, Any]:
        cy = await Client.open(cluster.nodes[2].ws)
        await cy.join(code, "Cy")  # the table still takes newcomers after the restart
        return await cy.until(lambda s: any(p["name"] == "Cy" for p in s["people"]), 30)

    run(after())
    rebuilt = Table.rebuild(cluster.events(code))
    assert isinstance(rebuilt.play.game, ExpeditionState)
    assert rebuilt.play.game.chest[0] == ann_chest
