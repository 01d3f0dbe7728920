"""A change is told once: a paced broadcast that finds nothing new to tell sends nothing (issue 25).

Choices that the table's pacer holds are saved before their ``chosen`` goes out (``Hub._save_then``).  A
choice made while that save is on its way is told with it; the pacer's own flush for that choice, due at the
end of its interval, then has nothing left to tell.  It used to send every phone a whole state all the same
(it took "nothing held" for "not only choices"): at 2,000 tables of 8 phones, about a third of the whole
states a reveal cost.  Driven in-process through the hub, on a real SQLite file, with the pacer's real timers.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from gemtable.server.conn import Conn
from gemtable.server.hub import Hub
from gemtable.server.limits import Limits
from gemtable.store.sqlite import SqliteStore
from tests.server.test_table_life import LONG

NAMES = ["Ann", "Bob", "Cat", "Dan"]


class Phone:
    """A connection whose frames are kept as they are written."""

    def __init__(self, hub: Hub, address: str) -> None:
        self.hub = hub
        self.frames: list[dict[str, Any]] = []

        async def never(_: Any) -> None:  # (every frame goes through write_now)
            raise AssertionError("queued")

        self.conn = Conn(never, never, address, hub.limits, hub.gate)
        self.conn.write_now = self._write

    def _write(self, data: bytes) -> bool:
        self.frames.append(json.loads(data))
        return True

    async def say(self, **message: Any) -> None:
        await self.hub.receive(self.conn, json.dumps({"v": 2, **message}))

    def table_frames(self, since: int = 0) -> list[dict[str, Any]]:
        return [f for f in self.frames[since:] if f["type"] in ("state", "chosen")]

    @property
    def state(self) -> dict[str, Any]:
        return next(f["table"] for f in reversed(self.frames) if f["type"] == "state")


async def spawned(hub: Hub, before: int) -> None:
    """Wait, a turn of the loop at a time, until the node has spawned a task (the pacer's flush found the held
    choices unsaved and put the broadcast off until they are saved): this coroutine runs again before it.  The
    flush is due at the end of the pacer's interval, so this waits for it by the clock, not by a count of
    turns (100,000 turns took longer than the interval only under coverage)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 30.0
    while loop.time() < give_up:
        if len(hub.node._tasks) > before:
            return
        await asyncio.sleep(0)
    raise AssertionError("the pacer never flushed the held choice")


def test_a_choice_made_while_held_choices_are_saved_is_told_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        limits = Limits(broadcast_seconds=0.2)
        hub = Hub(SqliteStore(tmp_path / "gemtable.sqlite3"), limits=limits, allow_scripts=True)
        await hub.start()
        try:
            table = await hub.create("10.0.0.1", {"script": LONG, "seconds": 60, "pause": 0.5, "countdown": 0})
            phones = [Phone(hub, f"10.0.1.{i}") for i in range(len(NAMES))]
            for phone, name in zip(phones, NAMES, strict=True):
                await phone.say(type="join", code=table.code, name=name)
            await phones[0].say(type="start")
            await asyncio.sleep(0.5)  # the pacer's interval is over: the next change goes out at once
            state = phones[0].state
            assert state["phase"] == "playing"
            decision = state["decision"]
            marks = [len(phone.frames) for phone in phones]

            await phones[0].say(type="choose", move="deeper", decision=decision)  # told at once
            await phones[1].say(type="choose", move="deeper", decision=decision)  # held by the pacer, unsaved
            await spawned(hub, len(hub.node._tasks))  # its flush is saving it ...
            await phones[2].say(type="choose", move="camp", decision=decision)  # ... when Cat chooses
            await asyncio.sleep(1.0)  # every interval is over: whatever was due has gone out

            for phone, mark in zip(phones, marks, strict=True):
                told = phone.table_frames(mark)
                assert [f["type"] for f in told] == ["chosen", "chosen"], told  # no whole state: nothing else changed
                assert sorted(person for f in told for person in f["people"]) == [1, 2, 3]
                seqs = [f["seq"] for f in told]
                assert seqs == [seqs[0], seqs[0] + 1]
            assert phones[2].table_frames(marks[2])[-1]["choice"] == "camp"
            assert phones[3].state["phase"] == "playing"
        finally:
            await hub.stop()
            await hub.store.close()

    asyncio.run(scenario())
