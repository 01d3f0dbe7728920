"""A connection's writes (``server/conn.py``): at once while the socket takes them, queued (in order, with a
writer task) while it does not, and a phone that never reads is dropped when its queue overflows.

Every real-server test writes through uvicorn's socket at once (``websocket.py``'s ``write_now``) and
``test_in_process.py`` through the ASGI queue; this holds the switch between the two to its promises."""

from __future__ import annotations

import asyncio

from gemtable.server.conn import SEND_QUEUE, Conn
from gemtable.server.limits import Limits


class Socket:
    """What a connection writes to: ``write_now`` while it is ``open``, the ASGI ``send`` otherwise (which
    waits until the socket is writable again)."""

    def __init__(self) -> None:
        self.open = True
        self.wire: list[bytes] = []
        self.writable = asyncio.Event()
        self.writable.set()
        self.closed: int | None = None

    def write_now(self, data: bytes) -> bool:
        if not self.open:
            return False
        self.wire.append(data)
        return True

    async def send(self, data: bytes) -> None:
        await self.writable.wait()
        self.wire.append(data)

    async def close(self, code: int) -> None:
        self.closed = code


def test_writes_go_out_at_once_then_queued_in_order_then_at_once_again() -> None:
    async def scenario() -> None:
        sock = Socket()
        conn = Conn(sock.send, sock.close, "a", Limits())
        conn.write_now = sock.write_now
        conn.send(b"1")
        assert sock.wire == [b"1"] and conn._writer is None  # written in the caller's turn: no task
        sock.open = False
        sock.writable.clear()  # the phone's socket is full
        conn.send(b"2")
        sock.open = True  # the socket could take more now, but "2" waits: "3" must not pass it
        conn.send(b"3")
        assert sock.wire == [b"1"] and conn._writer is not None
        sock.writable.set()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert sock.wire == [b"1", b"2", b"3"] and conn._writer is None
        conn.send(b"4")
        assert sock.wire[-1] == b"4"  # the queue is empty again: at once

    asyncio.run(scenario())


def test_a_phone_that_never_reads_is_dropped_when_its_queue_overflows() -> None:
    async def scenario() -> None:
        sock = Socket()
        sock.open = False
        sock.writable.clear()
        conn = Conn(sock.send, sock.close, "a", Limits())
        conn.write_now = sock.write_now
        for n in range(SEND_QUEUE + 1):
            conn.send(str(n).encode())
        await asyncio.sleep(0)
        assert conn.closed and conn.close_code == 1008 and sock.closed == 1008
        conn.send(b"more")  # nothing more is written or queued
        assert sock.wire == [] and not conn._out

    asyncio.run(scenario())
