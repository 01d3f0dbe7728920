"""The cyclic garbage collector, kept off the event loop's back.

A full collection walks every tracked object: with thousands of phones connected that is hundreds of
thousands of long-lived objects (about 160 per connection: uvicorn's protocol, the ASGI middleware's
coroutines, starlette's WebSocket, our ``Conn`` with its queue and writer task) and a stall of a few hundred
milliseconds for every phone.  What lives is therefore moved out of the collector's sight with
:func:`gc.freeze` after start-up and then every :data:`FREEZE_EVERY` seconds (a young collection first, so
that only what survived it is frozen): a new wave of phones is frozen within a second of arriving, and the
full collections that the interpreter still starts on its own walk only what is new.  Freezing once a
minute was not enough: the phones of a busy evening arrive between two freezes, and a full collection over
them fell into the 15 s window of the benchmark (p99 81 and 96 ms at 500 x 6, docs/benchmarks.md).

A frozen object is still freed as soon as nothing refers to it (reference counting does not care about
the freeze); only garbage in *cycles* stays until the next thaw.  So what a closed connection holds must
not be in a cycle: the big one was the ``websockets`` protocol and its suspended parser generator (a cycle
that held the permessage-deflate compressor, about 37 KB a phone); ``websocket.py`` closes that generator
when the connection is lost, and then everything a closed phone held goes back at once, frozen or not
(tests/security/test_limits.py: the second wave of 2,000 phones reuses the first wave's memory).  What is
left in a cycle is asyncio's own transport (it refers to itself through a bound method): about 1.3 KB a
closed connection.  For that and for any cycle nobody has found yet, everything is thawed and collected
once every :data:`THAW_EVERY` seconds and after :data:`THAW_AFTER_CLOSED` connections have closed: one full
collection then (about a tenth of a second per thousand open connections), not one every few seconds.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger("gemtable")

FREEZE_EVERY = 1.0
"""Seconds between two freezes (each a young collection and :func:`gc.freeze`, well under a millisecond
with nothing new; a few milliseconds after a wave of new phones)."""
THAW_EVERY = 3600.0
"""Seconds between two thaws at the latest: what is frozen in cycles is given back at least this often."""
THAW_AFTER_CLOSED = 2000
"""Connections closed since the last thaw after which everything is thawed and collected at once: what
they left in cycles (about 1.3 KB each, asyncio's transports) is given back."""


def thaw() -> int:
    """Everything back into the collector's sight, one full collection, everything frozen again.  Returns
    the number of unreachable objects found."""
    gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    return found


async def keep_frozen(closed: Callable[[], int] = lambda: 0, freeze_every: float = FREEZE_EVERY,
                      thaw_every: float = THAW_EVERY, thaw_after_closed: int = THAW_AFTER_CLOSED) -> None:
    """Run for as long as the server does (cancel it to stop); ``closed()``: connections closed so far."""
    gc.collect()
    gc.freeze()
    last_thaw = time.monotonic()
    closed_at_thaw = closed()
    while True:
        await asyncio.sleep(freeze_every)
        now = time.monotonic()
        if now - last_thaw >= thaw_every or closed() - closed_at_thaw >= thaw_after_closed:
            started = time.perf_counter()
            found = thaw()
            log.info("garbage collector: thawed, %d unreachable objects collected in %.0f ms (%d closed "
                     "connections since the last thaw)", found, 1000 * (time.perf_counter() - started),
                     closed() - closed_at_thaw)
            last_thaw, closed_at_thaw = time.monotonic(), closed()
        else:
            gc.collect(1)  # the young garbage goes first: only what lives on is frozen
            gc.freeze()
