"""Run a phone's message at once, in the turn of the loop its bytes arrived in: a task only if it has to wait.

A message handed to a task waits for the loop's next turn, behind everything the current turn still has to
do; at 1,000 tables of 8 phones that wait was a fifth of a reveal's time on the server (issue 39), and the
task's wake-up cost CPU at every message.  Nearly every message a phone sends is handled without waiting for
anything (the table is in memory, the store's append keeps its rows for the turn's commit), so
:func:`run_eagerly` runs its coroutine in the caller's turn, and only if it waits for something (a table read
from the store, a message forwarded over Redis to the node that runs the table) does a task take over the
rest, from where it waits.  Python 3.12's ``asyncio.eager_task_factory`` does the same for every task of a
loop; this does it for one coroutine, on Python 3.11 as well.

What runs before the first wait runs with no current task (``asyncio.current_task()`` is None), as any
callback of the loop does; what it awaits after that runs in the task.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator
from typing import Any


def run_eagerly(coro: Coroutine[Any, Any, None]) -> asyncio.Future[None] | None:
    """Run ``coro`` now until it finishes (None) or waits for something; then the rest of it runs as a task,
    which is returned (its outcome is the coroutine's)."""
    try:
        first = coro.send(None)
    except StopIteration:
        return None
    return asyncio.ensure_future(_Rest(coro, first))


class _Rest:
    """The rest of a coroutine :func:`run_eagerly` started: handed to a task, it gives the task what the
    coroutine waits for (the future it yielded), then resumes the coroutine each time the task is resumed,
    and throws into it what is thrown into the task (its cancellation)."""

    __slots__ = ("coro", "first")

    def __init__(self, coro: Coroutine[Any, Any, None], first: Any) -> None:
        self.coro = coro
        self.first = first

    def __await__(self) -> Generator[Any, Any, None]:
        coro, waiting = self.coro, self.first
        self.first = None
        while True:
            try:
                sent = yield waiting
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:  # (the task cancelled: the coroutine is cancelled where it waits)
                try:
                    waiting = coro.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    waiting = coro.send(sent)
                except StopIteration:
                    return


__all__ = ["run_eagerly"]
