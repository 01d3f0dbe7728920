"""The embedded store's commit per turn of the loop (``SqliteStore.commit_per_turn``), on real SQLite files.

The appends of one turn are written in one transaction, committed at the start of the next turn: until then
another handle on the file sees none of them, then all.  Each append is still checked and refused on its
own (its lease and its first number, when it is made), and anything else written or read commits the turn's
appends first.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from gemtable.store import Conflict, LeaseLost
from gemtable.store.sqlite import SqliteStore


def ev(i: int) -> dict[str, Any]:
    return {"type": "x", "i": i, "at": 100.0}


def rows(path: Path, code: str) -> list[int]:
    """The event numbers of ``code`` that another handle on the file sees."""
    with sqlite3.connect(path) as db:
        return [seq for (seq,) in db.execute("SELECT seq FROM events WHERE code = ? ORDER BY seq", (code,))]


class Turns:
    """What the store says of its turns."""

    def __init__(self, store: SqliteStore) -> None:
        self.said: list[str] = []
        store.commit_per_turn(lambda: self.said.append("opened"), self.saved)

    def saved(self, lost: set[str] | None) -> None:
        self.said.append("saved" if lost is None else f"lost {sorted(lost)}")


def test_a_turns_appends_are_committed_together_at_the_start_of_the_next(tmp_path: Path) -> None:
    path = tmp_path / "turns.sqlite3"

    async def scenario() -> None:
        store = SqliteStore(path)
        turns = Turns(store)
        assert await store.acquire("LEAS", "me", 60)
        for i, code in enumerate(["AAAA", "BBBB", "CCCC"]):
            await store.append(code, 1, [ev(i), ev(i + 1)])
        await store.append("AAAA", 3, [ev(9)])
        await store.append("LEAS", 1, [ev(1)], owner="me")
        assert turns.said == ["opened"]  # one transaction for the turn
        assert rows(path, "AAAA") == [] and rows(path, "LEAS") == []  # nothing committed yet
        assert [e["i"] for e in await store.load("AAAA")] == [0, 1, 9]  # (this handle sees its own)
        await asyncio.sleep(0)  # the next turn
        assert turns.said == ["opened", "saved"]
        assert rows(path, "AAAA") == [1, 2, 3] and rows(path, "BBBB") == [1, 2] and rows(path, "LEAS") == [1]
        await asyncio.sleep(0)
        assert turns.said == ["opened", "saved"]  # a turn without appends opens nothing
        await store.append("BBBB", 3, [ev(3)])
        await asyncio.sleep(0)
        assert turns.said == ["opened", "saved", "opened", "saved"] and rows(path, "BBBB") == [1, 2, 3]
        await store.close()

    asyncio.run(scenario())


def test_a_refused_append_refuses_only_itself_within_its_turn(tmp_path: Path) -> None:
    path = tmp_path / "turns.sqlite3"

    async def scenario() -> None:
        other = SqliteStore(path)
        await other.append("TAKN", 1, [ev(1)])
        assert await other.acquire("HELD", "someone-else", 60)
        store = SqliteStore(path)
        Turns(store)
        await store.append("GOOD", 1, [ev(1), ev(2)])
        with pytest.raises(Conflict):
            await store.append("TAKN", 1, [ev(1), ev(2)])
        with pytest.raises(LeaseLost):
            await store.append("HELD", 1, [ev(1)], owner="me")
        await store.append("TAKN", 2, [ev(2)])  # the right number goes in, in the same turn
        await asyncio.sleep(0)
        assert rows(path, "GOOD") == [1, 2] and rows(path, "TAKN") == [1, 2] and rows(path, "HELD") == []
        await store.close()
        await other.close()

    asyncio.run(scenario())


def test_a_number_another_handle_took_unseen_fails_the_whole_turn_and_names_its_tables(tmp_path: Path) -> None:
    """An append is checked against what this handle knows of the table's numbers; if another handle on the file
    wrote since (only once a lease moved), the turn's commit meets the taken number: nothing of the turn is
    written, every table of it is named (and read back by the server), and the next append looks the number up."""
    path = tmp_path / "turns.sqlite3"

    async def scenario() -> None:
        store = SqliteStore(path)
        turns = Turns(store)
        await store.append("XXXX", 1, [ev(1)])
        await asyncio.sleep(0)
        other = SqliteStore(path)
        await other.append("XXXX", 2, [ev(2)])  # unseen by ``store``, which last wrote number 1
        await store.append("XXXX", 2, [ev(99)])
        await store.append("YYYY", 1, [ev(1)])
        await asyncio.sleep(0)
        assert turns.said == ["opened", "saved", "opened", "lost ['XXXX', 'YYYY']"]
        assert rows(path, "XXXX") == [1, 2] and rows(path, "YYYY") == []
        assert [e["i"] for e in await store.load("XXXX")] == [1, 2]  # the other handle's, not the lost one
        with pytest.raises(Conflict):
            await store.append("XXXX", 2, [ev(99)])
        await store.append("XXXX", 3, [ev(3)])
        await store.append("YYYY", 1, [ev(1)])
        await asyncio.sleep(0)
        assert rows(path, "XXXX") == [1, 2, 3] and rows(path, "YYYY") == [1]
        await store.close()
        await other.close()

    asyncio.run(scenario())


def test_anything_else_written_commits_the_turns_appends_first(tmp_path: Path) -> None:
    """A lease, a record, a prune: each has a transaction of its own, after the turn's appends."""
    path = tmp_path / "turns.sqlite3"

    async def scenario() -> None:
        store = SqliteStore(path)
        turns = Turns(store)
        await store.append("AAAA", 1, [ev(1), ev(2), ev(3)])
        await store.save_record("AAAA", 1, {"scores": [1]})
        assert turns.said == ["opened", "saved"] and rows(path, "AAAA") == [1, 2, 3]
        await store.append("AAAA", 4, [ev(4)])
        await store.prune("AAAA", [2])
        assert rows(path, "AAAA") == [1, 3, 4]
        await store.append("AAAA", 5, [ev(5)])
        assert await store.acquire("AAAA", "me", 60)
        await store.append("AAAA", 6, [ev(6)])
        await store.close()  # closing commits the last turn
        assert rows(path, "AAAA") == [1, 3, 4, 5, 6]
        assert turns.said == ["opened", "saved"] * 4

    asyncio.run(scenario())


def test_a_turn_whose_commit_fails_is_rolled_back_and_its_tables_named(tmp_path: Path) -> None:
    """A commit that fails (a disk that is full, an I/O error; here made to fail, since neither can be had
    safely on this machine) leaves nothing of the turn in the file, and says which tables lost changes; the
    next turn starts afresh, and numbers the failed appends had taken are free again."""
    path = tmp_path / "turns.sqlite3"

    async def scenario() -> None:
        store = SqliteStore(path)
        turns = Turns(store)
        await store.append("AAAA", 1, [ev(1)])
        await asyncio.sleep(0)
        store.db = Failing(store.db)  # type: ignore[assignment]
        await store.append("AAAA", 2, [ev(2)])
        await store.append("BBBB", 1, [ev(1)])
        await asyncio.sleep(0)
        assert turns.said == ["opened", "saved", "opened", "lost ['AAAA', 'BBBB']"]
        assert rows(path, "AAAA") == [1] and rows(path, "BBBB") == []
        await store.append("AAAA", 2, [ev(2)])
        await asyncio.sleep(0)
        assert turns.said[-1] == "saved" and rows(path, "AAAA") == [1, 2]
        await store.close()

    asyncio.run(scenario())


class Failing:
    """A connection whose next ``COMMIT`` fails, as SQLite's does when the disk is full."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.failed = False

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT" and not self.failed:
            self.failed = True
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)
