"""Where tables keep their event logs, their leases and finished games: one small interface.

Every backend — memory, SQLite (the embedded default), Redis (cluster mode) —
passes the same contract tests (``tests/store``).

A **lease** says which node runs a table.  Only the lease's owner may append to
the table's log: ``append(..., owner=...)`` is *fenced*, it checks the lease and
the next event number in one atomic step, so a node that stalled and lost its
lease can never write again (it gets :class:`LeaseLost`), and two writers can
never both append event number N (the second gets :class:`Conflict`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import msgspec

Event = dict[str, Any]
_encoder = msgspec.json.Encoder()


PRUNED_TYPE = "pruned"
"""The type of the placeholder :meth:`Store.load` gives for a pruned event (``Table.apply`` skips it)."""


def pruned() -> Event:
    """A placeholder for a pruned event (a new one each time: events are dictionaries a caller may keep)."""
    return {"type": PRUNED_TYPE}


SECRET_BYTES = 32
"""The length of a server's secret key (:meth:`Store.secret`)."""


class Conflict(RuntimeError):
    """Another writer already appended an event with that number."""


class LeaseLost(RuntimeError):
    """The table's lease belongs to someone else: this node must stop running it."""


class Store(Protocol):
    """An append-only log per table, its lease, and the records of finished games."""

    async def append(self, code: str, first_seq: int, events: list[Event], owner: str | None = None) -> int:
        """Append ``events``; the first gets number ``first_seq`` (numbers start at 1).  Returns the bytes of log
        written (the events' JSON: what a phone's commands cost its address, ``Hub._command``).

        With ``owner``, only while ``owner`` holds the table's lease."""
        ...

    async def load(self, code: str, start: int = 1) -> list[Event]:
        """The table's events from number ``start`` on, in order (empty if there is no such table); an event
        :meth:`prune` forgot is a :data:`PRUNED` placeholder, so that every event keeps its number."""
        ...

    async def prune(self, code: str, numbers: list[int]) -> None:
        """Forget the events of these numbers (never the last one): events that no rebuild needs, like a
        finished game's changes of mind (``Table.prunable``).  Their numbers stay taken."""
        ...

    async def exists(self, code: str) -> bool: ...

    async def active(self, since: float) -> list[str]:
        """Codes of the tables that changed at or after ``since`` (seconds since the epoch)."""
        ...

    async def acquire(self, code: str, owner: str, ttl: float) -> bool:
        """Take the table's lease for ``ttl`` seconds, or extend it if ``owner`` holds it already."""
        ...

    async def renew(self, codes: list[str], owner: str, ttl: float) -> set[str]:
        """:meth:`acquire` for many tables in one call (the node's upkeep, once per round for all its
        tables): the codes whose lease ``owner`` holds now, taken or extended for ``ttl`` seconds."""
        ...

    async def owners(self, codes: list[str]) -> dict[str, str | None]:
        """Who holds each table's lease now (None: nobody)."""
        ...

    async def release(self, code: str, owner: str) -> None:
        """Give the lease up, if ``owner`` holds it."""
        ...

    async def forget(self, before: float, limit: int = 500) -> list[str]:
        """Delete every table that has not changed since ``before`` (seconds since the epoch) and whose lease
        nobody holds: its log, its records, its place in the directory; at most ``limit`` tables a call, the
        stalest first.  The codes deleted, sorted.  (The
        retention of finished tables, ``docs/deploy.md``: a node calls it once an hour.)"""
        ...

    async def save_record(self, code: str, number: int, record: dict[str, Any]) -> None: ...

    async def record(self, code: str, number: int) -> dict[str, Any] | None: ...

    async def records_of(self, code: str) -> list[dict[str, Any]]:
        """The records of every finished game of the table, in the order of their numbers (empty if none)."""
        ...

    async def secret(self) -> bytes:
        """This server's secret key (32 random bytes, made once and kept; every node of a cluster gets the
        same): what the address hashes of a table's log are keyed with (``docs/security.md``).  It is in no
        event, record, view or log line."""
        ...

    async def close(self) -> None: ...

    # --- the unit of work: a turn of the event loop -----------------------------------------------

    def commit_per_turn(self, opened: Callable[[], None], saved: Callable[[set[str] | None], None]) -> bool:
        """From now on, save the appends of one turn of the event loop together, committed at the start of the
        next (or at :meth:`commit_turn`): ``opened()`` when a turn's first append opens it, ``saved(None)`` once
        it is committed, ``saved(codes)`` with the tables whose appends were lost if it could not be.  Whether
        the store does so: a store whose appends are saved when ``append`` returns (memory, Redis) has no
        turn, returns False and calls neither.  The server's gate (``server/gate.py``) holds every message to a
        phone while a turn is open: nothing reaches a phone before the turn that produced it is saved."""
        ...

    def commit_turn(self) -> None:
        """Commit the open turn now (before an answer that is not a phone's message: a new table's code)."""
        ...

    @property
    def folder(self) -> Path | None:
        """The folder of this machine where the store keeps its files (its disk is watched); None if none."""
        ...


class MemoryStore:
    """Everything in dictionaries: for tests and benchmarks (one process)."""

    def __init__(self, clock: Any = time.time) -> None:
        self.logs: dict[str, list[Event]] = {}
        self.updated: dict[str, float] = {}
        self.records: dict[tuple[str, int], dict[str, Any]] = {}
        self.leases: dict[str, tuple[str, float]] = {}
        self.clock = clock
        self._secret = secrets.token_bytes(SECRET_BYTES)

    async def append(self, code: str, first_seq: int, events: list[Event], owner: str | None = None) -> int:
        if owner is not None and self._holder(code) != owner:
            raise LeaseLost(f"table {code} is not run by {owner}")
        log = self.logs.setdefault(code, [])
        if first_seq != len(log) + 1:
            raise Conflict(f"table {code}: expected event {len(log) + 1}, got {first_seq}")
        log.extend(events)
        if events:
            self.updated[code] = float(events[-1].get("at", 0.0))
        return sum(len(_encoder.encode(e)) for e in events)

    async def load(self, code: str, start: int = 1) -> list[Event]:
        return list(self.logs.get(code, [])[max(0, start - 1) :])

    async def prune(self, code: str, numbers: list[int]) -> None:
        log = self.logs.get(code, [])
        for number in numbers:
            if 1 <= number < len(log):
                log[number - 1] = pruned()

    async def exists(self, code: str) -> bool:
        return code in self.logs

    async def active(self, since: float) -> list[str]:
        return sorted(code for code, at in self.updated.items() if at >= since)

    async def acquire(self, code: str, owner: str, ttl: float) -> bool:
        holder = self._holder(code)
        if holder is not None and holder != owner:
            return False
        self.leases[code] = (owner, self.clock() + ttl)
        return True

    async def renew(self, codes: list[str], owner: str, ttl: float) -> set[str]:
        return {code for code in codes if await self.acquire(code, owner, ttl)}

    async def owners(self, codes: list[str]) -> dict[str, str | None]:
        return {code: self._holder(code) for code in codes}

    async def release(self, code: str, owner: str) -> None:
        if self._holder(code) == owner:
            del self.leases[code]

    def _holder(self, code: str) -> str | None:
        lease = self.leases.get(code)
        if lease is None or lease[1] <= self.clock():
            return None
        return lease[0]

    async def forget(self, before: float, limit: int = 500) -> list[str]:
        stale = sorted((at, code) for code, at in self.updated.items() if at < before and self._holder(code) is None)
        gone = sorted(code for _, code in stale[:limit])
        for code in gone:
            self.logs.pop(code, None)
            self.updated.pop(code, None)
            self.leases.pop(code, None)
        for number in [number for number in self.records if number[0] in gone]:
            del self.records[number]
        return gone

    async def save_record(self, code: str, number: int, record: dict[str, Any]) -> None:
        self.records[(code, number)] = record

    async def record(self, code: str, number: int) -> dict[str, Any] | None:
        return self.records.get((code, number))

    async def records_of(self, code: str) -> list[dict[str, Any]]:
        return [self.records[key] for key in sorted(key for key in self.records if key[0] == code)]

    async def secret(self) -> bytes:
        return self._secret

    def commit_per_turn(self, opened: Callable[[], None], saved: Callable[[set[str] | None], None]) -> bool:
        return False  # (an append is kept when it returns)

    def commit_turn(self) -> None:
        pass

    @property
    def folder(self) -> Path | None:
        return None

    async def close(self) -> None:
        return None
