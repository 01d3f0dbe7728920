"""IPv6 (issue 21, finding 5), through a real server bound to ``::1``.

Grouped by /64, every IPv6 guest on a party's network shared one budget (all link-local addresses are in
``fe80::/64``), and ``::1`` became ``::/64``, so a reverse proxy on ``::1`` was counted as one address: its
half-sent requests closed its next connection, and six phones behind it filled its cap of people.  A
``Host: [::1]:PORT`` was refused (400).  Now the proxies are compared before any grouping, local networks
(loopback, link-local, unique local) count each address alone, and a bracketed IPv6 literal that names this
server is a good ``Host``.
"""

from __future__ import annotations

import http.client
import socket
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from gemtable.client import Client, ServerError
from gemtable.server.limits import Limits, address_key
from tests.security.conftest import clean_log
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run

LIMITS = Limits()


def ipv6_loopback() -> bool:
    if not socket.has_ipv6:
        return False
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


pytestmark = pytest.mark.skipif(not ipv6_loopback(), reason="this machine has no IPv6 loopback")


def free_port6() -> int:
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
        s.bind(("::1", 0))
        return int(s.getsockname()[1])


class Server6(ServerProcess):
    """``gemtable serve --host ::1``, as a party runs it (production limits)."""

    def __init__(self, data: Path) -> None:
        super().__init__(data, extra=[])
        self.port = free_port6()

    @property
    def base(self) -> str:
        return f"http://[::1]:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://[::1]:{self.port}/ws"

    def _open(self, req: urllib.request.Request) -> tuple[int, Any]:
        req.add_unredirected_header("Host", f"localhost:{self.port}")  # (as ``healthy``)
        return super()._open(req)

    def healthy(self) -> bool:  # (by the name ``localhost``: the bracketed Host is what a test checks)
        try:
            return request(self.port, "/healthz", "localhost") == 200
        except OSError:
            return False

    def command(self) -> list[str]:
        command = super().command()
        command[command.index("--host") + 1] = "::1"
        return command


@pytest.fixture
def server6(tmp_path: Path) -> Iterator[Server6]:
    proc = Server6(tmp_path / "data").start()
    try:
        yield proc
    finally:
        proc.stop()


def request(port: int, path: str, host: str, headers: dict[str, str] | None = None) -> int:
    conn = http.client.HTTPConnection("::1", port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_host=True)
        conn.putheader("Host", host)
        for key, value in (headers or {}).items():
            conn.putheader(key, value)
        conn.endheaders()
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_a_bracketed_ipv6_host_that_names_this_server_is_served(server6: Server6) -> None:
    port = server6.port
    assert request(port, "/healthz", f"[::1]:{port}") == 200
    assert request(port, "/", "[::1]") == 200
    assert request(port, "/healthz", f"[::2]:{port}") == 400  # an address that is not this machine's
    assert request(port, "/healthz", "[::1") == 400
    assert request(port, "/healthz", f"::1:{port}") == 400  # an IPv6 literal without brackets is no Host

    async def scenario() -> None:  # a phone that reached the server by its IPv6 literal: its page's origin
        ws = await websockets.connect(
            server6.ws, ping_interval=None, open_timeout=30, origin=websockets.Origin(f"http://[::1]:{port}")
        )
        phone = Client(ws)
        await phone.join(server6.create_table(), "Ann")
        await phone.close()

    run(scenario())


def test_a_proxy_on_ipv6_loopback_is_not_counted(server6: Server6) -> None:
    """More half-sent requests from ``::1`` than one address may hold, and the next full request is still
    served (it was reset: ``::1`` counted as ``::/64``); more people than one address may bring, from
    ``::1``, all join."""
    half = []
    try:
        for _ in range(LIMITS.unfinished_per_address + 4):
            s = socket.create_connection(("::1", server6.port), timeout=10)
            s.sendall(b"GET / HTTP/1.1\r\nHost: [::1]\r\nUser-Agent: slow")
            half.append(s)
        time.sleep(0.3)
        assert request(server6.port, "/healthz", f"[::1]:{server6.port}") == 200
    finally:
        for s in half:
            s.close()
    code = server6.create_table()

    async def scenario() -> list[str]:
        out = []
        for i in range(LIMITS.people_per_address + 2):
            phone = Client(await local_ws(server6))
            try:
                await phone.join(code, f"Local {i}")
                out.append("ok")
            except ServerError as exc:
                out.append(exc.code)
        return out

    assert run(scenario()) == ["ok"] * (LIMITS.people_per_address + 2)
    clean_log(server6)


async def behind_proxy(server: Server6, address: str) -> Client:
    """A phone behind a reverse proxy on ``::1``, which forwards its address (uvicorn trusts it from there)."""
    return Client(await local_ws(server, {"X-Forwarded-For": address}))


async def local_ws(server: Server6, headers: dict[str, str] | None = None) -> Any:
    """A WebSocket over ``::1`` that names the server ``localhost`` (the bracketed name has its own test)."""
    url = f"ws://localhost:{server.port}/ws"
    return await websockets.connect(
        url, host="::1", port=server.port, ping_interval=None, open_timeout=30, additional_headers=headers
    )


def test_link_local_guests_are_counted_one_by_one(server6: Server6) -> None:
    """A party on IPv6: every phone has its own link-local address, all in ``fe80::/64``.  Eight of them join
    one table (they were one address: the seventh was refused, ``address-full``); seven people from one
    link-local address are still capped."""
    code = server6.create_table()

    async def joins(addresses: list[str], prefix: str) -> list[str]:
        out = []
        for i, address in enumerate(addresses):
            phone = await behind_proxy(server6, address)
            try:
                await phone.join(code, f"{prefix} {i}")
                out.append("ok")
            except ServerError as exc:
                out.append(exc.code)
        return out

    async def scenario() -> tuple[list[str], list[str]]:
        party = await joins([f"fe80::1:{i + 1:x}" for i in range(8)], "Guest")
        one = await joins(["fe80::aa"] * (LIMITS.people_per_address + 1), "Same")
        return party, one

    party, one = run(scenario())
    assert party == ["ok"] * 8
    assert one == ["ok"] * LIMITS.people_per_address + ["address-full"]
    clean_log(server6)


def test_ipv6_address_keys() -> None:
    assert address_key("::1") == "::1"  # a local proxy, kept as it is (``LOCAL_PROXIES``)
    assert address_key("0:0:0:0:0:0:0:1") == "::1"
    assert address_key("fe80::fc:ff:fe00:1") == "fe80::fc:ff:fe00:1" != address_key("fe80::fc:ff:fe00:2")
    assert address_key("fe80::1%eth0") == address_key("fe80::1%2") == "fe80::1"  # a zone is not another host
    assert address_key("fd00::2") != address_key("fd00::3")  # unique local (a home router's prefix)
    assert address_key("fec0::1") == "fec0::1"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2::9") == "2001:db8:1:2::/64"  # global
    assert address_key("2a00:1450:4001:81d::200e") == "2a00:1450:4001:81d::/64"
    assert address_key("::ffff:192.168.1.7") == "192.168.1.7"
    assert address_key("testclient") == "testclient"  # not an address: kept as it is
