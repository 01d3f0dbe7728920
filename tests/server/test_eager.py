"""A phone's message is handled in the turn of the loop its bytes arrived in (``server/eager.py``), and a task
takes over only what has to wait; the connection's inbox keeps the order of its messages meanwhile
(``websocket.Inbox``).  The server's own suites run every phone through this path on real WebSockets."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from gemtable.server.eager import run_eagerly
from gemtable.server.websocket import WAKE, Inbox


def test_a_coroutine_that_waits_for_nothing_runs_to_its_end_at_once_in_its_callers_turn() -> None:
    async def scenario() -> None:
        seen: list[Any] = []
        ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        ready.set_result(1)

        async def handle() -> None:
            seen.append(asyncio.current_task())
            seen.append(await ready)  # (an await of what is already there does not wait)
            seen.append("end")

        assert run_eagerly(handle()) is None
        assert seen == [asyncio.current_task(), 1, "end"]  # before run_eagerly returned, in its caller's turn

    asyncio.run(scenario())


def test_what_a_coroutine_waits_for_is_run_by_a_task_from_where_it_waits() -> None:
    async def scenario() -> None:
        seen: list[str] = []
        later: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def handle() -> None:
            seen.append("before")
            value = await later
            seen.append(f"after {value}")
            assert asyncio.current_task() is not None
            raise ValueError("told to the task's awaiter")

        rest = run_eagerly(handle())
        assert seen == ["before"] and rest is not None and not rest.done()
        later.set_result(7)
        with pytest.raises(ValueError, match="awaiter"):
            await rest
        assert seen == ["before", "after 7"]

    asyncio.run(scenario())


def test_cancelling_the_rest_cancels_the_coroutine_where_it_waits() -> None:
    async def scenario() -> None:
        seen: list[str] = []

        async def handle() -> None:
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                seen.append("cancelled")
                raise
            finally:
                seen.append("finally")

        rest = run_eagerly(handle())
        assert rest is not None
        await asyncio.sleep(0)
        rest.cancel()
        with pytest.raises(asyncio.CancelledError):
            await rest
        assert seen == ["cancelled", "finally"]

    asyncio.run(scenario())


def text(value: str) -> dict[str, Any]:
    return {"type": "websocket.receive", "text": value}


def test_the_inbox_handles_text_at_once_and_keeps_order_behind_a_message_that_waits() -> None:
    async def scenario() -> None:
        handled: list[str] = []
        gates: dict[str, asyncio.Future[None]] = {"slow": asyncio.get_running_loop().create_future()}

        async def handle(message: str) -> None:
            if message in gates:
                await gates[message]
            handled.append(message)

        inbox = Inbox()
        inbox.handler = handle
        inbox.put_nowait(text("one"))
        assert handled == ["one"] and inbox.empty()  # at once, never queued

        inbox.put_nowait(text("slow"))  # waits for its gate: a task runs the rest of it
        inbox.put_nowait(text("two"))
        inbox.put_nowait({"type": "websocket.receive", "bytes": b"\x00"})
        inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
        assert handled == ["one"] and inbox.qsize() == 3
        reader = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0.01)
        assert not reader.done()  # nothing behind "slow" goes to the app before it is done

        gates["slow"].set_result(None)
        assert await reader == text("two")
        assert handled == ["one", "slow"]
        assert await inbox.get() == {"type": "websocket.receive", "bytes": b"\x00"}
        assert await inbox.get() == {"type": "websocket.disconnect", "code": 1000}

    asyncio.run(scenario())


def test_a_message_that_closes_its_connection_wakes_the_app_and_ends_handling_at_once() -> None:
    async def scenario() -> None:
        handled: list[str] = []
        closed = False

        async def handle(message: str) -> None:
            nonlocal closed
            handled.append(message)
            closed = message == "bye"

        inbox = Inbox()
        inbox.handler, inbox.done = handle, lambda: closed
        reader = asyncio.ensure_future(inbox.get())  # the app's task, waiting for what it must read
        await asyncio.sleep(0)
        inbox.put_nowait(text("hello"))
        await asyncio.sleep(0)
        assert not reader.done()
        inbox.put_nowait(text("bye"))
        assert await reader is WAKE  # woken, to find its connection closed
        inbox.put_nowait(text("after"))  # queued for nobody: handled no more
        assert handled == ["hello", "bye"] and inbox.handler is None

    asyncio.run(scenario())
