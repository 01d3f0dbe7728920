"""One WebSocket connection, with its own send queue.

A connection's messages are queued and written by its own task, so a slow or
dead phone never holds a table up; a phone whose queue overflows is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable

from gemtable.server import protocol as p
from gemtable.server.limits import Bucket, Limits

log = logging.getLogger("gemtable")

SEND_QUEUE = 256
_ids = itertools.count(1)


class Conn:
    """One WebSocket connection, with its own send queue."""

    def __init__(self, send: Callable[[bytes], Awaitable[None]], close: Callable[[int], Awaitable[None]],
                 address: str, limits: Limits) -> None:
        self._send = send
        self._close = close
        self.address = address
        self.code: str | None = None
        self.person: int | None = None
        self.tv = False
        self.version = 1
        """The protocol version its ``hello`` or ``join`` spoke: 2 is told secret choices as ``chosen``."""
        self.seq = 0
        """Table messages (``state`` and ``chosen``) sent so far: the ``seq`` of the last one."""
        self.synced = False
        """Whether it has had a whole state of its table since it came (only then can a ``chosen`` follow)."""
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(SEND_QUEUE)
        self.bucket = Bucket(limits.messages_per_second, limits.message_burst)
        self.strikes = 0
        self.closed = False
        self.close_code = 1000
        self.id = next(_ids)
        self.writer = asyncio.ensure_future(self._drain())

    def send(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            log.info("dropping a phone that does not read its messages (%s)", self.address)
            self.close(1008)

    def send_state(self, table: bytes) -> None:
        """A whole state (the view already encoded), numbered."""
        self.seq += 1
        self.synced = True
        self.send(p.state_frame(self.seq, table))

    def send_chosen(self, people: bytes, choice: str | None) -> None:
        """Someone has chosen (version 2), numbered."""
        self.seq += 1
        self.send(p.chosen_frame(self.seq, people, choice))

    def close(self, code: int = 1000) -> None:
        """Close after what is already queued has been sent (an error saying why, say)."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:  # it does not read: no point in draining
            self.writer.cancel()
            self.writer = asyncio.ensure_future(self._close_quietly())

    async def finish(self, timeout: float = 2.0) -> None:
        """Wait (a little) for the queue to drain, then stop the writer."""
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self.writer), timeout)
        self.writer.cancel()

    async def _close_quietly(self) -> None:
        with contextlib.suppress(Exception):
            await self._close(self.close_code)

    async def _drain(self) -> None:
        with contextlib.suppress(Exception):
            while (data := await self.queue.get()) is not None:
                await self._send(data)
        if self.closed:
            await self._close_quietly()
