"""A minimal room server of the expedition, the yardstick of ``gemtable bench server --baseline`` (the
expedition's manifest names it: ``baseline``).

Written with the ``websockets`` library alone: no rules engine, no storage, no views, no limits.  It holds
the same conversation with the benchmark's phones as gemtable does, so that the same load generator, the
same pace and the same measurement run against it:

* a phone joins a room by its code (the room is made on the first join) and hears ``welcome`` and a
  small ``state``; the first to join starts the game, and a new one after the results;
* each choice is announced to the room in a small ``{"type": "chosen", "person": N}``;
* when everyone inside has chosen (or 10 s have passed: silence is camp), the reveal: those who camp
  leave, and the new card goes to everyone in one ``state`` message, encoded once for the explorers still
  inside and once for the others (whose ``me.moves`` is empty);
* a repeated hazard, or nobody left inside, closes the cave: a ``pause`` state, then the next cave after
  the table's pause; five caves make a game, then ``results``.

What it leaves out is what gemtable does on top: the rules and their checks, the event log and its
storage, the per-seat views and their secrets, the limits and the clock's bookkeeping.  The ratio of the
two servers' figures, measured in one run, is the price of all that.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.http11 import Request, Response

DECISION_SECONDS = 10.0
CAVES = 5
HAZARDS = ("spiders", "snakes", "fire", "rockfall", "mummy")
DECK = [str(n) for n in (1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17)] + [h for h in HAZARDS for _ in range(3)]


@dataclass
class Room:
    code: str
    pause: float
    phones: dict[int, ServerConnection] = field(default_factory=dict)
    phase: str = "lobby"
    game: int = 0
    decision: int = 0
    """Counts the decisions opened (one a card), as a gemtable table does: the phones tell decisions apart by it."""
    cave: int = 0
    path: list[dict[str, str]] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    inside: set[int] = field(default_factory=set)
    chosen: dict[int, str] = field(default_factory=dict)
    timer: asyncio.TimerHandle | None = None
    rng: random.Random = field(default_factory=random.Random)

    def state(self, moves: list[str], host: bool = False) -> str:
        return json.dumps(
            {
                "type": "state",
                "table": {
                    "phase": self.phase,
                    "game_number": self.game,
                    "decision": self.decision,
                    "me": {"moves": moves, "host": host},
                    "state": {"cave": self.cave, "path": self.path},
                },
            },
            separators=(",", ":"),
        )

    def tell_everyone(self) -> None:
        """One encode for the explorers inside, one for everyone else."""
        inside = [ws for pid, ws in self.phones.items() if pid in self.inside]
        outside = [ws for pid, ws in self.phones.items() if pid not in self.inside]
        playing = self.phase == "playing"
        if inside:
            broadcast(inside, self.state(["deeper", "camp"] if playing else []))
        if outside:
            broadcast(outside, self.state([]))

    # --- the game ---------------------------------------------------------------------------------

    def start(self) -> None:
        if self.phase not in ("lobby", "results"):
            return
        self.game += 1
        self.cave = 0
        self.open_cave()

    def open_cave(self) -> None:
        self.cave += 1
        self.deck = DECK[:]
        self.rng.shuffle(self.deck)
        self.path = []
        self.inside = set(self.phones)
        self.phase = "playing"
        self.turn_card()

    def turn_card(self) -> None:
        card = self.deck.pop()
        collapse = card in HAZARDS and any(entry["card"] == card for entry in self.path)
        self.path.append({"card": card})
        self.chosen = {}
        self.decision += 1
        if collapse or not self.deck:
            self.close_cave()
            return
        self.arm(DECISION_SECONDS, self.reveal)
        self.tell_everyone()

    def close_cave(self) -> None:
        self.inside = set()
        if self.cave >= CAVES:
            self.phase = "results"
            self.disarm()
        else:
            self.phase = "pause"
            self.arm(self.pause, self.open_cave)
        self.tell_everyone()

    def choose(self, pid: int, move: str) -> None:
        if self.phase != "playing" or pid not in self.inside or move not in ("deeper", "camp"):
            return
        self.chosen[pid] = move
        broadcast(self.phones.values(), json.dumps({"type": "chosen", "person": pid}))
        if len(self.chosen) == len(self.inside):
            self.reveal()

    def reveal(self) -> None:
        self.inside = {pid for pid in self.inside if self.chosen.get(pid) == "deeper"}
        if self.inside:
            self.turn_card()
        else:
            self.close_cave()

    def arm(self, seconds: float, then: Any) -> None:
        self.disarm()
        self.timer = asyncio.get_running_loop().call_later(seconds, then)

    def disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


class Rooms:
    def __init__(self, pause: float) -> None:
        self.pause = pause
        self.rooms: dict[str, Room] = {}

    async def phone(self, ws: ServerConnection) -> None:
        room: Room | None = None
        pid = 0
        try:
            async for raw in ws:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "join" and room is None:
                    code = str(message.get("code"))
                    room = self.rooms.get(code) or self.rooms.setdefault(code, Room(code, self.pause))
                    pid = len(room.phones) + 1
                    room.phones[pid] = ws
                    await ws.send(json.dumps({"type": "welcome", "code": code, "person": pid}))
                    await ws.send(room.state([], host=pid == 1))
                elif room is not None and kind == "start":
                    room.start()
                elif room is not None and kind == "choose":
                    room.choose(pid, str(message.get("move")))
        finally:
            if room is not None:
                room.phones.pop(pid, None)
                room.inside.discard(pid)


def health(connection: ServerConnection, request: Request) -> Response | None:
    if request.path == "/healthz":
        return connection.respond(HTTPStatus.OK, "ok\n")
    return None


async def run(host: str, port: int, pause: float) -> None:
    rooms = Rooms(pause)
    server: Server
    async with serve(
        rooms.phone, host, port, process_request=health, max_size=2**16, ping_interval=20, ping_timeout=20
    ) as server:
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m gemtable.games.expedition.baseline", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between caves")
    args = parser.parse_args()
    asyncio.run(run(args.host, args.port, args.pause))


if __name__ == "__main__":
    main()
