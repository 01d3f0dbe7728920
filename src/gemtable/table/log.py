"""A table's side of its event log: what it has applied, what waits to be saved, what it may forget.

The table is event sourced (``table.py``): ``Table.emit`` applies an event and
puts it in ``outbox``; the server saves the outbox in one turn of its store, and
only then tells anyone (``server/gate.py``).  Events are numbered from 1 (the
``created`` event) in the order they were applied: ``events`` is the last
number, and a notice's id is its event's number less the audience's predictions before it (``audience.py``:
they never change a game's record, whose history holds its notices).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gemtable.games.api import JSON

Event = dict[str, Any]


@dataclass(slots=True)
class Log:
    events: int = 0
    """How many events the table has applied (the last one's number)."""
    outbox: list[Event] = field(default_factory=list)
    """Events applied and not yet handed to the server to save (``Table.take_outbox``)."""
    records: dict[int, JSON] = field(default_factory=dict)
    """Records of finished games not yet handed to storage (the server saves each, then forgets it, so that a
    table's memory does not grow with every game played at it)."""
    finished: list[int] = field(default_factory=list)
    """Numbers of the finished games at this table."""
    prunable: list[int] = field(default_factory=list)
    """Numbers of events no rebuild needs any more: the ``chose`` events of a finished game (its reveals hold
    every move that counted, and reset the choices).  The node prunes them from the log once saved
    (``Store.prune``), so a finished game's log keeps no changes of mind; the record is kept apart."""
