"""``python -m tools soak``: a heavy night — tables of bot phones playing game after game through real
WebSockets against one server process, phones dropping and coming back, and the server killed in the middle.

The soak starts ``gemtable serve`` (its own process, a free port, a temporary data folder; production
limits unless ``--message-rate`` lifts the per-connection one), creates ``--tables`` tables — every game the
server hosts in turn (and this process knows the probes of: ``gemtable.games.api.Probes``), so a soak plays
each of them — and seats 3 to 5 bot phones at each (as many as the table's games take, if they take fewer or
more), every table from a loopback address of its own (``127.160.x.y``) so that the limits per address see a
household each.  Phones think for a moment, then choose a move the game's probes call honest (with the
``decision`` number), and the host's phone starts a new game whenever one ends — after **switching the table to
the next game** (``settings`` with ``game``; ``--no-switch`` keeps each table at its first), so that a table plays
the games in turn at the same code with the same phones, those beyond a game's chairs watching it. At a table
whose first game is simultaneous (the expedition) one phone comes late, once the game is under way: it waits in
camp for the next cave and, meanwhile, watches and predicts (``predicted``, ``late_arrivals``), as the phones
beyond Booty Hunter's three chairs do.

**Silent decisions**: the tools' tables hold a decision nobody answers (``hold_silent``), and in ``--quiet`` of
the games of a simultaneous game (where one silent decision is enough) every phone of a table lets a decision
pass in silence (another, if it passed without a hold: every phone inside gone at its deadline); at its deadline
the table holds it ("Is everyone here?"), the host's phone lifts the hold (``resume``), and the decision is
answered.  (In a game of turns the table holds only once every player has let a turn pass in a row: the table's
own tests cover that.)  Now and then a phone drops (its socket is cut) and comes back a moment later with its
seat token.  Half way through, the server is killed (``--restart kill``: SIGKILL; ``term``: SIGTERM) and started
again on the same data folder and port; every phone reconnects with its token.  When the time is up, no new game
starts — but a table that has finished none plays one, a table switched to its next game plays it, and a soak
that has met no switch yet has the first table between games switch and play one, however slow the machine —
the games under way finish, and then everything is checked:

* every finished game's record (``GET /api/tables/CODE/games/N``) replays to its recorded scores and
  winners, the players saw those scores, and nothing of the game was created or lost (``lost_gems``: gems,
  or tiles, by the game's invariants);
* every choice a phone saw the server take (its own ``me.choice``, or what the next view shows of it, as the
  game's probes read it) is the move the record holds for that phone's seat at that decision
  (``wrong_moves``);
* every table the server shows is the table its event log rebuilds;
* every state a phone received (all of them, or a sample at large sizes) keeps the table's invariants;
* no phone got an error it should not have, lost its seat, or was cut off other than by a drop or the
  restart (``errors``, ``error_codes``); the server's log holds no traceback;
* the server's memory, sampled from ``/proc`` through the run (``memory_mb``), and the latency of a
  choice — from sending it to the state that shows it taken — through the run (``latency_ms``).

The tallies are reported in all and per game (``by_game``, by the game each record is of), with the switches of
game the phones saw (``switches``), the silent decisions (``quiet``) and the holds they met (``holds``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import websockets

from gemtable.bench import proc
from gemtable.bench.launch import Launcher
from gemtable.games import find_manifest
from gemtable.machine import open_files_at_least
from gemtable.server import protocol as wire
from tools.fuzz import Target, loopback, server_games, spectate, unlike_their_logs
from tools.oracles import log_problems, moves_by_decision, probes, record_problems, view_problems

ADDRESS_BASE = 160
BENIGN = {"too-few"}
"""Errors that are the server rightly saying no to a bot: a host starting when too few are back."""
LATE = {"locked", "not-watching", "stale", "no-decision"}
"""A watcher's prediction that reached the table after its question was locked (it thought past the reveal) or
after its person walked in to play (a late arrival, at the next cave); a choice that reached it after its
decision was revealed or its clock ran out, or after the game ended (a phone back from a drop with a moment
left, or one that thought to the last moment)."""
REFUSED_CHOICE = frozenset({"stale", "no-decision", "not-your-turn"})
"""Errors that refuse the choice in flight: nothing was taken, so nothing is compared with what is shown."""
START_AGAIN_AFTER = 8.0
"""Seconds after a start when a host that still sees no game (nor countdown) starts again: the countdown
(5 s on a table the server creates) was cancelled because too few phones were connected at its end."""
Key = tuple[int, ...]
"""A decision: the game's number at its table, then what the game's probes say identifies the decision."""


@dataclass
class SoakOptions:
    minutes: float = 1.0
    tables: int = 20
    players: tuple[int, int] = (3, 5)
    think: tuple[float, float] = (0.05, 0.8)
    """Seconds a phone thinks before it chooses (uniform)."""
    drop_every: float = 45.0
    """Seconds between two drops of one phone, on average (0: phones never drop)."""
    restart: str = "kill"
    seconds: float = 10.0
    pause: float = 1.0
    drain: float = 60.0
    """Seconds the games under way get to finish once the time is up (and a table that has finished no game
    yet, to play one: every game the soak plays is checked, so each table must end one, however short the
    time or busy the machine; and, if the soak has met no switch of game yet, a table to switch and play one)."""
    message_rate: float | None = None
    check_fraction: float | None = None
    """Share of the states whose invariants are checked (default: all, or 20% beyond 100 tables)."""
    seed: int = 1
    keep: bool = False
    games: tuple[str, ...] = ()
    """The games the tables play, in turn (default: every game the server hosts that has probes here)."""
    switch: bool = True
    """Whether a table switches to the next game between games (each table starts at a game of its own)."""
    quiet: float = 0.5
    """Share of the games of a simultaneous game in which a table lets one decision pass in silence (a hold)."""


# --- the server --------------------------------------------------------------------------------------


class SoakServer:
    """``gemtable serve`` in a child process (the tests' and benchmarks' one launcher); killed and started again
    on the same port and data folder."""

    def __init__(self, message_rate: float | None, keep: bool) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="gemtable-soak-"))
        self.keep = keep
        extra = ["--message-rate", str(message_rate)] if message_rate else []
        self.server = Launcher(self.folder / "data", extra, log=self.folder / "server.log")
        self.port = self.server.port
        self.cpu_before = 0.0

    @property
    def data(self) -> Path:
        return self.server.data

    @property
    def log(self) -> Path:
        return self.server.log

    @property
    def pid(self) -> int | None:
        return self.server.pid

    def start(self) -> float:
        """Start (again); returns the seconds until it answers ``/healthz``."""
        started = time.monotonic()
        self.server.start(timeout=300)
        return time.monotonic() - started

    def cpu(self) -> float:
        pid = self.pid
        return self.cpu_before + ((proc.cpu_seconds(pid) or 0.0) if pid else 0.0)

    def stop(self, how: str = "term") -> None:
        if self.pid is None:
            return
        self.cpu_before = self.cpu()
        if how == "kill":
            self.server.kill()
        else:
            self.server.stop(timeout=30)

    def clean(self) -> None:
        self.stop()
        if not self.keep:
            shutil.rmtree(self.folder, ignore_errors=True)


# --- a table of phones -----------------------------------------------------------------------------


class _Notice(msgspec.Struct):
    """A notice of the table's news (``table/news.py``), as far as the checks read it."""

    id: int = 0
    kind: str = ""
    seat: int | None = None
    seats: list[int] = []


PLAYED_FOR = frozenset({"missed", "timed_out", "stand_in"})
"""Notices that say the table played a seat's turn for it (the clock, or a bot standing in): a choice sent before
one of them was not the one taken (it was lost with a dropped connection, or came after the clock)."""


class _Me(msgspec.Struct):
    id: int | None = None
    host: bool = False
    choice: str | None = None
    moves: list[str] = []
    seat: int | None = None
    audience: msgspec.Raw = msgspec.Raw(b"null")
    """What the phone's person may predict, and their points (``table/audience.py``): a watcher predicts."""
    news: list[_Notice] = []
    """The notices about this phone's person (the newest, kept for a phone that was away)."""


class _Paused(msgspec.Struct):
    silent: bool = False


class _View(msgspec.Struct):
    game: str = ""
    phase: str = ""
    game_number: int = 0
    decision: int = 0
    paused: _Paused | None = None
    people: list[msgspec.Raw] = []
    me: _Me | None = None
    countdown: msgspec.Raw | None = None
    """The start's countdown (read only for whether there is one)."""
    state: msgspec.Raw = msgspec.Raw(b"null")
    """The game's view (JSON ``null`` between games), read through the game's probes."""
    news: list[_Notice] = []


class _Message(msgspec.Struct):
    type: str = ""
    table: _View | None = None
    person: int | None = None
    token: str | None = None
    code: str | None = None


_decode = msgspec.json.Decoder(_Message).decode


@dataclass
class TableRun:
    index: int
    address: str
    players: int
    game: str
    """The game the table was made for (its first)."""
    games: list[str] = field(default_factory=list)
    """The games it plays, in turn, from its first (one: it never switches)."""
    code: str = ""
    phones: list[Phone] = field(default_factory=list)
    scores: dict[int, list[int]] = field(default_factory=dict)
    """game → the scores the phones saw at the end."""
    phase: str = "lobby"
    now: str = ""
    """The game the table plays now, as the last state said."""
    switch_asked: tuple[int, float, tuple[int, int]] = (-1, 0.0, (-1, 0))
    """The game number after which the host asked for the next game, when, and from which phone on which
    connection (asked again if it never came, or at once if that connection was cut)."""
    quiet_at: tuple[int, int] | None = None
    """(game, decision) every phone lets pass in silence."""
    quiet_drawn: int = 0
    """The last game for which it was drawn whether the table wants a hold."""
    wants_hold: bool = False
    """Whether the table's phones let decisions of this game pass in silence until it holds one."""
    quiet_from: int = 0
    """The first decision they may let pass."""
    holds: set[tuple[int, int]] = field(default_factory=set)
    """(game, decision) the table held, nobody having answered."""
    late: Phone | None = None
    """A phone that arrives once the table's first game (a simultaneous one) is under way: it waits for the next
    round in camp, watching and predicting (``table/audience.py``), and plays from then on."""

    def next_game(self) -> str:
        """The game after the one played now (the same if the table does not switch)."""
        games = self.games or [self.game]
        return games[(games.index(self.now) + 1) % len(games)] if self.now in games else games[0]


class Phone:
    """One bot phone: a real WebSocket, a seat token, and a memory of what it chose."""

    def __init__(self, soak: Soak, table: TableRun, index: int) -> None:
        self.soak = soak
        self.table = table
        self.index = index
        self.name = f"bot {table.index}-{index}"
        self.ws: Any = None
        self.person: int | None = None
        self.token: str | None = None
        self.epoch = 0
        """Counts connections: a choice sent on one and confirmed on another has no latency to speak of."""
        self.cut = False
        self.answered: dict[Key, tuple[str, int]] = {}
        self.sent: tuple[Key, int, str, float, int, int] | None = None
        """The choice in flight: (decision key, decision number, move, when, epoch, the newest notice seen then)."""
        self.sent_moves: dict[Key, set[str]] = {}
        """Every move this phone sent at each decision: after a drop, the server may hold one sent before it (the
        old connection's last message read after the new one's hello), and either is this phone's own."""
        self.taken: dict[Key, str] = {}
        """Choices the server showed this phone as taken."""
        self.seats: dict[int, int] = {}
        self.started = 0
        self.start_sent = 0.0
        """When this phone, as the host, last asked for a start (``time.monotonic()``)."""
        self.start_epoch = 0
        """On which connection it asked."""
        self.counting = False
        """Whether the last state between games showed a countdown."""
        self.resumed: tuple[int, int, int] | None = None
        """The held decision this phone, as the host, lifted (game, decision, on which connection)."""
        self.view: _View | None = None
        self.predicted: set[str] = set()
        """The audience's questions this phone has predicted (as a watcher)."""
        self.playing = table.game
        """The game this phone's table plays (its states are read through that game's probes)."""
        self.probes = probes(table.game)

    @property
    def host(self) -> bool:
        """Whether this phone's person hosts the table now (the role passes on when a host is away)."""
        return bool(self.view is not None and self.view.me is not None and self.view.me.host)

    async def connect(self) -> None:
        self.ws = await websockets.connect(
            self.soak.target.ws,
            local_addr=(self.table.address, 0),
            ping_interval=None,
            open_timeout=30,
            close_timeout=5,
            max_size=2**22,
            proxy=None,
        )
        self.epoch += 1

    async def join(self) -> None:
        await self.connect()
        await self.ws.send(wire.encode(wire.Join(v=wire.VERSION, code=self.table.code, name=self.name)).decode())
        while self.token is None:
            self.take(await asyncio.wait_for(self.ws.recv(), 30))

    async def live(self) -> None:
        """Read, answer, and come back whenever the connection goes (until the soak is done)."""
        soak = self.soak
        while not soak.done:
            try:
                async for raw in self.ws:
                    self.take(raw)
            except websockets.ConnectionClosed:
                pass
            except Exception as exc:  # a bug here must show, not hang the soak
                soak.error(f"phone:{type(exc).__name__}", f"{self.name}: {exc!r}")
            if soak.done:
                return
            if not self.cut and not soak.restarting:
                soak.error("closed", f"{self.name}: the server closed the connection ({self.ws.close_code})")
            await self.come_back()

    async def come_back(self) -> None:
        soak = self.soak
        await asyncio.sleep(soak.rng.uniform(0.5, 3.0) if self.cut else 0.2)
        self.cut = False
        deadline = time.monotonic() + 300
        while not soak.done:
            try:
                await self.connect()
                await self.ws.send(
                    wire.encode(wire.Hello(v=wire.VERSION, code=self.table.code, token=self.token)).decode()
                )
                soak.reconnects += 1
                return
            except (OSError, websockets.WebSocketException, TimeoutError):
                if time.monotonic() > deadline:
                    soak.error("no-way-back", f"{self.name} could not reconnect in 300 s")
                    return
                await asyncio.sleep(0.25 + soak.rng.random() * 0.25)

    async def drops(self) -> None:
        """Now and then, the phone's connection is cut (a phone leaving the Wi-Fi, say)."""
        soak = self.soak
        while soak.options.drop_every > 0 and not soak.done:
            await asyncio.sleep(soak.rng.expovariate(1 / soak.options.drop_every))
            if soak.playing and not soak.restarting and self.ws is not None and not self.cut:
                self.cut = True
                soak.drops += 1
                self.ws.transport.abort()

    # --- what comes in ---------------------------------------------------------------------------

    def take(self, raw: str | bytes) -> None:
        soak = self.soak
        soak.frames += 1
        message = _decode(raw)
        if message.type == "state" and message.table is not None:
            if soak.rng.random() < soak.check_fraction:
                for problem in view_problems(json.loads(raw)["table"]):
                    soak.error("invariant", f"{self.name}: {problem}")
            self.state(message.table)
        elif message.type == "welcome":
            if message.token is not None:
                self.token, self.person = message.token, message.person
            elif message.person != self.person:
                soak.error("lost-seat", f"{self.name} came back as {message.person}, not {self.person}")
        elif message.type == "error":
            code = str(json.loads(raw).get("code"))
            if code in REFUSED_CHOICE:
                self.sent = None
            if code in LATE:
                soak.benign[code] = soak.benign.get(code, 0) + 1
            elif code in BENIGN:
                soak.benign[code] = soak.benign.get(code, 0) + 1
                if self.host:
                    self.started -= 1  # try again at the next state
            else:
                soak.error(code, f"{self.name}: {json.loads(raw).get('message')}")
        elif message.type == "replaced":
            soak.error("replaced", f"{self.name} was replaced")

    def state(self, view: _View) -> None:
        self.view = view
        table = self.table
        if view.game and view.game != table.now:  # (the first state, or the table switched games)
            self.soak.switches += bool(table.now)
            table.now = view.game
        if view.game and view.game != self.playing:
            self.playing, self.probes = view.game, probes(view.game)
        game: dict[str, Any] | None = msgspec.json.decode(view.state)
        me = view.me
        if game is not None and isinstance(game.get("seat"), int):
            self.seats[view.game_number] = game["seat"]
        table.phase = view.phase
        self.confirm(view, game)
        if view.phase == "results" and game is not None and game.get("scores") is not None:
            table.scores.setdefault(view.game_number, list(game["scores"]))
        if me is not None:
            self.watch(msgspec.json.decode(me.audience))
        if view.paused is not None:
            self.held(view)
            return  # (a choice waits for the game to go on)
        if view.phase == "playing" and game is not None and me is not None and me.moves and me.choice is None:
            if self.quiet(view):
                return
            key = (view.game_number, *self.probes.decision(game))
            if key in self.taken and self.sent is None:
                self.soak.error(
                    "choice-forgotten",
                    f"{self.name}: the server showed {self.taken[key]} taken at "
                    f"{key}, then no choice there (decision {view.decision})",
                )
            if self.answered.get(key, ("", -1))[1] != self.epoch and self.soak.playing:
                move = self.probes.honest_move(game, me.moves, self.soak.rng, False)
                self.answered[key] = (move, self.epoch)
                self.soak.later(self.soak.think(), self.choose, key, view.decision, move)
        elif self.host and view.phase in ("lobby", "results"):
            counting, self.counting = self.counting, view.countdown is not None
            if self.started > view.game_number and view.countdown is None and (counting or self.start_stalled()):
                self.started = view.game_number  # the countdown was cancelled (too few were there at its end)
            if self.started > view.game_number:
                return
            ready = view.phase == "results" or len(view.people) >= self.table.players
            if ready and self.plays_on(view):
                if view.phase == "results" and self.switch(view):
                    return  # (the new game's lobby comes next: then the start)
                self.started = view.game_number + 1
                self.start_sent, self.start_epoch = time.monotonic(), self.epoch
                self.soak.later(0.5, self.send, wire.encode(wire.Start()).decode())

    def plays_on(self, view: _View) -> bool:
        """Whether the table goes on to another game: always while the time runs.  Once it is up, a table that has
        finished no game plays one, a table switched to its next game plays it, and while the soak has met no switch
        a table between games switches (so that a soak that switches meets one, however slow the machine)."""
        soak, table = self.soak, self.table
        return not soak.draining or not table.scores or view.phase == "lobby" or soak.wants_switch()

    def switch(self, view: _View) -> bool:
        """The host, at the results: the table switches to its next game (asked again if the new game's lobby did
        not come within ``START_AGAIN_AFTER`` seconds: a drop lost the message); False if it stays at this one."""
        table = self.table
        after = table.next_game()
        if after == view.game:
            return False
        number, at, sent_on = table.switch_asked
        asked = number == view.game_number and (sent_on[0] != self.index or sent_on[1] == self.epoch)
        if not asked or time.monotonic() - at > START_AGAIN_AFTER:
            table.switch_asked = (view.game_number, time.monotonic(), (self.index, self.epoch))
            self.soak.later(0.5, self.send, wire.encode(wire.ChangeSettings(game=after)).decode())
        return True

    def quiet(self, view: _View) -> bool:
        """Whether this phone lets the decision open in ``view`` pass in silence, as every phone at its table does.
        In ``--quiet`` of the games of a simultaneous game the table wants a hold: from one of its first decisions
        on, its phones keep silent through one decision at a time until the table holds one (a silent decision
        passes without a hold when every phone inside is gone at its deadline: a drop, the restart)."""
        table, soak = self.table, self.soak
        key = (view.game_number, view.decision)
        if table.quiet_drawn < view.game_number:
            table.quiet_drawn = view.game_number
            table.wants_hold = find_manifest(view.game).simultaneous and soak.rng.random() < soak.options.quiet
            table.quiet_from = view.decision + soak.rng.randrange(4)
        if (
            table.wants_hold
            and soak.playing
            and (not soak.draining or soak.holds == 0)  # (a soak that wants holds meets one, however slow)
            and not soak.restarting
            and view.decision >= table.quiet_from
            and (table.quiet_at is None or table.quiet_at < key)
        ):
            table.quiet_at = key
            soak.quiet += 1
        return table.quiet_at == key

    def held(self, view: _View) -> None:
        """A paused table: a decision held because nobody answered it is counted, and the host's phone lifts the
        hold after a moment (again after a reconnection, if its ``resume`` was lost with the connection)."""
        if view.paused is None or not view.paused.silent:
            return
        table, key = self.table, (view.game_number, view.decision)
        if key not in table.holds:
            table.holds.add(key)
            self.soak.holds += 1
        if table.quiet_at == key:
            table.quiet_at, table.wants_hold = None, False  # (the phones answer it once it goes on)
        if self.host and self.resumed != (*key, self.epoch):
            self.resumed = (*key, self.epoch)
            self.soak.later(self.soak.think(), self.send, wire.encode(wire.Resume()).decode())

    def start_stalled(self) -> bool:
        """Whether the start this host asked for is long enough ago that its countdown is over (for a host
        that did not see the countdown end): the table, still between games, cancelled it (too few players
        were connected at its end; every phone was told).  A host then starts again, as a person would; and at
        once if it asked on a connection since cut (the start may have gone with it: a state between games on
        the new one says it did)."""
        return time.monotonic() - self.start_sent > START_AGAIN_AFTER or self.start_epoch != self.epoch

    def confirm(self, view: _View, game: dict[str, Any] | None) -> None:
        """Whether the choice in flight shows as taken: in ``me.choice``, or in the view right after it (a
        reveal, a tile on the board: what the game's probes read there)."""
        if self.sent is None:
            return
        key, decision, move, at, epoch, since = self.sent
        me = view.me
        taken = None
        if view.decision == decision and me is not None and me.choice is not None:
            taken = me.choice
        elif view.decision == decision + 1 and game is not None:
            seat = self.seats.get(key[0])
            taken = self.probes.taken(game, seat) if seat is not None else None
        if taken is None and view.decision <= decision:
            return
        self.sent = None
        if taken is None:
            return  # the phone missed the moment (it was away): nothing to check
        if taken != move:
            seat = self.seats.get(key[0])
            if epoch != self.epoch and taken in self.sent_moves.get(key, ()):
                self.soak.benign["sent-before-a-drop"] = self.soak.benign.get("sent-before-a-drop", 0) + 1
            elif view.decision > decision and _played_for(view, seat, since):
                self.soak.benign["played-for"] = self.soak.benign.get("played-for", 0) + 1
            else:
                self.soak.error("wrong-choice", f"{self.name} chose {move} and was shown {taken}")
        self.taken[key] = taken
        if epoch == self.epoch:
            self.soak.latency.append(time.monotonic() - at)

    def watch(self, audience: dict[str, Any] | None) -> None:
        """A watcher's phone predicts each question open to it, once, after a moment's thought (a random call
        of every part the question asks); its points are counted at the end."""
        if not audience:
            return
        self.soak.points[self.name] = int(audience.get("score") or 0)
        asked = audience.get("open")
        if not isinstance(asked, dict) or asked.get("key") in self.predicted or not self.soak.playing:
            return
        key = str(asked["key"])
        self.predicted.add(key)
        rng = self.soak.rng
        call: dict[str, Any] = {}
        if asked.get("out"):
            call["out"] = sorted(rng.sample(asked["out"], rng.randint(0, min(2, len(asked["out"])))))
        if asked.get("collapse"):
            call["collapse"] = rng.random() < 0.2
        if asked.get("leader"):
            call["leader"] = rng.choice(asked["leader"])
        if call.get("out") == [] and len(call) == 1:
            return
        self.soak.predictions += 1
        kind = "leader" if "leader" in call else "cave"
        self.soak.predicted[kind] = self.soak.predicted.get(kind, 0) + 1
        self.soak.later(self.soak.think(), self.send, wire.encode(wire.Predict(key=key, **call)).decode())

    # --- what goes out ---------------------------------------------------------------------------

    def choose(self, key: Key, decision: int, move: str) -> None:
        view = self.view
        if view is None or view.decision != decision or view.me is None or view.me.choice is not None:
            return  # the moment passed (a reveal, a drop) while thinking
        since = max((notice.id for notice in (*view.news, *view.me.news)), default=0)
        self.sent = (key, decision, move, time.monotonic(), self.epoch, since)
        self.sent_moves.setdefault(key, set()).add(move)
        self.send(wire.encode(wire.Choose(move=move, decision=decision)).decode())

    def send(self, text: str) -> None:
        if self.ws is None or self.soak.done:
            return
        self.soak.messages += 1
        self.soak.spawn(self.ws.send(text))


def _played_for(view: _View, seat: int | None, since: int) -> bool:
    """Whether the table says it played ``seat``'s turn for it (a notice newer than notice ``since``)."""
    notices = (*view.news, *(view.me.news if view.me is not None else ()))
    return seat is not None and any(
        notice.id > since and notice.kind in PLAYED_FOR and (notice.seat == seat or seat in notice.seats)
        for notice in notices
    )


# --- the soak --------------------------------------------------------------------------------------


class Soak:
    def __init__(self, options: SoakOptions, target: Target, server: SoakServer | None) -> None:
        self.options = options
        self.target = target
        self.server = server
        self.rng = random.Random(options.seed)
        fraction = options.check_fraction
        self.check_fraction = fraction if fraction is not None else (1.0 if options.tables <= 100 else 0.2)
        self.games = list(options.games) or server_games(target)
        if not self.games:
            raise RuntimeError("the server hosts no game this process has the probes of")
        self.tables = [self.table(i) for i in range(options.tables)]
        self.playing = self.draining = self.done = self.restarting = False
        self.messages = self.frames = self.reconnects = self.drops = self.errors = 0
        self.switches = self.quiet = self.holds = 0
        self.error_codes: dict[str, int] = {}
        self.benign: dict[str, int] = {}
        self.predictions = 0
        self.predicted: dict[str, int] = {}
        """Predictions sent by question: ``cave`` (who walks out, a collapse), ``leader`` (who leads the count)."""
        self.late_arrivals = 0
        """Phones that came while their table's first game was under way (``TableRun.late``)."""
        """Predictions the watchers' phones sent (``table/audience.py``)."""
        self.points: dict[str, int] = {}
        """Each watcher's points for the night, as its phone was last shown them."""
        self.problems: list[str] = []
        self.latency: list[float] = []
        self.memory: list[tuple[float, int]] = []
        self.restart_seconds: float | None = None
        self.restart_at: float | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    def error(self, code: str, detail: str) -> None:
        self.errors += 1
        self.error_codes[code] = self.error_codes.get(code, 0) + 1
        if len(self.problems) < 100:
            self.problems.append(detail)

    def table(self, index: int) -> TableRun:
        """Table ``index``: the games in turn, each table starting at the next; with as many phones as its first
        game takes (within ``--players``), and at least as many as every game it switches to needs."""
        first = index % len(self.games)
        games = self.games[first:] + self.games[:first] if self.options.switch else [self.games[first]]
        kinds = [find_manifest(game).game for game in games]
        least = max(kind.min_seats for kind in kinds)
        players = min(max(self.rng.randint(*self.options.players), least), max(least, kinds[0].max_seats))
        return TableRun(index, loopback(ADDRESS_BASE, index), players, games[0], games)

    def think(self) -> float:
        return self.rng.uniform(*self.options.think)

    def wants_switch(self) -> bool:
        """Whether the tables switch games and the soak has not met a switch yet."""
        return self.options.switch and len(self.games) > 1 and self.switches == 0

    def later(self, delay: float, call: Any, *args: Any) -> None:
        asyncio.get_running_loop().call_later(delay, call, *args)

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        # A send on a connection that was just cut fails: the phone comes back and answers again.
        if not task.cancelled() and task.exception() is not None:
            task.exception()

    # --- the run -------------------------------------------------------------------------------

    async def run(self, say: Any) -> None:
        await self.setup()
        # Thousands of long-lived objects: keep the collector from walking them again and again (its pauses
        # would show as latency that is the load generator's, not the server's).
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 50, 1000)
        say(
            f"soak: {len(self.tables)} tables ({', '.join(self.games)}), {sum(t.players for t in self.tables)} "
            "phones seated; playing"
        )
        self.memory.append((time.monotonic(), self.rss()))
        started = time.monotonic()
        length = self.options.minutes * 60
        self.playing = True
        workers = [asyncio.ensure_future(phone.live()) for t in self.tables for phone in t.phones]
        workers += [asyncio.ensure_future(phone.drops()) for t in self.tables for phone in t.phones]
        workers += [asyncio.ensure_future(self.arrive(t)) for t in self.tables if t.late is not None]
        watcher = asyncio.ensure_future(self.watch(started, say))
        try:
            if self.server is not None and self.options.restart != "none":
                await asyncio.sleep(length / 2)
                await self.restart(say)
                await asyncio.sleep(max(0.0, started + length - time.monotonic()))
            else:
                await asyncio.sleep(length)
            self.draining = True
            say(
                "soak: time is up; the games under way finish, a table that has finished none plays one, and one "
                "switches games if none has"
            )
            until = time.monotonic() + self.options.drain
            while time.monotonic() < until and (
                any(t.phase != "results" or not t.scores for t in self.tables) or self.wants_switch()
            ):
                await asyncio.sleep(0.5)
        finally:
            self.playing = False
            self.memory.append((time.monotonic(), self.rss()))
            self.done = True
            watcher.cancel()
            for task in workers:
                task.cancel()
            await self.close()
            gc.unfreeze()

    async def setup(self) -> None:
        gate = asyncio.Semaphore(32)

        async def seat(table: TableRun) -> None:
            async with gate:
                table.code = await asyncio.to_thread(
                    self.target.create_table,
                    table.address,
                    table.game,
                    seconds=self.options.seconds,
                    pause=self.options.pause,
                )
                table.phones = [Phone(self, table, i) for i in range(table.players)]
                if table.players >= 3 and find_manifest(table.game).simultaneous:
                    table.late = table.phones.pop()  # (it comes when the game is under way: ``arrive``)
                    table.players -= 1
                for phone in table.phones:
                    await phone.join()

        await asyncio.gather(*(seat(t) for t in self.tables))

    async def arrive(self, table: TableRun) -> None:
        """The table's late phone joins once its first game is under way, and lives as the others do."""
        phone = table.late
        assert phone is not None
        while table.phase == "lobby" and not self.done:
            await asyncio.sleep(0.05)
        if self.done:
            return
        await phone.join()
        table.phones.append(phone)
        table.players += 1
        self.late_arrivals += 1
        await asyncio.gather(phone.live(), phone.drops())

    async def restart(self, say: Any) -> None:
        assert self.server is not None
        self.memory.append((time.monotonic(), self.rss()))
        say(f"soak: {'killing' if self.options.restart == 'kill' else 'stopping'} the server mid-game")
        self.restarting = True
        self.restart_at = time.monotonic()
        try:
            await asyncio.to_thread(self.server.stop, self.options.restart)
            self.restart_seconds = round(await asyncio.to_thread(self.server.start) + 0.0, 2)
        finally:
            await asyncio.sleep(3.0)  # the phones notice, and come back
            self.restarting = False
        self.memory.append((time.monotonic(), self.rss()))
        say(f"soak: the server is back after {self.restart_seconds} s")

    async def watch(self, started: float, say: Any) -> None:
        while True:
            await asyncio.sleep(5)
            self.memory.append((time.monotonic(), self.rss()))
            games = sum(len(t.scores) for t in self.tables)
            say(
                f"soak: {time.monotonic() - started:5.0f} s, {games} games, {self.errors} errors, "
                f"server {self.memory[-1][1] / 1024:.0f} MiB"
            )

    def rss(self) -> int:
        pid = self.server.pid if self.server is not None else None
        return (proc.rss_kib(pid) or 0) if pid else 0

    async def close(self) -> None:
        for table in self.tables:
            for phone in table.phones:
                if phone.ws is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(phone.ws.close(), 2)
        for task in list(self._tasks):
            task.cancel()

    # --- the checks ----------------------------------------------------------------------------

    def verify(self) -> dict[str, Any]:
        """Every finished game against its record, every table against its log; returns the tallies, in all and
        per game (``by_game``)."""
        target = self.target
        views = asyncio.run(spectate(target, [t.code for t in self.tables], base=ADDRESS_BASE + 40))
        by_game = {
            game: {"tables": 0, "phones": 0, "games": 0, "lost_gems": 0, "wrong_moves": 0, "choices_checked": 0}
            for game in self.games
        }
        for table in self.tables:
            view = views.get(table.code)
            if view is None:
                self.error("no-table", f"table {table.code} is gone")
                continue
            played: set[str] = set()
            for number in view.get("results", []):
                status, record = target.json(f"/api/tables/{table.code}/games/{number}", source=table.address)
                if status != 200:
                    self.error("no-record", f"{table.code} game {number}: HTTP {status}")
                    continue
                tally = by_game.setdefault(
                    str(record.get("game")),
                    {"tables": 0, "phones": 0, "games": 0, "lost_gems": 0, "wrong_moves": 0, "choices_checked": 0},
                )
                if record.get("game") not in played:
                    played.add(str(record.get("game")))
                    tally["tables"] += 1
                    tally["phones"] += len(table.phones)
                tally["games"] += 1
                problems, missing = record_problems(record, table.scores.get(number))
                tally["lost_gems"] += missing
                for problem in problems:
                    self.error("record", f"{table.code} game {number}: {problem}")
                held = moves_by_decision(record)
                for phone in table.phones:
                    seat = phone.seats.get(number)
                    for (game, *decision), move in phone.taken.items():
                        if game != number:
                            continue
                        tally["choices_checked"] += 1
                        if seat is None or held.get(seat, {}).get(tuple(decision)) != move:
                            tally["wrong_moves"] += 1
                            self.error(
                                "wrong-move",
                                f"{table.code} game {number} ({record.get('game')}): {phone.name} chose {move} at "
                                f"decision {decision}; the record says otherwise",
                            )
        if self.server is not None:
            for code in unlike_their_logs(target, self.server.data / "gemtable.sqlite3", views):
                self.error("log", f"{code}: the table the server shows is not the table its log rebuilds")
            log = self.server.log.read_text("utf-8", "replace")
            for line in log_problems(log):
                self.error("server-log", line)
            lapsed = log.count(" lost table ")  # one process, one data folder: it can only lose them to itself
            if lapsed:
                self.error("lease-lost", f"the server lost its own lease on a table {lapsed} times")
        totals = {key: sum(t[key] for t in by_game.values()) for key in ("games", "lost_gems", "wrong_moves")}
        return {**totals, "choices_checked": sum(t["choices_checked"] for t in by_game.values()), "by_game": by_game}


# --- the command ---------------------------------------------------------------------------------


def run_soak(options: SoakOptions, url: str | None = None, say: Any = None) -> dict[str, Any]:
    """Run a soak (see the module documentation); returns the report that ``--json`` prints."""
    say = say or (lambda text: None)
    raise_fd_limit(options.tables * options.players[1] * 3 + 1024)
    server = None if url else SoakServer(options.message_rate, options.keep)
    try:
        if server is not None:
            server.start()
            target = Target("127.0.0.1", server.port)
        else:
            target = Target.parse(url or "")
        soak = Soak(options, target, server)
        started = time.monotonic()
        asyncio.run(soak.run(say))
        seconds = time.monotonic() - started
        say("soak: checking every game against its record and every table against its log")
        tallies = soak.verify()
        cpu = server.cpu() if server is not None else None
        return report(soak, tallies, seconds, cpu, server)
    finally:
        if server is not None:
            server.clean()


def report(
    soak: Soak, tallies: dict[str, Any], seconds: float, cpu: float | None, server: SoakServer | None
) -> dict[str, Any]:
    from gemtable.bench.load import summary_ms

    memory = [kib for _, kib in soak.memory if kib]
    after = [kib for at, kib in soak.memory if kib and soak.restart_at is not None and at > soak.restart_at]
    span = [(at, kib) for at, kib in soak.memory if kib and (soak.restart_at is None or at > soak.restart_at)]
    growth = None
    if len(span) >= 3 and span[-1][0] - span[1][0] > 1:
        growth = round((span[-1][1] - span[1][1]) / 1024 / ((span[-1][0] - span[1][0]) / 60), 2)
    return {
        **tallies,
        "errors": soak.errors,
        "error_codes": soak.error_codes,
        "refusals_expected": soak.benign,
        "tables": len(soak.tables),
        "phones": sum(len(t.phones) for t in soak.tables),
        "seconds": round(seconds, 1),
        "messages": soak.messages,
        "frames": soak.frames,
        "drops": soak.drops,
        "reconnects": soak.reconnects,
        "predictions": soak.predictions,
        "predicted": soak.predicted,
        "late_arrivals": soak.late_arrivals,
        "audience_points": sum(soak.points.values()),
        "switches": soak.switches,
        "quiet": soak.quiet,
        "holds": soak.holds,
        "restart": soak.options.restart if server is not None else "none",
        "restart_seconds": soak.restart_seconds,
        "latency_ms": summary_ms(soak.latency),
        "memory_mb": {
            "start": _mb(memory[0] if memory else None),
            "end": _mb(memory[-1] if memory else None),
            "max": _mb(max(memory) if memory else None),
            "after_restart": _mb(after[0] if after else None),
            "growth_per_minute": growth,
            "samples": [[round(at - soak.memory[0][0]), _mb(kib)] for at, kib in soak.memory],
        },
        "server_cpu_percent": None if cpu is None else round(100 * cpu / seconds, 1),
        "problems": soak.problems[:40],
    }


def _mb(kib: int | None) -> float | None:
    return None if not kib else round(kib / 1024, 1)


def raise_fd_limit(needed: int) -> None:
    """Thousands of sockets, here and in the server (which inherits the limit)."""
    open_files_at_least(needed)


def add_arguments(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``soak`` (and ``fuzz``) to the sub-commands of ``python -m tools``."""
    from tools.fuzz import add_arguments as add_fuzz

    bench = kinds.add_parser(
        "soak",
        help="hours of play in minutes: drops, a server restart, every game checked",
        description="Tables of bot phones play game after game through real WebSockets against one server "
        "process; phones drop and come back; the server is killed half way and started again; then every "
        "finished game is replayed against its record.",
    )
    bench.add_argument("--minutes", type=float, default=1.0, help="how long the tables play (default 1)")
    bench.add_argument("--tables", type=int, default=20, help="tables (default 20)")
    bench.add_argument("--players", default="3-5", help="phones per table, a count or a range (default 3-5)")
    bench.add_argument("--think", default="0.05-0.8", help="seconds a phone thinks, a range (default 0.05-0.8)")
    bench.add_argument(
        "--drop-every",
        type=float,
        default=45.0,
        help="seconds between two drops of one phone, on average (default 45; 0: never)",
    )
    bench.add_argument(
        "--restart",
        choices=("kill", "term", "none"),
        default="kill",
        help="how the server is stopped half way: SIGKILL (default), SIGTERM, or not at all",
    )
    bench.add_argument(
        "--message-rate",
        type=float,
        default=None,
        help="start the server with this per-connection message rate (default: production)",
    )
    bench.add_argument(
        "--check-fraction",
        type=float,
        default=None,
        help="share of the states whose invariants are checked (default 1, or 0.2 beyond 100 tables)",
    )
    bench.add_argument("--url", default=None, help="soak a server already running on a loopback URL (no restart)")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="NAME",
        help="a game the tables play, in turn (repeatable; default: every game the server hosts)",
    )
    bench.add_argument(
        "--seconds",
        type=float,
        default=10.0,
        help="seconds a decision (or a turn) takes at the soak's tables (default 10: a silent decision holds after it)",
    )
    bench.add_argument(
        "--pause", type=float, default=1.0, help="seconds between a game's rounds at the soak's tables (default 1)"
    )
    bench.add_argument(
        "--no-switch", action="store_true", help="each table plays its first game only (default: they switch)"
    )
    bench.add_argument(
        "--quiet",
        type=float,
        default=0.5,
        help="share of the games of a simultaneous game in which a table lets a decision pass in silence, which "
        "the table holds (default 0.5)",
    )
    bench.add_argument("--keep", action="store_true", help="keep the server's data folder and log")
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.set_defaults(run=main)
    add_fuzz(kinds)


def _range(text: str, kind: type[float] | type[int]) -> tuple[Any, Any]:
    low, _, high = text.partition("-")
    return kind(low), kind(high or low)


def main(args: argparse.Namespace) -> int:
    try:
        players = _range(args.players, int)
        think = _range(args.think, float)
        if not 2 <= players[0] <= players[1] <= 8 or args.tables < 1 or args.minutes <= 0:
            raise ValueError("--players 2 to 8, --tables at least 1, --minutes above 0")
        if not 0 <= args.quiet <= 1 or not 1 <= args.seconds <= 120 or not 0.5 <= args.pause <= 60:
            raise ValueError("--quiet 0 to 1, --seconds 1 to 120, --pause 0.5 to 60")
        if args.url:
            Target.parse(args.url)
    except ValueError as exc:
        print(f"python -m tools soak: {exc}", file=sys.stderr)
        return 2
    options = SoakOptions(
        minutes=args.minutes,
        tables=args.tables,
        players=players,
        think=think,
        drop_every=args.drop_every,
        restart="none" if args.url else args.restart,
        message_rate=args.message_rate,
        check_fraction=args.check_fraction,
        seed=args.seed,
        keep=args.keep,
        games=tuple(args.game),
        seconds=args.seconds,
        pause=args.pause,
        switch=not args.no_switch,
        quiet=args.quiet,
    )
    say = (lambda text: print(text, file=sys.stderr, flush=True)) if not args.json or sys.stderr.isatty() else None
    result = run_soak(options, args.url, say)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        memory, latency = result["memory_mb"], result["latency_ms"]
        print(
            f"{result['games']} games at {result['tables']} tables ({result['phones']} phones) in "
            f"{result['seconds']} s: {result['errors']} errors, {result['lost_gems']} gems lost, "
            f"{result['wrong_moves']} wrong moves; {result['switches']} switches of game, {result['quiet']} silent "
            f"decisions, {result['holds']} holds; {result['drops']} drops, {result['reconnects']} reconnects, "
            f"restart ({result['restart']}) {result['restart_seconds']} s; latency p50 {latency['p50']} ms, "
            f"p99 {latency['p99']} ms; server memory {memory['start']} -> {memory['end']} MiB "
            f"(max {memory['max']})"
        )
        for game, tally in result["by_game"].items():
            print(
                f"  {game}: {tally['games']} games at {tally['tables']} tables ({tally['phones']} phones), "
                f"{tally['choices_checked']} choices checked, {tally['wrong_moves']} wrong, {tally['lost_gems']} lost"
            )
        for problem in result["problems"][:20]:
            print(f"  - {problem}")
    ok = result["errors"] == 0 and result["lost_gems"] == 0 and result["games"] > 0
    return 0 if ok else 1
