"""A table's clock on its node (``Node._schedule``): armed once per turn of the event loop, for the moment the
table names (``Table.next_wakeup``), whatever number of commands the turn ran at the table."""

from __future__ import annotations

import asyncio

from gemtable.bus import MemoryBus
from gemtable.server import ops
from gemtable.server.node import Node
from gemtable.store import MemoryStore
from gemtable.table import Table
from tests.server.test_two_nodes_memory import settings


def test_a_turn_of_commands_arms_the_tables_clock_once_for_the_moment_it_names() -> None:
    async def scenario() -> None:
        clock = [1000.0]
        node = Node(MemoryStore(clock=lambda: clock[0]), MemoryBus(), clock=lambda: clock[0], node_id="n1")
        await node.start()
        try:
            local = await node.adopt(Table.create("TICK", settings(), clock[0]))
            for name in ("Ann", "Bob", "Cy"):
                await node.execute(local, ops.Join(name=name, token=name.lower()))
            await node.execute(local, ops.Start(person=1, seed=7))
            await asyncio.sleep(0)
            table = local.table
            asked = [0]
            next_wakeup = table.next_wakeup

            def counted() -> float | None:
                asked[0] += 1
                return next_wakeup()

            table.next_wakeup = counted  # type: ignore[method-assign]
            decision = table.moment.decision
            for pid, move in ((1, "deeper"), (2, "camp"), (1, "camp")):  # (Ann changes her mind)
                await node.execute(local, ops.Choose(person=pid, move=move, decision=decision))
            assert asked == [0]  # not yet: the turn is not over
            await asyncio.sleep(0)
            assert asked == [1]  # once for the three commands
            assert local.timer is not None and local.wake == next_wakeup() == table.moment.deadline
            await node.execute(local, ops.Choose(person=3, move="deeper", decision=decision))  # the reveal
            await asyncio.sleep(0)
            assert asked == [2]
            assert (table.moment.decision, table.moment.phase) != (decision, "playing")  # revealed
            assert local.wake == next_wakeup()  # armed for the table's next moment, whatever it is now
        finally:
            await node.stop()

    asyncio.run(scenario())
