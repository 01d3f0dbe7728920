"""One WebSocket connection, with its own send queue.

A connection's messages are written to its socket at once while the socket takes them (asyncio's
transport never blocks), and otherwise queued and written by a task of its own, so a slow or dead phone
never holds a table up; a phone whose queue overflows is dropped.

A connection is cheap while it is idle (most of the time, for thousands of phones):
the queue (a deque) and the writer task exist only while there is something to write,
and nothing it sent is kept (``docs/benchmarks.md``, memory per connection).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable

from gemtable.server import protocol as p
from gemtable.server.gate import CLOSE, Gate
from gemtable.server.limits import Bucket, Limits

log = logging.getLogger("gemtable")

SEND_QUEUE = 256
_ids = itertools.count(1)


class Conn:
    """One WebSocket connection, with its own send queue."""

    __slots__ = (
        "_close",
        "_out",
        "_send",
        "_writer",
        "address",
        "bucket",
        "close_code",
        "closed",
        "code",
        "gate",
        "hellos",
        "id",
        "over",
        "person",
        "seq",
        "strikes",
        "synced",
        "tv",
        "version",
        "write_now",
    )

    def __init__(
        self,
        send: Callable[[bytes], Awaitable[None]],
        close: Callable[[int], Awaitable[None]],
        address: str,
        limits: Limits,
        gate: Gate | None = None,
    ) -> None:
        self._send = send
        self._close = close
        self._out: deque[bytes] | None = None
        """Messages waiting for the writer task: made when the first waits, dropped when drained (an empty deque
        is ~760 bytes, and an idle connection has nothing waiting)."""
        self._writer: asyncio.Task[None] | None = None
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
        self.bucket = Bucket(limits.messages_per_second, limits.message_burst)
        self.hellos: Bucket | None = None
        """Its ``hello``s that opened a table (made at the first: most connections say hello once)."""
        self.strikes = 0
        self.closed = False
        self.over = False
        """The connection has ended (:meth:`ended`): nothing more is written to it."""
        self.close_code = 1000
        self.gate = gate
        """Where its messages wait while what they tell is being saved (``gate.py``); None: never."""
        self.id = next(_ids)
        self.write_now: Callable[[bytes], bool] | None = None
        """Writes a message to the socket at once if it can (``websocket.py``'s ``write_now``): then no
        writer task is made for it.  None (a server that has none): every message goes through the queue."""

    def send(self, data: bytes) -> None:
        if self.closed:
            return
        gate = self.gate
        if gate is not None and gate.closed:
            gate.hold(self, data)  # (it writes it once the change it tells of is saved)
            return
        self.write(data)

    def write(self, data: bytes) -> None:
        """Write a message sent before now: at once, or queued behind the ones waiting."""
        if self.over:
            return
        out = self._out
        if out is not None and len(out) >= SEND_QUEUE:
            log.info("dropping a phone that does not read its messages (%s)", self.address)
            self._out = None
            self.closed, self.close_code = True, 1008
            if self._writer is not None:  # stuck writing to a phone that does not read: no point in draining
                self._writer.cancel()
            self._writer = asyncio.ensure_future(self._close_quietly())
            return
        if self._writer is None and not out and self.write_now is not None and self.write_now(data):
            return  # written (nothing was waiting before it, so the order is kept)
        if out is None:
            out = self._out = deque()
        out.append(data)
        if self._writer is None:
            self._writer = asyncio.ensure_future(self._drain())

    def tell(self, message: p.ServerMessage) -> None:
        """A message, in the version this connection speaks."""
        self.send(p.encode_for(message, self.version))

    def send_state(self, table: bytes) -> None:
        """A whole state (the view already encoded), numbered."""
        self.seq += 1
        self.synced = True
        self.send(p.state_frame(self.seq, table, self.version))

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
        gate = self.gate
        if gate is not None and gate.closed:
            gate.hold(self, CLOSE)  # after the messages held before it
            return
        self.close_now()

    def close_now(self, code: int | None = None) -> None:
        """Close after what is queued has been written (with ``code``, whatever was said before)."""
        self.closed = True
        if code is not None:
            self.close_code = code
        if self._writer is None:
            self._writer = asyncio.ensure_future(self._drain())

    def ended(self) -> None:
        """The connection is over (the phone went, or the server closed it): nothing more is queued; what
        is queued still goes, if the socket still takes it (the error that says why it was closed)."""
        self.closed = True
        self.over = True

    async def finish(self, timeout: float = 2.0) -> None:
        """Wait (a little) for what is being written, then stop writing."""
        writer = self._writer
        if writer is None:
            return
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(writer), timeout)
        writer.cancel()

    async def _close_quietly(self) -> None:
        with contextlib.suppress(Exception):
            await self._close(self.close_code)

    async def _drain(self) -> None:
        me = asyncio.current_task()
        try:
            with contextlib.suppress(Exception):
                while self._out:
                    data = self._out.popleft()
                    await self._send(data)
                    del data  # an idle connection keeps nothing it sent
                self._out = None
            if self.closed:
                self._out = None
                await self._close_quietly()
        finally:
            if self._writer is me:
                self._writer = None
