"""The embedded store: one SQLite file, written before anyone is told of a change.

WAL journal with ``synchronous=NORMAL``: a commit is in the WAL file when it
returns, so killing the process (even ``kill -9``) loses nothing committed; only
a power cut could lose the last moments.  Calls are short and made on the
event loop's thread: one transaction per command.  Leases live in the same
file, so a fenced append checks its lease in the same transaction.

The server commits once per turn of the event loop instead (:meth:`SqliteStore.commit_per_turn`): an
append of that turn is checked at once (its lease, its first number: a refused one refuses only itself) and
kept in memory, and at the start of the next turn every append the turn kept is written in one transaction
(one ``executemany``) and committed, before the phones are told of any of it (``server/gate.py``).  A commit
costs more than everything else a change does (at 2,000 tables of 8 phones it was a quarter of the server's
time, issue 25), and a statement and a savepoint per append cost as much again as the rows themselves.
Anything else written or read commits the turn first, so every read sees every append.  If another handle on
the file wrote a number this handle did not know of (only after a lease moved), the whole turn's commit fails
on the primary key, and every table of the turn is read back (``Turn.saved``): nothing is lost, nothing told.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from gemtable.store import SECRET_BYTES, Conflict, Event, LeaseLost, pruned

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
CREATE TABLE IF NOT EXISTS leases (
    code TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS secrets (
    name TEXT PRIMARY KEY,
    value BLOB NOT NULL
) WITHOUT ROWID;
"""


log = logging.getLogger("gemtable")
_encoder = msgspec.json.Encoder()
TOUCH_EVERY = 60.0
"""Seconds: how stale a table's ``updated`` time may be (``active`` looks back two days)."""
LAST_KEPT = 20_000
"""Tables whose last event number a store handle remembers (``SqliteStore._last``)."""


INSERT = "INSERT INTO events (code, seq, body) VALUES (?, ?, ?)"
TOUCH = "INSERT INTO tables (code, updated) VALUES (?, ?) ON CONFLICT(code) DO UPDATE SET updated = excluded.updated"


@dataclass
class Turn:
    """The appends of this turn of the loop (``SqliteStore.commit_per_turn``), written when it is committed."""

    opened: Callable[[], None]
    saved: Callable[[set[str] | None], None]
    codes: set[str] = field(default_factory=set)
    """The tables appended to in this turn (none: nothing waits to be written)."""
    rows: list[tuple[str, int, str]] = field(default_factory=list)
    """The events appended, in their order: (code, number, body)."""
    touched: dict[str, float] = field(default_factory=dict)
    """The tables whose ``updated`` time is written with them."""


class SqliteStore:
    def __init__(self, path: Path | str, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.clock = clock
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        self._touched: dict[str, float] = {}
        """When this handle last wrote each table's ``updated`` time: it is written at most once every
        :data:`TOUCH_EVERY` seconds (it only says which tables are active, over days), which spares most
        appends an update of the ``tables`` row and its index."""
        self._last: dict[str, int] = {}
        """The last event number this handle wrote or read per table: the usual append needs no ``MAX`` query.
        Another handle on the same file (another node) that appended since makes it stale; then the first
        event's number is already taken, and the primary key refuses it (a :class:`Conflict`)."""
        self._turn: Turn | None = None
        """Commits once per turn of the loop, if :meth:`commit_per_turn` asked for it."""
        self._leases: dict[str, tuple[str, float]] = {}
        """The leases this handle took or renewed: (owner, when it expires).  Until then no other handle can
        take one (``acquire`` takes only a lapsed lease or its owner's own), so a fenced append by its owner
        needs no look at the ``leases`` row (a query an append, 2 % of the server's time at 2,000 x 8 phones).
        Every handle on a file runs on one machine's clock."""

    async def append(self, code: str, first_seq: int, events: list[Event], owner: str | None = None) -> int:
        if not events:
            return 0
        encode = _encoder.encode  # msgspec: the same compact JSON as json.dumps, several times faster
        rows: list[tuple[str, int, str]] = []
        size = 0
        for number, event in enumerate(events, first_seq):
            body = encode(event)
            size += len(body)
            rows.append((code, number, body.decode()))
        updated = float(events[-1].get("at", 0.0))
        turn = self._turn
        if turn is not None:
            self._fence(code, owner)
            last = self._last.get(code)
            if last is None or last + 1 != first_seq:
                if code in turn.codes:
                    self.commit_turn()  # (its number is looked up in the file: with this turn's appends in it)
                self._expect(code, first_seq)
            if not turn.codes:
                turn.opened()
                asyncio.get_running_loop().call_soon(self.commit_turn)
            turn.codes.add(code)
            turn.rows.extend(rows)
            if not self._touched.get(code, -TOUCH_EVERY) > updated - TOUCH_EVERY:
                turn.touched[code] = updated
                self._touch(code, updated)
            self._seen(code, first_seq + len(rows) - 1)
            return size
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            self._fence(code, owner)
            self._expect(code, first_seq)
            try:
                db.executemany(INSERT, rows)
            except sqlite3.IntegrityError:
                raise Conflict(f"table {code}: event {first_seq} was written by someone else") from None
            touched = not self._touched.get(code, -TOUCH_EVERY) > updated - TOUCH_EVERY
            if touched:
                db.execute(TOUCH, (code, updated))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            self._last.pop(code, None)
            raise
        self._seen(code, first_seq + len(rows) - 1)
        if touched:
            self._touch(code, updated)
        return size

    def _fence(self, code: str, owner: str | None) -> None:
        """Refuse (:class:`LeaseLost`) an append by ``owner`` while the table's lease is not theirs."""
        if owner is not None and not self._holds(code, owner) and self._holder(code) != owner:
            raise LeaseLost(f"table {code} is not run by {owner}")

    def _expect(self, code: str, first_seq: int) -> None:
        """Refuse (:class:`Conflict`) an append whose first number is not the table's next one in the file."""
        last = self._last.get(code)
        if last is None or last + 1 != first_seq:
            last = self.db.execute("SELECT MAX(seq) FROM events WHERE code = ?", (code,)).fetchone()[0] or 0
            self._seen(code, last)
        if last + 1 != first_seq:
            raise Conflict(f"table {code}: expected event {last + 1}, got {first_seq}")

    def _seen(self, code: str, last: int) -> None:
        if len(self._last) >= LAST_KEPT and code not in self._last:
            self._last.clear()  # a cache: forgetting costs one query per table
        self._last[code] = last

    def _touch(self, code: str, updated: float) -> None:
        if len(self._touched) >= LAST_KEPT and code not in self._touched:
            self._touched.clear()
        self._touched[code] = updated

    def commit_per_turn(self, opened: Callable[[], None], saved: Callable[[set[str] | None], None]) -> bool:
        """From now on, commit the appends of one turn of the event loop together, at the start of the next.
        ``opened()`` is called at a turn's first append (from then on, something waits to be saved);
        ``saved(None)`` once the turn is committed, or ``saved(codes)`` with the tables whose appends were lost
        if the commit failed (rolled back: the file holds none of the turn's appends)."""
        self._turn = Turn(opened, saved)
        return True

    @property
    def folder(self) -> Path | None:
        return self.path.parent

    def commit_turn(self) -> None:
        """Write and commit the turn's appends now (at the start of the next turn, or before anything else is
        written or read)."""
        turn = self._turn
        if turn is None or not turn.codes:
            return
        codes, rows, touched = turn.codes, turn.rows, turn.touched
        turn.codes, turn.rows, turn.touched = set(), [], {}
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(INSERT, rows)
                if touched:
                    db.executemany(TOUCH, list(touched.items()))
                db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(Exception):
                    db.execute("ROLLBACK")
                raise
        except Exception:
            log.exception("could not save the changes of %d tables", len(codes))
            for code in codes:
                self._last.pop(code, None)
                self._touched.pop(code, None)
            turn.saved(codes)
            return
        turn.saved(None)

    async def load(self, code: str, start: int = 1) -> list[Event]:
        self.commit_turn()  # (what this turn appended is read too)
        rows = self.db.execute(
            "SELECT seq, body FROM events WHERE code = ? AND seq >= ? ORDER BY seq", (code, start)
        ).fetchall()
        out: list[Event] = []
        expected = max(1, start)
        for seq, body in rows:
            out.extend(pruned() for _ in range(seq - expected))  # pruned rows are deleted: their numbers gape
            out.append(json.loads(body))
            expected = seq + 1
        return out

    async def prune(self, code: str, numbers: list[int]) -> None:
        """The rows are deleted (the file's pages are reused); the last event is kept, so the next number
        is still known."""
        self.commit_turn()  # (a transaction of its own, after the turn's)
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            last = db.execute("SELECT MAX(seq) FROM events WHERE code = ?", (code,)).fetchone()[0] or 0
            db.executemany(
                "DELETE FROM events WHERE code = ? AND seq = ?", [(code, n) for n in numbers if 1 <= n < last]
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    async def exists(self, code: str) -> bool:
        self.commit_turn()
        return self.db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone() is not None

    async def active(self, since: float) -> list[str]:
        self.commit_turn()
        rows = self.db.execute("SELECT code FROM tables WHERE updated >= ? ORDER BY code", (since,)).fetchall()
        return [code for (code,) in rows]

    async def acquire(self, code: str, owner: str, ttl: float) -> bool:
        self.commit_turn()  # (a transaction of its own, after the turn's)
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            holder = self._holder(code)
            if holder is not None and holder != owner:
                db.execute("ROLLBACK")
                return False
            db.execute(
                "INSERT INTO leases (code, owner, expires) VALUES (?, ?, ?) "
                "ON CONFLICT(code) DO UPDATE SET owner = excluded.owner, expires = excluded.expires",
                (code, owner, expires := self.clock() + ttl),
            )
            db.execute("COMMIT")
            self._took(code, owner, expires)
            return True
        except BaseException:
            db.execute("ROLLBACK")
            raise

    async def renew(self, codes: list[str], owner: str, ttl: float) -> set[str]:
        """One transaction (one write to the disk) for all the tables, not one each."""
        self.commit_turn()  # (a transaction of its own, after the turn's)
        db = self.db
        held: set[str] = set()
        db.execute("BEGIN IMMEDIATE")
        try:
            expires = self.clock() + ttl
            for code in codes:
                holder = self._holder(code)
                if holder is not None and holder != owner:
                    continue
                db.execute(
                    "INSERT INTO leases (code, owner, expires) VALUES (?, ?, ?) "
                    "ON CONFLICT(code) DO UPDATE SET owner = excluded.owner, expires = excluded.expires",
                    (code, owner, expires),
                )
                held.add(code)
            db.execute("COMMIT")
            for code in held:
                self._took(code, owner, expires)
            return held
        except BaseException:
            db.execute("ROLLBACK")
            raise

    async def owners(self, codes: list[str]) -> dict[str, str | None]:
        return {code: self._holder(code) for code in codes}

    async def release(self, code: str, owner: str) -> None:
        self.commit_turn()  # (a transaction of its own, after the turn's)
        self._leases.pop(code, None)
        self.db.execute("DELETE FROM leases WHERE code = ? AND owner = ?", (code, owner))

    def _holds(self, code: str, owner: str) -> bool:
        """Whether ``owner`` holds the table's lease by what this handle wrote (False: look at the row)."""
        lease = self._leases.get(code)
        return lease is not None and lease[0] == owner and lease[1] > self.clock()

    def _took(self, code: str, owner: str, expires: float) -> None:
        if len(self._leases) >= LAST_KEPT and code not in self._leases:
            self._leases.clear()  # a cache: forgetting costs one query per table
        self._leases[code] = (owner, expires)

    def _holder(self, code: str) -> str | None:
        row = self.db.execute("SELECT owner, expires FROM leases WHERE code = ?", (code,)).fetchone()
        if row is None or row[1] <= self.clock():
            return None
        return str(row[0])

    async def forget(self, before: float, limit: int = 500) -> list[str]:
        """At most ``limit`` tables a call, in one transaction (a call blocks the loop for a moment, not for
        the whole backlog); the deleted rows' pages are reused by the file, which does not shrink."""
        self.commit_turn()  # (a transaction of its own, after the turn's)
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            codes = [
                str(code)
                for (code,) in db.execute(
                    "SELECT code FROM tables WHERE updated < ? "
                    "AND code NOT IN (SELECT code FROM leases WHERE expires > ?) ORDER BY updated LIMIT ?",
                    (before, self.clock(), limit),
                )
            ]
            for part in ("events", "records", "leases", "tables"):
                db.executemany(f"DELETE FROM {part} WHERE code = ?", [(code,) for code in codes])
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        for code in codes:
            self._last.pop(code, None)
            self._touched.pop(code, None)
            self._leases.pop(code, None)
        return sorted(codes)

    async def save_record(self, code: str, number: int, record: dict[str, Any]) -> None:
        self.commit_turn()  # (a transaction of its own, after the turn's)
        self.db.execute(
            "INSERT OR REPLACE INTO records (code, number, body) VALUES (?, ?, ?)",
            (code, number, json.dumps(record, separators=(",", ":"))),
        )

    async def record(self, code: str, number: int) -> dict[str, Any] | None:
        row = self.db.execute("SELECT body FROM records WHERE code = ? AND number = ?", (code, number)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    async def records_of(self, code: str) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT body FROM records WHERE code = ? ORDER BY number", (code,)).fetchall()
        return [dict(json.loads(body)) for (body,) in rows]

    async def secret(self) -> bytes:
        """Made at the first call and kept in this file (another handle on the file gets the same)."""
        self.commit_turn()  # (a transaction of its own, after the turn's)
        self.db.execute(
            "INSERT OR IGNORE INTO secrets (name, value) VALUES ('server', ?)", (secrets.token_bytes(SECRET_BYTES),)
        )
        return bytes(self.db.execute("SELECT value FROM secrets WHERE name = 'server'").fetchone()[0])

    async def close(self) -> None:
        self.commit_turn()  # (a transaction of its own, after the turn's)
        self.db.close()
