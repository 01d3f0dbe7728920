"""Every limit of the server, reached through a real server (production limits unless a test tunes one down).

The numbers (``gemtable.server.limits.Limits``, ``gemtable.server.run.MAX_FRAME``; docs/security.md):
4096 characters a message (64 KiB a frame closes the connection), 20 messages a second per connection
(bursts of 60), 60 refused messages close a connection, 64 connections per address, 20 joins at once
per address (then 10 a minute), 6 people per address at one table (a reverse proxy on this host is not
counted; the phones it forwards are), 10 new tables at once per address (then 30 an hour), 12 tries of table
codes per address (then 6 a minute), a name of 1 to 24 printable characters, 64 KiB of HTTP body, and
30 seconds for a new connection to open a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from gemtable.bench.proc import rss_kib
from gemtable.client import Client, ServerError
from gemtable.server.limits import Limits, address_key
from tests.security.conftest import TunedServer, clean_log
from tests.server.harness import ServerProcess
from tests.server.test_bad_input import answer
from tests.server.test_game_flow import run

LIMITS = Limits()
BURST = int(LIMITS.message_burst)


async def connect(server: ServerProcess, address: str, **options: Any) -> Any:
    return await websockets.connect(server.ws, local_addr=(address, 0), ping_interval=None, open_timeout=30, **options)


async def client_from(server: ServerProcess, address: str) -> Client:
    return Client(await connect(server, address, max_size=2**22))


def test_the_numbers_are_the_documented_ones() -> None:
    assert (LIMITS.messages_per_second, LIMITS.message_burst, LIMITS.strikes_before_close) == (20, 60, 60)
    assert (LIMITS.connections_per_address, LIMITS.join_burst, LIMITS.table_burst, LIMITS.lookup_burst) == (
        64,
        20,
        10,
        12,
    )
    assert (LIMITS.hello_seconds, LIMITS.max_body, LIMITS.people_per_address) == (30.0, 64 * 1024, 6)
    assert (LIMITS.request_seconds, LIMITS.unfinished_per_address) == (10.0, 16)  # tests/security/test_slowloris.py


def test_a_long_message_is_refused_and_a_huge_frame_closes_the_connection(production: ServerProcess) -> None:
    async def scenario() -> None:
        phone = await client_from(production, "127.30.0.1")
        name = "x" * (4097 - len(json.dumps({"type": "join", "code": "ACDE", "name": ""})))
        assert (await answer(phone, {"type": "join", "code": "ACDE", "name": name}))["code"] == "too-large"
        await phone.send_raw(json.dumps({"type": "join", "code": "ACDE", "name": "x" * (64 * 1024)}))
        await phone._wait(lambda: phone.closed, 10)
        assert phone.ws.close_code == 1009
        other = await client_from(production, "127.30.0.1")  # the same address is not punished for it
        assert (await answer(other, {"type": "teleport"}))["code"] == "unknown-type"

    run(scenario())
    clean_log(production)


def test_the_message_rate_is_per_connection(production: ServerProcess) -> None:
    async def scenario() -> None:
        flood = await client_from(production, "127.31.0.1")
        calm = await client_from(production, "127.31.0.1")
        for _ in range(BURST + 10):
            await flood.send({"type": "ping"})
        await flood._wait(lambda: any(e["code"] == "slow-down" for e in flood.errors), 10)
        pongs = sum('"pong"' in f for f in flood.frames)
        assert BURST <= pongs < BURST + 10
        assert (await answer(calm, {"type": "teleport"}))["code"] == "unknown-type"  # its neighbour talks on
        await asyncio.sleep(1.0)  # the bucket fills again
        assert (await answer(flood, {"type": "teleport"}))["code"] == "unknown-type"

    run(scenario())


def test_refusals_close_an_abusive_connection_even_at_a_polite_pace(production: ServerProcess) -> None:
    async def scenario() -> None:
        phone = await client_from(production, "127.32.0.1")
        for i in range(LIMITS.strikes_before_close):
            await phone.send_raw("not json")
            if i % 15 == 14:
                await asyncio.sleep(1.0)  # well under the rate limit
        await phone._wait(lambda: phone.closed, 10)
        assert phone.ws.close_code == 1008
        assert [e["code"] for e in phone.errors] == ["bad-json"] * LIMITS.strikes_before_close

    run(scenario())


def test_connections_per_address_are_limited_and_given_back(production: ServerProcess) -> None:
    async def scenario() -> None:
        phones = [await connect(production, "127.33.0.1") for _ in range(LIMITS.connections_per_address)]
        with pytest.raises(websockets.InvalidStatus) as refused:
            await connect(production, "127.33.0.1")
        assert refused.value.response.status_code == 403
        neighbour = await connect(production, "127.33.0.2")  # another address is not affected
        await phones[0].close()
        await asyncio.sleep(0.3)
        again = await connect(production, "127.33.0.1")  # a closed connection gives its place back
        for ws in [*phones, neighbour, again]:
            await ws.close()

    run(scenario())


def test_joins_per_address_are_limited(production: ServerProcess) -> None:
    per = LIMITS.people_per_address  # (one address brings at most that many people to one table: spread out)
    tables = [production.create_table() for _ in range(-(-(int(LIMITS.join_burst) + 2) // per))]

    async def scenario() -> list[str]:
        codes = []
        for i in range(int(LIMITS.join_burst) + 2):
            phone = await client_from(production, "127.34.0.1")
            await phone.send({"type": "join", "code": tables[i // per], "name": f"Guest {i}"})

            def answered(p: Client = phone) -> bool:
                return p.token is not None or bool(p.errors)

            await phone._wait(answered, 10)
            codes.append("ok" if phone.token else phone.errors[0]["code"])
            await phone.close()
        other = await client_from(production, "127.34.0.2")
        await other.join(tables[0], "Neighbour")  # the next house joins as usual
        return codes

    codes = run(scenario())
    assert codes[: int(LIMITS.join_burst)] == ["ok"] * int(LIMITS.join_burst)
    assert codes[-1] == "slow-down"


def test_new_tables_per_address_are_limited(production: ServerProcess) -> None:
    from tools.fuzz import Target

    target = Target("127.0.0.1", production.port)
    statuses = [
        target.request("POST", "/api/tables", b"{}", source="127.35.0.1")[0] for _ in range(int(LIMITS.table_burst) + 2)
    ]
    assert statuses[: int(LIMITS.table_burst)] == [201] * int(LIMITS.table_burst)
    assert statuses[-1] == 429
    assert target.request("POST", "/api/tables", b"{}", source="127.35.0.2")[0] == 201


def test_names_are_plain_short_text(production: ServerProcess) -> None:
    code = production.create_table()
    cases = [
        ("\u202eevil\u202c", "evil"),  # bidi overrides are dropped
        ("A\u200bnn", "Ann"),  # zero-width characters too
        ("  tab\there\nnewline  ", "tab here newline"),
        ("\U0001f48e" * 23 + "x", "\U0001f48e" * 23 + "x"),  # 24 characters, one of them a letter or digit
        ("<img src=x onerror=f()>", "<img src=x onerror=f()>"),  # kept as text: the pages render text
        ("x');DROP TABLE events--", "x');DROP TABLE events--"),
    ]
    refused = [
        "",
        "\u0000\u0007",
        "\u200b\u200b",
        "\U0001f48e" * 24 + "x",
        "x" * 25,
        "\U0001f48e",
        "a\u0007b",
        "\u3164",
        "\u2800 \uffa0",
        "a" + "\u0301" * 23,
    ]

    async def scenario() -> None:
        for i, (name, shown) in enumerate(cases):
            phone = await client_from(production, f"127.36.0.{i + 1}")
            state = await phone.join(code, name)
            assert state["me"]["name"] == shown
        for i, name in enumerate(refused):
            phone = await client_from(production, f"127.36.1.{i + 1}")
            assert (await answer(phone, {"type": "join", "code": code, "name": name}))["code"] == "bad-name", name
        copycat = await client_from(production, "127.36.2.1")
        assert (await answer(copycat, {"type": "join", "code": code, "name": " EVIL "}))["code"] == "name-taken"

    run(scenario())
    status, summary = production.get(f"/api/tables/{code}")
    assert status == 200 and summary["taken"] == len(cases)


def test_an_http_body_over_the_limit_is_refused_unread(production: ServerProcess) -> None:
    from tools.fuzz import Target

    target = Target("127.0.0.1", production.port)
    big = json.dumps({"game": "expedition", "padding": "x" * LIMITS.max_body}).encode()
    status, body, _ = target.request("POST", "/api/tables", big, source="127.37.0.1")
    assert status == 413 and json.loads(body)["error"] == "too-large"
    # Without a length up front (chunked), the server stops reading at the limit all the same.
    status, body = chunked_post(target, "/api/tables", [b'{"padding": "' + b"x" * 16384] * 8 + [b'"}'])
    assert status == 413, body
    assert target.request("POST", "/api/tables", b'{"game": "expedition"}', source="127.37.0.2")[0] == 201
    clean_log(production)


def chunked_post(target: Any, path: str, chunks: list[bytes]) -> tuple[int, bytes]:
    import http.client

    conn = http.client.HTTPConnection(target.host, target.port, timeout=30, source_address=("127.37.0.3", 0))
    try:
        conn.request("POST", path, body=iter(chunks), headers={"Content-Type": "application/json"}, encode_chunked=True)
        response = conn.getresponse()
        return response.status, response.read()
    except (BrokenPipeError, ConnectionResetError):  # refused before we finished sending: also fine
        return 413, b""
    finally:
        conn.close()


def test_connections_that_never_open_a_table_are_closed(tuned: Callable[..., TunedServer]) -> None:
    server = tuned(hello_seconds=3.0)
    code = server.create_table()

    async def scenario() -> None:
        # The phone that opens a table says hello first thing (its 3 s must not run out while the others connect
        # on a loaded machine); then the three that do not.
        watching = await client_from(server, "127.38.0.1")
        await watching.hello(code)
        silent = await client_from(server, "127.38.0.1")
        pinging = await client_from(server, "127.38.0.1")  # pings are no hello
        guessing = await client_from(server, "127.38.0.1")  # nor is a wrong code
        await guessing.send({"type": "hello", "code": "QQQQ"})
        started = time.monotonic()
        while time.monotonic() - started < 4.0:
            if not pinging.closed:
                with contextlib.suppress(websockets.ConnectionClosed):  # closed between the look and the ping
                    await pinging.send({"type": "ping"})
            await asyncio.sleep(0.2)
        for phone in (silent, pinging, guessing):

            def closed(p: Client = phone) -> bool:
                return p.closed

            await phone._wait(closed, 5)
            assert phone.ws.close_code == 1008
            assert phone.errors[-1]["code"] == "idle"
        assert not watching.closed  # a phone at a table (a TV, say) may stay silent for hours
        assert (await answer(watching, {"type": "teleport"}))["code"] == "unknown-type"

    run(scenario())
    clean_log(server)


def raise_fd_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            pytest.skip(f"needs {needed} file descriptors; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


IDLE = 2000
HOUSES = 40  # 2000 connections from 40 addresses: 50 each, under the 64 an address may hold


def test_thousands_of_silent_connections_cost_bounded_memory_and_go_away(tuned: Callable[..., TunedServer]) -> None:
    """2000 WebSockets that open and never speak, twice over: the server holds them in bounded memory, refuses
    more than 64 from one address, closes them all once the hello time is up, and takes a second wave in
    the memory the first one used."""
    raise_fd_limit(3 * IDLE + 512)
    server = tuned(hello_seconds=12)  # long enough to open all 2000 on a busy machine first
    assert server.proc is not None
    pid = server.proc.pid
    figures: dict[str, float] = {"start": float(rss_kib(pid) or 0)}

    async def wave(name: str) -> None:
        gate = asyncio.Semaphore(200)

        async def one(i: int) -> Any:
            async with gate:
                return await connect(server, f"127.39.{i % HOUSES}.1", compression="deflate")

        phones: list[Any] = []
        if name == "first":  # one address's 64, then its 65th, refused (64 connections take far less than 12 s)
            with pytest.raises(websockets.InvalidStatus):
                for _ in range(LIMITS.connections_per_address + 1):
                    phones.append(await connect(server, "127.38.0.1"))
            assert len(phones) == LIMITS.connections_per_address
        phones += await asyncio.gather(*(one(i) for i in range(IDLE)))
        await asyncio.sleep(0.5)
        figures[name] = float(rss_kib(pid) or 0)
        # Nobody says anything: once the hello time is up, the server closes every one of them.
        await asyncio.wait_for(asyncio.gather(*(ws.wait_closed() for ws in phones)), 30)
        assert {ws.close_code for ws in phones} == {1008}
        figures[name + " closed"] = float(rss_kib(pid) or 0)

    run(wave("first"))
    run(wave("second"))
    per_connection = (figures["first"] - figures["start"]) / IDLE
    print({k: f"{v / 1024:.0f} MiB" for k, v in figures.items()}, f"{per_connection:.0f} KiB per connection")
    assert per_connection < 200  # KiB, with permessage-deflate as browsers offer it (about 65 measured)
    assert figures["second"] < figures["first"] * 1.15 + 10_240  # the second wave reuses the first's memory
    assert server.get("/healthz")[0] == 200
    clean_log(server)


def test_unknown_table_codes_leave_nothing_behind() -> None:
    """Every code anyone tries is looked up; none of the lookups may leave memory behind (codes are any
    four letters, in any alphabet, so their number is unbounded)."""
    from gemtable.server.hub import Hub
    from gemtable.store import MemoryStore

    async def scenario() -> float:
        hub = Hub(MemoryStore())
        await hub.start()
        for i in range(100):
            await hub.open(f"\u00c4\u00c4\u00c4{chr(0x400 + i)}")
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for i in range(20_000):
            await hub.open("".join(chr(0x400 + (i >> (5 * k)) % 32) for k in range(4)))
        grown = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        await hub.stop()
        return grown

    assert run(scenario()) < 256 * 1024  # bytes, for 20,000 codes (it was 3.7 MB, one lock per code)


def test_limits_count_ipv6_hosts_by_their_network() -> None:
    assert address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("testclient") == "testclient"


async def forwarded(server: ServerProcess, address: str) -> Client:
    """A phone behind a reverse proxy on this host: the proxy connects from 127.0.0.1 and says who it speaks
    for in ``X-Forwarded-For`` (uvicorn trusts it from there)."""
    ws = await websockets.connect(
        server.ws,
        local_addr=("127.0.0.1", 0),
        ping_interval=None,
        open_timeout=30,
        max_size=2**22,
        additional_headers={"X-Forwarded-For": address},
    )
    return Client(ws)


def test_one_address_brings_at_most_six_people_to_a_table(production: ServerProcess) -> None:
    """Counted for real: six phones from one address join a table, the seventh is refused (``address-full``)
    while the next house still joins; the same through a reverse proxy on this host, by the address it
    forwards; a proxy that forwards nothing (every phone 127.0.0.1) is not counted.  Another table takes the
    seventh.  A person who leaves makes room again."""
    per = LIMITS.people_per_address
    code, other = production.create_table(), production.create_table()

    phones: list[Client] = []

    async def joins(make: Any, prefix: str, table: str, count: int) -> list[str]:
        out = []
        for i in range(count):
            phone = await make()
            try:
                await phone.join(table, f"{prefix} {i}")
                out.append("ok")
                phones.append(phone)
            except ServerError as exc:
                out.append(exc.code)
                await phone.close()
        return out

    async def scenario() -> None:
        house = await joins(lambda: client_from(production, "127.38.0.1"), "House", code, per + 1)
        assert house == ["ok"] * per + ["address-full"]
        assert await joins(lambda: client_from(production, "127.38.0.2"), "Next", code, 1) == ["ok"]
        assert await joins(lambda: client_from(production, "127.38.0.1"), "Elsewhere", other, 1) == ["ok"]
        proxied = await joins(lambda: forwarded(production, "198.51.100.7"), "Proxied", code, per + 1)
        assert proxied == ["ok"] * per + ["address-full"]
        plain = await joins(lambda: client_from(production, "127.0.0.1"), "Local", code, per + 1)
        assert plain == ["ok"] * (per + 1)  # a local proxy that forwards no address: not counted
        # One of the house leaves: the house may bring one more.
        await phones[1].leave()
        await phones[0].until(lambda s: not any(p["name"] == "House 1" for p in s["people"]))
        assert await joins(lambda: client_from(production, "127.38.0.1"), "Late", code, 2) == ["ok", "address-full"]
        for phone in phones:
            await phone.close()

    run(scenario())
    clean_log(production)
