"""Phones of the Python client that stay at a table while a browser test runs (Playwright's sync API holds the
test's own thread, so they live in an event loop of their own, on a thread of its own)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from gemtable.client import Client

T = TypeVar("T")


class Crowd:
    """``crowd.join(code, "Kim")`` seats a real WebSocket phone; ``crowd.do(fn)`` runs ``fn(clients)`` on its loop."""

    def __init__(self, ws: str, sources: tuple[str, ...] = ()) -> None:
        self.ws = ws
        self.sources = sources
        """The loopback addresses its phones connect from, in turn (none: the system's): households of their own,
        whose joins are not counted with the other tests' on the same server."""
        self.loop = asyncio.new_event_loop()
        self.clients: dict[str, Client] = {}
        self.thread = threading.Thread(target=self.loop.run_forever, name="crowd", daemon=True)
        self.thread.start()

    def run(self, work: Awaitable[T], timeout: float = 30) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)  # type: ignore[arg-type]

    def join(self, code: str, *names: str) -> None:
        async def go() -> None:
            for name in names:
                source = self.sources[len(self.clients) % len(self.sources)] if self.sources else None
                client = await Client.open(self.ws, source=source)
                await client.join(code, name)
                self.clients[name] = client

        self.run(go())

    def do(self, fn: Callable[[dict[str, Client]], Awaitable[Any]]) -> Any:
        return self.run(fn(self.clients))

    def close(self) -> None:
        async def go() -> None:
            for client in self.clients.values():
                await client.close()

        try:
            self.run(go(), 10)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)
