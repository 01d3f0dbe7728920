"""What one person (or a spectator, or the TV) sees of a table.

The table's own secret is the pending choices: a view says *who* has chosen,
and only the viewer's own choice.  The game's secrets are hidden by the game's
own view for the viewer's seat.  Seat tokens never appear in a view.
"""

from __future__ import annotations

from gemtable.games.api import JSON
from gemtable.table.people import Status
from gemtable.table.table import Table


def table_view(table: Table, pid: int | None, now: float) -> JSON:
    """The whole state as ``pid`` may see it (``None``: a spectator or the TV)."""
    me = table.people.get(pid) if pid is not None else None
    seat = me.seat if me is not None and me.status != Status.GONE else None
    game = table.game
    to_act = game.to_act() if game is not None and table.phase == "playing" else frozenset()
    queue = [p.id for p in table.queue()]
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
            }
            for p in sorted(table.people.values(), key=lambda p: p.id)
            if p.status != Status.GONE or p.seat is not None
        ],
        "queue": queue,
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


def _public_settings(table: Table) -> JSON:
    s = table.settings
    return {
        "preset": s.preset,
        "options": s.options,
        "rules": s.rules,
        "seconds": s.seconds,
        "pause": s.pause,
        "turn_clock": s.turn_clock,
        "scripted": s.script is not None,
    }
