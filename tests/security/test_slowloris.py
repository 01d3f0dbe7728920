"""Half-sent requests ("slowloris", issue 13 finding 1), against a real server process with real sockets.

The server bounds the time a request may take to arrive (``Limits.request_seconds``, 10 s) and the
connections per address whose request is still coming in (``Limits.unfinished_per_address``, 16), raises its
open-file limit at start, and writes any one kind of log line at most once every 10 seconds
(``gemtable.server.guard``).  The counts here are small (this machine is shared): a few hundred sockets,
against a server whose open-file limit the test sets low.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import select
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gemtable.client import Client
from gemtable.server.limits import Limits
from tests.security.conftest import TunedServer, clean_log
from tests.security.test_refusals import phone_from
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run

HALF = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow"
MOST = Limits().unfinished_per_address


def half_sent(server: ServerProcess, source: str, n: int, data: bytes = HALF) -> list[socket.socket]:
    out = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(source, 0))
        with contextlib.suppress(OSError):
            s.sendall(data)
        out.append(s)
    return out


def closed_by_server(s: socket.socket) -> bool:
    """Whether the server has closed this socket (it reads as end of file, or was reset); what it sent
    before is read and dropped."""
    while select.select([s], [], [], 0)[0]:
        try:
            if s.recv(65536) == b"":
                return True
        except OSError:
            return True
    return False


def wait_until(test: Callable[[], bool], seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.1)
    return test()


def still_open(sockets: list[socket.socket]) -> int:
    return sum(1 for s in sockets if not closed_by_server(s))


@contextlib.contextmanager
def holding(sockets: list[socket.socket]) -> Iterator[list[socket.socket]]:
    try:
        yield sockets
    finally:
        for s in sockets:
            s.close()


def a_phone_plays(server: ServerProcess, source: str) -> None:
    """A new phone (from ``source``) opens a table and joins it, over a real WebSocket."""
    code = server.create_table()

    async def scenario() -> None:
        phone = await phone_from(server, source)
        state = await phone.join(code, "Ann")
        assert state["me"]["name"] == "Ann"
        await phone.close()

    run(scenario())


def test_a_request_must_arrive_in_time(tuned: Callable[..., TunedServer]) -> None:
    """Half a request line, or a byte a second: closed once the request time is up.  A whole request, and the
    next one on the same kept-alive connection, are answered."""
    server = tuned(request_seconds=1.0)
    with holding(half_sent(server, "127.45.0.1", 3)) as half, holding(half_sent(server, "127.45.0.1", 1, b"G")) as drip:
        whole = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        whole.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert whole.recv(4096).startswith(b"HTTP/1.1 200")
        # On the kept-alive connection, the next request begins and stops half way: it too is closed.
        whole.sendall(b"GET /healthz HTTP/1.1\r\nHost: 12")

        def drip_on() -> bool:
            with contextlib.suppress(OSError):
                drip[0].send(b"E")
            return all(closed_by_server(s) for s in [*half, *drip, whole])

        assert wait_until(drip_on, 30), "half-sent requests were not closed"
        whole.close()
    a_phone_plays(server, "127.45.0.1")  # the address is not punished for it
    clean_log(server)


def test_one_address_holds_at_most_its_unfinished_connections(tuned: Callable[..., TunedServer]) -> None:
    """200 half-sent requests from one address, against a server with 128 file descriptors: 16 are held, the
    rest closed at once; a new phone connects and plays, and nothing reaches the log.  (They come 40 at a
    time: asyncio accepts every waiting connection before any of them is closed, so a burst bigger than the
    spare file descriptors would run out of them for a moment, whoever sent it.)"""
    server = tuned(files=(128, 128), request_seconds=120.0)
    with holding([]) as attack:
        for _ in range(5):
            attack += half_sent(server, "127.46.0.1", 40)

            def settled(held: list[socket.socket] = attack) -> bool:
                return still_open(held) <= MOST

            assert wait_until(settled, 30), still_open(attack)
        a_phone_plays(server, "127.46.0.2")
        assert still_open(attack) == MOST  # the 16 it was allowed are still held: the phone got in beside them
    clean_log(server)


def test_running_out_of_files_costs_a_log_line_not_megabytes(tuned: Callable[..., TunedServer]) -> None:
    """Many addresses together can still take every file descriptor of a server whose limit is low (here
    128, and the system allows no more): asyncio then fails every ``accept`` and logs each failure.  The log
    gets one line of it every 10 seconds, and the server serves again once the sockets are gone (their
    request time runs out)."""
    server = tuned(files=(128, 128), request_seconds=4.0)
    attack: list[socket.socket] = []
    with holding(attack):
        for i in range(12):
            attack += half_sent(server, f"127.47.0.{i + 1}", MOST)
        time.sleep(3.0)  # asyncio retries accepting every second
        assert wait_until(lambda: still_open(attack) == 0, 60)  # their time ran out
    a_phone_plays(server, "127.47.1.1")
    text = server.log.read_text("utf-8", "replace")
    flood = [line for line in text.splitlines() if re.search(r"out of system resource|Too many open files", line)]
    assert 1 <= len(flood) <= 3, len(flood)
    assert len(text) < 20_000, len(text)


def test_the_open_file_limit_is_raised_to_the_hard_limit(tuned: Callable[..., TunedServer]) -> None:
    server = tuned(files=(256, 4096))
    assert server.proc is not None
    limits = Path(f"/proc/{server.proc.pid}/limits").read_text()
    soft, hard = re.search(r"Max open files\s+(\d+)\s+(\d+)", limits).groups()  # type: ignore[union-attr]
    assert (int(soft), int(hard)) == (4096, 4096)
    assert "raised the limit from 256 to 4096" in server.log.read_text()


@pytest.mark.parametrize("kind", ["websocket", "post"])
def test_finished_requests_are_not_held_to_the_request_time(tuned: Callable[..., TunedServer], kind: str) -> None:
    """A WebSocket lives on long after its handshake, and a POST's body counts as part of its request."""
    server = tuned(request_seconds=1.0)
    if kind == "post":
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        with holding([s]):
            s.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b'Content-Length: 100\r\n\r\n{"game":'
            )  # the body stops short
            assert wait_until(lambda: closed_by_server(s), 30)
        return

    async def scenario() -> None:
        code = server.create_table()
        phone = await Client.open(server.ws)
        await phone.join(code, "Ann")
        await asyncio.sleep(2.5)  # well past the request time
        state = await phone.hello(code, phone.token)
        assert state["me"]["name"] == "Ann" and not phone.closed
        await phone.close()

    run(scenario())
    clean_log(server)


def test_a_proxy_on_this_host_is_not_counted(tuned: Callable[..., TunedServer]) -> None:
    """127.0.0.1 (where a reverse proxy on this host connects from; uvicorn takes the phone's address from its
    ``X-Forwarded-For``) speaks for many phones: its unfinished requests are not counted."""
    server = tuned(request_seconds=120.0)
    with holding(half_sent(server, "127.0.0.1", MOST + 8)) as proxied:
        a_phone_plays(server, "127.0.0.1")
        assert still_open(proxied) == MOST + 8
