"""The live tables of one server process, and the phones connected to them.

For every command the hub takes the table's lock and runs, in a fixed order:
who is asking (the connection's person) → may they (the table checks) → is it
legal (the table and the game check) → apply (events, in memory) → persist
(the store) → only then tell everyone (a view per recipient).  A refused
command changes nothing and is answered with a clear error to its sender only.

Each connection has its own send queue, drained by its own task, so a slow or
dead phone never holds a table up; a phone whose queue overflows is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from gemtable.games import GameError, find_game
from gemtable.server import protocol as p
from gemtable.server.limits import AddressLimiter, Bucket, Limits
from gemtable.store import Store
from gemtable.table import Settings, Table, TableError, table_view

log = logging.getLogger("gemtable")

CODE_ALPHABET = "ACDEFHJKLMNPQRTUVWXY"
"""Letters that no one misreads for another or for a digit (no B 8, G 6, I 1, O 0, S 5, Z 2)."""
T = TypeVar("T")
SEND_QUEUE = 256
ACTIVE_WINDOW = 2 * 24 * 3600.0
"""Tables touched within this many seconds come back after a restart."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def normal_code(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalpha())[:4]


class Conn:
    """One WebSocket connection, with its own send queue."""

    def __init__(self, send: Callable[[bytes], Awaitable[None]], close: Callable[[int], Awaitable[None]],
                 address: str, limits: Limits) -> None:
        self._send = send
        self._close = close
        self.address = address
        self.code: str | None = None
        self.person: int | None = None
        self.tv = False
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(SEND_QUEUE)
        self.bucket = Bucket(limits.messages_per_second, limits.message_burst)
        self.strikes = 0
        self.closed = False
        self.close_code = 1000
        self.writer = asyncio.ensure_future(self._drain())

    def send(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            log.info("dropping a phone that does not read its messages (%s)", self.address)
            self.close(1008)

    def close(self, code: int = 1000) -> None:
        """Close after what is already queued has been sent (an error saying why, say)."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:  # it does not read: no point in draining
            self.writer.cancel()
            self.writer = asyncio.ensure_future(self._close_quietly())

    async def finish(self, timeout: float = 2.0) -> None:
        """Wait (a little) for the queue to drain, then stop the writer."""
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self.writer), timeout)
        self.writer.cancel()

    async def _close_quietly(self) -> None:
        with contextlib.suppress(Exception):
            await self._close(self.close_code)

    async def _drain(self) -> None:
        with contextlib.suppress(Exception):
            while (data := await self.queue.get()) is not None:
                await self._send(data)
        if self.closed:
            await self._close_quietly()


@dataclass
class Live:
    """A table in memory, with its lock, its phones and its timer."""

    table: Table
    saved: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    people: dict[int, Conn] = field(default_factory=dict)
    onlookers: set[Conn] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None
    records_saved: set[int] = field(default_factory=set)


class Hub:
    """Every live table of this process."""

    def __init__(self, store: Store, limits: Limits | None = None, clock: Callable[[], float] = time.time,
                 allow_scripts: bool = False) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.clock = clock
        self.allow_scripts = allow_scripts
        self.live: dict[str, Live] = {}
        self.lookups = AddressLimiter(self.limits.lookups_per_minute / 60, self.limits.lookup_burst,
                                      self.limits.buckets_kept)
        self.joins = AddressLimiter(self.limits.joins_per_minute / 60, self.limits.join_burst,
                                    self.limits.buckets_kept)
        self.creations = AddressLimiter(self.limits.tables_per_hour / 3600, self.limits.table_burst,
                                        self.limits.buckets_kept)
        self.connections: dict[str, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loading: dict[str, asyncio.Lock] = {}

    # --- life cycle -----------------------------------------------------------------------

    async def start(self) -> int:
        """Bring back every recently active table from the store; returns how many."""
        codes = await self.store.active(self.clock() - ACTIVE_WINDOW)
        for code in codes:
            await self.open(code)
        return len(codes)

    async def stop(self) -> None:
        for live in self.live.values():
            if live.timer:
                live.timer.cancel()
            for conn in [*live.people.values(), *live.onlookers]:
                conn.close(1001)
        for task in list(self._tasks):
            task.cancel()

    # --- tables ---------------------------------------------------------------------------

    async def create(self, address: str, data: dict[str, Any]) -> Table:
        """A new table from a host's choices (``game``, ``preset``, ``options``, ``seconds``…)."""
        if not self.creations.allow(address):
            raise TableError("slow-down", "too many new tables from this address; try again later")
        settings = self._settings(data)
        for _ in range(50):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(4))
            if code not in self.live and not await self.store.exists(code):
                break
        else:  # pragma: no cover - 160,000 codes
            raise TableError("full", "no table code is free; try again")
        table = Table.create(code, settings, self.clock())
        live = Live(table, saved=0)
        self.live[code] = live
        async with live.lock:
            await self._persist(live)
        return table

    def _settings(self, data: dict[str, Any]) -> Settings:
        if not isinstance(data, dict):
            raise TableError("bad-request", "send the table's settings as a JSON object")
        try:
            game = find_game(str(data.get("game", "expedition")))
            preset = str(data.get("preset") or game.presets()[0])
            options = data.get("options") or {}
            if not isinstance(options, dict):
                raise TableError("bad-request", "options must be an object")
            rules = game.rules_json(preset, options)
            seconds = _number(data.get("seconds", 10), "seconds", 1, 120)
            pause = _number(data.get("pause", 6), "pause", 0.5, 60)
            script = data.get("script")
            if script is not None and not self.allow_scripts:
                raise TableError("bad-request", "scripted decks are switched off on this server")
            if script is not None:
                game.new(rules, game.seats_per_game, 0, script)  # validates the script
            return Settings(game.name, preset, options, rules, seconds, pause,
                            bool(data.get("turn_clock", True)), script)
        except GameError as exc:
            raise TableError("bad-request", str(exc)) from None

    async def open(self, code: str) -> Live | None:
        """The live table ``code``, loaded from the store if need be; None if there is none."""
        code = normal_code(code)
        live = self.live.get(code)
        if live is not None:
            return live
        lock = self._loading.setdefault(code, asyncio.Lock())
        async with lock:
            live = self.live.get(code)
            if live is None:
                events = await self.store.load(code)
                if not events:
                    return None
                table = Table.rebuild(events, self.clock())
                live = Live(table, saved=len(events), records_saved=set(table.records))
                self.live[code] = live
                await self.run(live, lambda t, now: None)
        return live

    async def run(self, live: Live, action: Callable[[Table, float], T],
                  after: Callable[[T], None] | None = None, reply: Conn | None = None) -> T:
        """Run a command on a table: act, let the clock catch up, persist, then tell everyone.

        Everyone hears of a change; when nothing changed, only ``reply`` gets the state."""
        async with live.lock:
            now = self.clock()
            before = (live.table.events, frozenset(live.table.runtime.connected))
            refused: TableError | None = None
            result: Any = None
            try:
                result = action(live.table, now)
            except TableError as exc:
                refused = exc
            live.table.tick(now)
            await self._persist(live)
            if after is not None and refused is None:
                after(result)
            if before != (live.table.events, frozenset(live.table.runtime.connected)):
                self._broadcast(live, now)
            elif reply is not None:
                self._send_state(live, reply, now)
            self._schedule(live)
            if refused is not None:
                raise refused
            return result  # type: ignore[no-any-return]

    async def _persist(self, live: Live) -> None:
        table = live.table
        events = table.take_outbox()
        if events:
            try:
                await self.store.append(table.code, live.saved + 1, events)
            except Exception:
                log.exception("could not save table %s; reloading it from the store", table.code)
                await self._reload(live)
                raise TableError("server-error", "the server could not save that; please try again") from None
            live.saved += len(events)
        for number, record in table.records.items():
            if number not in live.records_saved:
                await self.store.save_record(table.code, number, record)
                live.records_saved.add(number)

    async def _reload(self, live: Live) -> None:
        events = await self.store.load(live.table.code)
        runtime = live.table.runtime
        live.table = Table.rebuild(events, self.clock())
        live.table.runtime = runtime
        live.saved = len(events)

    def _broadcast(self, live: Live, now: float) -> None:
        table = live.table
        for pid, conn in live.people.items():
            conn.send(p.encode(p.State(table=table_view(table, pid, now))))
        if live.onlookers:
            data = p.encode(p.State(table=table_view(table, None, now)))
            for conn in live.onlookers:
                conn.send(data)

    def _send_state(self, live: Live, conn: Conn, now: float) -> None:
        pid = conn.person if conn.person is not None and live.people.get(conn.person) is conn else None
        conn.send(p.encode(p.State(table=table_view(live.table, pid, now))))

    def _schedule(self, live: Live) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        wake = live.table.next_wakeup()
        if wake is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, wake - self.clock()) + 0.005
        live.timer = loop.call_later(delay, self._spawn, self.run(live, lambda t, now: None))

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            if not isinstance(exc, TableError):
                log.error("a table's timer failed: %r", exc)

    # --- connections ----------------------------------------------------------------------

    def admit(self, address: str) -> bool:
        """Whether one more connection from ``address`` is allowed (and count it)."""
        count = self.connections.get(address, 0)
        if count >= self.limits.connections_per_address:
            return False
        self.connections[address] = count + 1
        return True

    async def drop(self, conn: Conn) -> None:
        """A connection ended."""
        left = self.connections.get(conn.address, 1) - 1
        if left > 0:
            self.connections[conn.address] = left
        else:
            self.connections.pop(conn.address, None)
        if not conn.closed:
            conn.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
        await conn.finish(0.5)
        live = self.live.get(conn.code or "")
        if live is None:
            return
        live.onlookers.discard(conn)
        pid = conn.person
        if pid is not None and live.people.get(pid) is conn:
            del live.people[pid]
            await self.run(live, lambda t, now: t.disconnect(pid, now))

    async def receive(self, conn: Conn, data: str | bytes) -> None:
        """One message from a phone; errors go back to it alone."""
        if not conn.bucket.take(time.monotonic()):
            self._strike(conn, "slow-down", "too many messages; slow down")
            return
        try:
            message = p.decode(data)
            await self._dispatch(conn, message)
        except p.BadMessage as exc:
            self._strike(conn, exc.code, exc.message)
        except TableError as exc:
            conn.send(p.encode(p.Error(code=exc.code, message=exc.message)))

    def _strike(self, conn: Conn, code: str, message: str) -> None:
        conn.strikes += 1
        conn.send(p.encode(p.Error(code=code, message=message)))
        if conn.strikes >= self.limits.strikes_before_close:
            conn.close(1008)

    async def _dispatch(self, conn: Conn, message: p.ClientMessage) -> None:
        if isinstance(message, p.Ping):
            conn.send(p.encode(p.Pong()))
        elif isinstance(message, p.Hello):
            await self._hello(conn, message)
        elif isinstance(message, p.Join):
            await self._join(conn, message)
        else:
            await self._command(conn, message)

    async def _find(self, conn: Conn, code: str) -> Live:
        if not self.lookups.peek(conn.address):
            raise TableError("slow-down", "too many tries; wait a minute before trying another code")
        live = await self.open(code) if normal_code(code) else None
        if live is None:
            self.lookups.allow(conn.address)
            raise TableError("no-table", "there is no table with that code")
        return live

    def _unbind(self, conn: Conn) -> None:
        live = self.live.get(conn.code or "")
        if live is not None:
            live.onlookers.discard(conn)
            if conn.person is not None and live.people.get(conn.person) is conn:
                del live.people[conn.person]
                pid = conn.person
                self._spawn(self.run(live, lambda t, now: t.disconnect(pid, now)))
        conn.code, conn.person = None, None

    def _bind(self, conn: Conn, live: Live, pid: int | None) -> None:
        self._unbind(conn)
        conn.code = live.table.code
        conn.person = pid
        if pid is None:
            live.onlookers.add(conn)
            return
        old = live.people.get(pid)
        if old is not None and old is not conn:
            old.send(p.encode(p.Replaced(message="your seat was opened on another phone")))
            old.person = None
            old.close(4000)
        live.people[pid] = conn

    async def _hello(self, conn: Conn, message: p.Hello) -> None:
        live = await self._find(conn, message.code)
        conn.tv = message.tv
        person = None
        if message.token:
            person = live.table.by_token(hash_token(message.token))
            if person is None:
                self._bind(conn, live, None)
                conn.send(p.encode(p.Welcome(code=live.table.code)))
                await self.run(live, lambda t, now: None, reply=conn)
                raise TableError("unknown-token", "that seat is not at this table any more; join again")
        pid = person.id if person is not None else None
        self._bind(conn, live, pid)
        conn.send(p.encode(p.Welcome(code=live.table.code, person=pid)))
        await self.run(live, lambda t, now: t.connect(pid, now) if pid is not None else None, reply=conn)

    async def _join(self, conn: Conn, message: p.Join) -> None:
        live = await self._find(conn, message.code)
        if conn.person is not None and conn.code == live.table.code:
            raise TableError("already-seated", "this phone is already at this table")
        if not self.joins.allow(conn.address):
            raise TableError("slow-down", "too many joins from this address; wait a minute")
        token = secrets.token_urlsafe(24)

        def join(table: Table, now: float) -> int:
            person = table.join(message.name, hash_token(token), now)
            table.connect(person.id, now)
            return person.id

        def welcome(pid: int) -> None:
            self._bind(conn, live, pid)
            conn.send(p.encode(p.Welcome(code=live.table.code, person=pid, token=token)))

        await self.run(live, join, welcome, reply=conn)

    async def _command(self, conn: Conn, message: p.ClientMessage) -> None:
        live = self.live.get(conn.code or "")
        if live is None:
            raise TableError("no-table", "say hello to a table first")
        pid = conn.person
        if pid is None:
            raise TableError("spectator", "you are looking on: join the table to play")
        if isinstance(message, p.Choose):
            move, decision = message.move, message.decision
            await self.run(live, lambda t, now: t.choose(pid, move, now, decision))
        elif isinstance(message, p.Start):
            seed = secrets.randbits(48)
            await self.run(live, lambda t, now: t.start(pid, seed, now))
        elif isinstance(message, p.AddBot):
            bot = message.bot
            await self.run(live, lambda t, now: t.add_bot(pid, bot, now))
        elif isinstance(message, p.RemoveBot):
            chair = message.chair
            await self.run(live, lambda t, now: t.remove_bot(pid, chair, now))
        elif isinstance(message, p.Leave):
            await self.run(live, lambda t, now: t.leave(pid, now), lambda _: self._to_onlooker(conn, live))

    def _to_onlooker(self, conn: Conn, live: Live) -> None:
        if conn.person is not None and live.people.get(conn.person) is conn:
            del live.people[conn.person]
        conn.person = None
        live.onlookers.add(conn)


def _number(value: Any, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise TableError("bad-request", f"{name} must be a number from {low:g} to {high:g}")
    return float(value)
