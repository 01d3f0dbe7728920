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
import time
from collections.abc import Callable
from dataclasses import dataclass

Flush = Callable[[], None]

log = logging.getLogger("gemtable")

PRUNE_AT = 1024
"""Keys kept before the first pruning of quiet ones."""


@dataclass
class _Pace:
    until: float
    """When the interval of the key's last send is over (``time.monotonic()``): a request before then is held."""
    held: Flush | None = None
    """What to send when the interval is over (None: nothing is due)."""
    timer: asyncio.TimerHandle | None = None
    """Armed only while something is held: a send that nothing follows within its interval costs no timer."""


class Pacer:
    """At most one flush per key per ``interval`` seconds; the first after a quiet spell at once, the others
    coalesced into one at the end of the interval."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.keys: dict[str, _Pace] = {}
        """Keys that sent, with the end of their interval.  A quiet key's entry stays until the dictionary has
        doubled since it was last pruned (``_send``): a table told once a second would otherwise make and drop
        it, and arm a timer, at every send (2.5 sends a reveal at 8 phones; issue 25)."""
        self._prune_at = PRUNE_AT
        self.sent = 0
        self.held = 0
        """Flushes run, and requests that were held (and coalesced) instead of sent at once."""

    def request(self, key: str, flush: Flush, now: bool = False) -> None:
        """Send what ``flush`` sends: now if ``key`` is quiet (or ``now``: a change that must not wait, which
        replaces any flush held and starts the interval again), else once its interval is over (replacing
        any flush already held for it)."""
        pace = self.keys.get(key)
        at = time.monotonic()
        if pace is None or self.interval <= 0 or now or at >= pace.until:
            if pace is not None and pace.timer is not None:
                pace.timer.cancel()
                pace.timer = None
            self._send(key, flush, at)
            return
        self.held += 1
        pace.held = flush  # the latest wins: it sends the state as it is when it runs
        if pace.timer is None:
            pace.timer = asyncio.get_running_loop().call_later(pace.until - at, self._due, key)

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

    def _send(self, key: str, flush: Flush, at: float) -> None:
        self.sent += 1
        if self.interval > 0:
            pace = self.keys.get(key)
            if pace is None:
                if len(self.keys) >= self._prune_at:
                    self._prune(at)
                self.keys[key] = _Pace(at + self.interval)
            else:
                pace.until, pace.held = at + self.interval, None
        try:
            flush()
        except Exception:  # a bug must cost one message, not the pacer's timers
            log.exception("a paced send failed (%s)", key)

    def _due(self, key: str) -> None:
        pace = self.keys.get(key)
        if pace is None:
            return
        pace.timer = None
        if pace.held is not None:
            self._send(key, pace.held, time.monotonic())

    def _prune(self, at: float) -> None:
        """Forget the keys that are quiet now (nothing held, the interval over): memory stays within twice
        the keys that sent within one interval, in time amortised over the sends."""
        for key in [k for k, pace in self.keys.items() if pace.held is None and at >= pace.until]:
            del self.keys[key]
        self._prune_at = max(PRUNE_AT, 2 * len(self.keys))


__all__ = ["Flush", "Pacer"]
