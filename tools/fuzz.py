"""``python -m tools fuzz``: hostile phones beside honest players, against a live server.

Hypothesis draws what each hostile phone sends, one phone (one WebSocket, from a
loopback address of its own) at a time: valid messages whose values come from
what the run has seen (table codes, seat tokens, decision numbers), the same
messages mutated (a field dropped, added or retyped, the type changed, wrapped,
nested, a key repeated), random JSON, random text, far too large and deeply
nested messages, fragmented messages, binary frames, text frames that are not
UTF-8 (the server closes those with 1007, as RFC 6455 asks), other seats' and
forged tokens, and replays of messages sent earlier by anyone.  Some phones
first create a table of their own and join it as its host, so that host
commands get fuzzed too: a bot seated, the game started, another bot seated in
the middle of it, and now and then the game ended and the table switched to the
next game (``settings`` with ``game``), bots of that game seated, and it started;
the valid messages drawn include ``settings`` with a game (or a name that is
none).  The server runs with its production limits.

Meanwhile, in their own thread, honest players (the Python client) play whole
games at tables where the hostile phones also look on, join and shout: one
honest table of every game the server hosts (and this process knows the probes
of), then round again, each game played through its probes
(``gemtable.games.api.Probes``).  The hostile phones' moves are the games' own
moves and mutations of them; the report counts the honest games per game.

What must hold afterwards (:class:`FuzzReport` lists every breach in ``problems``):

* the server process is alive, ``/healthz`` answers ``ok`` and its log holds no
  traceback and no error line;
* every frame anyone received is a well-formed server message with a known
  type and error code, every close has an allowed code, no hostile phone was
  ever sent a seat token but its own, nor welcomed into an honest seat;
* every ``state`` anyone received keeps the table's invariants and its game's
  (:func:`tools.oracles.view_problems`); every table's event log (read from the
  server's SQLite file) rebuilds into the table the server shows; every finished
  game's record replays to its recorded scores, with nothing of the game (gems,
  tiles) created or lost;
* every honest player finished their games, received no error, played exactly
  the choices they meant (checked against the record), and saw the scores the
  replay gives.

The checks themselves are :mod:`tools.oracles`, which the soak and the security
tests share.  Hypothesis is a test dependency:
``pip install gemtable[test]`` to run this tool (from the repository: it is not installed with gemtable).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import http.client
import json
import random
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import websockets

from gemtable.bots import bot_names
from gemtable.games import default_game, find_manifest
from gemtable.server import protocol as wire
from tools.oracles import (
    log_problems,
    moves_by_decision,
    normal_view,
    playable,
    probes,
    rebuilt_views,
    record_problems,
    view_problems,
)

# --- what must hold ------------------------------------------------------------------------------

SERVER_TYPES = {message.__struct_config__.tag for message in wire.ServerMessage.__args__}
ERROR_CODES = {  # (every code of docs/protocol.md's "Errors", and only those: tests/tools/test_error_codes.py)
    "bad-request",
    "too-many-changes",
    "full",
    "disk-full",
    "not-watching",
    "no-question",
    "locked",
    "bad-prediction",
    "already-predicted",
    "bad-json",
    "bad-message",
    "unknown-type",
    "bad-version",
    "too-large",
    "binary",
    "slow-down",
    "no-table",
    "unknown-token",
    "spectator",
    "already-seated",
    "bad-name",
    "name-taken",
    "not-host",
    "not-your-turn",
    "no-decision",
    "illegal-move",
    "stale",
    "too-few",
    "in-game",
    "no-chair",
    "unknown-bot",
    "no-bot",
    "gone",
    "server-error",
    "unknown-person",
    "idle",
    "no-game",
    "paused",
    "starting",
    "offline",
    "first-host",
    "banned",
    "removed",
    "address-full",
    "bad-settings",
    "not-found",
    "self",
    "is-bot",
    "table-full",
    "busy",
}
"""Every error code a phone may be sent (docs/protocol.md, and ``idle``: no hello in time)."""
CLOSE_CODES = {1000, 1001, 1007, 1008, 1009, 4000, 4003}
"""How the server may close: normally, going away (shutdown), not UTF-8 (RFC 6455), abuse (too
many refusals, or idle without a hello), a frame over the size limit, replaced by a newer phone, banned."""
ROOT = Path(__file__).resolve().parents[1]
"""The repository, where ``python -m tools`` finds this folder."""

T = TypeVar("T")
D = TypeVar("D")


def normal_code(code: str) -> str:
    """As the server reads a table code."""
    return "".join(ch for ch in code.upper() if ch.isalpha())[:4]


def loopback(base: int, index: int) -> str:
    """``127.base.x.y``: a loopback source address of its own for phone (or table) ``index``."""
    high, low = divmod(index, 254)
    return f"127.{base + high // 256}.{high % 256}.{low + 1}"


# --- talking to the server -------------------------------------------------------------------------


@dataclass
class Target:
    """A server on a loopback address."""

    host: str
    port: int

    @classmethod
    def parse(cls, url: str) -> Target:
        match = re.fullmatch(r"(?:https?|wss?)://(127\.\d+\.\d+\.\d+|localhost):(\d+)/?", url.strip())
        if match is None:
            raise ValueError(f"a loopback URL such as http://127.0.0.1:8000, not {url!r}")
        host = "127.0.0.1" if match.group(1) == "localhost" else match.group(1)
        return cls(host, int(match.group(2)))

    @property
    def ws(self) -> str:
        return f"ws://{self.host}:{self.port}/ws"

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        source: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes, dict[str, str]]:
        conn = http.client.HTTPConnection(
            self.host, self.port, timeout=30, source_address=(source, 0) if source else None
        )
        try:
            conn.request(method, path, body, headers or {"Content-Type": "application/json"})
            response = conn.getresponse()
            return response.status, response.read(), {k.lower(): v for k, v in response.getheaders()}
        finally:
            conn.close()

    def json(self, path: str, source: str | None = None) -> tuple[int, Any]:
        status, body, _ = self.request("GET", path, source=source)
        try:
            return status, json.loads(body)
        except ValueError:
            return status, body

    def create_table(self, source: str, game: str | None = None, **settings: Any) -> str:
        """A new table from ``source``; without a start countdown, a reveal's beat, a last call or a ready check
        unless ``settings`` give them (the tools play games, and would wait for them at every start and every
        card); a decision nobody answers is held, as a new table's is."""
        body = json.dumps(
            {
                "game": game or default_game(),
                "countdown": 0,
                "beat": 0,
                "last_call": 0,
                "ready_check": False,
                **settings,
            }
        ).encode()
        status, body, _ = self.request("POST", "/api/tables", body, source=source)
        if status != 201:
            raise RuntimeError(f"creating a table from {source}: HTTP {status} {body[:200]!r}")
        return str(json.loads(body)["code"])

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/healthz", timeout=5) as response:
                return bool(response.status == 200 and response.read() == b"ok")
        except (OSError, urllib.error.URLError):
            return False


async def open_ws(target: Target, source: str, **options: Any) -> Any:
    return await websockets.connect(
        target.ws,
        local_addr=(source, 0),
        ping_interval=None,
        proxy=None,
        max_size=2**22,
        open_timeout=20,
        close_timeout=5,
        **options,
    )


# --- the pool: what the run has seen, for the hostile phones to use ------------------------------


@dataclass
class Pool:
    honest_codes: list[str] = field(default_factory=list)
    honest_tokens: list[str] = field(default_factory=list)
    honest_people: dict[str, set[int]] = field(default_factory=dict)
    """Per table code, the ids of its honest players: no hostile phone may ever be welcomed as one."""
    sandbox_codes: list[str] = field(default_factory=list)
    made_for: dict[str, str] = field(default_factory=dict)
    """The game each table was made for (a table that plays another at the end was switched)."""
    seats: list[tuple[str, str]] = field(default_factory=list)
    """(code, token) of every seat a hostile phone was given."""
    decisions: collections.deque[int] = field(default_factory=lambda: collections.deque([0, 1, 2], maxlen=64))
    questions: collections.deque[str] = field(default_factory=lambda: collections.deque(["1/1.1"], maxlen=64))
    """Keys of the audience's questions seen open (``me.audience.open``): a hostile watcher predicts them,
    late, early and mangled."""
    sent: collections.deque[tuple[str, Any]] = field(default_factory=lambda: collections.deque(maxlen=400))
    """Frames sent so far (by anyone), for replays."""

    def tokens_of(self, code: str) -> list[str]:
        return [token for c, token in self.seats if c == code]


# --- what a hostile phone sends (drawn by Hypothesis) -------------------------------------------


Frame = tuple[str, Any]
"""("text", str), ("binary", bytes), ("raw-text", bytes: a text frame, maybe not UTF-8), ("fragments", [str])."""

JUNK_MOVES = ["", "wait", "null", "0", "-1", "9,9,9", "\u0000", " "]
JUNK_BOTS = ["", "human", "../../etc/passwd", "__proto__", "threshold=", "threshold=-1"]


def game_moves(games: Sequence[str]) -> list[str]:
    """Moves of every game fuzzed, taken from the start of a game of each (no game's words written here), each
    twice, and mutated: in capitals, with a space, with a NUL; then junk."""
    moves: list[str] = []
    for name in games:
        manifest = find_manifest(name)
        state = manifest.game.new(manifest.rules_json(None, {}), manifest.game.seats_per_game, 1)
        if state.needs_roster():
            state.start_round(range(manifest.game.min_seats))
        legal = [move for seat in sorted(state.to_act()) for move in state.legal_moves(seat)][:3]
        moves += [*legal, *legal, *(m.upper() for m in legal), *(m + " " for m in legal)]
        moves += [m + "\u0000" for m in legal]
    return [*dict.fromkeys(moves), *JUNK_MOVES]


def game_bots(games: Sequence[str]) -> list[str]:
    """Every bot of every game fuzzed, one capitalised, then junk."""
    names = list(dict.fromkeys(name for game in games for name in bot_names(game)))
    return [*names, *(name.capitalize() for name in names[:1]), *JUNK_BOTS]


SMUGGLED = ["seat", "person", "player", "token", "chair", "id", "as", "__proto__", "constructor", "me", "host"]


@dataclass
class Plan:
    """One hostile phone: where it connects from, whether it first makes a table, what it sends."""

    address: str
    create: bool
    frames: list[Frame]
    story: list[Frame] = field(default_factory=list)
    """What the host of a table it created sends after joining it (before ``frames``)."""


class Strategies:
    """What the hostile phones send, drawn by Hypothesis (imported lazily: it is a test dependency).

    Hypothesis wants every draw to depend on earlier draws only, never on the outside world, so values
    that come from the run (codes, tokens, decisions, earlier frames) are drawn as an index into the
    pool and looked up after the draw (:func:`_pick`), with a fixed stand-in while the pool is empty."""

    def __init__(self, pool: Pool, games: Sequence[str]) -> None:
        from hypothesis import strategies as st

        self.st = st
        self.pool = pool
        self.games = list(games)
        self.moves = game_moves(games)
        self.bots = game_bots(games)
        self.index = st.integers(0, 1 << 16)
        scalars = (
            st.none()
            | st.booleans()
            | st.integers()
            | st.integers(-(2**80), 2**80)
            | st.floats()
            | st.text(max_size=30)
        )
        self.json_value = st.recursive(
            scalars,
            lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
            max_leaves=12,
        )

    # values --------------------------------------------------------------------------------------

    def code(self, data: Any) -> str:
        st, pool = self.st, self.pool
        pick = data.draw(st.integers(0, 9))
        if pick < 4:
            code = _pick(pool.honest_codes, data.draw(self.index), "ACDE")
        elif pick < 8:
            code = _pick(pool.sandbox_codes, data.draw(self.index), "ACDE")
        elif pick < 9:
            code = data.draw(st.text("ACDEFHJKLMNPQRTUVWXYZ", min_size=4, max_size=4))
        else:
            return str(data.draw(st.text(max_size=12)))
        variant = data.draw(st.integers(0, 5))
        return str([code, code, code, code.lower(), f" {code[:2]}-{code[2:]} ", code + "Q"][variant])

    def token(self, data: Any, code: str) -> str | None:
        st, pool = self.st, self.pool
        pick = data.draw(st.integers(0, 9))
        if pick < 3:
            return None
        if pick < 6:
            return _pick(pool.tokens_of(normal_code(code)), data.draw(self.index), "not-a-seat-yet")
        if pick < 7:
            return _pick([token for _, token in pool.seats], data.draw(self.index), "not-a-seat-yet")
        if pick < 9:
            return self.forged(data)
        return str(data.draw(st.text(max_size=40)))

    def forged(self, data: Any) -> str:
        """An honest player's token, a little wrong (the hostile phones never hold a real one)."""
        st = self.st
        token = _pick(self.pool.honest_tokens, data.draw(self.index), "A" * 32)
        at = data.draw(st.integers(0, 31)) % len(token)
        forged = [
            token[:at] + ("A" if token[at] != "A" else "B") + token[at + 1 :],
            token[:-1],
            token + "=",
            f" {token}",
            token[::-1],
            token.encode().hex(),
            token.swapcase(),
        ]
        choice = forged[data.draw(st.integers(0, len(forged) - 1))]
        return choice if choice != token else token + "x"

    def decision(self, data: Any) -> Any:
        st = self.st
        if data.draw(st.integers(0, 5)) < 4:
            return _pick(list(self.pool.decisions), data.draw(self.index), 1) + data.draw(st.integers(-2, 2))
        return data.draw(st.integers(-(2**63), 2**63) | st.integers(-(2**70), 2**70))

    def name(self, data: Any) -> str:
        st = self.st
        if data.draw(st.booleans()):
            return "Fz" + str(data.draw(st.text("abcdefghijklmnopqrstuvwxyz0123456789", max_size=8)))
        return str(data.draw(st.text(max_size=40)))

    def valid(self, data: Any) -> dict[str, Any]:
        st = self.st
        kind = data.draw(
            st.sampled_from(
                [
                    "hello",
                    "join",
                    "choose",
                    "choose",
                    "choose",
                    "predict",
                    "predict",
                    "start",
                    "leave",
                    "add_bot",
                    "remove_bot",
                    "ready",
                    "resume",
                    "extra_time",
                    "settings",
                    "ping",
                    "sync",
                ]
            )
        )
        msg: dict[str, Any] = {"type": kind}
        if data.draw(st.booleans()):
            msg["v"] = data.draw(st.sampled_from([1, 2]))
        if kind == "hello":
            msg["code"] = self.code(data)
            token = self.token(data, msg["code"])
            if token is not None or data.draw(st.booleans()):
                msg["token"] = token
            if data.draw(st.booleans()):
                msg["tv"] = data.draw(st.booleans())
        elif kind == "join":
            msg["code"] = self.code(data)
            msg["name"] = self.name(data)
        elif kind == "choose":
            msg["move"] = data.draw(st.sampled_from(self.moves))
            if data.draw(st.booleans()):
                msg["decision"] = self.decision(data)
        elif kind == "predict":  # (a watcher, a player, anyone: the table says who may, and what is one)
            key = _pick(list(self.pool.questions), data.draw(self.index), "1/1.1")
            msg["key"] = data.draw(st.sampled_from([key, key, key, key + "x", key.split("/")[0], ""]))
            if data.draw(st.booleans()):
                msg["out"] = data.draw(st.lists(st.integers(-1, 9), max_size=10))
            if data.draw(st.booleans()):
                msg["collapse"] = data.draw(st.booleans())
            if data.draw(st.integers(0, 3)) == 0:
                msg["leader"] = data.draw(st.integers(-1, 3))
        elif kind == "add_bot":
            msg["bot"] = data.draw(st.sampled_from(self.bots))
        elif kind == "remove_bot":
            msg["chair"] = data.draw(st.integers(-2, 9))
        elif kind == "ready":
            msg["ready"] = data.draw(st.booleans())
        elif kind == "extra_time":  # (anyone, a person or not, any factor: the table says who may and what is one)
            msg["person"] = data.draw(st.integers(-1, 9))
            msg["factor"] = data.draw(st.sampled_from([0, 1, 2, 3, 4]))
        elif kind == "settings":  # (the night's switches: a held silent decision, the ready check; another game)
            setting = data.draw(st.sampled_from(["hold_silent", "ready_check", "game"]))
            if setting == "game":
                msg["game"] = data.draw(st.sampled_from([*self.games, "", "chess", self.games[0].upper()]))
            else:
                msg[setting] = data.draw(st.booleans())
        return msg

    # frames --------------------------------------------------------------------------------------

    def frame(self, data: Any) -> Frame:
        st = self.st
        pick = data.draw(st.integers(0, 99))
        if pick < 35:
            return ("text", json.dumps(self.valid(data)))
        if pick < 60:
            return self.mutated(data)
        if pick < 68:
            return ("text", json.dumps(data.draw(self.json_value)))
        if pick < 72:
            return ("text", str(data.draw(st.text(max_size=60))))
        if pick < 82:
            return _pick(list(self.pool.sent), data.draw(self.index), ("text", '{"type":"start"}'))
        if pick < 86:
            return self.huge(data)
        if pick < 89:
            return self.deep(data)
        if pick < 93:
            return ("binary", data.draw(st.binary(max_size=64) | st.just(json.dumps(self.valid(data)).encode())))
        if pick < 96:
            text = json.dumps(self.valid(data))
            cuts = sorted(len(text) * cut // 1000 for cut in data.draw(st.lists(st.integers(0, 1000), max_size=4)))
            return ("fragments", [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)])
        if pick < 99 or data.draw(st.booleans()):  # a frame that is not UTF-8 ends the phone: rarely
            return ("text", '{"type":"join","code":"' + self.code(data) + '","name":"\\ud800x"}')
        junk = data.draw(st.sampled_from([b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"]))
        return ("raw-text", b'{"type":"ping","x":"' + junk + b'"}')

    def mutated(self, data: Any) -> Frame:
        st = self.st
        msg: Any = self.valid(data)
        for _ in range(data.draw(st.integers(1, 3))):
            op = data.draw(st.integers(0, 8))
            keys = list(msg) if isinstance(msg, dict) else []
            if op == 0 and keys:
                msg.pop(data.draw(st.sampled_from(keys)))
            elif op == 1 and isinstance(msg, dict):
                key = data.draw(st.sampled_from(SMUGGLED) | st.text(max_size=10))
                msg[key] = (
                    data.draw(st.integers(0, 9) | self.json_value) if data.draw(st.booleans()) else self.forged(data)
                )
            elif op == 2 and keys:
                msg[data.draw(st.sampled_from(keys))] = data.draw(self.json_value)
            elif op == 3 and isinstance(msg, dict):
                msg["type"] = data.draw(
                    st.sampled_from(
                        ["Choose", "CHOOSE", "choose ", "state", "welcome", "error", "", None, 1, ["choose"]]
                    )
                    | st.text(max_size=12)
                )
            elif op == 4 and isinstance(msg, dict):
                msg["v"] = data.draw(st.sampled_from([0, 2, -1, "1", 1.0, True, None, 2**64]))
            elif op == 5:
                msg = [msg]
            elif op == 6:
                msg = {"type": "choose", "move": msg}
            elif op == 7 and isinstance(msg, dict) and keys:
                key = data.draw(st.sampled_from(keys))
                text = json.dumps(msg)
                return ("text", text[:-1] + f", {json.dumps(key)}: {json.dumps(data.draw(self.json_value))}}}")
            elif op == 8:
                return ("text", json.dumps(msg) + data.draw(st.sampled_from([" ", "}", "x", "\n{}", ",", "\u0000"])))
        return ("text", json.dumps(msg, ensure_ascii=data.draw(self.st.booleans())))

    def huge(self, data: Any) -> Frame:
        size = data.draw(self.st.sampled_from([4000, 4096, 4097, 8000, 15000, 65537]))
        msg = self.valid(data)
        key = data.draw(self.st.sampled_from(["name", "code", "token", "move", "padding"]))
        msg[key] = data.draw(self.st.sampled_from(["x", "x", "é", "\u20ac", "\U0001f48e"])) * size
        return ("text", json.dumps(msg, ensure_ascii=False))

    def deep(self, data: Any) -> Frame:
        depth = data.draw(self.st.sampled_from([64, 200, 1000, 1300, 2047, 5000, 20000]))
        if data.draw(self.st.booleans()):
            return ("text", "[" * depth + "]" * depth)
        return ("text", '{"type":"join","code":"ABCD","name":' + '{"a":' * depth + "1" + "}" * depth + "}")

    def story(self, data: Any) -> list[Frame]:
        """A created table's night, as its host plays it (``default_game()``'s table): a bot seated, the game
        started, a bot seated mid-game (in a game of rounds it walks in at the next), the game ended, the table
        switched to the next game, two of its bots seated, a game of it started, the last bot taken out of its
        chair and another seated there mid-game (where seats are chairs, it plays on with the seat at once); and
        now and then that game ended too (its record checked), or it plays on under what the phone sends next."""
        first = default_game() if default_game() in self.games else self.games[0]
        other = self.games[(self.games.index(first) + 1) % len(self.games)]

        def bot(game: str) -> Frame:
            return ("text", json.dumps({"type": "add_bot", "bot": bot_names(game)[0]}))

        start, end = ("text", '{"type":"start"}'), ("text", '{"type":"end"}')
        frames = [bot(first), start, bot(first), end, ("text", json.dumps({"type": "settings", "game": other}))]
        frames += [bot(other), bot(other), start, ("text", '{"type":"remove_bot","chair":2}'), bot(other)]
        return [*frames, end] if data.draw(self.st.booleans()) else frames

    def plan(self, data: Any, address: str) -> Plan:
        st = self.st
        create = data.draw(st.integers(0, 9)) == 0
        story = self.story(data) if create else []
        frames: list[Frame] = []
        setup = data.draw(st.integers(0, 4))
        if setup == 1:
            hello = {"type": "hello", "code": self.code(data), "tv": data.draw(st.booleans())}
            frames.append(("text", json.dumps(hello)))
        elif setup == 2:
            frames.append(("text", json.dumps({"type": "join", "code": self.code(data), "name": self.name(data)})))
        elif setup == 3:
            seat = _pick(self.pool.seats, data.draw(self.index), None)
            if seat is not None:
                frames.append(("text", json.dumps({"type": "hello", "code": seat[0], "token": seat[1]})))
        count = data.draw(st.integers(1, 40))
        frames += [self.frame(data) for _ in range(count)]
        return Plan(address, create, frames, story)


def _pick(items: Sequence[T], index: int, default: D) -> T | D:
    return items[index % len(items)] if items else default


# --- one hostile phone -------------------------------------------------------------------------------


@dataclass
class FuzzStats:
    messages: int = 0
    phones: int = 0
    frames_received: int = 0
    closes: collections.Counter[int] = field(default_factory=collections.Counter)
    errors: collections.Counter[str] = field(default_factory=collections.Counter)
    tables_created: int = 0
    switched: int = 0
    problems: list[str] = field(default_factory=list)

    def problem(self, text: str) -> None:
        if len(self.problems) < 200:
            self.problems.append(text)


async def hostile_phone(target: Target, plan: Plan, pool: Pool, stats: FuzzStats) -> None:
    """Send one plan from one connection; check every frame that comes back."""
    frames = list(plan.frames)
    if plan.create:
        try:
            code = await asyncio.to_thread(target.create_table, plan.address, seconds=2, pause=0.5)
        except RuntimeError as exc:
            if "429" not in str(exc):
                stats.problem(str(exc))
        else:
            stats.tables_created += 1
            pool.sandbox_codes.append(code)
            pool.made_for[code] = default_game()
            frames[:0] = [("text", json.dumps({"type": "join", "code": code, "name": "Boss"})), *plan.story]
    try:
        ws = await open_ws(target, plan.address, compression=None)
    except (OSError, websockets.InvalidStatus, TimeoutError) as exc:
        stats.problem(f"could not connect from {plan.address}: {exc!r}")
        return
    stats.phones += 1
    phone = _Phone(pool, stats, plan)
    reader = asyncio.ensure_future(phone.read(ws))
    try:
        await _talk(ws, frames, phone, reader, pool, stats)
    finally:
        if not reader.done():
            reader.cancel()
        ws.transport.abort()


async def _talk(
    ws: Any, frames: list[Frame], phone: _Phone, reader: asyncio.Future[None], pool: Pool, stats: FuzzStats
) -> None:
    sent_bad_utf8 = False
    try:
        for frame in frames:
            if reader.done():
                break
            phone.note_sent(frame)
            stats.messages += 1
            sent_bad_utf8 |= frame[0] == "raw-text"
            await _send(ws, frame)
            if _fatal(frame):
                await asyncio.wait([reader], timeout=10)  # the server closes the connection: wait for it
                if not reader.done():
                    stats.problem(f"a phone that sent {frame[0]} of {_size(frame)} bytes was not closed")
                break
            pool.sent.append(frame)
        if not reader.done():
            await ws.send('{"type":"ping"}')
            pong: asyncio.Future[Any] = asyncio.ensure_future(phone.ponged.wait())
            await asyncio.wait([pong, reader], timeout=10, return_when=asyncio.FIRST_COMPLETED)
            pong.cancel()
            if not phone.ponged.is_set() and not reader.done():
                kinds = [f[0] + ":" + str(f[1])[:60] for f in frames][-6:]
                stats.problem(f"no pong from the server within 10 s (phone {phone.plan.address}, last sent {kinds})")
    except websockets.ConnectionClosed:
        pass
    closed_by_server = reader.done()
    await ws.close()
    await asyncio.wait_for(reader, 10)
    if closed_by_server:
        close = int(ws.close_code) if ws.close_code is not None else 1006
        stats.closes[close] += 1
        if close not in CLOSE_CODES:
            stats.problem(f"the server closed a phone with code {close} ({ws.close_reason!r})")
        if close == 1007 and not sent_bad_utf8:
            stats.problem("closed as not UTF-8 without having been sent anything but UTF-8")


MAX_FRAME = 64 * 1024
"""The server's frame limit (``gemtable.server.run.MAX_FRAME``): a bigger frame closes the connection."""


def _size(frame: Frame) -> int:
    kind, payload = frame
    if kind == "fragments":
        return sum(len(part.encode("utf-8", "surrogatepass")) for part in payload)
    return len(payload.encode("utf-8", "surrogatepass") if isinstance(payload, str) else payload)


def _fatal(frame: Frame) -> bool:
    """Whether the server must close the connection on this frame (not UTF-8, or over the frame limit)."""
    return frame[0] == "raw-text" or (frame[0] != "fragments" and _size(frame) > MAX_FRAME)


async def _send(ws: Any, frame: Frame) -> None:
    kind, payload = frame
    if kind == "text":
        try:
            await ws.send(payload)
        except UnicodeEncodeError:
            await ws.send(payload.encode("utf-8", "surrogatepass"), text=True)
    elif kind == "binary":
        await ws.send(payload)
    elif kind == "raw-text":
        await ws.send(payload, text=True)
    else:
        await ws.send(iter(payload) if payload else iter([""]))


class _Phone:
    """What one hostile phone receives, checked frame by frame."""

    def __init__(self, pool: Pool, stats: FuzzStats, plan: Plan) -> None:
        self.pool = pool
        self.stats = stats
        self.plan = plan
        self.joins = 0
        self.hello_tokens: dict[str, set[str]] = collections.defaultdict(set)
        self.ponged = asyncio.Event()

    def note_sent(self, frame: Frame) -> None:
        if frame[0] not in ("text", "fragments"):
            return
        text = frame[1] if frame[0] == "text" else "".join(frame[1])
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            return
        if isinstance(msg, dict) and msg.get("type") == "join":
            self.joins += 1
        if isinstance(msg, dict) and msg.get("type") == "hello" and isinstance(msg.get("token"), str):
            self.hello_tokens[normal_code(str(msg.get("code", "")))].add(msg["token"])

    async def read(self, ws: Any) -> None:
        try:
            async for raw in ws:
                self.stats.frames_received += 1
                if not isinstance(raw, str):
                    self.stats.problem("the server sent a binary frame")
                    continue
                self.check(raw)
        except websockets.ConnectionClosed:
            pass

    def check(self, raw: str) -> None:
        stats, pool = self.stats, self.pool
        for token in pool.honest_tokens:
            if token in raw:
                stats.problem("a hostile phone was sent an honest player's token")
        try:
            msg = json.loads(raw)
        except ValueError:
            stats.problem(f"the server sent something that is not JSON: {raw[:80]!r}")
            return
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind not in SERVER_TYPES:
            stats.problem(f"unknown server message: {raw[:120]!r}")
            return
        if kind == "pong":
            self.ponged.set()
        elif kind == "error":
            stats.errors[str(msg.get("code"))] += 1
            if msg.get("code") not in ERROR_CODES or not isinstance(msg.get("message"), str) or not msg["message"]:
                stats.problem(f"an error without a known code and a message: {raw[:160]!r}")
        elif kind == "welcome":
            self.welcome(msg)
        elif kind == "state":
            view = msg.get("table")
            for problem in view_problems(view):
                stats.problem(f"state: {problem}")
            if isinstance(view, dict) and isinstance(view.get("decision"), int):
                pool.decisions.append(view["decision"])
            mine = view.get("me") if isinstance(view, dict) else None
            asked = ((mine or {}).get("audience") or {}).get("open") if isinstance(mine, dict) else None
            if isinstance(asked, dict) and isinstance(asked.get("key"), str):
                pool.questions.append(asked["key"])
        elif kind == "chosen":
            people, choice = msg.get("people"), msg.get("choice")
            if (
                not isinstance(msg.get("seq"), int)
                or not isinstance(people, list)
                or not all(isinstance(p, int) for p in people)
                or (choice is not None and not (isinstance(choice, str) and 0 < len(choice) <= 64))
            ):
                stats.problem(f"a malformed chosen message: {raw[:160]!r}")

    def welcome(self, msg: dict[str, Any]) -> None:
        code, person, token = str(msg.get("code")), msg.get("person"), msg.get("token")
        if token is not None:
            self.joins -= 1
            if self.joins < 0:
                self.stats.problem("a seat token came without a join")
            self.pool.seats.append((code, str(token)))
            return
        if person is None:
            return
        if person in self.pool.honest_people.get(code, set()):
            self.stats.problem(f"a hostile phone was welcomed into an honest seat at {code}")
        if not self.hello_tokens[code] & set(self.pool.tokens_of(code)):
            self.stats.problem(f"a hostile phone was welcomed as person {person} at {code} without its token")


# --- honest players, in a thread of their own --------------------------------------------------------


Key = tuple[int, ...]
"""A decision at a table: the game's number, then what the game's probes say identifies the decision."""


@dataclass
class HonestPlayer:
    name: str
    rng: random.Random
    """Its own dice for the game's honest moves."""
    client: Any = None
    intended: dict[Key, str] = field(default_factory=dict)
    """(game, *decision) → the move sent."""
    finals: dict[int, tuple[int | None, list[int]]] = field(default_factory=dict)
    """game → (this player's seat, the scores shown at the end)."""
    problems: list[str] = field(default_factory=list)
    checked: int = 0
    sent_at: float = 0.0
    """When it last sent a message: an honest phone stays under the server's message rate (see ``_pace``)."""


HONEST_GAP = 0.1
"""Seconds an honest player leaves between its messages (10 a second at most, half the server's limit): on a
quick machine three honest players answering at once played a turn-based game faster than any thumb, and the
server's per-connection limit (20 a second) rightly refused them."""


@dataclass
class HonestTable:
    address: str
    game: str
    code: str = ""
    players: list[HonestPlayer] = field(default_factory=list)
    done: bool = False


class HonestPlay(threading.Thread):
    """Honest tables played in a background thread until ``stop`` is set and ``min_games`` are over."""

    def __init__(
        self,
        target: Target,
        pool: Pool,
        tables: int,
        players: int,
        min_games: int,
        seconds: float = 2.0,
        base: int = 77,
        games: Sequence[str] = (),
    ) -> None:
        super().__init__(daemon=True, name="honest-players")
        self.target = target
        self.pool = pool
        games = list(games) or [default_game()]
        count = max(tables, len(games))  # every game at one table at least
        self.tables = [HonestTable(loopback(base, i), games[i % len(games)]) for i in range(count)]
        self.players = players
        self.min_games = min_games
        self.seconds = seconds
        self.ready = threading.Event()
        self.stop = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported by the caller
            self.failure = exc
            self.ready.set()

    async def _main(self) -> None:
        for number, table in enumerate(self.tables):
            table.code = await asyncio.to_thread(
                self.target.create_table, table.address, table.game, seconds=self.seconds, pause=0.5
            )
            game = find_manifest(table.game).game
            for i in range(min(max(self.players, game.min_seats), game.max_seats)):
                player = HonestPlayer(f"Honest {i + 1}", random.Random(f"{number}/{i}"))
                ws = await open_ws(self.target, table.address)
                from gemtable.client import Client

                player.client = Client(ws)
                await player.client.join(table.code, player.name)
                table.players.append(player)
            self.pool.honest_codes.append(table.code)
            self.pool.honest_tokens += [p.client.token for p in table.players]
            self.pool.honest_people[table.code] = {p.client.person for p in table.players}
        self.ready.set()
        await asyncio.gather(*(self._play(table, player) for table in self.tables for player in table.players))
        for table in self.tables:
            for player in table.players:
                await player.client.close()

    async def _play(self, table: HonestTable, player: HonestPlayer) -> None:
        client = player.client
        host = player is table.players[0]
        started = 0
        while True:
            try:
                await client.until(lambda s: _open_decision(s, player) or s["phase"] in ("lobby", "results"), 1.0)
            except TimeoutError:
                pass
            except ConnectionError:
                player.problems.append("the server closed an honest player's connection")
                return
            self._check(player)
            state = client.state
            if state is None:
                continue
            if _open_decision(state, player):
                await self._choose(player, state)
            if host and state["phase"] in ("lobby", "results") and started == state["game_number"]:
                if started >= self.min_games and self.stop.is_set():
                    table.done = True
                elif started == 0 and len([p for p in state["people"] if p["name"].startswith("Honest")]) < len(
                    table.players
                ):
                    continue
                else:
                    started += 1
                    self._sent(wire.encode(wire.Start()).decode())
                    await self._pace(player)
                    await client.start()
            if table.done and state["phase"] in ("lobby", "results"):
                return

    async def _choose(self, player: HonestPlayer, state: dict[str, Any]) -> None:
        game = state["state"]
        move = probes(str(game["game"])).honest_move(game, state["me"]["moves"], player.rng, False)
        player.intended[decision_key(state)] = move
        text = wire.encode(wire.Choose(move=move, decision=state["decision"])).decode()
        self._sent(text)
        await self._pace(player)
        await player.client.send_raw(text)

    async def _pace(self, player: HonestPlayer) -> None:
        wait = player.sent_at + HONEST_GAP - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        player.sent_at = time.monotonic()

    def _sent(self, text: str) -> None:
        self.pool.sent.append(("text", text))

    def _check(self, player: HonestPlayer) -> None:
        frames = player.client.frames
        for raw in frames[player.checked :]:
            msg = json.loads(raw)
            if msg.get("type") == "error":
                player.problems.append(f"an honest player was sent an error: {msg}")
            elif msg.get("type") == "replaced":
                player.problems.append("an honest player was replaced")
            elif msg.get("type") == "state":
                view = msg["table"]
                own: str | bool | None = True
                if view.get("phase") == "playing" and view.get("state"):
                    own = player.intended.get(decision_key(view))
                player.problems += [f"state: {p}" for p in view_problems(view, own)]
                if view.get("phase") == "results" and view["game_number"] not in player.finals:
                    me = view.get("me") or {}
                    player.finals[view["game_number"]] = (me.get("seat"), list(view["state"]["scores"]))
        player.checked = len(frames)


def _open_decision(state: dict[str, Any], player: HonestPlayer) -> bool:
    me = state.get("me")
    if state.get("phase") != "playing" or not me or not me.get("moves") or me.get("choice") is not None:
        return False
    return decision_key(state) not in player.intended


def decision_key(view: dict[str, Any]) -> Key:
    """The decision a table's view shows open: its game's number, and the decision as the game's probes see it."""
    game = view["state"]
    return (int(view["game_number"]), *probes(str(game["game"])).decision(game))


# --- the whole run --------------------------------------------------------------------------------------


@dataclass
class FuzzOptions:
    messages: int = 3000
    seed: int | None = None
    honest_tables: int = 2
    honest_players: int = 3
    min_games: int = 1
    seconds: float = 2.0
    """The honest tables' time per decision (hostile phones seated there and gone quiet hold each one up)."""
    settle: float = 120.0
    """Seconds the honest players get to finish their games once the fuzzing is over."""
    minutes: float | None = None
    """Stop sending after this many minutes even if fewer than ``messages`` went out (then check as
    usual): a long run on a busy machine still ends with a report."""
    lane: int = 0
    """Which of up to :data:`LANES` fuzzers beside each other against one server this is: each has
    loopback addresses of its own (``--clients``)."""
    games: tuple[str, ...] = ()
    """The games the honest tables play, in turn (default: every game the server hosts that this process has
    the probes of)."""


def server_games(target: Target) -> list[str]:
    """The games the server at ``target`` hosts (``/api/games``) that this process can play through probes."""
    status, catalogue = target.json("/api/games")
    if status != 200 or not isinstance(catalogue, dict):
        return []
    return playable(str(game.get("name")) for game in catalogue.get("games", []) if isinstance(game, dict))


LANES = 4


@dataclass
class FuzzReport:
    messages: int
    phones: int
    frames_received: int
    tables_created: int
    honest_games: int
    games_checked: int
    lost_gems: int
    seconds: float
    closes: dict[str, int]
    errors: dict[str, int]
    problems: list[str]
    error_codes: int = 0
    """Distinct error codes the hostile phones were answered with."""
    crashes: int = 0
    """The server process dying, plus every ``server-error`` answer (a bug caught in one message)."""
    broken_tables: list[str] = field(default_factory=list)
    """Tables whose final state broke an invariant or is not what their event log rebuilds."""
    memory_kib: dict[str, int] = field(default_factory=dict)
    """The server's resident memory at the start and at the end (when its process id is known)."""
    by_game: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per game: the honest games played, the records checked, the gems (or tiles) lost."""
    switched_tables: int = 0
    """Tables that ended the run playing another game than the one they were made for."""

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def run_fuzz(
    target: Target,
    options: FuzzOptions,
    *,
    data: Path | None = None,
    log: Path | None = None,
    alive: Callable[[], bool] | None = None,
    progress: Callable[[str], None] | None = None,
    pid: int | None = None,
) -> FuzzReport:
    """Fuzz the server at ``target`` (see the module documentation).  ``data``: the server's data folder
    (to rebuild every table from its log); ``log``: its log file; ``alive``: whether its process lives;
    ``pid``: its process (for its memory)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fix_seed
    from hypothesis import strategies as st

    from gemtable.bench.proc import rss_kib

    started = time.monotonic()
    memory: dict[str, int] = {}
    if pid is not None:
        memory["start"] = rss_kib(pid) or 0
    pool, stats = Pool(), FuzzStats()
    names = list(options.games) if options.games else server_games(target)
    if not names:
        raise RuntimeError("the server hosts no game this process has the probes of")
    lane = 3 * options.lane  # bases 77-79 (+3 a lane) for the honest, the sandbox and the spectators
    honest = HonestPlay(
        target,
        pool,
        options.honest_tables,
        options.honest_players,
        options.min_games,
        options.seconds,
        77 + lane,
        names,
    )
    honest.start()
    if not honest.ready.wait(120) or honest.failure is not None:
        raise RuntimeError(f"the honest players could not sit down: {honest.failure!r}")
    for i, game in enumerate(names * 2 if len(names) == 1 else names):
        code = target.create_table(loopback(78 + lane, i), game, seconds=2, pause=0.5)
        pool.sandbox_codes.append(code)
        pool.made_for[code] = game
    strategies = Strategies(pool, names)
    loop = asyncio.new_event_loop()
    addresses = _Addresses(random.Random(options.seed), 100 + 20 * options.lane)

    @settings(
        max_examples=50, deadline=None, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck)
    )
    @given(st.data())
    def one_phone(data: Any) -> None:
        plan = strategies.plan(data, addresses.next())  # drawn whatever happens next: Hypothesis insists
        if stats.messages >= options.messages or time.monotonic() >= stop_at:
            return
        loop.run_until_complete(asyncio.wait_for(hostile_phone(target, plan, pool, stats), 120))

    if options.seed is not None:
        one_phone = fix_seed(options.seed)(one_phone)
    stop_at = started + 60 * options.minutes if options.minutes else float("inf")
    try:
        while stats.messages < options.messages and time.monotonic() < stop_at:
            one_phone()
            if progress:
                progress(f"{stats.messages} messages from {stats.phones} phones")
            if alive is not None and not alive():
                stats.problem("the server process died")
                break
    finally:
        honest.stop.set()
        honest.join(options.settle)
        loop.close()
    if honest.is_alive():
        stats.problem(f"the honest players did not finish their games within {options.settle:g} s")
    if honest.failure is not None:
        stats.problem(f"the honest players failed: {honest.failure!r}")
    if pid is not None:
        memory["end of fuzzing"] = rss_kib(pid) or 0
    games, checked, lost, broken, by_game = _verify(target, honest, pool, stats, data, 79 + lane)
    died = alive is not None and not alive()
    if died:
        stats.problem("the server process died")
    elif pid is not None:
        memory["end"] = rss_kib(pid) or 0
    if not target.healthy():
        stats.problem("/healthz does not answer ok")
    if log is not None and log.exists():
        for line in log_problems(log.read_text("utf-8", "replace")):
            stats.problem(line)
    return FuzzReport(
        stats.messages,
        stats.phones,
        stats.frames_received,
        stats.tables_created,
        games,
        checked,
        lost,
        round(time.monotonic() - started, 1),
        {str(k): v for k, v in sorted(stats.closes.items())},
        dict(stats.errors.most_common()),
        stats.problems,
        len(stats.errors),
        int(died) + stats.errors.get("server-error", 0),
        broken,
        memory,
        by_game,
        stats.switched,
    )


class _Addresses:
    """A new loopback address for each hostile phone; now and then the previous one again, so that the
    limits per address get their share of the fuzzing."""

    def __init__(self, rng: random.Random, base: int = 100) -> None:
        self.rng = rng
        self.base = base
        self.count = 0
        self.last = ""

    def next(self) -> str:
        if not self.last or self.rng.random() >= 0.15:
            self.count += 1
            self.last = loopback(self.base, self.count)
        return self.last


def _verify(
    target: Target, honest: HonestPlay, pool: Pool, stats: FuzzStats, data: Path | None, spectators: int = 79
) -> tuple[int, int, int, list[str], dict[str, dict[str, int]]]:
    """Honest players' games against their records, every finished game's record, every table's log;
    the games, the records checked, the gems lost, the tables found broken, and those figures per game."""
    games = checked = lost = 0
    broken: set[str] = set()
    by_game: dict[str, dict[str, int]] = {}

    def count(game: str, figure: str, n: int = 1) -> None:
        figures = by_game.setdefault(game, {"honest_games": 0, "games_checked": 0, "lost_gems": 0})
        figures[figure] += n

    seen_scores: dict[tuple[str, int], list[int]] = {}
    for table in honest.tables:
        for player in table.players:
            for problem in player.problems[:10]:
                stats.problem(f"{table.code} {player.name}: {problem}")
            if len(player.finals) < honest.min_games:
                stats.problem(f"{table.code} {player.name} finished {len(player.finals)} games")
        for number in sorted(table.players[0].finals if table.players else {}):
            games += 1
            count(table.game, "honest_games")
            status, record = target.json(f"/api/tables/{table.code}/games/{number}")
            if status != 200:
                stats.problem(f"{table.code} game {number}: no record (HTTP {status})")
                continue
            seen_scores[(table.code, number)] = table.players[0].finals[number][1]
            moves = moves_by_decision(record)
            for player in table.players:
                seat, scores = player.finals.get(number, (None, []))
                if scores != seen_scores[(table.code, number)]:
                    stats.problem(f"{table.code} game {number}: two honest players saw different scores")
                if seat is None or record.get("names", {}).get(str(seat)) != player.name:
                    stats.problem(f"{table.code} game {number}: {player.name} is not at seat {seat} of the record")
                    continue
                for (game, *decision), move in player.intended.items():
                    held = moves.get(seat, {}).get(tuple(decision))
                    if game == number and held != move:
                        stats.problem(
                            f"{table.code} game {number} ({table.game}): {player.name} chose {move} at decision "
                            f"{decision}; the record holds {held}"
                        )
    codes = list(dict.fromkeys([*pool.honest_codes, *pool.sandbox_codes]))
    views = asyncio.run(spectate(target, codes, spectators))
    for code, view in views.items():
        stats.switched += pool.made_for.get(code, view.get("game")) != view.get("game")
        for problem in view_problems(view):
            stats.problem(f"{code} at the end: {problem}")
            broken.add(code)
        for number in view.get("results", []):
            status, record = target.json(f"/api/tables/{code}/games/{number}")
            if status != 200:
                stats.problem(f"{code} game {number}: no record (HTTP {status})")
                continue
            checked += 1
            problems, missing = record_problems(record, seen_scores.get((code, number)))
            lost += missing
            count(str(record.get("game")), "games_checked")
            count(str(record.get("game")), "lost_gems", missing)
            stats.problems += [f"{code} game {number}: {p}" for p in problems]
    if data is not None:
        for code in unlike_their_logs(target, data / "gemtable.sqlite3", views):
            stats.problem(f"{code}: the table the server shows is not the table its log rebuilds")
            broken.add(code)
    return games, checked, lost, sorted(broken), by_game


def unlike_their_logs(target: Target, db: Path, views: dict[str, dict[str, Any]]) -> list[str]:
    """The tables (of ``views``, their spectator views) that are not what their event logs rebuild; a table
    still moving (bots playing on) is looked at again until it holds still."""
    pending = dict(views)
    for _ in range(20):
        rebuilt = rebuilt_views(db, list(pending))
        pending = {code: view for code, view in pending.items() if normal_view(view) != rebuilt.get(code)}
        if not pending:
            return []
        time.sleep(1.0)
        pending = asyncio.run(spectate(target, list(pending), 99))
    return sorted(pending)


async def spectate(target: Target, codes: list[str], base: int = 79) -> dict[str, dict[str, Any]]:
    """Each table's spectator view, fetched as a phone would (from addresses of their own)."""
    out: dict[str, dict[str, Any]] = {}
    for i, code in enumerate(codes):
        ws = await open_ws(target, loopback(base, i))
        try:
            await ws.send(json.dumps({"type": "hello", "code": code}))
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "state":
                    out[code] = msg["table"]
                    break
        finally:
            await ws.close()
    return out


# --- the command ---------------------------------------------------------------------------------------


def add_arguments(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``fuzz`` to the sub-commands of ``python -m tools``."""
    bench = kinds.add_parser(
        "fuzz",
        help="hostile phones beside honest players, against a live server",
        description="Start a server with production limits (or use --url), let Hypothesis draw hostile messages "
        "from many phones while honest players finish their games, then check that nothing broke.",
    )
    bench.add_argument("--messages", type=int, default=3000, help="messages to send (default 3000)")
    bench.add_argument(
        "--tables", type=int, default=2, help="honest tables (default 2; one of every game at least, in turn)"
    )
    bench.add_argument(
        "--players",
        type=int,
        default=3,
        help="honest players per table, 2 to 5 (default 3; as many as the table's game takes, if it takes fewer "
        "or more)",
    )
    bench.add_argument(
        "--game",
        action="append",
        default=[],
        metavar="NAME",
        help="a game the honest tables play (repeatable; default: every game the server hosts)",
    )
    bench.add_argument("--games", type=int, default=1, help="games every honest table plays at least (default 1)")
    bench.add_argument("--seed", type=int, default=None, help="Hypothesis seed")
    bench.add_argument("--url", default=None, help="fuzz a server already running on a loopback URL")
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="stop sending after this many minutes even if fewer messages went out (then check)",
    )
    bench.add_argument(
        "--clients",
        type=int,
        default=1,
        help=f"fuzzing processes beside each other against the one server, 1 to {LANES} (default 1): "
        "the messages are shared out, each has honest tables of its own, one report",
    )
    bench.add_argument("--lane", type=int, default=0, help=argparse.SUPPRESS)
    bench.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        print("python -m tools fuzz needs Hypothesis: pip install 'gemtable[test]'", file=sys.stderr)
        return 2
    if not 2 <= args.players <= 5 or args.tables < 1 or args.messages < 1:
        print("python -m tools fuzz: --players 2 to 5, --tables and --messages at least 1", file=sys.stderr)
        return 2
    if not 1 <= args.clients <= LANES or not 0 <= args.lane < LANES:
        print(f"python -m tools fuzz: --clients 1 to {LANES}", file=sys.stderr)
        return 2
    per = -(-args.messages // args.clients)
    options = FuzzOptions(
        per,
        args.seed,
        args.tables,
        args.players,
        args.games,
        minutes=args.minutes,
        lane=args.lane,
        games=tuple(args.game),
    )
    say = (lambda text: None) if args.json else (lambda text: print(text, file=sys.stderr, flush=True))
    if args.url:
        try:
            target = Target.parse(args.url)
        except ValueError as exc:
            print(f"python -m tools fuzz: {exc}", file=sys.stderr)
            return 2
        report = run_fuzz(target, options, progress=say)
    else:
        from gemtable.bench.server import LocalServer

        server = LocalServer(None).start()
        try:
            proc = server.proc
            others = [_other_client(args, server.url, lane, per) for lane in range(1, args.clients)]
            report = run_fuzz(
                Target("127.0.0.1", server.port),
                options,
                data=server.folder / "data",
                log=server.folder / "server.log",
                alive=lambda: proc is not None and proc.poll() is None,
                progress=say,
                pid=server.pid,
            )
            for lane, other in enumerate(others, 1):
                _merge(report, lane, other)
        finally:
            server.stop()
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(
            f"{report.messages} messages from {report.phones} hostile phones in {report.seconds} s; "
            f"{report.error_codes} distinct error codes; {report.crashes} crashes; "
            f"{report.honest_games} honest games and {report.games_checked} records checked; "
            f"{report.lost_gems} gems lost; {report.switched_tables} tables switched games; "
            f"{len(report.broken_tables)} broken tables; "
            f"server memory {report.memory_kib}; {len(report.problems)} problems"
        )
        for game, figures in report.by_game.items():
            print(
                f"  {game}: {figures['honest_games']} honest games, {figures['games_checked']} records checked, "
                f"{figures['lost_gems']} lost"
            )
        for problem in report.problems[:40]:
            print(f"  - {problem}")
    return 0 if not report.problems else 1


def _other_client(args: argparse.Namespace, url: str, lane: int, messages: int) -> subprocess.Popen[bytes]:
    """Another fuzzer (``--lane``) against the same server, reporting JSON."""
    command = [
        sys.executable,
        "-m",
        "tools",
        "fuzz",
        "--url",
        url,
        "--messages",
        str(messages),
        "--tables",
        str(args.tables),
        "--players",
        str(args.players),
        "--games",
        str(args.games),
        "--lane",
        str(lane),
        "--json",
    ]
    for game in args.game:
        command += ["--game", game]
    if args.seed is not None:
        command += ["--seed", str(args.seed + lane)]
    if args.minutes is not None:
        command += ["--minutes", str(args.minutes)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=ROOT)


def _merge(report: FuzzReport, lane: int, other: subprocess.Popen[bytes]) -> None:
    """Add another fuzzer's report to ``report``."""
    out, err = other.communicate()
    try:
        theirs = json.loads(out)
    except ValueError:
        report.problems.append(f"client {lane} failed: {err.decode(errors='replace')[-500:]}")
        return
    for name in (
        "messages",
        "phones",
        "frames_received",
        "tables_created",
        "honest_games",
        "games_checked",
        "lost_gems",
        "crashes",
        "switched_tables",
    ):
        setattr(report, name, getattr(report, name) + int(theirs[name]))
    errors, closes = collections.Counter(report.errors), collections.Counter(report.closes)
    errors.update(theirs["errors"])
    closes.update(theirs["closes"])
    report.errors, report.closes = dict(errors.most_common()), dict(sorted(closes.items()))
    report.error_codes = len(report.errors)
    report.problems += [f"client {lane}: {problem}" for problem in theirs["problems"]]
    for game, figures in theirs.get("by_game", {}).items():
        mine = report.by_game.setdefault(game, {name: 0 for name in figures})
        for name, value in figures.items():
            mine[name] = mine.get(name, 0) + int(value)
    report.broken_tables += theirs["broken_tables"]


__all__ = [
    "CLOSE_CODES",
    "ERROR_CODES",
    "SERVER_TYPES",
    "FuzzOptions",
    "FuzzReport",
    "Target",
    "add_arguments",
    "loopback",
    "run_fuzz",
    "spectate",
    "unlike_their_logs",
]
