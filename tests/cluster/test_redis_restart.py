"""Redis restarts under a running node: the first command after it comes back must not fail.

Every connection in a client's pool is dead after a restart; without a retry the first command on each of
them failed (a follower missed the update of a join and its phone never saw itself seated — the flaky
``test_redis_restarting_briefly_loses_no_banked_gem``; a player's tap answered "could not save").
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gemtable.bus.redis import RedisBus
from gemtable.store import Conflict
from gemtable.store.redis import RedisStore
from tests.redis_server import RedisServer

pytestmark = pytest.mark.redis


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RedisServer]:
    s = RedisServer(tmp_path / "redis").start()
    try:
        yield s
    finally:
        s.stop()


def restart(server: RedisServer) -> None:
    server.stop()
    time.sleep(0.3)
    server.start()


def test_the_store_works_at_once_after_a_restart(server: RedisServer) -> None:
    async def go() -> None:
        store = RedisStore(server.url)
        try:
            assert await store.acquire("ABCD", "n1", 30)
            await store.append("ABCD", 1, [{"type": "a"}], owner="n1")
            restart(server)
            # each of these is the first command on a connection that died with the old server
            await store.append("ABCD", 2, [{"type": "b"}], owner="n1")
            assert await store.acquire("ABCD", "n1", 30)
            assert [e["type"] for e in await store.load("ABCD")] == ["a", "b"]
            # a retried append that had landed is refused by its number, never written twice
            with pytest.raises(Conflict):
                await store.append("ABCD", 2, [{"type": "b"}], owner="n1")
            assert len(await store.load("ABCD")) == 2
        finally:
            await store.redis.aclose()

    asyncio.run(go())


def test_the_bus_publishes_at_once_and_the_listener_catches_up_after_a_restart(server: RedisServer) -> None:
    async def go() -> None:
        sender, listener = RedisBus(server.url), RedisBus(server.url)
        heard: list[bytes] = []
        caught_up = asyncio.Event()

        async def hear(data: bytes) -> None:
            heard.append(data)

        async def catch_up() -> None:
            caught_up.set()

        try:
            await listener.subscribe("gt:out:ABCD", hear)
            listener.on_reconnect(catch_up)
            for _ in range(200):  # (the listener subscribes in its own task: until it has, nothing is heard)
                await sender.publish("gt:out:ABCD", b"one")
                if heard:
                    break
                await asyncio.sleep(0.05)
            assert heard
            await sender.publish("gt:out:ABCD", b"before")  # the sender's pooled connection is in use
            restart(server)
            # the listener sees the drop, subscribes again and is told to catch up
            await asyncio.wait_for(caught_up.wait(), 20)
            await sender.publish("gt:out:ABCD", b"after")  # its first command since the restart
            for _ in range(200):
                if b"after" in heard:
                    break
                await asyncio.sleep(0.05)
            assert b"after" in heard
        finally:
            await sender.close()
            await listener.close()

    asyncio.run(go())
