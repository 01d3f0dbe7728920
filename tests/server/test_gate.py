"""Messages wait at the gate while what they tell is being saved (``server/gate.py``).

The embedded server commits its changes once per turn of the loop; until the turn's transaction is
committed, every message to a phone waits, and a close waits behind the messages sent before it.  If the
commit fails, nothing that waited is sent: the phones are closed (1011) and the tables read back from the
file.  (That every message a phone is told finds its change already in the file is held through a real
server by ``test_held_choices.py``, which reads the file at every message.)
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from gemtable.server.conn import Conn
from gemtable.server.gate import HOLD_AT_MOST, SAVE_FAILED, Gate
from gemtable.server.hub import Hub
from gemtable.server.limits import Limits
from gemtable.store.sqlite import SqliteStore
from tests.server.test_table_life import LONG
from tests.store.test_turns import Failing


class Socket:
    """What a connection writes to, and how it was closed."""

    def __init__(self) -> None:
        self.wire: list[bytes] = []
        self.closed: int | None = None

    def write_now(self, data: bytes) -> bool:
        self.wire.append(data)
        return True

    async def send(self, data: bytes) -> None:
        self.wire.append(data)

    async def close(self, code: int) -> None:
        self.closed = code


def connection(gate: Gate) -> tuple[Conn, Socket]:
    socket = Socket()
    conn = Conn(socket.send, socket.close, "10.0.0.1", Limits(), gate)
    conn.write_now = socket.write_now
    return conn, socket


def test_messages_and_a_close_wait_in_their_order_until_the_gate_opens() -> None:
    async def scenario() -> None:
        gate = Gate()
        conn, socket = connection(gate)
        other, other_socket = connection(gate)
        conn.send(b"before")
        gate.shut()
        conn.send(b"one")
        other.send(b"x")
        conn.send(b"two")
        conn.close(4003)
        conn.send(b"after the close")  # refused, as on any closed connection
        await asyncio.sleep(0)
        assert socket.wire == [b"before"] and socket.closed is None and other_socket.wire == []
        gate.open()
        await asyncio.sleep(0.01)
        assert socket.wire == [b"before", b"one", b"two"] and socket.closed == 4003
        assert other_socket.wire == [b"x"] and other_socket.closed is None
        other.send(b"y")  # the gate is open: at once
        assert other_socket.wire == [b"x", b"y"]

    asyncio.run(scenario())


def test_nothing_waiting_is_sent_when_the_save_fails_and_its_phones_are_closed() -> None:
    async def scenario() -> None:
        gate = Gate()
        conn, socket = connection(gate)
        quiet, quiet_socket = connection(gate)
        gate.shut()
        conn.send(b"a change that was not saved")
        gate.fail()
        await asyncio.sleep(0.01)
        assert socket.wire == [] and socket.closed == SAVE_FAILED
        assert quiet_socket.closed is None  # it was to be told nothing
        quiet.send(b"later")
        assert quiet_socket.wire == [b"later"]

    asyncio.run(scenario())


def test_a_turn_that_holds_many_messages_is_committed_before_its_end() -> None:
    async def scenario() -> None:
        commits: list[int] = []

        def commit() -> None:  # what the hub asks of the store: commit now, then the gate opens
            commits.append(len(gate.held))
            gate.open()

        gate = Gate(commit)
        conns = [connection(gate) for _ in range(8)]
        gate.shut()
        for i in range(HOLD_AT_MOST - 1):
            conns[i % 8][0].send(b"%d" % i)
        assert commits == [] and all(socket.wire == [] for _, socket in conns)
        conns[0][0].send(b"the last one held")
        assert commits == [HOLD_AT_MOST] and not gate.closed and gate.held == []
        assert sum(len(socket.wire) for _, socket in conns) == HOLD_AT_MOST
        assert conns[0][1].wire[-1] == b"the last one held"
        conns[1][0].send(b"after the commit")  # the rest of the turn goes out at once
        assert conns[1][1].wire[-1] == b"after the commit"

    asyncio.run(scenario())


def test_when_a_commit_asked_for_in_a_broadcast_fails_the_rest_of_it_is_not_sent() -> None:
    async def scenario() -> None:
        gate = Gate(lambda: gate.fail())  # the disk is full
        conns = [connection(gate) for _ in range(HOLD_AT_MOST + 8)]
        gate.shut()
        for conn, _ in conns:  # one broadcast of a change that is not saved
            conn.send(b"a change that was not saved")
        await asyncio.sleep(0.01)
        assert all(socket.wire == [] and socket.closed == SAVE_FAILED for _, socket in conns)
        fresh, socket = connection(gate)  # the next turn: messages go out again
        fresh.send(b"later")
        assert socket.wire == [b"later"] and not gate.failing

    asyncio.run(scenario())


class Phone:
    def __init__(self, hub: Hub, address: str) -> None:
        self.hub = hub
        self.socket = Socket()
        self.conn = Conn(self.socket.send, self.socket.close, address, hub.limits, hub.gate)
        self.conn.write_now = self.socket.write_now

    async def say(self, **message: Any) -> None:
        await self.hub.receive(self.conn, json.dumps({"v": 2, **message}))

    def frames(self) -> list[dict[str, Any]]:
        return [json.loads(data) for data in self.socket.wire]

    def last(self, kind: str) -> dict[str, Any]:
        return next(f for f in reversed(self.frames()) if f["type"] == kind)


def test_a_choice_whose_save_fails_is_told_to_nobody_and_the_table_goes_on_as_saved(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = Hub(SqliteStore(tmp_path / "gemtable.sqlite3"), allow_scripts=True)
        await hub.start()
        try:
            table = await hub.create(
                "10.0.0.1", {"script": LONG, "seconds": 60, "pause": 0.5, "countdown": 0, "ready_check": False}
            )
            phones = [Phone(hub, f"10.0.1.{i}") for i in range(3)]
            for phone, name in zip(phones, ["Ann", "Bob", "Cat"], strict=True):
                await phone.say(type="join", code=table.code, name=name)
            await phones[0].say(type="start")
            await asyncio.sleep(0.5)
            decision = phones[0].last("state")["table"]["decision"]
            told = [len(phone.socket.wire) for phone in phones]
            store = hub.store
            assert isinstance(store, SqliteStore)
            store.db = Failing(store.db)  # type: ignore[assignment]
            await phones[0].say(type="choose", move="camp", decision=decision)
            assert hub.node.tables[table.code].table.play.pending == {0: "camp"}  # made, waiting to be saved
            await asyncio.sleep(0.2)  # the commit failed at the next turn; the table is read back
            for phone, count in zip(phones, told, strict=True):
                assert len(phone.socket.wire) == count  # nothing of the choice was told
                assert phone.socket.closed == SAVE_FAILED  # they come back to the table as saved
            local = hub.node.tables[table.code]
            assert local.owned and local.table.play.pending == {}

            # Ann comes back on a new connection, sees no choice of hers, and chooses again.
            token = phones[0].last("welcome")["token"]
            back = Phone(hub, "10.0.1.0")
            await back.say(type="hello", code=table.code, token=token)
            await asyncio.sleep(0.1)
            state = back.last("state")["table"]
            assert state["decision"] == decision and state["me"]["choice"] is None
            mark = len(back.socket.wire)
            await back.say(type="choose", move="camp", decision=decision)
            await asyncio.sleep(0.5)  # (told at the end of the pacer's interval, if the read-back was told just now)
            told_back = back.frames()[mark:]
            assert [f.get("choice") for f in told_back if f["type"] == "chosen"] == ["camp"], told_back
            assert local.table.play.pending == {0: "camp"}
        finally:
            await hub.stop()
            await hub.store.close()

    asyncio.run(scenario())


def test_a_reveal_is_saved_and_told_at_once_not_at_the_end_of_the_turn(tmp_path: Path) -> None:
    """A change that moves the game on (here a reveal) does not wait behind the rest of its turn of the loop:
    the hub commits the turn then, so by the time the last choice's message is handled its reveal is in the
    file and on every phone's wire.  A choice that moves nothing waits for the turn's end, as before."""

    async def scenario() -> None:
        path = tmp_path / "gemtable.sqlite3"
        hub = Hub(SqliteStore(path), allow_scripts=True)
        await hub.start()
        try:
            table = await hub.create(
                "10.0.0.1",
                {
                    "script": LONG,
                    "seconds": 60,
                    "pause": 0.5,
                    "countdown": 0,
                    "ready_check": False,
                    "last_call": 0,
                    "beat": 0,
                },
            )
            ann, bob = Phone(hub, "10.0.1.1"), Phone(hub, "10.0.1.2")
            await ann.say(type="join", code=table.code, name="Ann")
            await bob.say(type="join", code=table.code, name="Bob")
            await ann.say(type="start")
            await asyncio.sleep(0.5)
            decision = ann.last("state")["table"]["decision"]
            assert ann.last("state")["table"]["me"]["choice"] is None
            await ann.say(type="choose", move="deeper", decision=decision)
            held = [json.loads(data or b"{}")["type"] for _, data in hub.gate.held]
            assert hub.gate.closed and held == ["chosen", "chosen"]  # a choice waits for the turn's end
            told = [len(ann.socket.wire), len(bob.socket.wire)]

            await bob.say(type="choose", move="deeper", decision=decision)  # the last choice: the card is revealed
            # No turn of the loop has passed: the reveal was committed and told inside the message's handling.
            assert not hub.gate.closed and hub.gate.held == []
            for phone, count in zip([ann, bob], told, strict=True):
                states = [f for f in phone.frames()[count:] if f["type"] == "state"]
                assert states and states[-1]["table"]["decision"] > decision, phone.frames()[count:]
            with sqlite3.connect(path) as other:  # another handle on the file sees the reveal's events
                (saved,) = other.execute("SELECT MAX(seq) FROM events WHERE code = ?", (table.code,)).fetchone()
            assert saved == hub.node.tables[table.code].saved
        finally:
            await hub.stop()
            await hub.store.close()

    asyncio.run(scenario())


def test_only_the_first_table_to_move_on_in_a_turn_commits_it_early(tmp_path: Path) -> None:
    """At the instant pace many tables move on in one turn of the loop: the first commits the turn at once, the
    others are committed together at the turn's end, as every change was before (one commit more a turn, not
    one a table)."""

    async def scenario() -> None:
        hub = Hub(SqliteStore(tmp_path / "gemtable.sqlite3"), allow_scripts=True)
        await hub.start()
        try:
            rooms: list[tuple[str, Phone, Phone]] = []
            for n in range(2):
                table = await hub.create(
                    f"10.0.{n}.1",
                    {"script": LONG, "seconds": 60, "countdown": 0, "ready_check": False, "last_call": 0, "beat": 0},
                )
                ann, bob = Phone(hub, f"10.0.{n}.2"), Phone(hub, f"10.0.{n}.3")
                await ann.say(type="join", code=table.code, name="Ann")
                await bob.say(type="join", code=table.code, name="Bob")
                await ann.say(type="start")
                rooms.append((table.code, ann, bob))
            await asyncio.sleep(0.5)
            decisions = [ann.last("state")["table"]["decision"] for _, ann, _ in rooms]
            for (_, ann, _), decision in zip(rooms, decisions, strict=True):
                await ann.say(type="choose", move="deeper", decision=decision)
            await asyncio.sleep(0)  # (a turn of the loop: the choices are committed and told)
            told = [len(bob.socket.wire) for _, _, bob in rooms]

            # In one turn of the loop (nothing awaited here waits), both tables reveal their next card.
            for (_, _, bob), decision in zip(rooms, decisions, strict=True):
                await bob.say(type="choose", move="deeper", decision=decision)
            (_, _, first), (second_code, _, second) = rooms
            assert first.last("state")["table"]["decision"] > decisions[0]  # committed and told at once
            assert len(second.socket.wire) == told[1] and hub.gate.closed  # held for the turn's commit
            assert {conn for conn, _ in hub.gate.held} >= {second.conn}
            await asyncio.sleep(0)
            assert not hub.gate.closed and second.last("state")["table"]["decision"] > decisions[1]
            assert hub.node.tables[second_code].saved == len(await hub.store.load(second_code))
        finally:
            await hub.stop()
            await hub.store.close()

    asyncio.run(scenario())


def test_the_tables_that_move_on_are_told_before_what_the_turn_held_for_other_tables(tmp_path: Path) -> None:
    """When the gate opens, the phones of the tables that moved on are sent their messages first, and then what
    the turn held for other tables (their ``chosen``): a reveal is not written behind them.  So at the early
    commit of the first table to move on in a turn, and at the turn's end for the next ones.  Each connection
    keeps its own order."""

    async def scenario() -> None:
        hub = Hub(SqliteStore(tmp_path / "gemtable.sqlite3"), allow_scripts=True)
        await hub.start()
        try:
            order: list[tuple[str, str]] = []  # (phone, message type), in the order they reached a wire
            rooms: list[tuple[str, list[Phone]]] = []
            for n, people in enumerate([3, 2, 2, 3]):
                table = await hub.create(
                    f"10.0.{n}.1",
                    {"script": LONG, "seconds": 60, "countdown": 0, "ready_check": False, "last_call": 0, "beat": 0},
                )
                phones = [Phone(hub, f"10.0.{n}.{2 + i}") for i in range(people)]
                for i, phone in enumerate(phones):
                    await phone.say(type="join", code=table.code, name=f"P{n}{i}")
                await phones[0].say(type="start")
                rooms.append((table.code, phones))
            await asyncio.sleep(0.5)
            (_, waiting), (first_code, first), (next_code, following), (_, also_waiting) = rooms
            decisions = [phones[0].last("state")["table"]["decision"] for _, phones in rooms]
            await first[0].say(type="choose", move="deeper", decision=decisions[1])
            await following[0].say(type="choose", move="deeper", decision=decisions[2])
            await asyncio.sleep(0)  # (a turn of the loop: those choices are committed and told)
            for n, (_, phones) in enumerate(rooms):
                for i, phone in enumerate(phones):

                    def logged(data: bytes, name: str = f"P{n}{i}", socket: Socket = phone.socket) -> bool:
                        order.append((name, json.loads(data)["type"]))
                        return socket.write_now(data)

                    phone.conn.write_now = logged

            # In one turn of the loop: a choice at the waiting table (it moves nothing: its ``chosen`` are held),
            # then the last choice at the first table, which reveals its card and commits the turn at once...
            await waiting[0].say(type="choose", move="deeper", decision=decisions[0])
            assert len(hub.gate.held) == 3 and order == []
            await first[1].say(type="choose", move="deeper", decision=decisions[1])
            assert first[1].last("state")["table"]["decision"] > decisions[1]
            assert not hub.gate.closed and hub.node.tables[first_code].saved == len(await hub.store.load(first_code))
            told = [name for name, _ in order]
            assert told[:2] == ["P10", "P11"] and sorted(told[2:]) == ["P00", "P01", "P02"], order
            # ...then a choice at another waiting table, and the last at the third, held for the turn's end.
            order.clear()
            await also_waiting[0].say(type="choose", move="deeper", decision=decisions[3])
            await following[1].say(type="choose", move="deeper", decision=decisions[2])
            assert hub.gate.closed and order == []
            await asyncio.sleep(0)
            assert not hub.gate.closed and following[1].last("state")["table"]["decision"] > decisions[2]
            told = [name for name, _ in order]
            assert told[:2] == ["P20", "P21"] and sorted(told[2:]) == ["P30", "P31", "P32"], order
            assert hub.node.tables[next_code].saved == len(await hub.store.load(next_code))
            assert [kind for name, kind in order if name.startswith("P3")] == ["chosen"] * 3
        finally:
            await hub.stop()
            await hub.store.close()

    asyncio.run(scenario())
