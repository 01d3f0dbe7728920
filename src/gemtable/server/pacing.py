"""Paced sends: at most one message of a kind per interval to a room, the latest one winning.

A table's changes are told to every phone at it.  Changes can come faster than anyone can read them — a
burst of choices, hellos, joins, bots at an instant pace — and each one told at once is a whole state to
every phone (the review's flood made 619 a second to each).  A :class:`Pacer` coalesces them: the first
change after a quiet spell goes out at once (an honest table, whose changes are seconds apart, waits for
nothing), and the ones that come within :attr:`Pacer.interval` of the last send are held and sent together
when it is over, built from the table as it is *then* — so every phone ends with the latest state, and no
phone gets more than ``1 / interval`` of them a second.

A change the caller says must not wait (``now``: at a table, the game moving on — a reveal, the next card, a
new phase) goes out at once, with whatever was held, and the interval starts again: what is coalesced is the
chatter *within* one moment of the game (choices made and changed, hellos, joins), never the game's own pace,
which the players set (a reveal needs everyone's choice).

It knows nothing of tables or phones: a *key* (a table's code; issue 25's room announcements use their
own keys) and a *flush*, the function that sends what is due now.  A request while one is held replaces
the held flush (the latest wins); what it must remember of the changes in between (a ``Chosen`` that can
be merged, say) is the caller's (``hub.py``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

Flush = Callable[[], None]

log = logging.getLogger("gemtable")


@dataclass
class _Pace:
    held: Flush | None = None
    """What to send when the interval is over (None: nothing is due)."""
    timer: asyncio.TimerHandle | None = None


class Pacer:
    """At most one flush per key per ``interval`` seconds; the first after a quiet spell at once, the others
    coalesced into one at the end of the interval."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.keys: dict[str, _Pace] = {}
        """Keys that sent within the last interval (forgotten once it is over with nothing held)."""
        self.sent = 0
        self.held = 0
        """Flushes run, and requests that were held (and coalesced) instead of sent at once."""

    def request(self, key: str, flush: Flush, now: bool = False) -> None:
        """Send what ``flush`` sends: now if ``key`` is quiet (or ``now``: a change that must not wait, which
        replaces any flush held and starts the interval again), else once its interval is over (replacing
        any flush already held for it)."""
        pace = self.keys.get(key)
        if pace is None or self.interval <= 0 or now:
            if pace is not None and pace.timer is not None:
                pace.timer.cancel()
            self._send(key, flush)
            return
        self.held += 1
        pace.held = flush  # the latest wins: it sends the state as it is when it runs

    def holds(self, key: str) -> bool:
        """Whether a request for ``key`` now (not ``now``) would be held rather than sent at once."""
        return self.interval > 0 and key in self.keys

    def pending(self, key: str) -> bool:
        """Whether a flush is held for ``key``."""
        pace = self.keys.get(key)
        return pace is not None and pace.held is not None

    def forget(self, key: str) -> None:
        """Drop ``key``: its held flush is never run (its room is gone)."""
        pace = self.keys.pop(key, None)
        if pace is not None and pace.timer is not None:
            pace.timer.cancel()

    def close(self) -> None:
        for key in list(self.keys):
            self.forget(key)

    def _send(self, key: str, flush: Flush) -> None:
        self.sent += 1
        if self.interval > 0:
            pace = self.keys.get(key)
            if pace is None:
                pace = self.keys[key] = _Pace()
            pace.held = None
            pace.timer = asyncio.get_running_loop().call_later(self.interval, self._due, key)
        try:
            flush()
        except Exception:  # a bug must cost one message, not the pacer's timers
            log.exception("a paced send failed (%s)", key)

    def _due(self, key: str) -> None:
        pace = self.keys.get(key)
        if pace is None:
            return
        pace.timer = None
        if pace.held is None:
            del self.keys[key]  # quiet: the next request goes out at once
            return
        self._send(key, pace.held)


__all__ = ["Flush", "Pacer"]
