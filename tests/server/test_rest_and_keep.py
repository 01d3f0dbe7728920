"""Memory and disk are bounded over time: a table nobody uses leaves the server's memory (and comes back whole
when a phone asks for it), and a table unchanged for the keeping time is deleted, its records with it.

The node is driven directly, on a real SQLite file, with time as an input (``docs/security.md``, "Disk and
memory over time"); ``test_in_process`` shows the same through the app."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from gemtable.games import find_game
from gemtable.server import ops
from gemtable.server.app import create_app
from gemtable.server.limits import Limits
from gemtable.server.node import REST_AFTER, Nobody, Node
from gemtable.server.site import Site
from gemtable.store.sqlite import SqliteStore
from gemtable.table import RESULTS, Settings, Table, TableError
from tests.server.harness import ServerProcess
from tests.server.test_in_process import until

DAY = 86400.0


def settings(**more: float) -> Settings:
    kind = find_game("expedition")
    return Settings("expedition", "table", {}, kind.rules_json("table", {}), **more)  # type: ignore[arg-type]


def test_a_table_nobody_uses_leaves_memory_and_comes_back_whole(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = [1_000_000.0]
        store = SqliteStore(tmp_path / "rest.sqlite3", clock=lambda: clock[0])
        watched: set[str] = set()

        class Watching(Nobody):
            def watched(self, code: str) -> bool:
                return code in watched

        node = Node(store, clock=lambda: clock[0], node_id="n1", lease_ttl=1e7, phones=Watching())
        local = await node.adopt(Table.create("REST", settings(seconds=10), clock[0]))
        ann = await node.run(local, ops.Join(name="Ann", token="a"))
        await node.run(local, ops.AddBot(person=ann, bot="cautious"))

        clock[0] += REST_AFTER - 1
        await node.rest()
        assert "REST" in node.tables  # not yet
        clock[0] += 2
        watched.add("REST")  # a TV looks on: it stays
        await node.rest()
        assert "REST" in node.tables and not local.rested
        watched.clear()
        await node.rest()
        assert "REST" not in node.tables and local.rested
        assert (await store.owners(["REST"]))["REST"] is None  # its lease is given up, not renewed for ever
        assert await node.table("NONE") is None

        # A command that was on its way with the old object is carried out on the table loaded anew.
        bob = await node.execute(local, ops.Join(name="Bob", token="b"))
        back = node.tables["REST"]
        assert back is not local and back.owned
        assert [p.name for p in back.table.people.values()] == ["Ann", "Ada", "Bob"]
        assert back.table.people[bob].name == "Bob" and (await store.owners(["REST"]))["REST"] == "n1"

        # A game whose clock runs is never put to rest, even with nobody looking on.
        await node.run(back, ops.Start(person=ann, seed=1))
        clock[0] += REST_AFTER + 1
        await node.rest()
        assert node.tables.get("REST") is back
        while back.table.moment.phase != RESULTS:  # silence walks everyone out, cave after cave
            clock[0] += 11
            await node.run(back, ops.Noop())
        clock[0] += REST_AFTER + 1
        await node.rest()
        assert "REST" not in node.tables
        again = await node.table("REST")
        assert again is not None and again.table.moment.phase == RESULTS and again.table.log.finished == [1]
        await store.close()

    asyncio.run(scenario())


def test_a_table_past_its_keeping_time_is_deleted_with_its_records(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = [1_000_000.0]
        store = SqliteStore(tmp_path / "keep.sqlite3", clock=lambda: clock[0])
        node = Node(store, clock=lambda: clock[0], node_id="n1", lease_ttl=1e7, keep=30 * DAY)
        old = await node.adopt(Table.create("OLDT", settings(seconds=1, pause=0.5), clock[0]))
        ann = await node.run(old, ops.Join(name="Ann", token="a"))
        await node.run(old, ops.AddBot(person=ann, bot="cautious"))
        await node.run(old, ops.Start(person=ann, seed=1))
        while old.table.moment.phase != RESULTS:
            clock[0] += 1.0
            await node.run(old, ops.Noop())
        assert await store.record("OLDT", 1) is not None

        clock[0] += 29 * DAY
        new = await node.adopt(Table.create("NEWT", settings(), clock[0]))
        await node.run(new, ops.Join(name="Bob", token="b"))
        await node.rest()  # both rest (nobody looks on); OLDT has not changed for 29 days: kept
        assert await node.forget() == []
        clock[0] += 2 * DAY
        assert await node.forget() == ["OLDT"]
        assert not await store.exists("OLDT") and await store.record("OLDT", 1) is None
        assert await node.table("OLDT") is None
        with pytest.raises(TableError):
            await node.execute(old, ops.Join(name="Cy", token="c"))  # the old object finds nothing to load
        assert await store.exists("NEWT") and await node.table("NEWT") is not None

        # Kept for ever when the host says so.
        forever = Node(store, clock=lambda: clock[0], node_id="n2", keep=None)
        clock[0] += 365 * DAY
        assert await forever.forget() == []
        await store.close()

    asyncio.run(scenario())


def test_no_new_table_while_the_disk_is_nearly_full_and_the_running_ones_play_on(tmp_path: Path) -> None:
    """The app in this process on a real SQLite file; the free-space floor set above any disk's free space."""
    site = Site.build(8000, listen="127.0.0.1", interfaces=[], hostname="")
    store = SqliteStore(tmp_path / "full.sqlite3")
    hub_limits = Limits(min_free_mb=1)
    app = create_app(store, allow_scripts=True, site=site, limits=hub_limits)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        made = client.post("/api/tables", json={"game": "expedition", "countdown": 0, "ready_check": False})
        assert made.status_code == 201
        code = made.json()["code"]
        hub = app.state.hub
        hub.limits = Limits(min_free_mb=2**40)  # a terabyte free, at least: no disk here has it
        hub._disk_seen = (float("-inf"), False)  # (looked at again now, not in 10 s)
        full = client.post("/api/tables", json={"game": "expedition"})
        assert full.status_code == 507 and full.json()["error"] == "disk-full"
        assert "disk is nearly full" in full.json()["message"]
        with client.websocket_connect("/ws", headers={"host": "127.0.0.1:8000"}) as ws:  # the table plays on
            ws.send_text(json.dumps({"type": "join", "code": code, "name": "Ann"}))
            assert until(ws, lambda m: m["type"] == "welcome")["code"] == code
            ws.send_text(json.dumps({"type": "add_bot", "bot": "cautious"}))
            ws.send_text(json.dumps({"type": "start"}))
            until(ws, lambda m: m["type"] == "state" and m["table"]["phase"] == "playing")


def test_a_restarted_server_deletes_what_passed_its_keeping_time_as_the_host_chose(tmp_path: Path) -> None:
    """A real ``gemtable serve``: two tables made and played on, the server stopped, one of them made 40 days
    old in its file; the next start deletes it (the default 30 days), and keeps it with ``--keep-days 0``."""
    data = tmp_path / "data"
    server = ServerProcess(data).start()
    try:
        old, new = server.create_table(), server.create_table()
    finally:
        server.stop()
    long_ago = time.time() - 40 * DAY
    with sqlite3.connect(data / "gemtable.sqlite3") as db:
        db.execute("UPDATE tables SET updated = ? WHERE code = ?", (long_ago, old))
        db.execute("INSERT INTO records (code, number, body) VALUES (?, 1, '{}')", (old,))
    for extra, kept in ((["--keep-days", "0"], {old, new}), ([], {new})):
        again = ServerProcess(data, extra=["--allow-scripts", *extra]).start()
        try:
            found = {code for code in (old, new) if again.get(f"/api/tables/{code}")[0] == 200}
            assert found == kept
        finally:
            again.stop()
    with sqlite3.connect(data / "gemtable.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM records WHERE code = ?", (old,)).fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM events WHERE code = ?", (old,)).fetchone()[0] == 0
    refused = subprocess.run(
        [sys.executable, "-m", "gemtable", "serve", "--keep-days", "-1", "--data", str(data), "--no-qr"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode != 0
    assert refused.stderr.strip() == "gemtable: --keep-days must be 0 (keep for ever) or more"
