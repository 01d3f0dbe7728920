"""A change is told once: choices made within the pacer's interval go out together, as ``chosen`` messages,
and a paced broadcast that finds nothing new to tell sends nothing (issue 25).

Ann's choice after a quiet spell is told at once; Bob's and Cat's, made within the interval that follows, are told
together at its end, in one ``chosen`` naming both — never as whole states (a flush that took "nothing held" for
"not only choices" once sent every phone a whole state: at 2,000 tables of 8 phones, about a third of the whole
states a reveal cost).  Driven in-process through the hub, on a real SQLite file, with the pacer's real timers.
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


def test_choices_made_within_the_pacers_interval_are_told_once_together(tmp_path: Path) -> None:
    async def scenario() -> None:
        limits = Limits(broadcast_seconds=0.2)
        hub = Hub(SqliteStore(tmp_path / "gemtable.sqlite3"), limits=limits, allow_scripts=True)
        await hub.start()
        try:
            table = await hub.create(
                "10.0.0.1", {"script": LONG, "seconds": 60, "pause": 0.5, "countdown": 0, "ready_check": False}
            )
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
            await phones[1].say(type="choose", move="deeper", decision=decision)  # held by the pacer ...
            await phones[2].say(type="choose", move="camp", decision=decision)  # ... with Cat's
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
