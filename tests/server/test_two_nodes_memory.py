"""Two nodes in one process sharing a memory bus and a memory store: a command forwarded from the
follower to the owner and its result coming back, the follower's replica kept up by the bus, and a
takeover when the owner dies (its lease lapses on the shared clock) — no processes, no sockets."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

import pytest

from gemtable.bus import MemoryBus
from gemtable.games import default_game, find_manifest
from gemtable.server import ops
from gemtable.server.conn import Conn
from gemtable.server.node import Local, Moved, Nobody, Node
from gemtable.store import MemoryStore
from gemtable.table import LOBBY, Settings, Table, TableError


def settings() -> Settings:
    manifest = find_manifest(default_game())
    rules = manifest.rules_json(None, {})
    return Settings(manifest.name, manifest.presets[0].name, {}, rules, seconds=5, pause=0.5)


async def until(test: Callable[[], bool], timeout: float = 5.0) -> None:
    async def poll() -> None:
        while not test():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), timeout)


def test_a_follower_forwards_commands_to_the_owner_and_takes_over_when_it_dies() -> None:
    async def scenario() -> None:
        clock = [1000.0]
        store, bus = MemoryStore(clock=lambda: clock[0]), MemoryBus()
        owner = Node(store, bus, clock=lambda: clock[0], node_id="n1", lease_ttl=3.0)
        follower = Node(store, bus, clock=lambda: clock[0], node_id="n2", lease_ttl=3.0)
        await owner.start()
        await follower.start()
        mine = await owner.adopt(Table.create("TWON", settings(), clock[0]))
        theirs = await follower.table("TWON")
        assert theirs is not None and mine.owned and not theirs.owned

        # Forwarding: the follower's phone joins; the owner runs it and answers with the person's id.
        ann = await follower.execute(theirs, ops.Join(name="Ann", token="a"))
        assert isinstance(ann, int) and mine.table.people[ann].name == "Ann"
        await until(lambda: ann in theirs.table.people)  # the replica follows the published events
        assert theirs.saved == mine.saved

        # A refusal comes back as the same error, and changes nothing on either node.
        before = mine.saved
        with pytest.raises(TableError) as refused:
            await follower.execute(theirs, ops.AddBot(person=ann, bot="no-such-bot"))
        assert refused.value.code == "unknown-bot"
        assert mine.saved == theirs.saved == before

        bob = await owner.execute(mine, ops.Join(name="Bob", token="b"))
        await until(lambda: bob in theirs.table.people)

        # The owner dies: it stops renewing, its lease lapses on the shared clock, the follower takes over.
        assert owner._maintenance is not None
        owner._maintenance.cancel()
        for local in owner.tables.values():
            if local.timer:
                local.timer.cancel()
        clock[0] += 10.0
        await follower.sweep()
        assert theirs.owned and theirs.table.moment.phase == LOBBY
        cat = await follower.execute(theirs, ops.Join(name="Cat", token="c"))
        assert {p.name for p in theirs.table.people.values()} >= {"Ann", "Bob", "Cat"}
        assert [e for e in await store.load("TWON") if e.get("person") == cat]  # saved by the new owner

        # The old owner, back from the dead, is fenced: its next write is refused and it follows.
        with pytest.raises(Moved):
            await owner.run(mine, ops.Join(name="Dee", token="d"))
        assert not mine.owned
        assert "Dee" not in {p.name for p in theirs.table.people.values()}
        await follower.stop()
        await owner.stop()

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_a_follower_tells_its_phones_of_a_choice_as_the_owner_does() -> None:
    """A node that follows a table sees the same change as its owner: a choice alone is a ``chosen`` for its
    phones too (``Choices``), and anything else, or a gap in the published events, whole states."""
    from gemtable.table.view import Choices

    async def scenario() -> None:
        store, bus = MemoryStore(), MemoryBus()
        told: dict[str, list[Choices | None]] = {"n1": [], "n2": []}

        class Telling(Nobody):
            def __init__(self, node_id: str) -> None:
                self.node_id = node_id

            def deliver(self, local: Local, changed: bool, reply: Conn | None, choices: Choices | None) -> None:
                if changed:
                    told[self.node_id].append(choices)

        owner = Node(store, bus, node_id="n1", phones=Telling("n1"))
        follower = Node(store, bus, node_id="n2", phones=Telling("n2"))
        for node in (owner, follower):
            await node.start()
        mine = await owner.adopt(Table.create("TWOC", settings(), 0.0))
        theirs = await follower.table("TWOC")
        assert theirs is not None
        ann = await owner.execute(mine, ops.Join(name="Ann", token="a"))
        bob = await follower.execute(theirs, ops.Join(name="Bob", token="b"))
        await owner.execute(mine, ops.Start(person=ann, seed=7))
        await until(
            lambda: theirs.saved == mine.saved and theirs.table.moment.phase == mine.table.moment.phase == "playing"
        )
        told["n1"].clear()
        told["n2"].clear()
        await follower.execute(theirs, ops.Choose(person=bob, move="camp"))
        await until(lambda: len(told["n2"]) == 1 and len(told["n1"]) == 1)
        for choices in (told["n1"][0], told["n2"][0]):
            assert choices is not None and choices.newly == (bob,)
        assert told["n2"][0] == told["n1"][0]
        await owner.execute(mine, ops.Choose(person=ann, move="deeper"))  # the reveal: whole states
        await until(lambda: len(told["n2"]) == 2)
        assert told["n1"][1] is None and told["n2"][1] is None
        await owner.stop()
        await follower.stop()

    asyncio.run(scenario())


def test_an_embedded_node_that_stalls_keeps_its_tables() -> None:
    """One node alone (the embedded mode) whose upkeep is late — a loop saturated for many seconds — still
    runs its table: with the embedded lease nobody could have taken it over, so it does not demote itself
    and reload; with the cluster's 3 s lease the same stall costs it the table (another node may have it)."""
    from gemtable.server.node import EMBEDDED_LEASE

    async def stalled(lease: float) -> bool:
        clock = [1000.0]
        store = MemoryStore(clock=lambda: clock[0])
        node = Node(store, None, clock=lambda: clock[0], node_id="embedded", lease_ttl=lease)
        await node.start()
        assert node._maintenance is not None
        node._maintenance.cancel()  # the upkeep does not get to run: the loop is busy
        local = await node.adopt(Table.create("SOLO", settings(), clock[0]))
        await node.execute(local, ops.Join(name="Ann", token="a"))
        clock[0] += 30.0  # thirty seconds without a renewal
        with contextlib.suppress(Moved):
            await node.run(local, ops.Join(name="Bob", token="b"))
        owned = local.owned and {p.name for p in local.table.people.values()} == {"Ann", "Bob"}
        await node.stop()
        return owned

    assert asyncio.run(stalled(EMBEDDED_LEASE))
    assert not asyncio.run(stalled(3.0))


def test_the_bytes_a_forwarded_command_wrote_come_back_with_its_answer() -> None:
    """The budget of log bytes per address (``Hub._command``) counts a command wherever it runs: the owner
    counts what it wrote and sends the figure back, so a phone on a follower pays as one on the owner does."""

    async def scenario() -> None:
        clock = [1000.0]
        store, bus = MemoryStore(clock=lambda: clock[0]), MemoryBus()
        owner = Node(store, bus, clock=lambda: clock[0], node_id="n1", lease_ttl=3.0)
        follower = Node(store, bus, clock=lambda: clock[0], node_id="n2", lease_ttl=3.0)
        await owner.start()
        await follower.start()
        try:
            mine = await owner.adopt(Table.create("TWOB", settings(), clock[0]))
            theirs = await follower.table("TWOB")
            assert theirs is not None and not theirs.owned
            here, there = [0], [0]
            await owner.execute(mine, ops.Join(name="Ann", token="a"), written=here)
            await follower.execute(theirs, ops.Join(name="Ben", token="b"), written=there)
            assert 50 < here[0] < 2000 and 50 < there[0] < 2000  # a "joined" event and what it set off
            refused = [0]
            with pytest.raises(TableError):
                await follower.execute(theirs, ops.AddBot(person=1, bot="no-such-bot"), written=refused)
            assert refused == [0]  # a refusal writes nothing
        finally:
            await follower.stop()
            await owner.stop()

    asyncio.run(scenario())
