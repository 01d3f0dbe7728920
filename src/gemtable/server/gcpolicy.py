"""The cyclic garbage collector, kept off the event loop's back.

A full collection walks every tracked object: with thousands of phones connected that is hundreds of
thousands of long-lived objects (connections, tables, the modules) and a stall of a few hundred
milliseconds for every phone.  What lives long is moved out of the collector's sight with
:func:`gc.freeze` after start-up and then every :data:`FREEZE_EVERY` seconds, so a full collection only
walks what is new (a young collection first, so only what survived two collections is frozen).  Every
2 s brought the p99 at 500 x 6 down to 11-26 ms, but froze closed connections too: a second wave of
phones no longer reused the first wave's memory (tests/security/test_limits.py), so it is once a minute
until that is solved (docs/benchmarks.md).
Once every :data:`THAW_EVERY` seconds, and after :data:`THAW_AFTER_CLOSED` connections have closed,
everything is thawed and collected, so that garbage frozen by chance (a closed connection's cycles) is
still given back: one full collection then, not one every few seconds.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable

FREEZE_EVERY = 60.0
THAW_EVERY = 3600.0
THAW_AFTER_CLOSED = 100
"""Connections closed since the last thaw after which everything is thawed and collected at once: what
they held (cycles included) is given back, so that the next wave of phones reuses that memory."""


async def keep_frozen(closed: Callable[[], int] = lambda: 0, freeze_every: float = FREEZE_EVERY,
                      thaw_every: float = THAW_EVERY) -> None:
    """Run for as long as the server does (cancel it to stop); ``closed()``: connections closed so far."""
    gc.collect()
    gc.freeze()
    since_thaw = 0.0
    closed_at_thaw = closed()
    while True:
        await asyncio.sleep(freeze_every)
        since_thaw += freeze_every
        if since_thaw >= thaw_every or closed() - closed_at_thaw >= THAW_AFTER_CLOSED:
            since_thaw, closed_at_thaw = 0.0, closed()
            gc.unfreeze()
            gc.collect()
        else:
            gc.collect(1)  # the young garbage goes first: only what lives on is frozen
        gc.freeze()
