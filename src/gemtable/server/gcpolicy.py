"""The cyclic garbage collector, kept off the event loop's back.

A full collection walks every tracked object: with thousands of phones connected that is hundreds of
thousands of long-lived objects (about 160 per connection: uvicorn's protocol, the ASGI middleware's
coroutines, starlette's WebSocket, our ``Conn`` with its queue and writer task) and a stall of 200-300 ms
for every phone at 3,000 connections.  What lives is therefore moved out of the collector's sight with
:func:`gc.freeze` after start-up and then every :data:`FREEZE_EVERY` seconds: a new wave of phones is
frozen within a second of arriving, and the collections that the interpreter still starts on its own walk
only what is new.  Freezing once a minute was not enough: the phones of a busy evening arrive between two
freezes, and a full collection over them fell into the 15 s window of the benchmark (p99 81 and 96 ms at
500 x 6, docs/benchmarks.md).  A freeze is a constant-time list splice; it is not preceded by a young
collection, which walked ~30,000 objects (13-32 ms) every second and found nothing: at a steady load the
server makes no cyclic garbage (every collection during the benchmark's window collected 0 objects).

A frozen object is still freed as soon as nothing refers to it (reference counting ignores the freeze);
only garbage in *cycles* would stay until the next thaw.  So a closed connection must leave no cycle
behind.  There were two, both broken when the connection is lost (``websocket.py``): the ``websockets``
protocol with its suspended parser generator (it held the permessage-deflate state, ~37 KB a phone: the
freeze every 2 s tried earlier failed tests/security/test_limits.py because of it, a second wave of
2,000 phones taking 209 MiB instead of reusing the first wave's 153), and asyncio's socket transport with
its read callback (~1.3 KB).  With both broken a closed phone leaves nothing for the collector (measured
with ``gc.DEBUG_SAVEALL`` after phones that played and were cut off, and after silent phones closed by the
server), so a thaw is only a safety net for a cycle nobody has found yet: everything is thawed and
collected once every :data:`THAW_EVERY` seconds and after :data:`THAW_AFTER_CLOSED` closed connections.
That thaw is one full collection (measured: 200 ms over 300,000 objects, some 2,000 connections; it is
logged), not one every few seconds.

While the upkeep runs, the interpreter starts only young collections (generation 0: the objects made since
the last one, which catch the cycles that die young — an exception's, say); the older generations are never
collected on their own (:data:`NEVER`), since everything that survives a young collection is frozen within a
second anyway.  Those older collections walked everything that survived since the last freeze, several times
a second, and found nothing: at 2,000 tables x 8 phones about 60 % of the collector's time, which was 8 % of
the server's (py-spy; ~90 ms a second of collections, measured with ``gc.callbacks``; issue 25).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger("gemtable")

FREEZE_EVERY = 1.0
"""Seconds between two freezes (:func:`gc.freeze` moves the collector's lists into the permanent one at
once, whatever their length)."""
THAW_EVERY = 3600.0
"""Seconds between two thaws at the latest: what is frozen in cycles is given back at least this often."""
THAW_AFTER_CLOSED = 10_000
"""Connections closed since the last thaw after which everything is thawed and collected at once (a
closed connection leaves no known cycle: this bounds what an unknown one could hold)."""


NEVER = 2**30
"""The thresholds of the older generations while the upkeep runs: no collection of theirs starts on its own."""


def thaw() -> int:
    """Everything back into the collector's sight, one full collection, everything frozen again.  Returns
    the number of unreachable objects found."""
    gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    return found


async def keep_frozen(
    closed: Callable[[], int] = lambda: 0,
    freeze_every: float = FREEZE_EVERY,
    thaw_every: float = THAW_EVERY,
    thaw_after_closed: int = THAW_AFTER_CLOSED,
) -> None:
    """Run for as long as the server does (cancel it to stop); ``closed()``: connections closed so far."""
    gc.collect()
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], NEVER, NEVER)
    try:
        await _upkeep(closed, freeze_every, thaw_every, thaw_after_closed)
    finally:
        gc.set_threshold(*thresholds)


async def _upkeep(closed: Callable[[], int], freeze_every: float, thaw_every: float, thaw_after_closed: int) -> None:
    last_thaw = time.monotonic()
    closed_at_thaw = closed()
    while True:
        await asyncio.sleep(freeze_every)
        now = time.monotonic()
        if now - last_thaw >= thaw_every or closed() - closed_at_thaw >= thaw_after_closed:
            started = time.perf_counter()
            found = thaw()
            log.info(
                "garbage collector: thawed, %d unreachable objects collected in %.0f ms (%d closed "
                "connections since the last thaw)",
                found,
                1000 * (time.perf_counter() - started),
                closed() - closed_at_thaw,
            )
            last_thaw, closed_at_thaw = time.monotonic(), closed()
        else:
            gc.freeze()
