"""Answers nobody reads ("slow read", issue 43 finding 1), against a real server process with real sockets.

A client sends whole requests (20 pipelined GETs of the biggest script, about 740 KB of answers) and never reads:
uvicorn waited in ``drain()`` for ever, and one address filled every descriptor of a server under a 256-file
limit, so a new phone could not connect.  Now (``gemtable.server.guard``) an address holds at most
``Limits.sockets_per_address`` connections, the last descriptors are kept for addresses that hold few, and a
connection whose reader has not taken what it is sent within ``Limits.write_seconds`` is cut."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

import psutil
import pytest

from gemtable.server.limits import Limits
from tests.security.conftest import TunedServer, clean_log
from tests.security.test_slowloris import a_phone_plays, holding, wait_until

SCRIPT = b"GET /static/js/table.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def slow_readers(port: int, source: str, n: int) -> list[socket.socket]:
    """``n`` connections from ``source``, each asking for the script 20 times and reading nothing, 40 at a time
    (asyncio accepts every waiting connection before it closes any: a burst larger than the spare descriptors
    runs out of them for a moment whoever sends it, see test_slowloris)."""
    out: list[socket.socket] = []
    for i in range(n):
        if i and i % 40 == 0:
            time.sleep(0.3)
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: the server's side fills
        s.settimeout(5)
        s.bind((source, 0))
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(SCRIPT * 20)
        except OSError:  # refused at once, or closed while sending: it holds nothing
            s.close()
            continue
        out.append(s)
    return out


def descriptors(server: TunedServer) -> int:
    assert server.pid is not None
    return int(psutil.Process(server.pid).num_fds())


def test_one_address_that_reads_nothing_cannot_lock_phones_out(tuned: Callable[..., TunedServer]) -> None:
    """300 slow readers from one address against 256 descriptors: the server holds at most
    ``sockets_per_address`` of them, a new phone from another address joins and plays at once, and once the
    write time is up every one of them is cut and its descriptor freed, though the attacker still holds them."""
    server = tuned(files=(256, 256), write_seconds=3.0)
    idle = descriptors(server)
    with holding(slow_readers(server.port, "127.47.0.1", 300)) as attack:
        assert wait_until(lambda: descriptors(server) <= idle + Limits().sockets_per_address, 30), descriptors(server)
        a_phone_plays(server, "127.47.0.2")
        assert wait_until(lambda: descriptors(server) <= idle + 2, 60), descriptors(server)  # all cut
        assert len(attack) >= Limits().sockets_per_address
    a_phone_plays(server, "127.47.0.1")  # the address is not punished for it afterwards
    clean_log(server)


@pytest.mark.parametrize("addresses", [4])
def test_near_the_descriptor_limit_new_phones_still_get_in(tuned: Callable[..., TunedServer], addresses: int) -> None:
    """Several addresses together, each under its own bound, fill the server up to its reserve: past it, an
    address that holds many gets no more, and a phone from a new address still joins."""
    server = tuned(files=(256, 256), write_seconds=120.0)
    with holding([]) as attack:
        for i in range(addresses):
            attack += slow_readers(server.port, f"127.48.0.{i + 1}", Limits().sockets_per_address)
        assert descriptors(server) < 256 - 8
        a_phone_plays(server, "127.48.1.1")
    clean_log(server)
