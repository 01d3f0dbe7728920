"""Pub/sub between the nodes running tables: a small interface, in memory or on Redis.

Channels carry bytes.  A node subscribes a handler to a channel; ``publish``
delivers to every subscriber of that channel on every node (the publisher's
own included).  Delivery is at most once: whoever needs every message (a
follower of a table's events) checks sequence numbers and reads what it missed
from the store.  ``on_reconnect`` handlers run after the bus lost its
connection and got it back, since messages may have been missed meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Protocol

Handler = Callable[[bytes], Awaitable[None]]


class Bus(Protocol):
    async def publish(self, channel: str, message: bytes) -> None: ...

    async def subscribe(self, channel: str, handler: Handler) -> None: ...

    async def unsubscribe(self, channel: str, handler: Handler) -> None: ...

    def on_reconnect(self, callback: Callable[[], Awaitable[None]]) -> None: ...

    async def close(self) -> None: ...


class MemoryBus:
    """Pub/sub inside one process (several in-process nodes may share one)."""

    def __init__(self) -> None:
        self.handlers: dict[str, list[Handler]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def publish(self, channel: str, message: bytes) -> None:
        for handler in list(self.handlers.get(channel, ())):
            task = asyncio.ensure_future(handler(message))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def subscribe(self, channel: str, handler: Handler) -> None:
        self.handlers.setdefault(channel, []).append(handler)

    async def unsubscribe(self, channel: str, handler: Handler) -> None:
        handlers = self.handlers.get(channel, [])
        with contextlib.suppress(ValueError):
            handlers.remove(handler)
        if not handlers:
            self.handlers.pop(channel, None)

    def on_reconnect(self, callback: Callable[[], Awaitable[None]]) -> None:
        return None  # never disconnected

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
