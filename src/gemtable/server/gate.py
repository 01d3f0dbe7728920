"""Messages wait at the gate while what they tell is being saved: one commit a turn of the loop, not one a change.

A store with a unit of work commits once per turn of the event loop (``Store.commit_per_turn``; SQLite): every change
made in one turn — at 2,000 tables, dozens of them — is written in one transaction at the start of the next,
instead of one transaction each (a commit costs about as much as everything else a change does: issue 25).
A phone must never be told of a change that is not saved, so while a turn's transaction is open, every
message to a phone — and every close, in its order — waits here, and goes out as soon as the transaction is
committed, in the order it was sent.  A message is held for at most one turn of the loop.

If the commit fails (the disk is full, an I/O error), nothing held is sent: every phone that was to be
told something in that turn is closed (``1011``, as a server error) and comes back to the table as it was
saved, which the node reads back from the store (``Hub._turn_saved``).

A change that moves the game on (a reveal, the next cave, a pause: ``Hub.deliver``'s *moment*) does not
wait for its turn's end either: the hub commits the turn then, with whatever else the turn has appended so
far, and its phones are told at once instead of behind every message the rest of the turn handles.  Once a
turn: the tables that move on later in the same turn (many, at the instant pace) are committed with the turn,
as before, so that it costs at most one commit more a turn.  It keeps a reveal's latency under load within
twice a bare WebSocket server's (issue 39; ``docs/benchmarks.md``).

The tables that moved on in a turn are told first: when the gate opens, their phones' messages go out before
what the turn held for other tables (their ``chosen``, mostly: a dozen messages on average at each early commit
at 1,000 tables of 8 phones), so that a reveal is not written behind them.  Each connection's messages still go
out in the order they were sent.

A turn that holds many messages (thousands of phones joining at once) does not wait for its end: once
:data:`HOLD_AT_MOST` messages wait, the gate asks for the turn to be committed now (``flush``), so what it
holds stays small.  (Holding a whole burst cost 25 KB of memory per table at 1,000 tables of 8 phones, kept
by the allocator after the burst: issue 25, round six.)

A connection without a gate (tests, the in-memory store) writes at once, as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gemtable.server.conn import Conn

CLOSE = None
"""In the held list: the connection was closed after the messages before it (its code is its own)."""

SAVE_FAILED = 1011
"""The close code of a phone whose messages were about changes that could not be saved."""

HOLD_AT_MOST = 512
"""Messages held before the gate asks for the turn's changes to be committed at once (``flush``)."""


class Gate:
    """What phones are to be told, held while a turn's changes are being saved."""

    __slots__ = ("closed", "failing", "flush", "held", "moved")

    def __init__(self, flush: Callable[[], None] | None = None) -> None:
        self.closed = False
        """A transaction is open: messages wait."""
        self.held: list[tuple[Conn, bytes | None]] = []
        self.failing = False
        """A commit failed in this turn of the loop: a message now would tell of a change that was not saved
        (the rest of a broadcast, after a commit asked for by :meth:`hold`), so its phone is closed instead."""
        self.flush = flush
        """Commits the turn's changes now (then :meth:`open` or :meth:`fail` is called): asked for once
        :data:`HOLD_AT_MOST` messages wait."""
        self.moved: set[str] = set()
        """The tables that moved on while the gate was shut (``Hub.deliver``): their phones are sent their
        messages first when it opens; each connection's messages keep their order."""

    def shut(self) -> None:
        """A change is being saved: messages wait until :meth:`open` (or :meth:`fail`)."""
        self.closed = True
        self.failing = False

    def hold(self, conn: Conn, data: bytes | None) -> None:
        """A message to ``conn`` (or, :data:`CLOSE`, its close), sent when the gate opens."""
        if self.failing:
            conn.close_now(SAVE_FAILED)
            return
        held = self.held
        held.append((conn, data))
        if len(held) >= HOLD_AT_MOST and self.flush is not None:
            self.flush()

    def open(self) -> None:
        """Saved: everything held goes out, the phones of the tables that moved on first (:attr:`moved`), each
        connection's messages in the order they were sent."""
        held, self.held = self.held, []
        self.closed = False
        if self.moved:
            moved, self.moved = self.moved, set()
            first: list[tuple[Conn, bytes | None]] = []
            rest: list[tuple[Conn, bytes | None]] = []
            for item in held:
                (first if item[0].code in moved else rest).append(item)
            if first and rest:
                held = first + rest
        for conn, data in held:
            if data is CLOSE:
                conn.close_now()
            else:
                conn.write(data)

    def fail(self) -> None:
        """Not saved: nothing held is sent; the phones it was for are closed, and come back to the table as
        it was saved."""
        held, self.held = self.held, []
        self.moved = set()
        # Until the next turn, or the next change being saved, a message closes its phone too: it may be the
        # rest of a broadcast of what was lost (if :meth:`hold` asked for the commit in the middle of it); a
        # phone closed for nothing comes back, as the others do.
        self.failing = True
        asyncio.get_running_loop().call_soon(self._turn_over)
        for conn in dict.fromkeys(conn for conn, _ in held):
            conn.close_now(SAVE_FAILED)

    def _turn_over(self) -> None:
        if self.failing:
            self.failing = self.closed = False


__all__ = ["CLOSE", "HOLD_AT_MOST", "SAVE_FAILED", "Gate"]
