"""The embedded store: one SQLite file, written before anyone is told of a change.

WAL journal with ``synchronous=NORMAL``: a commit is in the WAL file when it
returns, so killing the process (even ``kill -9``) loses nothing committed; only
a power cut could lose the last moments.  Calls are short and made on the
event loop's thread: one transaction per command.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from gemtable.store import Conflict, Event

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (code, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    updated REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tables_updated ON tables (updated);
CREATE TABLE IF NOT EXISTS records (
    code TEXT NOT NULL,
    number INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (code, number)
) WITHOUT ROWID;
"""


class SqliteStore:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    async def append(self, code: str, first_seq: int, events: list[Event]) -> None:
        if not events:
            return
        rows = [(code, first_seq + i, json.dumps(e, separators=(",", ":"))) for i, e in enumerate(events)]
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            last = db.execute("SELECT MAX(seq) FROM events WHERE code = ?", (code,)).fetchone()[0] or 0
            if last + 1 != first_seq:
                raise Conflict(f"table {code}: expected event {last + 1}, got {first_seq}")
            db.executemany("INSERT INTO events (code, seq, body) VALUES (?, ?, ?)", rows)
            db.execute(
                "INSERT INTO tables (code, updated) VALUES (?, ?) "
                "ON CONFLICT(code) DO UPDATE SET updated = excluded.updated",
                (code, float(events[-1].get("at", 0.0))),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    async def load(self, code: str) -> list[Event]:
        rows = self.db.execute("SELECT body FROM events WHERE code = ? ORDER BY seq", (code,)).fetchall()
        return [json.loads(body) for (body,) in rows]

    async def exists(self, code: str) -> bool:
        return self.db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone() is not None

    async def active(self, since: float) -> list[str]:
        rows = self.db.execute("SELECT code FROM tables WHERE updated >= ? ORDER BY code", (since,)).fetchall()
        return [code for (code,) in rows]

    async def save_record(self, code: str, number: int, record: dict[str, Any]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO records (code, number, body) VALUES (?, ?, ?)",
            (code, number, json.dumps(record, separators=(",", ":"))),
        )

    async def record(self, code: str, number: int) -> dict[str, Any] | None:
        row = self.db.execute("SELECT body FROM records WHERE code = ? AND number = ?", (code, number)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    async def close(self) -> None:
        self.db.close()
