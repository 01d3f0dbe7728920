"""A TV paired through one node by a phone on another (issue 22 §3): pairings live in Redis, as the documented
ACL user."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cluster.test_redis_auth import PASSWORD, Nodes, documented_acl
from tests.redis_server import RedisServer
from tests.server.test_pairing import call

pytestmark = pytest.mark.redis


def test_the_tv_asks_one_node_and_the_phone_sends_it_through_another(tmp_path: Path) -> None:
    nodes = Nodes(tmp_path, RedisServer(tmp_path / "redis", acl=documented_acl(), user=("gemtable", PASSWORD)).start())
    try:
        first, second = nodes.nodes
        code = first.create_table()
        opened = call(first, "POST", "/api/pairings")[1]
        assert call(second, "POST", f"/api/pairings/{opened['pairing']}", {"table": code}) == (200, {"table": code})
        url = f"/api/pairings/{opened['pairing']}?secret={opened['secret']}"
        assert call(first, "GET", url) == (200, {"table": code, "url": f"/t/{code}/tv"})
        assert call(second, "GET", url)[0] == 404  # used once, on every node
    finally:
        nodes.stop()
