"""What one person (or a spectator, or the TV) sees of a table.

The table's own secret is the pending choices: a view says *who* has chosen,
and only the viewer's own choice.  The game's secrets are hidden by the game's
own view for the viewer's seat.  Seat tokens never appear in a view.
"""

from __future__ import annotations

from gemtable.games.api import JSON
from gemtable.table.people import Person, Status
from gemtable.table.table import Table

QUEUE_SHOWN = 10
"""A view lists at most this many people without a chair or a seat (the first of the queue, then the
away); ``queue_length`` and ``unlisted`` count the rest, so that a view stays small whatever the crowd."""


def table_view(table: Table, pid: int | None, now: float) -> JSON:
    """The whole state as ``pid`` may see it (``None``: a spectator or the TV)."""
    me = table.people.get(pid) if pid is not None else None
    seat = me.seat if me is not None and me.status != Status.GONE else None
    game = table.game
    to_act = game.to_act() if game is not None and table.phase == "playing" else frozenset()
    queue = [p.id for p in table.queue()]
    listed = _listed(table, me)
    return {
        "code": table.code,
        "game": table.kind.name,
        "title": table.kind.title,
        "settings": _public_settings(table),
        "phase": table.phase,
        "game_number": table.game_number,
        "decision": table.decision,
        "host": table.host,
        "remaining_ms": None if table.deadline is None else max(0, round((table.deadline - now) * 1000)),
        "chairs": table.kind.max_seats,
        "people": [
            {
                "id": p.id,
                "name": p.name,
                "status": p.status.value,
                "chair": p.chair,
                "seat": p.seat,
                "bot": p.bot,
                "connected": p.is_bot or p.id in table.runtime.connected,
                "to_act": p.seat is not None and p.seat in to_act,
                "chosen": p.seat is not None and p.seat in to_act and p.seat in table.pending,
                "bot_plays": table.bot_plays_for(p),
            }
            for p in listed
        ],
        "unlisted": sum(1 for p in table.people.values() if p.status != Status.GONE) - sum(
            1 for p in listed if p.status != Status.GONE
        ),
        "queue": queue[:QUEUE_SHOWN],
        "queue_length": len(queue),
        "me": None
        if me is None
        else {
            "id": me.id,
            "name": me.name,
            "status": me.status.value,
            "chair": me.chair,
            "seat": seat,
            "host": table.host == me.id,
            "queue_position": queue.index(me.id) + 1 if me.id in queue else None,
            "choice": table.pending.get(seat) if seat is not None else None,
            "moves": list(game.legal_moves(seat)) if game is not None and seat is not None and seat in to_act else [],
        },
        "state": None if game is None else game.view(seat).to_json(),
        "results": list(table.finished),
        "timed_out": list(table.timed_out),
    }


def _listed(table: Table, me: Person | None) -> list[Person]:
    """Everyone with a chair or a seat of this game, the host, the viewer, and the first
    ``QUEUE_SHOWN`` of the others (the queue in its order, then the away), by id."""
    shown = {p.id for p in table.people.values() if p.chair is not None or p.seat is not None}
    shown |= {pid for pid in (table.host, me.id if me is not None else None) if pid is not None}
    rest = [*table.queue(), *(p for p in table.people.values() if p.status == Status.AWAY and p.chair is None)]
    shown |= {p.id for p in rest[:QUEUE_SHOWN]}
    return [table.people[pid] for pid in sorted(shown) if pid in table.people]


def _public_settings(table: Table) -> JSON:
    s = table.settings
    return {
        "preset": s.preset,
        "options": s.options,
        "rules": s.rules,
        "seconds": s.seconds,
        "pause": s.pause,
        "turn_clock": s.turn_clock,
        "absent_grace": s.absent_grace,
        "scripted": s.script is not None,
    }
