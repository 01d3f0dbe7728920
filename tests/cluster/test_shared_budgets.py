"""A cluster's nodes share each address's budgets (issue 43, finding 7): behind a round-robin proxy, an address
got each limit once per node.  Two real nodes on a real redis-server; the requests come from loopback addresses
of their own, alternating between the nodes as a round-robin proxy would send them."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gemtable.server.limits import Limits
from tests.redis_server import RedisServer
from tests.server.harness import ServerProcess

pytestmark = pytest.mark.redis

LIMITS = Limits()


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    redis = RedisServer(tmp_path / "redis").start()
    a = ServerProcess(tmp_path / "a", extra=["--redis", redis.url]).start()
    b = ServerProcess(tmp_path / "b", extra=["--redis", redis.url]).start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()
        redis.stop()


def ask(node: ServerProcess, source: str, method: str, path: str, body: Any = None) -> int:
    """The status of one request from ``source`` (a loopback address of its own)."""
    conn = http.client.HTTPConnection("127.0.0.1", node.port, timeout=30, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body)
        conn.request(method, path, body=data, headers={"content-type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_every_node_takes_from_the_same_budget_of_an_address(nodes: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = nodes
    burst = int(LIMITS.table_burst)
    made = [ask((a, b)[i % 2], "127.52.0.1", "POST", "/api/tables", {"game": "expedition"}) for i in range(burst)]
    assert made == [201] * burst
    assert ask(b, "127.52.0.1", "POST", "/api/tables", {"game": "expedition"}) == 429  # 201 on 91ef538
    assert ask(a, "127.52.0.1", "POST", "/api/tables", {"game": "expedition"}) == 429
    assert ask(a, "127.52.0.2", "POST", "/api/tables", {"game": "expedition"}) == 201  # another address

    # Guessing codes: the misses answered over both nodes together stay within one budget (24 on 91ef538).
    started, answers = time.monotonic(), []
    for i in range(3 * int(LIMITS.lookup_burst)):
        answers.append(ask((a, b)[i % 2], "127.52.0.3", "GET", f"/api/tables/{'QQQ' + 'ACDEFHJKLMNPQRTUVWXY'[i % 20]}"))
    refilled = (time.monotonic() - started) * LIMITS.lookups_per_minute / 60
    answered = answers.count(404)
    assert set(answers) == {404, 429}
    assert LIMITS.lookup_burst <= answered <= LIMITS.lookup_burst + refilled + 1, (answered, answers)
    assert answers[-2:] == [429, 429]  # refused by both nodes
