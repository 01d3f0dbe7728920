"""Who may talk to a cluster's Redis (issue 21, §7): the nodes as the ACL user docs/deploy.md recommends, over
plain TCP and over TLS, a warning at start for a Redis that answers anyone, and a clear stop for a node whose
credentials are refused — all against a real redis-server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from gemtable.client import Client
from gemtable.store.redis_access import redacted
from gemtable.table import Table
from tests.cluster.test_cluster import check_against_log, play_out
from tests.redis_server import RedisServer
from tests.server.harness import ServerProcess
from tests.server.test_game_flow import run
from tests.server.test_table_life import LONG

pytestmark = pytest.mark.redis

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
PASSWORD = "x7Qp@:/9%-a-long-random-password"  # URL-special characters: quoted in the URL
WARNING = "accepts connections without a password"


def documented_acl() -> list[str]:
    """The ``user …`` lines of docs/deploy.md's ACL block, with the test's password."""
    text = DEPLOY.read_text("utf-8")
    block = re.search(r"### Who may talk to Redis.*?```\n(.*?)```", text, re.S)
    assert block, "docs/deploy.md has no ACL block under 'Who may talk to Redis'"
    lines = [line for line in block.group(1).splitlines() if line.startswith("user ")]
    assert any(line.startswith("user default off") for line in lines)
    return [line.replace(">LONG-RANDOM-PASSWORD", f">{PASSWORD}") for line in lines]


class Log:
    """The table's log in Redis, read as the nodes' user (what ``check_against_log`` reads)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def events(self, code: str) -> list[dict[str, Any]]:
        client = redis.Redis.from_url(self.url, decode_responses=True)
        return [json.loads(e) for e in client.lrange(f"gt:{{{code}}}:log", 0, -1)]


class Nodes:
    def __init__(self, folder: Path, redis_server: RedisServer, count: int = 2) -> None:
        self.redis = redis_server
        self.nodes = [
            ServerProcess(folder / f"node{i}", extra=["--allow-scripts", "--message-rate", "1000"])
            for i in range(count)
        ]
        for node in self.nodes:
            node.env = {"GEMTABLE_REDIS": redis_server.url}  # not --redis: no password in the process list
            node.start()

    def output(self) -> str:
        return "".join(node.log.read_text("utf-8", "replace") for node in self.nodes)

    def owner(self, code: str) -> ServerProcess:
        holder = redis.Redis.from_url(self.redis.url, decode_responses=True).get(f"gt:{{{code}}}:lease")
        for node in self.nodes:
            if node.pid is not None and node.get("/api/node")[1]["node"] == holder:
                return node
        raise AssertionError(f"no live node runs {code}")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        self.redis.stop()


@pytest.fixture(params=["tcp", "tls"])
def secured(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Nodes]:
    server = RedisServer(tmp_path / "redis", acl=documented_acl(), user=("gemtable", PASSWORD))
    server.tls = request.param == "tls"
    nodes = Nodes(tmp_path, server.start())
    try:
        yield nodes
    finally:
        nodes.stop()


def test_a_cluster_plays_as_the_documented_acl_user_and_survives_a_takeover(secured: Nodes) -> None:
    """Every command a node uses is in the documented ACL: a game across two nodes, the node running the
    table killed in the middle of a cave, the other takes over, the game ends and matches its log."""
    first, second = secured.nodes
    code = first.create_table(script=LONG, seconds=20, pause=0.5)

    async def scenario() -> None:
        phones = [await Client.open(node.ws) for node in (first, second, second)]
        for i, phone in enumerate(phones):
            await phone.join(code, f"P{i}")
        for phone in phones:
            await phone.until(lambda s: len(s["people"]) == 3)
        await phones[0].start()
        await phones[1].until(lambda s: s["phase"] == "playing")
        await phones[1].choose("deeper")  # a pending choice, forwarded to the node that runs the table
        await phones[2].until(lambda s: any(p["chosen"] for p in s["people"]))
        assert secured.owner(code) is first  # the table's creator runs it: kill it
        first.kill()
        token = phones[0].token
        phones[0] = await Client.open(second.ws)
        await phones[0].hello(code, token)
        await play_out(phones)

    run(scenario())
    assert secured.owner(code) is second
    events = Log(secured.redis.url).events(code)
    rebuilt = Table.rebuild(events)
    assert rebuilt.play.game is not None and rebuilt.play.game.is_over()
    check_against_log(Log(secured.redis.url), code, rebuilt.play.game.scores())  # type: ignore[arg-type]
    output = secured.output()
    assert WARNING not in output and "NoPermission" not in output and "no permissions" not in output, output
    assert PASSWORD not in output and "cluster node on" in output and ":***@127.0.0.1" in output


def test_the_documented_acl_refuses_anyone_else(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis", acl=documented_acl(), user=("gemtable", PASSWORD)).start()
    try:
        anyone = redis.Redis(port=server.port)
        with pytest.raises(redis.exceptions.AuthenticationError):
            anyone.get("gt:secret")
        node = redis.Redis.from_url(server.url)
        with pytest.raises(redis.exceptions.NoPermissionError):
            node.get("not-gemtable")
        with pytest.raises(redis.exceptions.NoPermissionError):
            node.flushall()
        with pytest.raises(redis.exceptions.NoPermissionError):
            node.config_get("requirepass")
    finally:
        server.stop()


def test_a_node_warns_at_start_when_redis_answers_anyone(tmp_path: Path) -> None:
    nodes = Nodes(tmp_path, RedisServer(tmp_path / "redis").start(), count=1)
    try:
        output = nodes.output()
        assert f"gemtable: warning: Redis at redis://127.0.0.1:{nodes.redis.port}/0 {WARNING}" in output
        # It points at the section that gives Redis its ACL user (the one documented_acl reads), not elsewhere.
        section = re.search(r"docs/deploy\.md, '([^']+)'", output)
        assert section and section.group(1) == "Who may talk to Redis", output
        assert f"### {section.group(1)}" in DEPLOY.read_text("utf-8")
        documented_acl()
    finally:
        nodes.stop()


def test_a_node_whose_password_is_refused_stops_with_a_clear_message(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis", acl=documented_acl(), user=("gemtable", "wrong password")).start()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "gemtable", "serve", "--data", str(tmp_path / "d"), "--port", "0", "--no-qr"],
            env={**os.environ, "GEMTABLE_REDIS": server.url},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode != 0
        assert "refused this node's credentials" in result.stderr and "Traceback" not in result.stderr
        assert "wrong password" not in result.stderr and redacted(server.url) in result.stderr
    finally:
        server.stop()
