"""A node saves every finished game's record and then forgets it: memory does not grow with games played."""

from __future__ import annotations

import asyncio

from gemtable.games import find_game
from gemtable.server import ops
from gemtable.server.node import Node
from gemtable.store import MemoryStore
from gemtable.table import RESULTS, Settings, Table


def test_records_are_saved_then_forgotten_and_come_back_after_a_rebuild() -> None:
    async def scenario() -> None:
        clock = [1000.0]
        store = MemoryStore(clock=lambda: clock[0])
        node = Node(store, clock=lambda: clock[0], node_id="n1", lease_ttl=1e6)
        kind = find_game("expedition")
        settings = Settings("expedition", "table", {}, kind.rules_json("table", {}), seconds=1, pause=0.5)
        table = Table.create("GAME", settings, clock[0])
        local = await node.adopt(table)
        pid = await node.run(local, ops.Join(name="Ann", token="h"))
        await node.run(local, ops.AddBot(person=pid, bot="cautious"))
        for game in range(1, 4):
            await node.run(local, ops.Start(person=pid, seed=game))
            while local.table.moment.phase != RESULTS:
                clock[0] += 1.0
                await node.run(local, ops.Noop())
            assert local.table.log.records == {}  # saved, then forgotten
            assert await store.record("GAME", game) is not None
        assert local.table.log.finished == [1, 2, 3]
        # A second node rebuilding the table from its log does not keep them in memory either.
        clock[0] += 10
        other = Node(store, clock=lambda: clock[0], node_id="n2")
        followed = await other.table("GAME")
        assert followed is not None and followed.table.log.records == {} and followed.table.log.finished == [1, 2, 3]

    asyncio.run(scenario())
