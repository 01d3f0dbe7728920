"""A busy server tells its tables' chatter less often, never the game's own moments (``gemtable.server.busy``).

The measure is driven by explicit clocks (time as an input); the server's behaviour through a real ``gemtable
serve`` told by ``GEMTABLE_BUSY_AT`` to count as busy from its first measure, with a busy pace long enough that
nothing held can slip out while the test looks.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from gemtable.client import Client
from gemtable.server.busy import BUSY_AT, CALM_AT, Busy, from_env, keep_watch
from gemtable.server.hub import Hub
from gemtable.server.limits import Limits
from gemtable.store import MemoryStore
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_pacing import ping
from tests.server.test_protocol_v2 import table_frames
from tests.server.test_table_life import LONG


class Clocks:
    """A process's CPU time and the wall clock, moved by hand."""

    def __init__(self) -> None:
        self.wall = 100.0
        self.used = 5.0

    def spend(self, seconds: float, share: float) -> None:
        self.wall += seconds
        self.used += seconds * share


def test_busy_from_half_a_core_and_calm_again_only_well_under_it() -> None:
    clocks = Clocks()
    busy = Busy(cpu=lambda: clocks.used, clock=lambda: clocks.wall)
    seen = []
    for share in [0.1, 0.2, 0.45, 0.9, 0.9, 0.4, 0.4, 0.35, 0.1, 0.1, 0.1]:
        clocks.spend(1.0, share)
        changed = busy.measure()
        seen.append((busy.busy, changed))
    # Smoothed over the last measures (each counts for half): one second at 0.9 after a rising load is enough
    # (0.59), seconds at 0.4 and 0.35 after it are not calm, and only well under 0.3 is.
    assert [b for b, _ in seen] == [False, False, False, True, True, True, True, True, False, False, False]
    assert [c for _, c in seen].count(True) == 2  # once busy, once calm again: no flapping in between
    assert BUSY_AT == 0.5 and CALM_AT == 0.3


def test_what_came_before_the_watch_does_not_count() -> None:
    clocks = Clocks()
    busy = Busy(cpu=lambda: clocks.used, clock=lambda: clocks.wall)
    clocks.spend(1.0, 1.0)  # the start-up's own work
    busy.restart()
    clocks.spend(1.0, 0.1)
    busy.measure()
    assert busy.share == pytest.approx(0.05)


def test_a_measure_without_time_passing_changes_nothing() -> None:
    clocks = Clocks()
    busy = Busy(cpu=lambda: clocks.used, clock=lambda: clocks.wall)
    clocks.used += 10  # (CPU time, and no wall time: a clock that did not move)
    assert busy.measure() is False
    assert busy.share == 0.0 and busy.busy is False


def test_the_threshold_and_the_pace_come_from_the_environment() -> None:
    assert from_env({}) == (BUSY_AT, None)
    assert from_env({"GEMTABLE_BUSY_AT": "0", "GEMTABLE_BUSY_PACE": "2.5"}) == (0.0, 2.5)
    with pytest.raises(ValueError):
        from_env({"GEMTABLE_BUSY_AT": "half"})
    always = Busy(busy_at=0.0, cpu=lambda: 0.0, clock=iter([0.0, 1.0]).__next__)
    assert always.measure() is True and always.busy  # 0: busy from the first measure, even idle


def test_the_watch_tells_the_hub_which_paces_its_chatter() -> None:
    hub = Hub(MemoryStore(), Limits())
    assert hub.pacer.interval == Limits().broadcast_seconds == 0.25

    async def scenario() -> None:
        clocks = Clocks()
        busy = Busy(cpu=lambda: clocks.used, clock=lambda: clocks.wall)
        calls: list[bool] = []

        def changed(now_busy: bool, share: float) -> None:
            calls.append(now_busy)
            hub.shed(now_busy, share)

        watch = asyncio.ensure_future(keep_watch(busy, changed, every=0.001))
        try:
            while not calls:  # a load that lasts: busy within a few measures
                clocks.spend(1.0, 0.8)
                await asyncio.sleep(0.001)
            assert hub.busy and hub.pacer.interval == Limits().busy_broadcast_seconds == 1.0
            while len(calls) < 2:  # idle seconds: calm again once the smoothed share is under 0.3
                clocks.spend(1.0, 0.0)
                await asyncio.sleep(0.001)
            assert not hub.busy and hub.pacer.interval == 0.25
        finally:
            watch.cancel()
        assert calls == [True, False]

    asyncio.run(asyncio.wait_for(scenario(), 30))
    unpaced = Hub(MemoryStore(), Limits(broadcast_seconds=0))
    unpaced.shed(True)
    assert unpaced.pacer.interval == 0  # a server told to tell every change at once still does, busy or not


def busy_server(tmp_path: Path, at: str, pace: str = "600") -> ServerProcess:
    server = ServerProcess(tmp_path / "data")
    server.env = {"GEMTABLE_BUSY_AT": at, "GEMTABLE_BUSY_PACE": pace}
    return server.start()


def node_busy(server: ServerProcess) -> bool:
    status, body = server.get("/api/node")
    assert status == 200
    return bool(body["busy"])


def test_a_busy_server_holds_the_chatter_and_never_the_reveal(tmp_path: Path) -> None:
    server = busy_server(tmp_path, at="0")
    try:
        deadline = time.monotonic() + 30
        while not node_busy(server):  # busy from its first measure, a second after it started
            assert time.monotonic() < deadline
            time.sleep(0.1)
        code = server.create_table(script=LONG, seconds=60, pause=0.5)

        async def scenario() -> None:
            ann, bob, cat = [await Client.open(server.ws) for _ in range(3)]
            for client, name in ((ann, "Ann"), (bob, "Bob"), (cat, "Cat")):
                await client.join(code, name)
            await ann.start()  # a moment of the game: at once, whatever the pace
            states = await asyncio.gather(*(c.until(lambda s: s["phase"] == "playing") for c in (ann, bob, cat)))
            decision = states[0]["decision"]
            await asyncio.sleep(1.0)  # a quiet spell longer than the calm pace: a calm server would tell at once
            marks = [len(c.frames) for c in (ann, bob, cat)]
            # Ann and Bob choose: chatter, held (the start's send began the busy pace's interval).
            await ann.choose("deeper", decision=decision)
            await bob.choose("deeper", decision=decision)
            await asyncio.gather(*(ping(client) for client in (ann, bob, cat)))  # all sent before has arrived
            for client, mark in zip((ann, bob, cat), marks, strict=True):
                assert table_frames(client, mark) == [], client  # nothing told yet: held
            # Bob's phone comes back (a reload): its hello is answered at once, though the room's news of it waits.
            token = bob.token
            await bob.close()
            bob = await Client.open(server.ws)
            again = await bob.hello(code, token=token)  # (waits 15 s at most: the busy pace is ten minutes)
            assert again["me"]["name"] == "Bob" and again["decision"] == decision
            assert again["me"]["choice"] == "deeper"
            # Cat chooses last: the reveal goes out at once, with what was held.
            await cat.choose("deeper", decision=decision)
            after = await asyncio.gather(
                *(c.until(lambda s: s["decision"] > decision, timeout=10) for c in (ann, bob, cat))
            )
            assert all(s["state"]["path"] != states[0]["state"]["path"] for s in after)
            for client, mark in zip((ann, cat), marks[::2], strict=True):
                told = table_frames(client, mark)
                assert [f["type"] for f in told] == ["state"]  # the held chatter folded into the reveal
                assert told[0]["table"]["decision"] > decision
            for client in (ann, bob, cat):
                await client.close()

        run(scenario())
    finally:
        server.stop()
    assert "INFO busy (" in server.log.read_text()  # the host's log says why the chatter slowed down


def test_a_server_never_busy_says_so(tmp_path: Path) -> None:
    server = busy_server(tmp_path, at="2")
    try:
        time.sleep(1.5)  # (past a measure)
        assert node_busy(server) is False
    finally:
        server.stop()
