"""HTTP that costs little and is limited (issue 43 findings 2 and 3), against a real server from loopback addresses.

An address has a budget of requests, and a smaller one for ``/api/*`` (``gemtable.server.budget``); the schema is
built once; a ``GET`` of the API made by another site's page is refused before it costs anything; and a ``sync``
(a whole state, as a ``hello`` brings) is under the ``hello``'s budget."""

from __future__ import annotations

import http.client
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gemtable.server import protocol
from gemtable.server.limits import Limits
from tests.security.test_refusals import phone_from
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run


@pytest.fixture(scope="module")
def party(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The server as a party runs it (default limits), shared by this module's tests: each uses its own address."""
    proc = ServerProcess(tmp_path_factory.mktemp("budget") / "data", extra=[]).start()
    try:
        yield proc
    finally:
        proc.stop()


def gets(server: ServerProcess, source: str, path: str, n: int, headers: dict[str, str] | None = None) -> list[int]:
    """``n`` GETs of ``path`` on one kept-alive connection from ``source``: their statuses."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    statuses = []
    try:
        for _ in range(n):
            connection.request("GET", path, headers={"Host": f"127.0.0.1:{server.port}", **(headers or {})})
            response = connection.getresponse()
            body = response.read()
            statuses.append(response.status)
            if response.status == 429:
                assert json.loads(body)["error"] == "slow-down" and response.getheader("retry-after") == "1"
    finally:
        connection.close()
    return statuses


def refused_at_least(n: int, burst: float, rate: float, seconds: float) -> int:
    """How many of ``n`` requests made in ``seconds`` a bucket of ``burst`` refilled at ``rate`` must refuse."""
    return max(0, n - int(burst + rate * seconds) - 1)


def test_an_address_that_floods_the_api_is_slowed_down_and_another_is_not(party: ServerProcess) -> None:
    limits = Limits()
    n = int(limits.api_burst) + 40
    started = time.monotonic()
    statuses = gets(party, "127.49.0.1", "/api/schema", n)
    took = time.monotonic() - started
    assert statuses[:20].count(200) == 20  # a page's worth and far more: answered
    assert statuses.count(429) >= refused_at_least(n, limits.api_burst, limits.api_per_second, took) > 0
    assert gets(party, "127.49.0.2", "/api/schema", 3) == [200, 200, 200]  # another address is not touched
    time.sleep(1.0)  # (the budget refills: 5 a second)
    assert gets(party, "127.49.0.1", "/api/games", 1) == [200]


def test_pages_and_their_files_have_a_larger_budget(party: ServerProcess) -> None:
    limits = Limits()
    n = 3 * int(limits.request_burst)
    started = time.monotonic()
    statuses = gets(party, "127.49.1.1", "/healthz", n)
    took = time.monotonic() - started
    assert statuses[: int(limits.api_burst) + 20].count(200) == int(limits.api_burst) + 20  # more than the API's
    assert statuses.count(429) >= refused_at_least(n, limits.request_burst, limits.requests_per_second, took)


def test_another_sites_page_cannot_get_the_api_but_a_link_to_a_table_opens(party: ServerProcess) -> None:
    code = party.create_table()
    foreign = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}
    assert gets(party, "127.49.2.1", "/api/schema", 1, foreign) == [403]
    assert gets(party, "127.49.2.1", "/api/server", 1, {"Origin": "https://evil.example"}) == [403]
    assert gets(party, "127.49.2.1", "/api/games", 1, {"Referer": "https://evil.example/page"}) == [403]
    assert gets(party, "127.49.2.1", f"/t/{code}", 1, {"Sec-Fetch-Site": "cross-site"}) == [200]  # a link
    assert gets(party, "127.49.2.1", "/api/server", 1, {"Sec-Fetch-Site": "same-origin"}) == [200]


def test_the_schema_is_built_once() -> None:
    assert protocol.schema() is protocol.schema()


def test_sync_is_under_the_hellos_budget(party: ServerProcess, tmp_path: Path) -> None:
    """Every ``sync`` builds and sends a whole state: past the hello's budget it gets ``slow-down``."""
    code = party.create_table()

    async def scenario() -> None:
        phone = await phone_from(party, "127.49.3.1")
        await phone.join(code, "Ann")
        errors = len(phone.errors)
        for _ in range(12):
            await phone.send({"type": "sync"})
        await phone.send({"type": "ping"})
        await phone._wait(lambda: any('"pong"' in f for f in phone.frames), 10)
        refused = [e["code"] for e in phone.errors[errors:]]
        assert refused and set(refused) == {"slow-down"}, refused
        assert len(refused) >= 12 - int(Limits().hello_burst)
        await phone.close()

    run(scenario())


def test_a_refused_request_closes_its_connection(party: ServerProcess) -> None:
    """A client that goes on asking past its budget pays a new connection for every refusal (a kept-alive
    connection let one address have tens of thousands refused a second)."""
    source = "127.49.4.1"
    limits = Limits()
    statuses = gets(party, source, "/api/schema", int(limits.api_burst) + 20)
    assert 429 in statuses
    time.sleep(1.5 / limits.api_per_second)  # a token comes back: the first request below is answered
    asked = 20
    with socket.create_connection(("127.0.0.1", party.port), timeout=10, source_address=(source, 0)) as sock:
        request = f"GET /api/schema HTTP/1.1\r\nHost: 127.0.0.1:{party.port}\r\n\r\n".encode()
        sock.sendall(request * asked)  # asked at once on one kept-alive connection
        answers = b""
        while chunk := sock.recv(65536):  # until the server closes it (a timeout fails the test)
            answers += chunk
    # The tokens that came back are spent (more than one if the machine is slow), then the first refusal is the last
    # answer on the connection, and it says it closes.
    answered = responses(answers)
    statuses = [status for status, _ in answered]
    assert statuses[0] == 200 and statuses[-1] == 429 and 429 not in statuses[:-1] and len(statuses) < asked, statuses
    assert answered[-1][1].get("connection") == "close"


def responses(stream: bytes) -> list[tuple[int, dict[str, str]]]:
    """The status and headers of each response in ``stream``, read by their ``content-length`` (a body need not end
    in a line break, so the next status line may follow it on the same line)."""
    answered = []
    while stream:
        head, separator, rest = stream.partition(b"\r\n\r\n")
        assert separator, f"a response cut short: {stream[:200]!r}"
        status_line, *lines = head.decode("latin-1").split("\r\n")
        assert status_line.startswith("HTTP/1.1 "), status_line
        headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
        length = int(headers["content-length"])
        assert len(rest) >= length, f"a body cut short: {len(rest)} of {length} bytes"
        answered.append((int(status_line.split()[1]), headers))
        stream = rest[length:]
    return answered
