"""Secret choices, even while the table's pacer holds their telling back, are saved before anything tells of them.

Each choice is appended in the turn of the event loop it is made in and committed at the start of the next,
before the gate lets any message of that turn out (``server/gate.py``); a ``chosen`` message the pacer holds
goes out later still.  Through a real server on a real SQLite file: every time a phone is told of a choice (its
``chosen`` message or a whole state), the file already holds it — what a restarted server would rebuild from
the log shows at least as much as the phone.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from gemtable.client import Client
from gemtable.server import protocol as p
from gemtable.store import pruned
from gemtable.table import Table
from tests.server.harness import ServerProcess
from tests.server.test_protocol_v2 import settle
from tests.server.test_table_life import LONG


def saved_pending(db: Path, code: str) -> dict[int, str]:
    """The pending choices of table ``code`` as its saved log has them (read by another handle on the file)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seq, body FROM events WHERE code = ? ORDER BY seq", (code,)).fetchall()
    events: list[dict[str, Any]] = []
    for seq, body in rows:
        events.extend(pruned() for _ in range(seq - len(events) - 1))
        events.append(json.loads(body))
    return dict(Table.rebuild(events, time.time()).play.pending)


class Checking(Client):
    """A phone that, on every table message it is told, looks at what the server's file holds."""

    db: Path
    code: str
    told: list[tuple[dict[str, Any], dict[int, str]]]

    def _take(self, message: p.ServerMessage) -> None:
        super()._take(message)
        if isinstance(message, p.State | p.Chosen) and self.state is not None and self.state["phase"] == "playing":
            self.told.append((self.state, saved_pending(self.db, self.code)))


def check(everyone: list[Checking], want: dict[int, str]) -> None:
    assert saved_pending(everyone[0].db, everyone[0].code) == want
    for client in everyone:
        assert client.told, "told nothing of the choices"
        for state, saved in client.told:
            shown = {person["seat"] for person in state["people"] if person["chosen"]}
            assert shown <= set(saved), (shown, saved)  # nothing shown that the file does not hold
            me = state["me"]
            if me is not None and me["choice"] is not None:
                assert saved.get(me["seat"]) == me["choice"]
        final = {person["seat"] for person in (client.state or {})["people"] if person["chosen"]}
        assert final == set(want)  # and every phone ends knowing them all


def test_no_phone_is_told_of_a_choice_before_it_is_saved(server: ServerProcess) -> None:
    code = server.create_table(script=LONG, seconds=60, pause=0.5)
    db = server.data / "gemtable.sqlite3"
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"]

    async def open_checking() -> Checking:
        client = await Checking.open(server.ws)
        assert isinstance(client, Checking)
        client.db, client.code, client.told = db, code, []
        return client

    async def scenario() -> None:
        players = [await open_checking() for _ in names]
        for client, name in zip(players, names, strict=True):
            await client.join(code, name)
        watcher = await open_checking()
        await watcher.hello(code)
        everyone = [*players, watcher]
        await players[0].start()
        await asyncio.gather(*(c.until(lambda s: s["phase"] == "playing") for c in everyone))
        await settle(*everyone)
        decision = (players[0].state or {})["decision"]
        for client in everyone:
            client.told.clear()
        # Ann chooses after a quiet spell (told at once), then Bob and Cat within the pacer's interval (held,
        # with their announcements, and told together when it is over).
        await players[0].send(p.Choose(move="deeper", decision=decision))
        await asyncio.gather(
            *(
                c.send(p.Choose(move=m, decision=decision))
                for c, m in zip(players[1:3], ["camp", "deeper"], strict=True)
            )
        )
        await settle(*everyone)
        seats = {person["name"]: person["seat"] for person in (watcher.state or {})["people"]}
        want = {seats["Ann"]: "deeper", seats["Bob"]: "camp", seats["Cat"]: "deeper"}
        check(everyone, want)
        # Dan chooses within the interval that the held broadcast began (held), and the watcher asks for the
        # whole state at once: its answer shows Dan's choice, so it is saved first.  Eve keeps it open.
        for client in everyone:
            client.told.clear()
        await players[3].send(p.Choose(move="camp", decision=decision))
        await watcher.send(p.Sync())
        await settle(*everyone)
        check(everyone, {**want, seats["Dan"]: "camp"})
        for client in players[:3]:
            assert (client.state or {})["me"]["choice"] == want[(client.state or {})["me"]["seat"]]
        for client in everyone:
            await client.close()

    asyncio.run(scenario())


def test_held_choices_survive_a_restart_once_told(tmp_path: Path) -> None:
    """Choices told to the phones are in the log: a server stopped and started again still has them."""
    server = ServerProcess(tmp_path / "data").start()
    try:
        code = server.create_table(script=LONG, seconds=60, pause=0.5)

        async def play() -> dict[int, str]:
            players = [await Client.open(server.ws) for _ in range(3)]
            for client, name in zip(players, ["Ann", "Bob", "Cat"], strict=True):
                await client.join(code, name)
            await players[0].start()
            await asyncio.gather(*(c.until(lambda s: s["phase"] == "playing") for c in players))
            await settle(*players)
            decision = (players[0].state or {})["decision"]
            await asyncio.gather(*(c.send(p.Choose(move="deeper", decision=decision)) for c in players[:2]))
            await settle(*players)
            chosen = {(c.state or {})["me"]["seat"]: (c.state or {})["me"]["choice"] for c in players[:2] if c.state}
            for client in players:
                await client.close()
            return chosen

        told = asyncio.run(play())
        assert len(told) == 2 and set(told.values()) == {"deeper"}
    finally:
        server.kill()
    server = ServerProcess(tmp_path / "data").start()
    try:

        async def look() -> dict[str, Any]:
            client = await Client.open(server.ws)
            state = await client.hello(code)
            await client.close()
            return state

        state = asyncio.run(look())
        assert {person["seat"] for person in state["people"] if person["chosen"]} == set(told)
    finally:
        server.stop()
