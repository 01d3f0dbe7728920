"""One contract, two buses: memory (embedded, and in-process nodes) and Redis (cluster mode, a real
redis-server on a free port).  Two handles on one bus, as two nodes would have."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager

import pytest

from gemtable.bus import Bus, MemoryBus
from tests.redis_server import RedisServer


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis-bus")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["memory", "redis"])
def kind(request: pytest.FixtureRequest) -> str:
    if request.param == "redis":
        request.getfixturevalue("redis_server")
    return str(request.param)


@asynccontextmanager
async def two_handles(kind: str, request: pytest.FixtureRequest) -> AsyncIterator[tuple[Bus, Bus]]:
    if kind == "memory":
        shared = MemoryBus()
        yield shared, shared
        await shared.close()
        return
    from gemtable.bus.redis import RedisBus

    url = request.getfixturevalue("redis_server").url
    a, b = RedisBus(url), RedisBus(url)
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()


class Inbox:
    def __init__(self) -> None:
        self.got: list[bytes] = []
        self.arrived = asyncio.Event()

    async def __call__(self, message: bytes) -> None:
        self.got.append(message)
        self.arrived.set()

    async def wait_for(self, count: int, timeout: float = 10.0) -> list[bytes]:
        async def enough() -> None:
            while len(self.got) < count:
                self.arrived.clear()
                await self.arrived.wait()

        await asyncio.wait_for(enough(), timeout)
        return self.got


async def settle(publisher: Bus, channel: str, inbox: Inbox) -> None:
    """Publish probes until one arrives, then start clean: a check that the subscription stands, apart from
    ``subscribe``'s own wait (``test_a_message_published_once_subscribe_has_returned_is_heard``)."""
    for _ in range(200):
        if inbox.got:
            await asyncio.sleep(0.1)
            inbox.got.clear()
            return
        await publisher.publish(channel, b"probe")
        await asyncio.sleep(0.02)
    raise AssertionError("the subscription never started")


def run(kind: str, request: pytest.FixtureRequest, scenario: Callable[[Bus, Bus], Awaitable[None]]) -> None:
    async def go() -> None:
        async with two_handles(kind, request) as (a, b):
            await asyncio.wait_for(scenario(a, b), 30)

    asyncio.run(go())


def test_a_message_reaches_every_subscriber_of_its_channel_on_every_handle(
    kind: str, request: pytest.FixtureRequest
) -> None:
    async def scenario(a: Bus, b: Bus) -> None:
        mine, theirs, elsewhere = Inbox(), Inbox(), Inbox()
        await a.subscribe("gt:test", mine)
        await b.subscribe("gt:test", theirs)
        await b.subscribe("gt:other", elsewhere)
        await settle(a, "gt:test", mine)
        await settle(a, "gt:test", theirs)
        await settle(a, "gt:other", elsewhere)
        await asyncio.sleep(0.2)
        for inbox in (mine, theirs, elsewhere):
            inbox.got.clear()
        payload = bytes(range(256))  # bytes, not text: every byte comes through
        await a.publish("gt:test", payload)
        assert await mine.wait_for(1) == [payload]  # the publisher's own subscriber included
        assert await theirs.wait_for(1) == [payload]
        await asyncio.sleep(0.2)
        assert elsewhere.got == []  # another channel hears nothing

    run(kind, request, scenario)


def test_a_message_published_once_subscribe_has_returned_is_heard(kind: str, request: pytest.FixtureRequest) -> None:
    """``subscribe`` returns once the subscription stands (on Redis: once Redis has confirmed it), so one
    message published right after it is heard, with no probing: on a fresh handle, whose reader has not yet
    started, and on one already listening."""

    async def scenario(a: Bus, b: Bus) -> None:
        first, second = Inbox(), Inbox()
        await b.subscribe("gt:first", first)  # b's very first subscription
        await a.publish("gt:first", b"one")
        assert await first.wait_for(1) == [b"one"]
        await b.subscribe("gt:second", second)  # b listening already
        await a.publish("gt:second", b"two")
        assert await second.wait_for(1) == [b"two"]

    run(kind, request, scenario)


def test_one_publishers_messages_arrive_in_order(kind: str, request: pytest.FixtureRequest) -> None:
    async def scenario(a: Bus, b: Bus) -> None:
        inbox = Inbox()
        await b.subscribe("gt:order", inbox)
        await settle(a, "gt:order", inbox)
        sent = [str(n).encode() for n in range(100)]
        for message in sent:
            await a.publish("gt:order", message)
        assert await inbox.wait_for(100) == sent

    run(kind, request, scenario)


def test_unsubscribing_one_handler_leaves_the_others(kind: str, request: pytest.FixtureRequest) -> None:
    async def scenario(a: Bus, b: Bus) -> None:
        first, second = Inbox(), Inbox()
        await b.subscribe("gt:two", first)
        await b.subscribe("gt:two", second)
        await settle(a, "gt:two", first)
        second.got.clear()
        await b.unsubscribe("gt:two", first)
        await a.publish("gt:two", b"after")
        assert await second.wait_for(1) == [b"after"]
        await asyncio.sleep(0.2)
        assert first.got == []
        await b.unsubscribe("gt:two", second)
        await b.unsubscribe("gt:two", second)  # twice, or never subscribed: no error
        await b.unsubscribe("gt:never", second)
        await a.publish("gt:two", b"nobody")
        await asyncio.sleep(0.2)
        assert second.got == [b"after"]

    run(kind, request, scenario)


def test_publishing_to_a_channel_nobody_hears_is_fine_and_reconnect_callbacks_are_accepted(
    kind: str, request: pytest.FixtureRequest
) -> None:
    async def scenario(a: Bus, b: Bus) -> None:
        async def caught_up() -> None:
            return None

        a.on_reconnect(caught_up)
        await a.publish("gt:nobody", b"x")

    run(kind, request, scenario)
