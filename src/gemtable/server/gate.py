"""Messages wait at the gate while what they tell is being saved: one commit a turn of the loop, not one a change.

The embedded store commits once per turn of the event loop (``SqliteStore.commit_per_turn``): every change
made in one turn — at 2,000 tables, dozens of them — is written in one transaction at the start of the next,
instead of one transaction each (a commit costs about as much as everything else a change does: issue 25).
A phone must never be told of a change that is not saved, so while a turn's transaction is open, every
message to a phone — and every close, in its order — waits here, and goes out as soon as the transaction is
committed, in the order it was sent.  A message is held for at most one turn of the loop.

If the commit fails (the disk is full, an I/O error), nothing held is sent: every phone that was to be
told something in that turn is closed (``1011``, as a server error) and comes back to the table as it was
saved, which the node reads back from the store (``Hub._turn_saved``).

A connection without a gate (tests, the in-memory store) writes at once, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gemtable.server.conn import Conn

CLOSE = None
"""In the held list: the connection was closed after the messages before it (its code is its own)."""

SAVE_FAILED = 1011
"""The close code of a phone whose messages were about changes that could not be saved."""


class Gate:
    """What phones are to be told, held while a turn's changes are being saved."""

    __slots__ = ("closed", "held")

    def __init__(self) -> None:
        self.closed = False
        """A transaction is open: messages wait."""
        self.held: list[tuple[Conn, bytes | None]] = []

    def shut(self) -> None:
        """A change is being saved: messages wait until :meth:`open` (or :meth:`fail`)."""
        self.closed = True

    def hold(self, conn: Conn, data: bytes | None) -> None:
        """A message to ``conn`` (or, :data:`CLOSE`, its close), sent when the gate opens."""
        self.held.append((conn, data))

    def open(self) -> None:
        """Saved: everything held goes out, in order."""
        held, self.held = self.held, []
        self.closed = False
        for conn, data in held:
            if data is CLOSE:
                conn.close_now()
            else:
                conn.write(data)

    def fail(self) -> None:
        """Not saved: nothing held is sent; the phones it was for are closed, and come back to the table as
        it was saved."""
        held, self.held = self.held, []
        self.closed = False
        for conn in dict.fromkeys(conn for conn, _ in held):
            conn.close_now(SAVE_FAILED)


__all__ = ["CLOSE", "SAVE_FAILED", "Gate"]
