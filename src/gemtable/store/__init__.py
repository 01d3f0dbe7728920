"""Where tables keep their event logs and finished games: a small interface, several backends.

Every backend passes the same contract tests (``tests/store``).  The embedded
default is SQLite; ``MemoryStore`` is for tests and benchmarks.
"""

from __future__ import annotations

from typing import Any, Protocol

Event = dict[str, Any]


class Store(Protocol):
    """An append-only log per table, and the records of finished games."""

    async def append(self, code: str, first_seq: int, events: list[Event]) -> None:
        """Append ``events`` to the table's log; the first gets number ``first_seq``.

        Raises :class:`Conflict` when that number is already taken (someone else
        wrote first): the log is never overwritten.
        """
        ...

    async def load(self, code: str) -> list[Event]:
        """Every event of a table, in order; empty if there is no such table."""
        ...

    async def exists(self, code: str) -> bool: ...

    async def active(self, since: float) -> list[str]:
        """Codes of the tables that changed at or after ``since`` (seconds since the epoch)."""
        ...

    async def save_record(self, code: str, number: int, record: dict[str, Any]) -> None: ...

    async def record(self, code: str, number: int) -> dict[str, Any] | None: ...

    async def close(self) -> None: ...


class Conflict(RuntimeError):
    """Another writer already appended an event with that number."""


class MemoryStore:
    """Everything in dictionaries: for tests and benchmarks."""

    def __init__(self) -> None:
        self.logs: dict[str, list[Event]] = {}
        self.updated: dict[str, float] = {}
        self.records: dict[tuple[str, int], dict[str, Any]] = {}

    async def append(self, code: str, first_seq: int, events: list[Event]) -> None:
        log = self.logs.setdefault(code, [])
        if first_seq != len(log) + 1:
            raise Conflict(f"table {code}: expected event {len(log) + 1}, got {first_seq}")
        log.extend(events)
        if events:
            self.updated[code] = float(events[-1].get("at", 0.0))

    async def load(self, code: str) -> list[Event]:
        return list(self.logs.get(code, []))

    async def exists(self, code: str) -> bool:
        return code in self.logs

    async def active(self, since: float) -> list[str]:
        return sorted(code for code, at in self.updated.items() if at >= since)

    async def save_record(self, code: str, number: int, record: dict[str, Any]) -> None:
        self.records[(code, number)] = record

    async def record(self, code: str, number: int) -> dict[str, Any] | None:
        return self.records.get((code, number))

    async def close(self) -> None:
        return None
