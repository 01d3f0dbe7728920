"""The load generator of ``gemtable bench server``: tables of bot phones on real WebSockets.

Every simulated phone is one real WebSocket (the ``websockets`` client, with
permessage-deflate offered as a browser does) from a loopback source address of
its own table (``127.A.B.C``, one address per table, and a second one for the phones past the people one
address may bring to a table: ``Limits.people_per_address``), so the server's limits per address see a
household, not one machine with 3000 phones.

A phone joins its table (of the default game); the first to join is the host and
starts the game, and a new one whenever a game ends.  Each decision is answered by
every phone whose ``me.moves`` is not empty, with the move the game's probes call
honest (``gemtable.games.api.Probes``): at ``human`` pace after a random 0.5 to 4 s,
as a person might choose; at ``instant`` pace at once, the eager move (the one
that keeps the game going longest).  A phone never sends faster than the
server's per-connection message limit allows (a little under it), so the
ceiling is the server's, not a flood that the server must refuse.

Latency of a reveal: from the moment the last phone of the table sent its
choice (just before the send) to the moment every phone of the table has
received a state past that decision (the next card, or the next phase), on the
same monotonic clock.  Reveals that the deadline forced (someone had not
chosen) are counted apart and left out of the latency.  A message is stamped when
its phone's connection hands it over, and read (decoded, answered) only once every
message that came with it is stamped too: this process plays thousands of phones
in one thread, and decoding the other phones' states first (a whole state is about
4 KB of JSON) is its own time, not the server's.  The Node generator does the same.
"""

from __future__ import annotations

import asyncio
import gc
import http.client
import json
import math
import random
import time
import urllib.parse
from array import array
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import msgspec
import websockets
from websockets.asyncio.client import ClientConnection

from gemtable.games import default_game, find_manifest, game_part
from gemtable.games.api import Probes
from gemtable.server import protocol as wire
from gemtable.server.limits import Limits

HUMAN, INSTANT = "human", "instant"
PACES = (HUMAN, INSTANT)
HUMAN_DELAY = (0.5, 4.0)
"""Seconds a person takes to answer (uniform)."""
DECISION_SECONDS = 10.0
"""The table's deadline per decision (as in the issue)."""
SEND_SHARE = 0.85
"""Fraction of the server's per-connection message rate that a phone allows itself."""

Key = tuple[int, int]
"""A decision: (game number, the table's decision number)."""

START = wire.encode(wire.Start()).decode()


# --- what a phone reads of a message (msgspec skips every other field) -----------------------
# The messages are ``gemtable.server.protocol``'s; these readers pick out the few fields a bot phone needs,
# the game's among them, without decoding the rest (the figures measure the server, not this client).


class _Me(msgspec.Struct):
    moves: list[str] = []
    host: bool = False


NO_GAME = msgspec.Raw(b"null")


class _View(msgspec.Struct):
    phase: str = ""
    game_number: int = 0
    decision: int = 0
    people: list[msgspec.Raw] = []
    me: _Me | None = None
    state: msgspec.Raw = NO_GAME
    """The game's view (JSON ``null`` between games): decoded only when the phone must choose (its game's
    probes read it)."""


class _Message(msgspec.Struct):
    type: str = ""
    table: _View | None = None
    code: str | None = None
    person: int | None = None


_decode = msgspec.json.Decoder(_Message).decode


# --- addresses --------------------------------------------------------------------------------


HOUSEHOLD_STEP = 56
"""The second octet of a table's next household is this much higher (the first is 100 to 199)."""


def source_address(base: int, index: int, household: int = 0) -> str:
    """The loopback address of table ``index``'s ``household`` (0: the host's): ``127.B.x.y`` with ``B`` =
    ``base + 56 * household``, never ending in .0 or .255."""
    high, low = divmod(index, 254)
    if high > 255:
        raise ValueError("at most 65,024 tables")
    octet = base + HOUSEHOLD_STEP * household
    if octet > 255:
        raise ValueError(f"no loopback address for household {household} of a table (base {base})")
    return f"127.{octet}.{high}.{low + 1}"


def household_of(phone: int, limits: Limits) -> int:
    """Which household of its table phone ``phone`` comes from: ``limits.people_per_address`` to each."""
    return phone // max(1, limits.people_per_address)


def households(base: int, index: int, players: int, limits: Limits) -> list[str]:
    """The addresses of table ``index``'s phones (phone ``i`` comes from ``addresses[household_of(i)]``):
    8 phones of one table are two households."""
    return [source_address(base, index, k) for k in range(household_of(players - 1, limits) + 1)]


@dataclass
class Target:
    """Where the server is: ``http://127.x.y.z:port``."""

    host: str
    port: int

    @property
    def ws(self) -> str:
        return f"ws://{self.host}:{self.port}/ws"

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    @classmethod
    def parse(cls, url: str) -> Target:
        parts = urllib.parse.urlsplit(url if "://" in url else f"http://{url}")
        if parts.scheme not in ("http", "ws"):
            raise ValueError("the benchmark speaks plain http:// and ws:// on loopback only")
        host = parts.hostname or ""
        if host == "localhost":
            host = "127.0.0.1"
        octets = host.split(".")
        if len(octets) != 4 or octets[0] != "127" or not all(o.isdigit() and int(o) < 256 for o in octets):
            raise ValueError(f"the benchmark only connects to loopback 127.x.y.z addresses, not {host!r}")
        return cls(host, parts.port or 80)


# --- one table, one phone --------------------------------------------------------------------


class _Track:
    """One decision of one table, while its reveal reaches the phones."""

    __slots__ = ("aborted", "last_recv", "last_send", "passed", "sends")

    def __init__(self) -> None:
        self.last_send = 0.0
        self.sends = 0
        self.passed = 0
        self.last_recv = 0.0
        self.aborted = False


class TableLoad:
    def __init__(self, load: Load, index: int, addresses: list[str]) -> None:
        self.load = load
        self.index = index
        self.addresses = addresses
        self.address = addresses[0]
        """The host's (it creates the table): each phone's is ``addresses[household_of(i)]``."""
        self.code = ""
        self.phones: list[Phone] = []
        self.tracks: dict[Key, _Track] = {}

    def track(self, key: Key) -> _Track:
        track = self.tracks.get(key)
        if track is None:
            track = self.tracks[key] = _Track()
        return track

    def sent(self, key: Key, at: float) -> None:
        track = self.track(key)
        track.sends += 1
        track.last_send = max(track.last_send, at)

    def passed(self, key: Key, at: float) -> None:
        track = self.track(key)
        track.passed += 1
        track.last_recv = max(track.last_recv, at)
        if track.passed >= len(self.phones):
            del self.tracks[key]
            self.load.revealed(track)


class Phone:
    def __init__(self, table: TableLoad, index: int) -> None:
        self.table = table
        self.load = table.load
        self.index = index
        self.ws: ClientConnection | None = None
        self.person: int | None = None
        self.welcomed = asyncio.Event()
        self.seen: Key | None = None
        """The decision this phone's latest state shows (None: not a decision)."""
        self.answered: Key | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.started_game = 0
        self.closed = False
        self.reader: asyncio.Task[None] | None = None
        # The phone's own token bucket, a little under the server's.
        self.rate = self.load.limits.messages_per_second * SEND_SHARE
        self.burst = self.load.limits.message_burst / 2
        self.tokens = self.burst
        self.stamp = 0.0

    @property
    def host(self) -> bool:
        return self.index == 0

    async def connect(self) -> None:
        self.ws = await websockets.connect(
            self.load.target_for(self.table.index, self.index).ws,
            local_addr=(self.table.addresses[household_of(self.index, self.load.limits)], 0),
            ping_interval=None,
            open_timeout=60,
            close_timeout=5,
            max_size=2**20,
            proxy=None,
            compression="deflate" if self.load.deflate else None,
        )
        self.reader = asyncio.ensure_future(self._read())

    async def join(self) -> None:
        assert self.ws is not None
        name = f"bot{self.table.index}-{self.index}"
        await self.ws.send(wire.encode(wire.Join(v=wire.VERSION, code=self.table.code, name=name)).decode())
        try:
            await asyncio.wait_for(self.welcomed.wait(), 60)
        except TimeoutError:  # say what the server answered the phones so far, not only that one waited
            raise RuntimeError(f"{name}: no welcome within 60 s (errors so far: {self.load.error_codes})") from None

    # --- receiving ----------------------------------------------------------------------------

    async def _read(self) -> None:
        assert self.ws is not None
        load = self.load
        try:
            async for raw in self.ws:
                now = time.monotonic()
                # Read once every phone whose message came with this one has stamped its own (the next turn of the
                # loop): reading the states of a table's other phones first is this process's time, not the
                # server's latency.
                await asyncio.sleep(0)
                load.received += 1
                try:
                    message = _decode(raw)
                except msgspec.DecodeError:
                    load.error("undecodable")
                    continue
                kind = message.type
                if kind == "state" and message.table is not None:
                    self._state(message.table, now)
                elif kind == "welcome":
                    self.person = message.person
                    self.welcomed.set()
                elif kind == "error":
                    load.error(str(message.code))
                elif kind == "replaced":
                    load.error("replaced")
        except websockets.ConnectionClosed:
            pass
        except Exception as exc:  # a bug here must show as an error, not hang the run
            load.error(f"client:{type(exc).__name__}")
        finally:
            self.closed = True
            if not load.stopping:
                load.error("closed")

    def _state(self, view: _View, now: float) -> None:
        playing = view.phase == "playing" and view.state != NO_GAME
        key: Key | None = (view.game_number, view.decision) if playing else None
        seen = self.seen
        if seen is not None and key != seen:
            if self.timer is not None:  # the deadline revealed before this phone answered
                self.timer.cancel()
                self.timer = None
                self.table.track(seen).aborted = True
            self.table.passed(seen, now)
        self.seen = key
        if not self.load.playing:
            return
        me = view.me
        if key is not None and me is not None and me.moves and self.answered != key:
            self.answered = key
            self._decide(key, view.state, me.moves, now)
        elif view.phase == "results" and self.host and self.started_game != view.game_number:
            self.started_game = view.game_number
            self._later(self.load.delay(), self._send_start)

    # --- answering ----------------------------------------------------------------------------

    def _decide(self, key: Key, game: msgspec.Raw, moves: list[str], now: float) -> None:
        load = self.load
        text = load.choice(load.move(game, moves))
        self.timer = self._later(load.delay(), lambda: self._send_choice(key, text))

    def _later(self, delay: float, send: Any) -> asyncio.TimerHandle | None:
        now = time.monotonic()
        wanted = now + delay
        at = self._reserve(wanted)
        if at > wanted + 1e-6:
            self.load.throttled += 1
        if at <= now:
            send()
            return None
        return self.load.loop.call_at(self.load.loop.time() + (at - now), send)

    def _reserve(self, wanted: float) -> float:
        """When the phone may send its next message, no earlier than ``wanted`` (and take the token)."""
        if self.stamp == 0.0:
            self.stamp = wanted
        tokens = min(self.burst, self.tokens + max(0.0, wanted - self.stamp) * self.rate)
        at = max(wanted, self.stamp)
        if tokens < 1.0:
            at += (1.0 - tokens) / self.rate
            tokens = 1.0
        self.tokens = tokens - 1.0
        self.stamp = at
        return at

    def _send_choice(self, key: Key, text: str) -> None:
        self.timer = None
        if self.closed or self.ws is None or self.load.stopping:
            return
        self.table.sent(key, time.monotonic())
        self.load.spawn(self.ws.send(text))

    def _send_start(self) -> None:
        if not self.closed and self.ws is not None and not self.load.stopping:
            self.load.spawn(self.ws.send(START))


# --- the whole load ----------------------------------------------------------------------------


@dataclass
class Snapshot:
    """The generator's counters at one instant."""

    at: float
    received: int
    reveals: int
    deadline_reveals: int
    errors: int
    throttled: int
    cpu: float
    connections: int
    error_codes: dict[str, int]


@dataclass
class Load:
    """Some tables of bot phones, driven from one event loop."""

    target: Target
    table_indices: list[int]
    players: int
    address_base: int
    pause: float
    deflate: bool = True
    seed: int = 1
    limits: Limits = field(default_factory=Limits)
    pace: str = HUMAN
    playing: bool = False
    stopping: bool = False
    received: int = 0
    reveals: int = 0
    deadline_reveals: int = 0
    throttled: int = 0
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    done_at: array[float] = field(default_factory=lambda: array("d"))
    latency: array[float] = field(default_factory=lambda: array("d"))
    lag_at: array[float] = field(default_factory=lambda: array("d"))
    lag: array[float] = field(default_factory=lambda: array("d"))
    tables: list[TableLoad] = field(default_factory=list)
    snapshots: dict[str, Snapshot] = field(default_factory=dict)

    targets: list[Target] = field(default_factory=list)
    """Cluster mode: every node; a table's phones are spread over them, round robin."""
    rooms_by_join: bool = False
    """The baseline room server: a room is made by its first join (no HTTP API to create tables)."""
    game: str = ""
    """The game the tables play (default: the default game)."""

    def target_for(self, table: int, phone: int) -> Target:
        """The node phone ``phone`` of table ``table`` talks to (any node serves any table)."""
        return self.targets[(table + phone) % len(self.targets)] if self.targets else self.target

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self._tasks: set[asyncio.Task[Any]] = set()
        self.game = self.game or default_game()
        manifest = find_manifest(self.game)
        self.probes: Probes | None = game_part(manifest, manifest.probes) if manifest.probes else None
        self._choices: dict[str, str] = {}

    def move(self, game: msgspec.Raw, moves: list[str]) -> str:
        """The move a phone makes: the game's honest one (eager at the instant pace), or any legal one."""
        if self.probes is None:
            return self.rng.choice(moves)
        view = msgspec.json.decode(game) or {}
        return self.probes.honest_move(view, moves, self.rng, self.pace == INSTANT)

    def choice(self, move: str) -> str:
        """The ``choose`` message of a move, encoded once."""
        text = self._choices.get(move)
        if text is None:
            text = self._choices[move] = wire.encode(wire.Choose(move=move)).decode()
        return text

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    def delay(self) -> float:
        return 0.0 if self.pace == INSTANT else self.rng.uniform(*HUMAN_DELAY)

    def error(self, code: str) -> None:
        self.errors += 1
        self.error_codes[code] = self.error_codes.get(code, 0) + 1

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None and not self.stopping:
            self.error(f"send:{type(task.exception()).__name__}")

    def revealed(self, track: _Track) -> None:
        self.reveals += 1
        if track.aborted or track.sends == 0:
            self.deadline_reveals += 1
            return
        self.done_at.append(track.last_recv)
        self.latency.append(track.last_recv - track.last_send)

    def connections(self) -> int:
        return sum(1 for table in self.tables for phone in table.phones if not phone.closed)

    def snapshot(self, name: str) -> None:
        self.snapshots[name] = Snapshot(
            time.monotonic(),
            self.received,
            self.reveals,
            self.deadline_reveals,
            self.errors,
            self.throttled,
            time.process_time(),
            self.connections(),
            dict(self.error_codes),
        )

    # --- setting up -----------------------------------------------------------------------------

    async def setup(self) -> None:
        """Create the tables, connect every phone, seat everyone (nobody starts yet)."""
        self.tables = [
            TableLoad(self, index, households(self.address_base, index, self.players, self.limits))
            for index in self.table_indices
        ]
        await self._create_tables()
        for table in self.tables:
            table.phones = [Phone(table, i) for i in range(self.players)]
        gate = asyncio.Semaphore(64)

        async def seat(table: TableLoad) -> None:
            async with gate:
                for phone in table.phones:
                    await phone.connect()
                await table.phones[0].join()  # the first to join is the host
                await asyncio.gather(*(phone.join() for phone in table.phones[1:]))

        await asyncio.gather(*(seat(table) for table in self.tables))
        # Thousands of long-lived connection objects: keep the collector from walking them again and again.
        gc.collect()
        gc.freeze()

    async def _create_tables(self) -> None:
        if self.rooms_by_join:
            for table in self.tables:
                table.code = f"R{table.index}"
            return
        # No start countdown, no reveal's beat, no last call: the load measures the server's work, not waits by design.
        body = json.dumps(
            {
                "game": self.game,
                "seconds": DECISION_SECONDS,
                "pause": self.pause,
                "countdown": 0,
                "beat": 0,
                "last_call": 0,
                "ready_check": False,
            }
        )

        def create(index: int, address: str) -> str:
            target = self.target_for(index, 0)
            conn = http.client.HTTPConnection(target.host, target.port, timeout=30, source_address=(address, 0))
            try:
                conn.request("POST", "/api/tables", body, {"Content-Type": "application/json"})
                response = conn.getresponse()
                data = json.loads(response.read() or b"{}")
            finally:
                conn.close()
            if response.status != 201:
                raise RuntimeError(f"creating a table from {address} failed: HTTP {response.status} {data}")
            return str(data["code"])

        loop = self.loop
        with ThreadPoolExecutor(8) as pool:
            codes = await asyncio.gather(*(loop.run_in_executor(pool, create, t.index, t.address) for t in self.tables))
        for table, code in zip(self.tables, codes, strict=True):
            table.code = code

    # --- running --------------------------------------------------------------------------------

    async def run(self, phases: Iterable[tuple[str, float, float, float]]) -> None:
        """Play through ``phases``: (pace, switch at, measure from, measure until), monotonic times."""
        self.playing = True
        lag = asyncio.ensure_future(self._watch_lag())
        try:
            for host in (table.phones[0] for table in self.tables):
                host.started_game = -1
                host._later(0.0, host._send_start)
            for pace, switch, start, end in phases:
                await _sleep_until(switch)
                self.pace = pace
                self.snapshot(f"{pace}:switch")
                await _sleep_until(start)
                self.snapshot(f"{pace}:start")
                await _sleep_until(end)
                self.snapshot(f"{pace}:end")
        finally:
            lag.cancel()

    async def _watch_lag(self) -> None:
        """How late the event loop wakes a sleeper: the generator's own delay, reported beside the latency."""
        step = 0.02
        while True:
            before = time.monotonic()
            await asyncio.sleep(step)
            now = time.monotonic()
            self.lag_at.append(now)
            self.lag.append(max(0.0, now - before - step))

    async def close(self) -> None:
        self.stopping = True
        self.playing = False
        for table in self.tables:
            for phone in table.phones:
                if phone.timer is not None:
                    phone.timer.cancel()
        gate = asyncio.Semaphore(256)

        async def close(phone: Phone) -> None:
            if phone.ws is None:
                return
            async with gate:
                try:
                    await asyncio.wait_for(phone.ws.close(), 5)
                except (TimeoutError, OSError, websockets.WebSocketException):
                    if phone.ws.transport is not None:
                        phone.ws.transport.abort()
            if phone.reader is not None:
                phone.reader.cancel()

        await asyncio.gather(*(close(phone) for table in self.tables for phone in table.phones))
        for task in list(self._tasks):
            task.cancel()
        gc.unfreeze()

    # --- results --------------------------------------------------------------------------------

    def window(self, pace: str) -> dict[str, Any]:
        """What this generator saw during the measurement window of ``pace``."""
        switch = self.snapshots[f"{pace}:switch"]
        first, last = self.snapshots[f"{pace}:start"], self.snapshots[f"{pace}:end"]
        latencies = [value for at, value in zip(self.done_at, self.latency, strict=True) if first.at <= at <= last.at]
        lags = [value for at, value in zip(self.lag_at, self.lag, strict=True) if first.at <= at <= last.at]
        return {
            "seconds": last.at - first.at,
            "received": last.received - first.received,
            "reveals": last.reveals - first.reveals,
            "deadline_reveals": last.deadline_reveals - first.deadline_reveals,
            "errors": last.errors - switch.errors,
            "error_codes": {
                code: count - switch.error_codes.get(code, 0)
                for code, count in last.error_codes.items()
                if count > switch.error_codes.get(code, 0)
            },
            "throttled": last.throttled - first.throttled,
            "cpu": last.cpu - first.cpu,
            "connections": last.connections,
            "latencies": latencies,
            "lags": lags,
        }


async def _sleep_until(when: float) -> None:
    delay = when - time.monotonic()
    if delay > 0:
        await asyncio.sleep(delay)


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``, which must not be empty."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q * len(ordered))))
    return ordered[rank - 1]


def summary_ms(values: list[float]) -> dict[str, float | int | None]:
    if not values:
        return {"p50": None, "p99": None, "max": None, "samples": 0}
    return {
        "p50": round(quantile(values, 0.50) * 1000, 2),
        "p99": round(quantile(values, 0.99) * 1000, 2),
        "max": round(max(values) * 1000, 2),
        "samples": len(values),
    }


__all__ = ["HUMAN", "INSTANT", "PACES", "Load", "Target", "households", "quantile", "source_address", "summary_ms"]
