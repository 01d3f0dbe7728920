"""The tables a server process (a node) runs or follows.

Every table is run by exactly one node at a time: the holder of its lease in
the store.  The owner executes every command, in a fixed order — act (the table
checks who asks, whether they may, whether it is legal) → let the clock catch
up → persist (a fenced append: only the lease holder can write) → publish the
new events → tell its own phones.  Other nodes *follow* the table: they apply
the published events to a replica, to show their own phones their views, and
forward their phones' commands to the owner over the bus.

A node that dies stops renewing its leases; within a few seconds (the lease's
time to live) another node takes its tables over from the log — deadlines are
in the events, so the clock goes on where it stood.  A node that stalls and
comes back finds its lease gone: its next append is refused, and it turns into
a follower without having told anyone anything.

The embedded default is the same code with one node, an in-memory bus and the
SQLite store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from gemtable.bus import Bus, Handler, MemoryBus
from gemtable.server import ops
from gemtable.server.conn import Conn
from gemtable.server.ops import Command, perform
from gemtable.store import Conflict, LeaseLost, Store
from gemtable.table import Table, TableError
from gemtable.table.view import Choices, choices_only

log = logging.getLogger("gemtable")

REST_AFTER = 30 * 60.0
"""Seconds: a table with no phone on this node, nothing due on its clock and no change for this long rests: it
leaves the node's memory (and its lease is given up), and comes back from its log when a phone asks for it.
The tables that changed within this time are the ones a node runs without being asked: at its start, and when
another node dies (``sweep``)."""
KEEP = 30 * 24 * 3600.0
"""Seconds a table is kept after its last change (its log and its games' records), unless the host chooses
otherwise (``gemtable serve --keep-days``): then ``forget`` deletes it from the store."""
FORGET_EVERY = 3600.0
"""Seconds between two rounds of deleting the tables past their keeping time."""
EMBEDDED_LEASE = 600.0
"""Seconds of a lease in the embedded mode (one process, the SQLite file locked to it, ``run.py``): no other
node can take a table over, so a lease that lapsed would only make the node demote itself from its own
table and reload it from the log.  Under a load that saturates it (2,000 tables of 8 phones on one core) a
3 s lease was renewed late, and the node spent a third of its time losing and retaking its own tables."""
FORWARD_TIMEOUT = 8.0
"""Seconds to wait for the owner to answer a forwarded command.  Long enough to ride out a busy owner (a
command it runs late is still run: answering "busy" meanwhile would tell the phone something untrue);
a dead owner is found by its lease lapsing, not by this."""
STOP_WAIT = 2.0
"""Seconds a stopping node waits for a command running on a table to finish before it lets the table go."""
RELEASE_GRACE = 0.5
"""Seconds a follower waits, after a table's node said it let the table go, for answers that node sent
before, until it sends the commands still unanswered again."""


def predictions_only(events: list[dict[str, Any]]) -> set[int] | None:
    """The people who made a change, if it was made only of the audience's predictions (else None)."""
    if not events or events[0].get("type") != "predicted" or any(e.get("type") != "predicted" for e in events):
        return None  # (the first event answers for almost every change)
    return {int(event["person"]) for event in events}


def dated(record: dict[str, Any], at: float | None) -> dict[str, Any]:
    """A finished game's record as the store keeps it: with ``finished_at``, when its last move was saved
    (seconds since the epoch), for the night's list and the result card (``server/card.py``)."""
    if at is None or "finished_at" in record:
        return record
    return {**record, "finished_at": round(float(at), 3)}


class Moved(Exception):
    """This node lost a table's lease while acting on it."""


@dataclass
class Local:
    """A table as this node holds it: run (owned) or followed.  (Its phones are the hub's: ``rooms.py``.)"""

    table: Table
    saved: int
    owned: bool
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.TimerHandle | None = None
    wake: float | None = None
    """The table time ``timer`` was armed for."""
    touched: float = 0.0
    """When the table last changed, or was loaded (this node's clock): it rests after :data:`REST_AFTER`."""
    rested: bool = False
    """It left this node's memory (``Node.rest``): whoever still holds this object asks the node again."""
    records_saved: set[int] = field(default_factory=set)

    @property
    def code(self) -> str:
        return self.table.code


class Phones(Protocol):
    """The phones connected to this node, as the node sees them: what it tells them and asks of them.  A node
    runs tables and holds no phone; the hub (``hub.py``) holds the connections and is given to the node when it
    is made, as boardgame.io's master is given its transport: every call goes down this one interface."""

    def deliver(self, local: Local, changed: bool, reply: Conn | None, choices: Choices | None) -> None:
        """Tell the table's phones here what changed (``changed``), or its state to ``reply`` alone; ``choices``:
        what the change showed if it was made only of secret choices (then a phone that has the state before it
        is told only that)."""

    def tell_makers(self, local: Local, makers: set[int]) -> None:
        """A change made only of the audience's predictions, told to its makers' phones alone: nobody else's view
        changes, and nobody else may learn, even by a message's timing, that one was made."""

    def kick(self, local: Local, pid: int, keep: tuple[str, int]) -> None:
        """Close the phones here of person ``pid``, but the one ``keep`` names (node, connection)."""

    def present(self, code: str) -> Collection[int]:
        """The people of a table (by its code) whose phones are connected to this node."""

    def watched(self, code: str) -> bool:
        """Whether any phone (a seat, a spectator, a TV) is connected to this node at the table."""


class Nobody:
    """:class:`Phones` for a node with no phone connected (tests, tools): it tells nobody anything."""

    def deliver(self, local: Local, changed: bool, reply: Conn | None, choices: Choices | None) -> None:
        pass

    def tell_makers(self, local: Local, makers: set[int]) -> None:
        pass

    def kick(self, local: Local, pid: int, keep: tuple[str, int]) -> None:
        pass

    def present(self, code: str) -> Collection[int]:
        return ()

    def watched(self, code: str) -> bool:
        return False


class Node:
    def __init__(
        self,
        store: Store,
        bus: Bus | None = None,
        clock: Callable[[], float] = time.time,
        node_id: str | None = None,
        lease_ttl: float = 3.0,
        rest_after: float = REST_AFTER,
        keep: float | None = KEEP,
        phones: Phones | None = None,
    ) -> None:
        self.store = store
        self.phones: Phones = phones if phones is not None else Nobody()
        self.rest_after = rest_after
        self.keep = keep
        """Seconds a table is kept after its last change; None: for ever."""
        self.bus = bus or MemoryBus()
        self.alone = bus is None
        """A bus of its own: no other node can hear it, so the table's updates are not published."""
        self.clock = clock
        self.id = node_id or secrets.token_hex(6)
        self.lease_ttl = lease_ttl
        self.tables: dict[str, Local] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._replies: dict[str, asyncio.Future[Any]] = {}
        self._forwarding: dict[str, str] = {}
        """The table (its code) of each command forwarded and not yet answered, by request."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._maintenance: asyncio.Task[None] | None = None
        self._renewed = self.clock()
        self._forgot = self.clock()
        self._channel_handlers: dict[str, tuple[Handler, Handler]] = {}
        self._lost: set[str] = set()
        """Tables whose last changes the store could not save (``lost``): read back before they run again."""
        self._to_arm: dict[str, Local] = {}
        """Tables whose clock is re-armed at the start of the next turn of the loop (``_schedule``)."""

    # --- life cycle -----------------------------------------------------------------------

    async def start(self) -> None:
        await self.bus.subscribe(self._node_channel(self.id), self._on_reply)
        self.bus.on_reconnect(self._catch_up)
        await self.sweep()
        self._forgot = self.clock()
        await self.forget()  # what passed its keeping time while the server was off
        self._maintenance = asyncio.ensure_future(self._maintain())

    async def stop(self) -> None:
        if self._maintenance:
            self._maintenance.cancel()
        for local in self.tables.values():
            if local.timer:
                local.timer.cancel()
            if local.owned:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(STOP_WAIT):  # a command running now finishes (and answers) first
                        await local.lock.acquire()
                        local.lock.release()
                local.owned = False  # it acts no more: another node takes it (``_on_update``, "released")
                with contextlib.suppress(Exception):
                    await self.store.release(local.code, self.id)
                    message = {"node": self.id, "released": True}
                    await self.bus.publish(self._out_channel(local.code), msgspec.json.encode(message))
        for task in list(self._tasks):
            task.cancel()

    # --- finding tables ------------------------------------------------------------------

    async def table(self, code: str) -> Local | None:
        """The table ``code`` as this node holds it, run or followed; None if there is none."""
        local = self.tables.get(code)
        if local is not None:
            return local
        lock = self._loading.setdefault(code, asyncio.Lock())
        try:
            async with lock:
                local = self.tables.get(code)
                if local is None:
                    if not await self.store.exists(code):
                        return None
                    local = await self._load(code)
        finally:
            if not lock.locked() and self._loading.get(code) is lock:
                del self._loading[code]  # one lock per code looked up, unknown ones too, would pile up
        return local

    async def adopt(self, table: Table) -> Local:
        """A table this node has just created: it runs it."""
        if not await self.store.acquire(table.code, self.id, self.lease_ttl):
            raise TableError("busy", "that table code is taken; try again")
        local = Local(table, saved=0, owned=True, touched=self.clock())
        await self._subscribe(local)
        try:
            await self._persist(local)
        except (Conflict, LeaseLost):
            await self._unsubscribe(local)
            raise TableError("busy", "that table code is taken; try again") from None
        self.tables[table.code] = local
        return local

    async def _load(self, code: str) -> Local:
        owned = await self.store.acquire(code, self.id, self.lease_ttl)
        events = await self.store.load(code)
        table = Table.rebuild(events, self.clock())
        local = Local(table, saved=len(events), owned=owned, touched=self.clock())
        await self._settle_records(local, events)
        await self._subscribe(local)
        self.tables[code] = local
        await self._renew_if_due()
        if owned:
            log.info("node %s runs table %s (%d events)", self.id, code, len(events))
            await self._announce(local)
            await self.run(local, ops.Noop())
        return local

    # --- running a command -----------------------------------------------------------------

    async def execute(
        self, local: Local, command: Command, reply: Conn | None = None, written: list[int] | None = None
    ) -> Any:
        """Carry out ``command`` where the table runs: here, or on its owner.  ``written``, if given, has the bytes
        of log the command wrote added to its one item (``Hub._command`` counts a phone's against its address; a
        forwarded command's owner sends its count back with the answer)."""
        if local.rested:  # it left memory since the caller found it: the node holds it anew
            fresh = await self.table(local.code)
            if fresh is None:
                raise TableError("no-table", "that table no longer exists")
            local = fresh
        for _ in range(3):
            if local.owned:
                try:
                    return await self.run(local, command, reply, written)
                except Moved:
                    continue
            try:
                result = await self._forward(local, command, written)
            except TimeoutError:
                if not local.owned:
                    await self._take_over(local)  # the owner may be dead: take it if its lease lapsed
                continue  # here, or to whoever runs the table now
            if reply is not None:
                self.phones.deliver(local, False, reply, None)
            return result
        raise TableError("busy", "the table is moving to another server; try again")

    async def run(
        self, local: Local, command: Command, reply: Conn | None = None, written: list[int] | None = None
    ) -> Any:
        """On the owner: act, let the clock catch up, persist, publish, then tell the phones."""
        async with local.lock:
            if not local.owned:
                raise Moved
            if self._lost and local.code in self._lost:
                await self._read_back(local)
            table = local.table
            now = self.clock()
            events_before, connected_before = table.log.events, frozenset(table.runtime.connected)
            pending = dict(table.play.pending)
            refused: TableError | None = None
            result: Any = None
            try:
                result = perform(table, command, now)
                table.tick(now)
            except TableError as exc:
                refused = exc
                table.tick(now)
            except Exception:  # a bug: never let it leave the table half-changed
                log.exception("table %s failed on %s; reloading it from the store", local.code, type(command).__name__)
                table.take_outbox()
                await self._reload(local)
                self._schedule(local)
                raise TableError("server-error", "something went wrong on the server; nothing changed") from None
            try:
                events = await self._persist(local, written)
            except (LeaseLost, Conflict):
                await self._demote(local)
                raise Moved from None
            same_phones = table.runtime.connected == connected_before
            changed = table.log.events != events_before or not same_phones
            if changed:
                local.touched = now
                await self._publish(local, events)
            makers = predictions_only(events) if changed and same_phones else None
            if makers:
                self.phones.tell_makers(local, makers)
            else:
                choices = choices_only(table, pending, events) if changed and same_phones else None
                self.phones.deliver(local, changed, reply, choices)
            self._schedule(local)
            if refused is not None:
                raise refused
            return result

    def is_lost(self, code: str) -> bool:
        """Whether the table's last changes could not be saved and it is yet to be read back (``lost``)."""
        return bool(self._lost) and code in self._lost

    def lost(self, codes: set[str]) -> None:
        """The store could not save these tables' latest changes (a turn's commit failed, ``gate.py``): each
        is read back from the store before its next command, and now, so that its phones see it as saved."""
        self._lost |= codes & self.tables.keys()
        for code in codes:
            local = self.tables.get(code)
            if local is not None:
                self._spawn(self._read_back_now(local))

    async def _read_back_now(self, local: Local) -> None:
        async with local.lock:
            if local.code in self._lost:
                await self._read_back(local)

    async def _read_back(self, local: Local) -> None:
        self._lost.discard(local.code)
        log.warning("table %s was not saved; reading it back from the store", local.code)
        await self._reload(local)
        self._schedule(local)
        self.phones.deliver(local, True, None, None)

    async def read_back(self, local: Local) -> None:
        """Read the table back now if its last turn was lost (:meth:`lost`): before anything tells of it."""
        await self._read_back_now(local)

    async def _persist(self, local: Local, written: list[int] | None = None) -> list[dict[str, Any]]:
        """Save the table's new events (a fenced append; with a store that has a unit of work, in the turn's
        transaction, and nothing reaches a phone before it is committed: ``server/gate.py``)."""
        table = local.table
        events = table.take_outbox()
        if events:
            try:
                size = await self.store.append(table.code, local.saved + 1, events, owner=self.id)
            except (LeaseLost, Conflict):
                raise
            except Exception:
                log.exception("could not save table %s; reloading it", table.code)
                await self._reload(local)
                raise TableError("server-error", "the server could not save that; please try again") from None
            local.saved += len(events)
            if written is not None:
                written[0] += size
        if table.log.prunable:  # a game finished and is saved: its changes of mind leave the log
            numbers, table.log.prunable = table.log.prunable, []
            with contextlib.suppress(Exception):  # (kept, if the store is away: only bytes)
                await self.store.prune(table.code, numbers)
        for number, record in list(table.log.records.items()) if table.log.records else ():
            if number in local.records_saved:
                del table.log.records[number]
                continue
            with contextlib.suppress(Exception):
                await self.store.save_record(table.code, number, dated(record, events[-1]["at"] if events else None))
                local.records_saved.add(number)
                del table.log.records[number]  # saved: memory must not grow with every game played
        return events

    async def _reload(self, local: Local) -> None:
        """Throw away what is in memory and read the table back from the store."""
        runtime = local.table.runtime
        events = await self.store.load(local.code)
        local.table = Table.rebuild(events, self.clock())
        local.table.runtime.connected = set(runtime.connected)
        local.saved = len(events)
        await self._settle_records(local, events)

    async def _settle_records(self, local: Local, events: list[dict[str, Any]]) -> None:
        """A table rebuilt from its log has the records of all its finished games: save the ones a node
        that died at the wrong moment did not (dated by the log's last event: it died soon after), and forget
        them all."""
        for number, record in list(local.table.log.records.items()):
            if local.owned and await self.store.record(local.code, number) is None:
                await self.store.save_record(
                    local.code, number, dated(record, events[-1].get("at") if events else None)
                )
            local.records_saved.add(number)
        local.table.log.records.clear()

    def _schedule(self, local: Local) -> None:
        """Re-arm the table's clock once this turn of the loop is over: once, whatever number of commands the
        turn ran at the table (at an instant pace, a table's choices come several a turn, and its next wake-up
        is asked of the table once, not once per choice).  A timer that fires before then finds the table as it
        is and runs its clock (``tick`` does only what is due), then it is armed as the table is."""
        if not self._to_arm:
            asyncio.get_running_loop().call_soon(self._arm_due)
        self._to_arm[local.code] = local

    def _arm_due(self) -> None:
        due, self._to_arm = self._to_arm, {}
        for local in due.values():
            if not local.rested:
                self._arm(local)

    def _arm(self, local: Local) -> None:
        wake = local.table.next_wakeup() if local.owned else None
        if wake is not None and local.timer is not None and local.wake == wake:
            return  # armed for that moment already (a choice seldom moves the table's next deadline)
        if local.timer is not None:
            local.timer.cancel()
            local.timer = None
        local.wake = wake
        if wake is None:
            return
        delay = max(0.0, wake - self.clock()) + 0.005
        # The coroutine is made when the timer fires: a timer cancelled (rescheduled) leaves none behind unawaited.
        local.timer = asyncio.get_running_loop().call_later(delay, self._fire, local)

    def _fire(self, local: Local) -> None:
        local.timer = None  # fired: the next ``_schedule`` arms a new one, even for the same moment
        self._spawn(self._tick(local))

    async def _tick(self, local: Local) -> None:
        with contextlib.suppress(Moved, TableError):
            await self.run(local, ops.Noop())

    # --- owners and followers ------------------------------------------------------------------

    @staticmethod
    def _out_channel(code: str) -> str:
        return f"gt:out:{code}"

    @staticmethod
    def _cmd_channel(code: str) -> str:
        return f"gt:cmd:{code}"

    @staticmethod
    def _node_channel(node: str) -> str:
        return f"gt:node:{node}"

    async def _subscribe(self, local: Local) -> None:
        code = local.code
        local_handlers = self._handlers(code)
        await self.bus.subscribe(self._out_channel(code), local_handlers[0])
        await self.bus.subscribe(self._cmd_channel(code), local_handlers[1])

    async def _unsubscribe(self, local: Local) -> None:
        code = local.code
        handlers = self._handlers(code)
        await self.bus.unsubscribe(self._out_channel(code), handlers[0])
        await self.bus.unsubscribe(self._cmd_channel(code), handlers[1])

    def _handlers(self, code: str) -> tuple[Handler, Handler]:
        """The bus handlers of one table (the same objects each time, so they can be unsubscribed)."""
        if code not in self._channel_handlers:

            async def on_out(data: bytes) -> None:
                await self._on_update(code, data)

            async def on_cmd(data: bytes) -> None:
                await self._on_command(code, data)

            self._channel_handlers[code] = (on_out, on_cmd)
        return self._channel_handlers[code]

    async def _publish(self, local: Local, events: list[dict[str, Any]]) -> None:
        if self.alone:  # only this node would hear it, and it ignores its own updates
            return
        message = {
            "node": self.id,
            "seq": local.saved - len(events) + 1,
            "events": events,
            "connected": sorted(local.table.runtime.connected),
        }
        with contextlib.suppress(Exception):
            await self.bus.publish(self._out_channel(local.code), msgspec.json.encode(message))

    async def publish_kick(self, local: Local, pid: int, conn: Conn) -> None:
        """Tell every node: the newest phone of ``pid`` is ``conn``; close any other."""
        message = {"node": self.id, "kick": pid, "keep": [self.id, conn.id]}
        with contextlib.suppress(Exception):
            await self.bus.publish(self._out_channel(local.code), msgspec.json.encode(message))

    async def _on_update(self, code: str, data: bytes) -> None:
        message = json.loads(data)
        local = self.tables.get(code)
        if local is None:
            return
        if "kick" in message:
            node, conn = message["keep"]
            self.phones.kick(local, int(message["kick"]), (str(node), int(conn)))
            return
        if "announce" in message:
            if message["node"] != self.id:
                await self._reannounce(local)
            return
        if "released" in message:
            if message["node"] != self.id and not local.owned:
                await self._released(local)
            return
        if message.get("node") == self.id or local.owned:
            return
        async with local.lock:
            if local.owned:
                return
            seq, events = int(message["seq"]), list(message["events"])
            gap = seq > local.saved + 1
            if gap:  # missed something: read it from the log
                events = await self.store.load(code, local.saved + 1)
                seq = local.saved + 1
            table = local.table
            pending, connected = dict(table.play.pending), set(table.runtime.connected)
            fresh = events[local.saved + 1 - seq :]
            for event in fresh:
                table.apply(event)
                local.saved += 1
            table.log.records.clear()  # the owner saves them
            table.log.prunable.clear()  # and prunes the log
            table.runtime.connected = set(message.get("connected", []))
            local.touched = self.clock()
            same = not gap and connected == table.runtime.connected
            makers = predictions_only(fresh) if same else None
            if makers:
                self.phones.tell_makers(local, makers)
                return
            self.phones.deliver(local, True, None, choices_only(table, pending, fresh) if same else None)

    async def _on_command(self, code: str, data: bytes) -> None:
        message = json.loads(data)
        local = self.tables.get(code)
        if local is None or not local.owned:
            return  # the sender will time out and look for the owner
        reply: dict[str, Any] = {"req": message["req"]}
        written = [0]
        try:
            reply["result"] = await self.run(local, ops.from_json(message["op"]), written=written)
        except TableError as exc:
            reply["error"] = [exc.code, exc.message]
        except Moved:
            return
        reply["written"] = written[0]
        with contextlib.suppress(Exception):
            await self.bus.publish(self._node_channel(message["node"]), json.dumps(reply).encode())

    async def _on_reply(self, data: bytes) -> None:
        message = json.loads(data)
        future = self._replies.pop(message.get("req", ""), None)
        if future is not None and not future.done():
            future.set_result(message)

    async def _forward(self, local: Local, command: Command, written: list[int] | None = None) -> Any:
        req = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._replies[req] = future
        self._forwarding[req] = local.code
        message = {"req": req, "node": self.id, "op": ops.to_json(command)}
        try:
            await self.bus.publish(self._cmd_channel(local.code), msgspec.json.encode(message))
            reply = await asyncio.wait_for(future, FORWARD_TIMEOUT)
        finally:
            self._replies.pop(req, None)
            self._forwarding.pop(req, None)
        if written is not None:
            written[0] += int(reply.get("written", 0))
        if "error" in reply:
            raise TableError(*reply["error"])
        return reply.get("result")

    async def _released(self, local: Local) -> None:
        """The table's node stopped and let it go (a restart, a deploy): take it now, rather than when a
        command forwarded to it times out (``FORWARD_TIMEOUT``) or its lease lapses; the commands waiting
        for that node's answer go again, here or to whichever node took it."""
        if await self._take_over(local):
            log.info("node %s took over table %s: its node stopped", self.id, local.code)
        # An answer the stopped node sent just before it let go is still on its way: the commands it did not
        # answer go again after a moment, not at once (a join sent twice would seat a phone twice).
        await asyncio.sleep(RELEASE_GRACE)
        for req, code in list(self._forwarding.items()):
            future = self._replies.get(req)
            if code == local.code and future is not None and not future.done():
                future.set_exception(TimeoutError())

    async def _take_over(self, local: Local) -> bool:
        """The owner did not answer: take the table if its lease has lapsed."""
        if not await self.store.acquire(local.code, self.id, self.lease_ttl):
            return False
        await self._promote(local)
        return True

    async def _promote(self, local: Local) -> None:
        async with local.lock:
            local.owned = True
            await self._reload(local)
            local.table.runtime.since = {pid: self.clock() for pid in local.table.people}
            for pid in self.phones.present(local.code):
                local.table.runtime.connected.add(pid)
                local.table.runtime.since.pop(pid, None)
        log.info("node %s took over table %s", self.id, local.code)
        await self._announce(local)
        with contextlib.suppress(Moved, TableError):
            await self.run(local, ops.Noop())

    async def _announce(self, local: Local) -> None:
        """Ask the other nodes which of this table's people are connected to them."""
        message = {"node": self.id, "announce": True}
        with contextlib.suppress(Exception):
            await self.bus.publish(self._out_channel(local.code), msgspec.json.encode(message))

    async def _reannounce(self, local: Local) -> None:
        for pid in list(self.phones.present(local.code)):
            with contextlib.suppress(TableError):
                await self.execute(local, ops.Connect(person=pid))

    async def _demote(self, local: Local) -> None:
        """This node lost the table's lease: forget what was not saved, and follow."""
        log.warning("node %s lost table %s; following it now", self.id, local.code)
        local.owned = False
        if local.timer:
            local.timer.cancel()
            local.timer = None
        with contextlib.suppress(Exception):
            await self._reload(local)

    # --- keeping leases --------------------------------------------------------------------

    async def _maintain(self) -> None:
        while True:
            await asyncio.sleep(self.lease_ttl / 3)
            try:
                await self._renew()
                await self.sweep()
                await self.rest()
                if self.clock() - self._forgot >= FORGET_EVERY:
                    self._forgot = self.clock()
                    await self.forget()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the store is away: try again next round
                log.warning("lease upkeep failed: %r", exc)

    async def _renew(self) -> None:
        self._renewed = self.clock()
        owned = [local for local in self.tables.values() if local.owned]
        held = await self.store.renew([local.code for local in owned], self.id, self.lease_ttl)
        for local in owned:
            if local.code not in held and local.owned:
                async with local.lock:
                    await self._demote(local)

    async def _renew_if_due(self) -> None:
        """Renew now if the upkeep is late.  Loading tables blocks the loop (hundreds of them at a start,
        when every phone comes back at once): without this, the first leases would lapse before the
        upkeep runs again, and their next append would demote this node from its own tables."""
        if self.clock() - self._renewed > self.lease_ttl / 3:
            await self._renew()

    async def sweep(self) -> None:
        """Run every recently active table that no node runs (after a death, or at start)."""
        codes = await self.store.active(self.clock() - self.rest_after)
        owners = await self.store.owners(codes)
        for code, owner in owners.items():
            if owner is not None:
                continue
            local = self.tables.get(code)
            if local is None:
                await self.table(code)
            elif not local.owned and await self.store.acquire(code, self.id, self.lease_ttl):
                await self._promote(local)
            await self._renew_if_due()

    # --- resting and forgetting ---------------------------------------------------------------

    def restful(self, local: Local) -> bool:
        """Whether the table may leave memory now (:data:`REST_AFTER`): no change for that long, no phone here,
        nothing due on its clock, nothing lost to read back, no command running."""
        return not local.lock.locked() and self.restful_locked(local)

    async def rest(self) -> None:
        """Let every table that rests leave memory: its lease is given up (any node takes it again when a phone
        asks, from its log: ``table``), and its bus channels are left."""
        for local in [local for local in self.tables.values() if self.restful(local)]:
            async with local.lock:
                if self.tables.get(local.code) is not local or not self.restful_locked(local):
                    continue
                del self.tables[local.code]
                local.rested = True
                if local.timer is not None:
                    local.timer.cancel()
                    local.timer = None
                owned, local.owned = local.owned, False
                with contextlib.suppress(Exception):
                    await self._unsubscribe(local)
                    if owned:  # (a node whose phones follow the table takes it at once, as after a stop)
                        await self.store.release(local.code, self.id)
                        message = {"node": self.id, "released": True}
                        await self.bus.publish(self._out_channel(local.code), msgspec.json.encode(message))
                self._channel_handlers.pop(local.code, None)
            log.info("table %s rests: out of memory until a phone asks for it", local.code)

    def restful_locked(self, local: Local) -> bool:
        """:meth:`restful`, asked again with the table's lock held."""
        return (
            self.clock() - local.touched >= self.rest_after
            and local.code not in self._lost
            and not self.phones.watched(local.code)
            and (not local.owned or local.table.next_wakeup() is None)
        )

    async def forget(self) -> list[str]:
        """Delete the tables past their keeping time from the store (``Store.forget``; a table this node holds
        keeps its lease, so it is never among them)."""
        if self.keep is None:
            return []
        before, gone = self.clock() - self.keep, []
        while True:
            codes = await self.store.forget(before)
            gone += codes
            if len(codes) < 500:
                break
            await asyncio.sleep(0)  # (a backlog, after a long time off: the loop serves phones between rounds)
        if gone:
            log.info("deleted %d tables unchanged for %g days", len(gone), self.keep / 86400)
        return gone

    async def _catch_up(self) -> None:
        """The bus was away: read what the followed tables missed."""
        for local in list(self.tables.values()):
            if local.owned:
                continue
            async with local.lock:
                for event in await self.store.load(local.code, local.saved + 1):
                    local.table.apply(event)
                    local.saved += 1
                local.table.log.records.clear()  # the owner saves them
                local.table.log.prunable.clear()
            self.phones.deliver(local, True, None, None)

    def spawn(self, work: Awaitable[Any]) -> None:
        """Run ``work`` in a task of the node's (cancelled when it stops)."""
        self._spawn(work)

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
