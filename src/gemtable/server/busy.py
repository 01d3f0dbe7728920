"""A busy server tells its tables' chatter less often, so that the game's own moments stay quick.

Most of what a table tells its phones at the pace people play is chatter within one moment of the game: who has
chosen, who changed their mind, who came back, who joined.  The pacer (``pacing.py``) tells a table's chatter at
most once per ``Limits.broadcast_seconds`` (0.25 s).  While this server's process uses :data:`BUSY_AT` of a core or
more, it tells it at most once per ``Limits.busy_broadcast_seconds`` (1 s) instead, until its share is back under
:data:`CALM_AT`.  Then "Bob has chosen" reaches the other phones up to a second late; a reveal, the next card and
everything else that moves the game on still go out at once (the pacer never holds those), the first change after
a quiet second too, a phone that says hello or joins is answered at once (``Hub.deliver``), and a chooser's own
phone shows its choice as it is tapped, everywhere on its page (the page does not wait for the server).  A server
of a few tables never gets there: it stays at 0.25 s.

Why half a core: a reveal waits for whatever the event loop has to do before it, and at a busy share ρ that wait
grows as ρ / (1 − ρ), a queue's law (``docs/benchmarks.md`` measures it): at half a core the wait is already as long
as the work itself, at two thirds twice as long.  The chatter is what can wait: at 1,000 tables of 8 phones at the
human pace, told once a second it is 27 messages a reveal instead of 39, and about an eighth of the server's CPU.
Why back only under :data:`CALM_AT`: with the chatter coalesced the same load costs less, so the two thresholds
keep the server from switching at every measure.

The share is the process's CPU time (``time.process_time``, on every system) over the wall time, measured every
:data:`EVERY` seconds from the start of serving (not the start-up's own work) and smoothed over the last few.
``GEMTABLE_BUSY_AT`` sets :data:`BUSY_AT` for ``gemtable serve`` (0: always busy; above 1: never, for comparisons),
``GEMTABLE_BUSY_PACE`` the busy pace in seconds.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable

BUSY_AT = 0.5
"""The share of a core (smoothed) from which the server counts as busy."""
CALM_AT = 0.3
"""The share under which a busy server counts as calm again."""
EVERY = 1.0
"""Seconds between two measures."""


class Busy:
    """Whether this process is busy, from its share of a core (time as an input: ``cpu`` and ``clock``)."""

    def __init__(
        self,
        busy_at: float = BUSY_AT,
        calm_at: float = CALM_AT,
        cpu: Callable[[], float] = time.process_time,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.busy_at = busy_at
        self.calm_at = min(calm_at, busy_at)
        self.cpu = cpu
        self.clock = clock
        self.busy = False
        self.share = 0.0
        """The share of a core, smoothed: each measure counts for half (a busy second from idle gives at most half
        a core: a load must last a second or two to count, and is forgotten as fast)."""
        self._last = (clock(), cpu())

    def restart(self) -> None:
        """Measure from now on (what the process did before, its start say, does not count)."""
        self._last = (self.clock(), self.cpu())

    def measure(self) -> bool:
        """Measure the share since the last measure; True when that made the server busy, or calm again."""
        now, used = self.clock(), self.cpu()
        wall = now - self._last[0]
        if wall <= 0:
            return False
        share = max(0.0, used - self._last[1]) / wall
        self._last = (now, used)
        self.share = (self.share + share) / 2
        was = self.busy
        if self.share >= self.busy_at:
            self.busy = True
        elif self.share < self.calm_at:
            self.busy = False
        return self.busy != was


def from_env(environ: dict[str, str] | None = None) -> tuple[float, float | None]:
    """``gemtable serve``'s threshold and busy pace: ``GEMTABLE_BUSY_AT`` and ``GEMTABLE_BUSY_PACE`` (None: the
    limits' own pace)."""
    environ = dict(os.environ) if environ is None else environ
    busy_at = float(environ.get("GEMTABLE_BUSY_AT", BUSY_AT))
    pace = environ.get("GEMTABLE_BUSY_PACE")
    return busy_at, None if pace is None else float(pace)


async def keep_watch(busy: Busy, changed: Callable[[bool, float], None], every: float = EVERY) -> None:
    """Measure every ``every`` seconds for as long as the server runs (cancel it to stop); ``changed(busy, share)``
    when the server becomes busy or calm again."""
    busy.restart()
    while True:
        await asyncio.sleep(every)
        if busy.measure():
            changed(busy.busy, busy.share)


__all__ = ["BUSY_AT", "CALM_AT", "EVERY", "Busy", "from_env", "keep_watch"]
