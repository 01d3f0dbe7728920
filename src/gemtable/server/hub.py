"""The phones connected to this server process, and what they say.

Each message is decoded (a clear error if it is malformed), checked against
the connection's rate, then turned into a command for its table and carried
out by the node (``node.py``) where the table runs — here or on another node.
Whatever changes, every phone at the table is sent the state as its own seat
may see it.  A refused command changes nothing and is answered to its sender
alone.

A phone whose person the host removed is told so (``removed``) and looks on from
then; a banned one is closed.  Where a phone joins from is given to the table as
an *origin*: its address key, hashed with a key salted per table from the
server's secret (``Store.secret``) — never the address itself — so that a ban
and the cap of people per address survive a restart without an address in the
log (``docs/security.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Collection
from typing import Any

from gemtable.bus import Bus
from gemtable.machine import free_bytes
from gemtable.server import ops
from gemtable.server import protocol as p
from gemtable.server.conn import Conn
from gemtable.server.gate import Gate
from gemtable.server.limits import (
    LOCAL_PROXIES,
    AddressLimiter,
    Bucket,
    Limits,
    NetworkLimiter,
    SharedBudgets,
    shared_buckets,
)
from gemtable.server.node import Local, Node
from gemtable.server.pacing import Pacer
from gemtable.server.rooms import Room, Rooms
from gemtable.store import Store
from gemtable.table import Status, Table, TableError
from gemtable.table.settings import CHANGEABLE, new_settings
from gemtable.table.view import Choices, encoded_views

log = logging.getLogger("gemtable")

CODE_ALPHABET = "ACDEFHJKLMNPQRTUVWXY"
DISK_EVERY = 10.0
"""Seconds between two looks at the data folder's free space (``Hub.disk_low``)."""
"""Letters that no one misreads for another or for a digit (no B 8, G 6, I 1, O 0, S 5, Z 2)."""


BANNED_CLOSE = 4003
"""The close code of a banned phone's connection (after an error or a ``removed`` message saying why)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def normal_code(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalpha())[:4]


class Hub:
    """Every phone of this process, and the node that runs (or follows) their tables."""

    def __init__(
        self,
        store: Store,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.time,
        allow_scripts: bool = False,
        bus: Bus | None = None,
        node_id: str | None = None,
        lease_ttl: float = 3.0,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.clock = clock
        self.allow_scripts = allow_scripts
        self.node = Node(
            store,
            bus,
            clock,
            node_id,
            lease_ttl,
            rest_after=self.limits.rest_seconds,
            keep=self.limits.keep_days * 86400 if self.limits.keep_days > 0 else None,
            phones=self,  # (the node tells the phones through the hub: ``node.Phones``)
        )
        self.rooms = Rooms()
        keep = self.limits.buckets_kept
        self.lookups = NetworkLimiter(self.limits.lookups_per_minute / 60, self.limits.lookup_burst, keep)
        self.hellos = AddressLimiter(self.limits.address_hellos_per_minute / 60, self.limits.address_hello_burst, keep)
        self.joins = AddressLimiter(self.limits.joins_per_minute / 60, self.limits.join_burst, keep)
        self.writes = AddressLimiter(self.limits.write_bytes_per_hour / 3600, self.limits.write_burst, keep)
        """Bytes of table log per address (:meth:`_command`)."""
        self.creations = AddressLimiter(self.limits.tables_per_hour / 3600, self.limits.table_burst, keep)
        self.budgets: SharedBudgets | None = getattr(store, "budgets", None)
        """In a cluster, the same budgets per address again, kept in Redis and shared by every node (``shared``)."""
        self.connections: dict[str, int] = {}
        self.pacer = Pacer(self.limits.broadcast_seconds)
        self.busy = False
        """The server is busy: its tables' chatter is coalesced over a longer interval (:meth:`shed`)."""
        self._moments: dict[str, tuple[int, str, int, bool, bool]] = {}
        """Per table, the moment of the game its last change showed (game, phase, decision, paused, counting
        down): a change to another moment is told at once (``pacing.py``)."""
        self._held: dict[str, Choices | None] = {}
        """What the broadcast a table holds (``pacer``) must tell: the secret choices of every change held, merged
        (then a ``chosen`` does), or None (some change held was not only choices: whole states); no entry: nothing
        to tell since the last broadcast (a flush that comes then sends nothing)."""
        self.secret = secrets.token_bytes(32)
        self._disk_seen: tuple[float, bool] = (-DISK_EVERY, False)
        """When the data folder's free space was last looked at, and whether it was low (``disk_low``)."""
        """The key of the origins (``start`` reads the store's own, the same on every node and after a restart)."""
        self.closed = 0
        """Connections closed so far (the garbage collector's upkeep thaws after many: ``gcpolicy.py``)."""
        self._committed_early = False
        """This turn of the loop has committed early once already, for a table that moved on (``deliver``)."""
        self.gate = Gate(self.commit_now)
        """Where phones' messages wait while the changes they tell of are saved (``gate.py``): the embedded
        store commits once a turn of the loop (the phones' connections are given it: ``phones.py``)."""

    async def start(self) -> None:
        self.secret = await self.store.secret()
        if self.node.alone:  # (a cluster's owner publishes each change, saved first)
            self.store.commit_per_turn(self.gate.shut, self._turn_saved)
        await self.node.start()

    def _turn_saved(self, lost: set[str] | None) -> None:
        """The store committed a turn's changes (``lost`` None): what they tell goes out.  Or it could not
        (``lost``: the tables whose changes were rolled back): nothing of it is told, the phones it was for
        are closed and come back, and those tables are read back from the store before anything else."""
        if lost is None:
            self.gate.open()
            return
        self.gate.fail()
        self.node.lost(lost)

    def _turn_over(self) -> None:
        self._committed_early = False

    def shed(self, busy: bool, share: float = 0.0) -> None:
        """The server became busy (or calm again, ``busy.py``): its tables' chatter is told at most once per
        ``Limits.busy_broadcast_seconds`` (or ``broadcast_seconds`` again)."""
        calm = self.limits.broadcast_seconds
        self.pacer.interval = max(calm, self.limits.busy_broadcast_seconds) if busy and calm > 0 else calm
        self.busy = busy
        log.info(
            "%s (%.0f %% of a core): a table's chatter is told at most once every %g s",
            "busy" if busy else "calm again",
            100 * share,
            self.pacer.interval,
        )

    def commit_now(self) -> None:
        """Save what this turn changed now: before answering outside a phone's WebSocket (a new table's code),
        and when the game moves on (``deliver``), so that its phones are not kept waiting for the turn's end."""
        self.store.commit_turn()

    async def stop(self) -> None:
        self.pacer.close()
        for room in self.rooms.all():
            for conn in room.conns():
                conn.close(1001)
        await self.node.stop()

    # --- tables ---------------------------------------------------------------------------

    async def create(self, address: str, data: dict[str, Any]) -> Table:
        """A new table from a host's choices (``game``, ``preset``, ``options``, ``seconds``…)."""
        limits = self.limits
        if not self.creations.allow(address) or not await self.shared(
            "tables", address, limits.tables_per_hour / 3600, limits.table_burst
        ):
            raise TableError("slow-down", "too many new tables from this address; try again later")
        if self.disk_low():
            raise TableError("disk-full", "the server's disk is nearly full: no new tables until its host frees space")
        settings = new_settings(data, self.allow_scripts)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(4))
            if code in self.node.tables or await self.store.exists(code):
                continue
            table = Table.create(code, settings, self.clock())
            try:
                await self.node.adopt(table)
            except TableError:
                continue  # another node took the same code at the same moment
            self.commit_now()  # (its code is answered over HTTP, not through the gate)
            return table
        raise TableError("full", "no table code is free; try again")

    def disk_low(self) -> bool:
        """Whether the embedded store's disk has less free space than ``Limits.min_free_mb`` (looked at once every
        :data:`DISK_EVERY` seconds at most)."""
        folder = self.store.folder
        if folder is None:
            return False  # (Redis keeps its own memory: its maxmemory, docs/deploy.md)
        now = self.clock()
        if now - self._disk_seen[0] >= DISK_EVERY:
            free = free_bytes(folder)
            self._disk_seen = (now, free is not None and free < self.limits.min_free_mb * 1024 * 1024)
        return self._disk_seen[1]

    async def open(self, code: str) -> Local | None:
        """The table ``code`` as this node holds it; None if there is none."""
        return await self.node.table(normal_code(code))

    def origin(self, code: str, address: str) -> str:
        """Where a phone at table ``code`` comes from, as the table keeps it: the address key, hashed with a
        key salted per table (HMAC-SHA-256 of the server's secret and the code), 32 hex digits; empty for a
        reverse proxy on this host (it speaks for many phones, which are then not counted)."""
        if address in LOCAL_PROXIES:
            return ""
        salt = hmac.new(self.secret, code.encode(), hashlib.sha256).digest()
        return hmac.new(salt, address.encode(), hashlib.sha256).hexdigest()[:32]

    # --- telling phones -------------------------------------------------------------------

    def deliver(self, local: Local, changed: bool, reply: Conn | None, choices: Choices | None = None) -> None:
        """Tell the phones of ``local``'s table what changed (everyone), or its state (``reply`` alone).

        A change is told through the table's :class:`~gemtable.server.pacing.Pacer`: at once after a quiet
        spell, else with the changes that follow it within the interval, as the state is then (the latest
        wins; what the held changes showed is merged in :attr:`_held`).  Removed people are told at once."""
        room = self.rooms.get(local.code)
        if changed and room is not None:
            self._tell_removed(local.table, room)
            code = local.code
            held = code in self._held
            self._held[code] = _merged(self._held[code], choices) if held else choices
            table = local.table
            moment = (
                table.play.number,
                table.moment.phase,
                table.moment.decision,
                table.hold.paused is None,
                not table.hold.countdown,
            )
            moved = self._moments.get(code) != moment  # the game moved on: told at once
            self._moments[code] = moment
            self.pacer.request(code, lambda: self._broadcast(local), now=moved)
            if reply is not None and self.pacer.pending(code):
                # A phone that said hello or joined is answered at once, whatever the pace (up to a second while
                # the server is busy): the others are told with the chatter held.
                self._answer(local, reply, room)
            if moved and self.gate.closed:
                self.gate.moved.add(code)  # (its phones are told first when the gate opens: ``gate.py``)
                if not self._committed_early:
                    # ...and saved at once, not behind the rest of the loop's turn (``gate.py``): once a turn, so
                    # that a turn of many tables moving on (the instant pace) commits them together after the first.
                    self._committed_early = True
                    asyncio.get_running_loop().call_soon(self._turn_over)
                    self.commit_now()
        elif reply is not None and not changed:
            self._answer(local, reply, room)

    def _answer(self, local: Local, reply: Conn, room: Room | None) -> None:
        """The table's state to ``reply`` alone, as its person (or an onlooker) may see it."""
        mine = room is not None and reply.person is not None and room.people.get(reply.person) is reply
        viewer = reply.person if mine else None
        reply.send_state(encoded_views(local.table, [viewer], self.clock())[viewer])

    def present(self, code: str) -> Collection[int]:
        """The people of table ``code`` whose phones are connected here (``node.Phones``)."""
        return self.rooms.people(code)

    def watched(self, code: str) -> bool:
        """Whether any phone is connected here to table ``code`` (``node.Phones``)."""
        return code in self.rooms.by_code

    def tell_makers(self, local: Local, makers: set[int]) -> None:
        """A change made only of predictions: each maker's phone here gets its whole state at once, and no other
        phone is told anything (``audience.py``: not even that a watcher predicted)."""
        room = self.rooms.get(local.code)
        conns = [] if room is None else [(pid, room.people[pid]) for pid in sorted(makers) if pid in room.people]
        if not conns:
            return
        views = encoded_views(local.table, [pid for pid, _ in conns], self.clock())
        for pid, conn in conns:
            conn.send_state(views[pid])

    def _broadcast(self, local: Local) -> None:
        """Send every phone of ``local``'s room what changed since the last broadcast.

        If every change since was made only of secret choices, a ``chosen`` message of a few bytes goes to each
        phone of version 2 that has the state before them; anyone else gets a whole state.  Whole states are
        built once per viewer and encoded by parts (``encoded_views``), then numbered per phone."""
        if self.node.is_lost(local.code):  # its last turn was not saved: it is read back, then told (``Node.lost``)
            return
        if local.code not in self._held:
            return  # nothing to tell since the last broadcast
        choices = self._held.pop(local.code)
        room = self.rooms.get(local.code)
        if room is None:
            return
        table = local.table
        conns: list[tuple[int | None, Conn]] = [*room.people.items(), *((None, c) for c in room.onlookers)]
        whole = conns
        if choices is not None:
            whole = []
            people: bytes | None = None
            for pid, conn in conns:
                choice = choices.choice(table, pid)
                if not choices.newly and choice is None:
                    continue  # a change of mind of someone else: this phone's view is as it was (any version)
                if conn.version < 2 or not conn.synced:
                    whole.append((pid, conn))
                    continue
                people = people if people is not None else choices.people()
                conn.send_chosen(people, choice)
        if whole:
            views = encoded_views(table, {pid for pid, _ in whole}, self.clock())
            for pid, conn in whole:
                conn.send_state(views[pid])

    async def _reply(self, local: Local, conn: Conn) -> None:
        """The table's state to ``conn`` alone (a ``sync``, a ``hello``, a join): a table whose last turn was
        lost is read back first (``Node.lost``; nothing to do on almost every call)."""
        if self.node.is_lost(local.code):
            await self.node.read_back(local)
        self.deliver(local, False, conn)

    def _tell_removed(self, table: Table, room: Room) -> None:
        """Phones of people the host removed: told so, then onlookers (or, banned, closed).  (A phone that
        leaves by itself looks on before its leave is run: ``_command``.)"""
        recent = table.news.recent
        newest = recent[-1] if recent else None
        if newest is room.news_seen:
            return  # no notice since the last look: nobody has left (every leave is told in one)
        room.news_seen = newest
        for pid, conn in list(room.people.items()):
            person = table.people.get(pid)
            if person is not None and person.status != Status.GONE:
                continue
            del room.people[pid]
            conn.person = None
            conn.synced = False
            ban = next((b for b in table.door.bans.values() if b.person == pid), None)
            told = [n for n in table.news.recent if n["kind"] == "left" and n.get("person") == pid]
            by = str(told[-1].get("by") or "") if told else ""
            if ban is not None:
                message = "the host removed you from this table and will not let you back in"
                conn.tell(p.Removed(ban=True, by=by, message=message))
                conn.close(BANNED_CLOSE)
                continue
            message = "the host removed you from this table: you are looking on now (join again to play)"
            conn.tell(p.Removed(ban=False, by=by, message=message))
            room.onlookers.add(conn)

    def kick(self, local: Local, pid: int, keep: tuple[str, int]) -> None:
        """Another phone took ``pid``'s seat: close this node's older one."""
        room = self.rooms.get(local.code)
        conn = room.people.get(pid) if room is not None else None
        if room is None or conn is None or (self.node.id, conn.id) == tuple(keep):
            return
        del room.people[pid]
        conn.person = None
        conn.tell(p.Replaced(message="your seat was opened on another phone"))
        conn.close(4000)

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
        self.closed += 1
        left = self.connections.get(conn.address, 1) - 1
        if left > 0:
            self.connections[conn.address] = left
        else:
            self.connections.pop(conn.address, None)
        conn.ended()
        await conn.finish(0.5)
        await self._unbind(conn)

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
            conn.tell(p.Error(code=exc.code, message=exc.message))
            if exc.code == "banned":
                conn.close(BANNED_CLOSE)
        except Exception:  # a bug must cost one answer, not the connection or the server
            log.exception("a message from %s failed", conn.address)
            conn.tell(p.Error(code="server-error", message="something went wrong on the server"))

    def refuse(self, conn: Conn, code: str, message: str) -> None:
        """A message refused before it is read (a binary frame): it takes from the connection's rate as any
        message does, and counts as a strike."""
        if not conn.bucket.take(time.monotonic()):
            code, message = "slow-down", "too many messages; slow down"
        self._strike(conn, code, message)

    def _strike(self, conn: Conn, code: str, message: str) -> None:
        conn.strikes += 1
        conn.tell(p.Error(code=code, message=message))
        if conn.strikes >= self.limits.strikes_before_close:
            conn.close(1008)

    async def _dispatch(self, conn: Conn, message: p.ClientMessage) -> None:
        if isinstance(message, p.Ping):
            conn.tell(p.Pong())
        elif isinstance(message, p.Hello):
            await self._hello(conn, message)
        elif isinstance(message, p.Join):
            await self._join(conn, message)
        elif isinstance(message, p.Sync):  # a whole state, as a hello brings: under the same budget
            local = self.node.tables.get(conn.code or "")
            if local is None:
                raise TableError("no-table", "say hello to a table first")
            await self._count_hello(conn)
            await self._reply(local, conn)
        else:
            await self._command(conn, message)

    async def find(self, address: str, code: str, token: str | None = None) -> Local:
        """The table ``code``, for someone at ``address``: every route that takes a code comes here (or to
        :meth:`spend_try`), so guessing codes draws from one limit per address, whichever way it is tried.

        With ``token`` (a seat token's hash, from a ``hello``), the table is looked at first: a token that this
        table issued (a seat there, or one the host removed or banned, who is then told so) cannot have been
        guessed (192 bits), so it spends no try and is never refused by the limit — a phone that dropped always
        gets back to its chair, whatever else its address (or another site's page in its browser) tried.  Any
        other token is an ordinary lookup, refused past the tries like one, so that a made-up token cannot tell
        whether a code exists."""
        if token is not None:
            local = await self.open(code) if normal_code(code) else None
            if local is not None and _issued_here(local.table, token):
                return local
            await self.spend_try(address)
        else:
            held = self.node.tables.get(normal_code(code)) if normal_code(code) else None
            if held is not None:  # a hit known without waiting: a try taken and given back, nothing shared
                self._spend_own_try(address)
                self.lookups.give_back(address)
                return held
            await self.spend_try(address)
            try:
                local = await self.open(code) if normal_code(code) else None
            except BaseException:
                await self.refund_try(address)  # not a miss: the store failed (its error goes on)
                raise
        if local is None:
            raise TableError("no-table", "there is no table with that code")
        await self.refund_try(address)
        return local

    async def spend_try(self, address: str) -> None:
        """Take one of ``address``'s tries *before* anything else is awaited (:meth:`refund_try` gives it back
        on a hit): a check and a take on either side of an ``await`` let concurrent guesses through unchecked
        (in a cluster, ``RedisStore.exists`` is a round trip).  In a cluster the try is taken from the shared
        budget too, in one atomic step in Redis; refused there, the node's own try stays taken (a miss it is,
        for all this node can tell)."""
        self._spend_own_try(address)
        limits = self.limits
        if not await self.shared("lookups", address, limits.lookups_per_minute / 60, limits.lookup_burst, True):
            raise TableError("slow-down", "too many tries; wait a minute before trying another code")

    def _spend_own_try(self, address: str) -> None:
        if not self.lookups.allow(address):
            raise TableError("slow-down", "too many tries; wait a minute before trying another code")

    async def refund_try(self, address: str) -> None:
        """A hit (a code that exists): the try it took is given back; only misses draw from the tries."""
        self.lookups.give_back(address)
        limits = self.limits
        await self.shared("lookups", address, limits.lookups_per_minute / 60, limits.lookup_burst, True, cost=-1.0)

    async def shared(
        self, name: str, address: str, rate: float, burst: float, wider: bool = False, cost: float = 1.0
    ) -> bool:
        """Whether the cluster's budget ``name`` for ``address`` (and, with ``wider``, its wider networks) has
        ``cost`` left, taken if so; every node takes from the same one.  True for a server of its own, and
        while Redis cannot be reached (the node's own budgets still hold then)."""
        if self.budgets is None:
            return True
        try:
            return await self.budgets.take(name, shared_buckets(address, rate, burst, wider), cost)
        except Exception as exc:  # Redis away: the tables cannot run either; the node's own limits hold
            log.warning("shared budget %s not reached: %r", name, exc)
            return True

    async def _find(self, conn: Conn, code: str, token: str | None = None) -> Local:
        return await self.find(conn.address, code, token)

    async def _unbind(self, conn: Conn) -> None:
        local = self.node.tables.get(conn.code or "")
        pid = conn.person
        conn.code, conn.person = None, None
        if local is None:
            return
        room = self.rooms.enter(local.code)
        room.onlookers.discard(conn)
        seated = pid is not None and room.people.get(pid) is conn
        if pid is not None and seated:
            del room.people[pid]
        self.rooms.tidy(local.code)
        if pid is not None and seated:
            with contextlib.suppress(TableError):
                await self.node.execute(local, ops.Disconnect(person=pid))

    async def _bind(self, conn: Conn, local: Local, pid: int | None) -> None:
        if conn.code is not None:
            await self._unbind(conn)
        conn.code = local.code
        conn.person = pid
        conn.synced = False  # a new view: the next message to it is a whole state
        room = self.rooms.enter(local.code)
        if pid is None:
            room.onlookers.add(conn)
            return
        self.kick(local, pid, (self.node.id, conn.id))
        room.people[pid] = conn
        await self.node.publish_kick(local, pid, conn)

    async def _hello(self, conn: Conn, message: p.Hello) -> None:
        conn.version = p.version_of(message)  # spoken to in it from now, whatever the answer
        token = hash_token(message.token) if message.token else None
        local = await self._find(conn, message.code, token)
        table = local.table
        if table.banned(token=token, origin=self.origin(local.code, conn.address)):
            raise TableError("banned", "the host has banned you from this table")
        person = table.by_token(token) if token else None
        if token and person is None:  # refused: nothing changes and nothing is told
            if token in table.door.removed:
                raise TableError("removed", "the host removed you from this table; join again with a name to play")
            raise TableError("unknown-token", "that seat is not at this table any more; join again")
        await self._count_hello(conn)
        conn.tv = message.tv
        pid = person.id if person is not None else None
        if self._bound(conn, local, pid):  # said again on a connection that is that seat already: no change
            conn.tell(p.Welcome(code=local.code, person=pid))
            await self._reply(local, conn)
            return
        await self._bind(conn, local, pid)
        conn.tell(p.Welcome(code=local.code, person=pid))
        if pid is None:
            await self._reply(local, conn)
        else:
            await self.node.execute(local, ops.Connect(person=pid), reply=conn)

    async def _count_hello(self, conn: Conn) -> None:
        """A ``hello`` that opens a table costs a bind and a state (and, for a seat, a change everyone is
        told): at most :attr:`Limits.hello_burst` at once per connection, and
        :attr:`Limits.address_hello_burst` per address, then ``slow-down``."""
        limits = self.limits
        if conn.hellos is None:
            conn.hellos = Bucket(limits.hellos_per_minute / 60, limits.hello_burst)
        now = time.monotonic()
        if (
            not conn.hellos.take(now)
            or not self.hellos.allow(conn.address)
            or not await self.shared(
                "hellos", conn.address, limits.address_hellos_per_minute / 60, limits.address_hello_burst
            )
        ):
            raise TableError("slow-down", "too many hellos; wait a moment")

    def _bound(self, conn: Conn, local: Local, pid: int | None) -> bool:
        """Whether ``conn`` is already at ``local``'s table as ``pid`` (None: looking on)."""
        room = self.rooms.get(local.code)
        if conn.code != local.code or conn.person != pid or room is None:
            return False
        return conn in room.onlookers if pid is None else room.people.get(pid) is conn

    async def _join(self, conn: Conn, message: p.Join) -> None:
        conn.version = p.version_of(message)
        local = await self._find(conn, message.code)
        if conn.person is not None and conn.code == local.code:
            raise TableError("already-seated", "this phone is already at this table")
        limits = self.limits
        if not self.joins.allow(conn.address) or not await self.shared(
            "joins", conn.address, limits.joins_per_minute / 60, limits.join_burst
        ):
            raise TableError("slow-down", "too many joins from this address; wait a minute")
        token = secrets.token_urlsafe(24)
        join = ops.Join(
            name=message.name,
            token=hash_token(token),
            origin=self.origin(local.code, conn.address),
            per_address=self.limits.people_per_address,
        )
        pid = await self.node.execute(local, join)
        await self._bind(conn, local, pid)
        conn.tell(p.Welcome(code=local.code, person=pid, token=token))
        await self._reply(local, conn)

    async def _command(self, conn: Conn, message: p.ClientMessage) -> None:
        local = self.node.tables.get(conn.code or "")
        if local is None:
            raise TableError("no-table", "say hello to a table first")
        pid = conn.person
        if pid is None:
            raise TableError("spectator", "you are looking on: join the table to play")
        command = _command(message, pid)
        address = conn.address
        counted = address not in LOCAL_PROXIES
        if counted and not self.writes.peek(address):
            raise TableError("slow-down", "this device has written a great deal to tables this hour; wait a while")
        written = [0]
        try:
            if isinstance(command, ops.Leave):
                await self._leave(conn, local, pid, command, written)
            else:
                await self.node.execute(local, command, written=written)
        finally:
            if counted and written[0]:
                self.writes.charge(address, written[0])

    async def _leave(self, conn: Conn, local: Local, pid: int, command: ops.Leave, written: list[int]) -> None:
        self._to_onlooker(conn, local)  # it looks on from now: the state after its leave is an onlooker's
        try:
            await self.node.execute(local, command, written=written)
        except TableError:
            self._rebind(conn, local, pid)
            raise

    def _rebind(self, conn: Conn, local: Local, pid: int) -> None:
        """A leave refused: the phone is its person again."""
        room = self.rooms.enter(local.code)
        room.onlookers.discard(conn)
        room.people[pid] = conn
        conn.person = pid
        conn.synced = False

    def _to_onlooker(self, conn: Conn, local: Local) -> None:
        room = self.rooms.enter(local.code)
        if conn.person is not None and room.people.get(conn.person) is conn:
            del room.people[conn.person]
        conn.person = None
        conn.synced = False
        room.onlookers.add(conn)


def _merged(held: Choices | None, choices: Choices | None) -> Choices | None:
    """Two changes told as one: the choices of both, if both were made only of choices; else None."""
    if held is None or choices is None:
        return None
    return Choices(tuple(sorted({*held.newly, *choices.newly})), held.seats | choices.seats)


def _issued_here(table: Table, token: str) -> bool:
    """Whether ``table`` gave out this seat token (hashed): a seat there now, or a removed or banned one."""
    return table.by_token(token) is not None or token in table.door.removed or table.banned(token=token)


def _command(message: p.ClientMessage, pid: int) -> ops.Command:
    """The table command a phone's message asks for, typed from the wire to the table."""
    match message:
        case p.Choose(move=move, decision=decision):
            return ops.Choose(person=pid, move=move, decision=decision)
        case p.Predict(key=key, out=out, collapse=collapse, leader=leader):
            return ops.Predict(person=pid, key=key, out=out, collapse=collapse, leader=leader)
        case p.Start():
            return ops.Start(person=pid, seed=secrets.randbits(48))
        case p.AddBot(bot=bot):
            return ops.AddBot(person=pid, bot=bot)
        case p.RemoveBot(chair=chair):
            return ops.RemoveBot(person=pid, chair=chair)
        case p.Remove(person=target, ban=ban):
            return ops.Remove(person=pid, target=target, ban=ban)
        case p.Unban(ban=ban):
            return ops.Unban(person=pid, ban=ban)
        case p.CancelStart():
            return ops.CancelStart(person=pid)
        case p.Ready(ready=is_ready):
            return ops.Ready(person=pid, ready=is_ready)
        case p.Pause():
            return ops.Pause(person=pid)
        case p.Resume():
            return ops.Resume(person=pid)
        case p.End():
            return ops.End(person=pid)
        case p.Host(person=target):
            return ops.HandHost(person=pid, target=target)
        case p.ExtraTime(person=target, factor=factor):
            return ops.ExtraTime(person=pid, target=target, factor=factor)
        case p.ChangeSettings() as changed:
            changes = {key: value for key in CHANGEABLE if (value := getattr(changed, key)) is not None}
            return ops.ChangeSettings(person=pid, changes=changes)
        case p.Leave():
            return ops.Leave(person=pid)
    raise TableError("bad-message", "unknown command")  # pragma: no cover - every message type is handled
