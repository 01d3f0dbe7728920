"""Pub/sub on Redis: one subscriber connection per node, re-subscribed after Redis comes back.

``subscribe`` returns once Redis has confirmed the subscription, as the memory bus does at once: a message
published after it returns is heard (Redis delivers only to subscriptions it has taken).  Before, it returned
at once, and a publish in the next moment was lost: on a fresh node always, since its reader had not yet
subscribed.  While Redis is unreachable it does not wait (the reader subscribes once Redis is back, and the
nodes catch up: ``on_reconnect``), and it waits at most :data:`SUBSCRIBE_WAIT`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from gemtable.bus import Handler
from gemtable.store.redis import connect

log = logging.getLogger("gemtable")

SUBSCRIBE_WAIT = 2.0
"""Seconds ``subscribe`` waits at most for Redis to confirm a subscription."""


class RedisBus:
    def __init__(self, url: str) -> None:
        self.redis = connect(url)
        """Publishes (sent again on a new connection if Redis restarted meanwhile)."""
        self.listener = connect(url, retry=False)
        """The subscriber: it must see a drop (a pub/sub connection that reconnects by itself would not),
        to re-subscribe and catch up on what was published meanwhile (``on_reconnect``)."""
        self.handlers: dict[str, list[Handler]] = {}
        self.reconnected: list[Callable[[], Awaitable[None]]] = []
        self._pubsub: aioredis.client.PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._confirmed: dict[str, asyncio.Event] = {}
        """Per channel subscribed, set once Redis has confirmed it (its ``subscribe`` message)."""
        self._down = False
        """The subscriber's connection was lost and is not back yet."""

    async def publish(self, channel: str, message: bytes) -> None:
        await self.redis.publish(channel, message)

    async def subscribe(self, channel: str, handler: Handler) -> None:
        if self._reader is None:
            self._reader = asyncio.ensure_future(self._read())
        first = channel not in self.handlers
        self.handlers.setdefault(channel, []).append(handler)
        confirmed = self._confirmed.setdefault(channel, asyncio.Event())
        if first and self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.subscribe(channel)
        if not confirmed.is_set() and not self._down:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(confirmed.wait(), SUBSCRIBE_WAIT)

    async def unsubscribe(self, channel: str, handler: Handler) -> None:
        handlers = self.handlers.get(channel, [])
        with contextlib.suppress(ValueError):
            handlers.remove(handler)
        if not handlers and channel in self.handlers:
            del self.handlers[channel]
            self._confirmed.pop(channel, None)
            if self._pubsub is not None:
                with contextlib.suppress(RedisError, OSError):
                    await self._pubsub.unsubscribe(channel)

    def on_reconnect(self, callback: Callable[[], Awaitable[None]]) -> None:
        self.reconnected.append(callback)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        with contextlib.suppress(Exception):
            if self._pubsub is not None:
                await self._pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # (typed from redis 8.2 on)
        await self.redis.aclose()
        await self.listener.aclose()

    async def _read(self) -> None:
        first = True
        while True:
            pubsub = self.listener.pubsub()
            try:
                await pubsub.subscribe("gt:hello")
                subscribed: set[str] = set()
                while missing := [channel for channel in self.handlers if channel not in subscribed]:
                    await pubsub.subscribe(*missing)  # (a table subscribed meanwhile is taken in the next round)
                    subscribed.update(missing)
                self._pubsub = pubsub
                self._down = False
                if not first:
                    log.info("pub/sub is back; catching up")
                    for callback in self.reconnected:
                        self._spawn(callback())
                first = False
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    channel = message["channel"]
                    name = channel.decode() if isinstance(channel, bytes) else str(channel)
                    kind = message["type"]
                    if kind == "subscribe":
                        confirmed = self._confirmed.get(name)
                        if confirmed is not None:
                            confirmed.set()
                        continue
                    if kind != "message":
                        continue
                    data = message["data"]
                    payload = data if isinstance(data, bytes) else str(data).encode()
                    for handler in list(self.handlers.get(name, ())):
                        self._spawn(handler(payload))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                log.warning("pub/sub connection lost (%s); retrying", exc)
                self._pubsub = None
                self._down = True
                with contextlib.suppress(Exception):  # its connection back to the pool, not left open
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # (typed from redis 8.2 on)
                await asyncio.sleep(0.5)

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
