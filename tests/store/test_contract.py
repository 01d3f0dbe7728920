"""One contract, three stores: memory, SQLite (embedded) and Redis (cluster mode)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gemtable.store import PRUNED_TYPE, Conflict, LeaseLost, MemoryStore, Store
from gemtable.store.sqlite import SqliteStore
from tests.redis_server import RedisServer


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["memory", "sqlite", "redis"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    if request.param == "memory":
        shared = MemoryStore()
        return lambda: shared
    if request.param == "sqlite":
        return lambda: SqliteStore(tmp_path / "store.sqlite3")
    from gemtable.store.redis import RedisStore

    server = request.getfixturevalue("redis_server")
    prefix_flush = RedisStore(server.url)
    asyncio.run(_flush(prefix_flush))
    return lambda: RedisStore(server.url)


async def _flush(store: Any) -> None:
    await store.redis.flushdb()
    await store.close()


def run(make_store: Callable[[], Store], scenario: Callable[[Store, Store], Any]) -> None:
    async def go() -> None:
        a, b = make_store(), make_store()  # two handles on one store, as two nodes would have
        try:
            await scenario(a, b)
        finally:
            await a.close()
            if b is not a:
                await b.close()

    asyncio.run(go())


def ev(i: int, at: float = 100.0) -> dict[str, Any]:
    return {"type": "x", "i": i, "at": at}


def test_an_appended_log_loads_in_order_from_any_point(make_store: Callable[[], Store]) -> None:
    async def scenario(a: Store, b: Store) -> None:
        assert await a.load("ABCD") == [] and not await a.exists("ABCD")
        await a.append("ABCD", 1, [ev(1), ev(2)])
        await a.append("ABCD", 3, [ev(3)])
        assert [e["i"] for e in await b.load("ABCD")] == [1, 2, 3]
        assert [e["i"] for e in await b.load("ABCD", start=2)] == [2, 3]
        assert await b.exists("ABCD")

    run(make_store, scenario)


def test_pruned_events_keep_their_numbers(make_store: Callable[[], Store]) -> None:
    """A pruned event loads as a placeholder in its place (the others keep their numbers), the last event is
    never pruned, numbers out of the log are ignored, and appends go on at the next number."""

    async def scenario(a: Store, b: Store) -> None:
        await a.append("PRUN", 1, [ev(i) for i in range(1, 7)])
        await a.prune("PRUN", [2, 3, 5, 6, 0, 99])
        loaded = await b.load("PRUN")
        assert [e.get("i") for e in loaded] == [1, None, None, 4, None, 6]
        assert [e["type"] for e in loaded] == ["x", PRUNED_TYPE, PRUNED_TYPE, "x", PRUNED_TYPE, "x"]
        assert [e.get("i") for e in await b.load("PRUN", start=3)] == [None, 4, None, 6]
        await b.prune("PRUN", [2])  # again: nothing changes
        await a.append("PRUN", 7, [ev(7)])
        with pytest.raises(Conflict):
            await b.append("PRUN", 6, [ev(6)])
        assert [e.get("i") for e in await b.load("PRUN", start=5)] == [None, 6, 7]
        assert len(await a.load("PRUN")) == 7

    run(make_store, scenario)


def test_an_event_number_is_written_once(make_store: Callable[[], Store]) -> None:
    async def scenario(a: Store, b: Store) -> None:
        await a.append("ABCD", 1, [ev(1)])
        with pytest.raises(Conflict):
            await b.append("ABCD", 1, [ev(99)])
        with pytest.raises(Conflict):
            await b.append("ABCD", 3, [ev(99)])
        assert [e["i"] for e in await a.load("ABCD")] == [1]
        # A handle that wrote last and has not seen another's writes since is refused too, not misled.
        await a.append("ABCD", 2, [ev(2)])
        await b.append("ABCD", 3, [ev(3), ev(4)])
        with pytest.raises(Conflict):
            await a.append("ABCD", 3, [ev(99)])
        await a.append("ABCD", 5, [ev(5)])
        assert [e["i"] for e in await b.load("ABCD")] == [1, 2, 3, 4, 5]

    run(make_store, scenario)


def test_appends_at_the_same_moment_are_each_written_or_refused_alone(make_store: Callable[[], Store]) -> None:
    """Many tables append at once: a refused one — a taken number, a lease held by another — refuses only
    itself."""

    async def scenario(a: Store, b: Store) -> None:
        codes = [f"T{i:03d}" for i in range(30)]
        await a.append(codes[3], 1, [ev(1)])
        assert await b.acquire(codes[7], "node-b", 30)
        results = await asyncio.gather(
            *(a.append(code, 1, [ev(1), ev(2)], owner="node-a" if code == codes[7] else None) for code in codes),
            return_exceptions=True,
        )
        refused = {code: type(r) for code, r in zip(codes, results, strict=True) if isinstance(r, BaseException)}
        assert refused == {codes[3]: Conflict, codes[7]: LeaseLost}
        for code in codes:
            expected = [1] if code == codes[3] else [] if code == codes[7] else [1, 2]
            assert [e["i"] for e in await b.load(code)] == expected
        await a.append(codes[3], 2, [ev(2)])  # the refused ones carry on as they should
        assert [e["i"] for e in await b.load(codes[3])] == [1, 2]

    run(make_store, scenario)


def test_only_the_lease_holder_may_append(make_store: Callable[[], Store]) -> None:
    async def scenario(a: Store, b: Store) -> None:
        assert await a.acquire("ABCD", "node-a", 30)
        assert not await b.acquire("ABCD", "node-b", 30)
        assert await a.acquire("ABCD", "node-a", 30)  # renewing
        assert (await b.owners(["ABCD", "EFHJ"])) == {"ABCD": "node-a", "EFHJ": None}
        await a.append("ABCD", 1, [ev(1)], owner="node-a")
        with pytest.raises(LeaseLost):
            await b.append("ABCD", 2, [ev(2)], owner="node-b")
        await a.release("ABCD", "node-a")
        assert await b.acquire("ABCD", "node-b", 30)
        with pytest.raises(LeaseLost):  # the old holder is fenced off
            await a.append("ABCD", 2, [ev(2)], owner="node-a")
        await b.append("ABCD", 2, [ev(2)], owner="node-b")
        assert [e["i"] for e in await a.load("ABCD")] == [1, 2]

    run(make_store, scenario)


def test_leases_renew_together(make_store: Callable[[], Store]) -> None:
    async def scenario(a: Store, b: Store) -> None:
        assert await a.renew([], "node-a", 30) == set()
        assert await a.acquire("ABCD", "node-a", 30)
        assert await b.acquire("EFHJ", "node-b", 30)
        assert await a.renew(["ABCD", "EFHJ", "KLMN"], "node-a", 30) == {"ABCD", "KLMN"}
        assert await b.owners(["ABCD", "EFHJ", "KLMN"]) == {"ABCD": "node-a", "EFHJ": "node-b", "KLMN": "node-a"}
        assert not await b.acquire("KLMN", "node-b", 30)
        await a.append("KLMN", 1, [ev(1)], owner="node-a")
        assert await a.renew(["ABCD"], "node-a", 0.2) == {"ABCD"}  # renewing sets the new time
        await asyncio.sleep(0.4)
        assert await b.renew(["ABCD", "EFHJ"], "node-b", 30) == {"ABCD", "EFHJ"}
        with pytest.raises(LeaseLost):
            await a.append("ABCD", 1, [ev(1)], owner="node-a")

    run(make_store, scenario)


def test_a_lease_lapses_after_its_time(make_store: Callable[[], Store]) -> None:
    async def scenario(a: Store, b: Store) -> None:
        assert await a.acquire("ABCD", "node-a", 0.2)
        assert not await b.acquire("ABCD", "node-b", 0.2)
        await asyncio.sleep(0.4)
        assert (await b.owners(["ABCD"]))["ABCD"] is None
        assert await b.acquire("ABCD", "node-b", 5)
        with pytest.raises(LeaseLost):  # the lapsed holder is fenced off, whatever it remembers of its lease
            await a.append("ABCD", 1, [ev(1)], owner="node-a")
        await b.append("ABCD", 1, [ev(1)], owner="node-b")

    run(make_store, scenario)


def test_the_directory_lists_recently_active_tables(make_store: Callable[[], Store]) -> None:
    async def scenario(a: Store, b: Store) -> None:
        await a.append("OLDT", 1, [ev(1, at=10.0)])
        await a.append("NEWT", 1, [ev(1, at=1000.0)])
        assert await b.active(500.0) == ["NEWT"]
        assert await b.active(0.0) == ["NEWT", "OLDT"]

    run(make_store, scenario)


def test_records_are_kept_per_game(make_store: Callable[[], Store]) -> None:
    async def scenario(a: Store, b: Store) -> None:
        await a.save_record("ABCD", 1, {"scores": [1, 2]})
        await a.save_record("ABCD", 2, {"scores": [3]})
        assert await b.record("ABCD", 1) == {"scores": [1, 2]}
        assert await b.record("ABCD", 2) == {"scores": [3]}
        assert await b.record("ABCD", 3) is None
        await a.save_record("ABCD", 10, {"scores": [4]})  # in the order of their numbers, not of their text
        assert await b.records_of("ABCD") == [{"scores": [1, 2]}, {"scores": [3]}, {"scores": [4]}]
        assert await b.records_of("WXYZ") == []

    run(make_store, scenario)


def test_the_secret_key_is_made_once_and_the_same_for_every_handle(make_store: Callable[[], Store]) -> None:
    async def scenario(a: Store, b: Store) -> None:
        key = await a.secret()
        assert isinstance(key, bytes) and len(key) == 32
        assert await b.secret() == key and await a.secret() == key

    run(make_store, scenario)


def test_a_table_unchanged_for_the_retention_time_is_forgotten_whole(make_store: Callable[[], Store]) -> None:
    """Log, records and directory entry go; a table changed since, or whose lease someone holds, stays."""

    async def scenario(a: Store, b: Store) -> None:
        await a.append("OLDT", 1, [ev(1, at=10.0), ev(2, at=20.0)])
        await a.save_record("OLDT", 1, {"scores": [1]})
        await a.append("HELD", 1, [ev(1, at=10.0)])
        assert await a.acquire("HELD", "node-a", 60.0)
        await a.append("NEWT", 1, [ev(1, at=1000.0)])
        await a.save_record("NEWT", 1, {"scores": [2]})
        assert await b.forget(500.0) == ["OLDT"]
        assert not await a.exists("OLDT") and await a.load("OLDT") == []
        assert await a.record("OLDT", 1) is None
        assert await a.active(0.0) == ["HELD", "NEWT"]
        assert await a.record("NEWT", 1) == {"scores": [2]} and len(await a.load("NEWT")) == 1
        assert await b.forget(500.0) == []  # (HELD's lease is held)
        await a.release("HELD", "node-a")
        assert await b.forget(500.0, limit=1) == ["HELD"]
        # A forgotten code starts again from event 1, as a new table would.
        await a.append("OLDT", 1, [ev(1, at=2000.0)])
        assert [e["i"] for e in await b.load("OLDT")] == [1]

    run(make_store, scenario)


def test_a_turn_is_the_unit_of_work_where_the_store_has_one(make_store: Callable[[], Store]) -> None:
    """The port's unit of work (``commit_per_turn``): a store that has one (SQLite) says so, tells when a turn
    opens and when it is saved, and holds the turn's appends until then (another handle does not see them); a
    store whose appends are kept when they return (memory, Redis) says it has none and calls nothing."""

    async def scenario(a: Store, b: Store) -> None:
        calls: list[Any] = []
        has_turns = a.commit_per_turn(lambda: calls.append("opened"), calls.append)
        await a.append("TURN", 1, [ev(1)])
        await a.append("TURN", 2, [ev(2)])
        if not has_turns:
            assert calls == [] and [e["i"] for e in await b.load("TURN")] == [1, 2]
            a.commit_turn()  # (nothing to do)
            assert calls == [] and a.folder is None
            return
        assert calls == ["opened"] and await b.load("TURN") == []  # the turn is open: not saved yet
        a.commit_turn()
        assert calls == ["opened", None] and [e["i"] for e in await b.load("TURN")] == [1, 2]
        assert a.folder is not None and a.folder.is_dir()

    run(make_store, scenario)
