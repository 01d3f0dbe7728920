"""``python -m tools log_growth``: how fast a table's log grows under the attack of issue 21's finding 3.

Phones at one table, each at the connection's message rate (20 a second), for ``--seconds``:

* ``--mode toggle`` (the review's attack): seven seats change their minds between two moves as fast as
  they may, while an eighth, silent, keeps each decision open until its clock (``--clock`` seconds) runs out;
* ``--mode race``: all eight seats are the tool's; each decision every seat changes its mind as often as the
  server lets it, then all choose, so decisions (and games, which the host starts again) follow each other
  as fast as the server plays them — the worst case once changes of mind are capped.

Printed: the events and bytes the table's log holds at the end (what the SQLite file keeps: ``chose`` events
of finished games are pruned), the ``chose`` events written, and both per hour.  ``--before SRC`` runs the
same against the package in ``SRC`` first (another checkout's ``src``), and prints the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

from gemtable.bench.launch import Launcher
from gemtable.games import default_game
from tools import before_after

PER_ADDRESS = 6


def create_table(server: Launcher, clock: float) -> str:
    body = json.dumps(
        {"game": default_game(), "countdown": 0, "ready_check": False, "seconds": clock, "pause": 0.5}
    ).encode()
    request = urllib.request.Request(
        server.base + "/api/tables", data=body, method="POST", headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return str(json.loads(response.read())["code"])


class Seat:
    """One phone at the table: its latest state, and what it sent."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] = {}
        self.reader: asyncio.Future[None] | None = None
        self.sent = 0
        self.refused: dict[str, int] = {}
        self.changed = asyncio.Event()
        self.received = time.monotonic()

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                if message["type"] == "state":
                    self.state = message["table"]
                    self.received = time.monotonic()
                    self.changed.set()
                elif message["type"] == "error":
                    self.refused[message["code"]] = self.refused.get(message["code"], 0) + 1
        except websockets.ConnectionClosed:
            return

    async def send(self, message: dict[str, Any]) -> None:
        self.sent += 1
        await self.ws.send(json.dumps({"v": 1, **message}))  # version 1: whole states, simplest to follow

    def open_decision(self) -> int | None:
        me = self.state.get("me") or {}
        return self.state.get("decision") if self.state.get("phase") == "playing" and me.get("moves") else None


async def seat(server: Launcher, code: str, name: str, source: str) -> Seat:
    ws = await websockets.connect(server.ws, local_addr=(source, 0), ping_interval=None, max_size=2**22)
    phone = Seat(ws)
    phone.reader = asyncio.ensure_future(phone.read())
    await phone.send({"type": "join", "code": code, "name": name})
    while not phone.state.get("me"):
        await asyncio.wait_for(phone.changed.wait(), 30)
        phone.changed.clear()
    return phone


async def toggler(phone: Seat, until: float, rate: float) -> None:
    """Change its mind at ``rate`` messages a second, whatever the server answers."""
    i = 0
    while time.monotonic() < until:
        decision = phone.open_decision()
        if decision is not None:
            moves = phone.state["me"]["moves"]  # (the game's own: two, in the default game)
            await phone.send({"type": "choose", "move": moves[i % len(moves)], "decision": decision})
            i += 1
        await asyncio.sleep(1 / rate)


async def host(phone: Seat, until: float, keep_open: bool) -> None:
    """Start the game, and a new one whenever one is over; with ``keep_open``, say nothing in a decision until
    just before its clock runs out, then make its first move (the default game's: the seat stays in)."""
    said: int | None = None
    while time.monotonic() < until:
        if phone.state.get("phase") in ("lobby", "results"):
            await phone.send({"type": "start"})
            await asyncio.sleep(0.5)
            continue
        decision = phone.open_decision()
        remaining = phone.state.get("remaining_ms")
        due = remaining is not None and (time.monotonic() - phone.received) * 1000 >= remaining - 700
        if keep_open and decision is not None and decision != said and due:
            move = phone.state["me"]["moves"][0]  # (the default game's first move stays in: "keep going")
            await phone.send({"type": "choose", "move": move, "decision": decision})
            said = decision
        await asyncio.sleep(0.05)


def log_size(data: Path, code: str) -> tuple[int, int, int]:
    """(events kept, bytes of their bodies, ``chose`` events kept) of table ``code``'s log."""
    db = sqlite3.connect(data / "gemtable.sqlite3")
    try:
        count, size = db.execute(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(body)), 0) FROM events WHERE code = ?", (code,)
        ).fetchone()
        chose = db.execute(
            'SELECT COUNT(*) FROM events WHERE code = ? AND body LIKE \'{"type":"chose"%\'', (code,)
        ).fetchone()[0]
    finally:
        db.close()
    return int(count), int(size), int(chose)


async def attack(args: argparse.Namespace, server: Launcher) -> dict[str, Any]:
    code = create_table(server, args.clock)
    phones = [await seat(server, code, f"Seat {i}", f"127.62.{i // PER_ADDRESS}.1") for i in range(8)]
    start = time.monotonic()
    until = start + args.seconds
    work = [host(phones[0], until, keep_open=args.mode == "toggle")]
    togglers = phones if args.mode == "race" else phones[1:]  # (toggle: the host, seat 0, stays silent)
    work += [toggler(p, until, args.rate) for p in togglers]
    before = log_size(server.data, code)
    await asyncio.gather(*work)
    elapsed = time.monotonic() - start
    await asyncio.sleep(1.0)
    after = log_size(server.data, code)
    refused: dict[str, int] = {}
    for phone in phones:
        for key, n in phone.refused.items():
            refused[key] = refused.get(key, 0) + n
        await phone.ws.close()
    hour = 3600 / elapsed
    return {
        "seconds": round(elapsed, 1),
        "messages_sent": sum(p.sent for p in phones),
        "events_kept": after[0] - before[0],
        "log_bytes_kept": after[1] - before[1],
        "chose_kept": after[2] - before[2],
        "log_bytes_per_hour": round((after[1] - before[1]) * hour),
        "events_per_hour": round((after[0] - before[0]) * hour),
        "refused": refused,
    }


def main(args: argparse.Namespace) -> int:
    runs = before_after.runs(attack, args, "log-growth-")
    report: dict[str, Any] = {"mode": args.mode, "rate": args.rate, "clock": args.clock, "runs": runs}
    if args.before and runs[0]["log_bytes_kept"]:
        report["after_over_before_bytes"] = round(runs[1]["log_bytes_kept"] / runs[0]["log_bytes_kept"], 4)
    print(json.dumps(report, indent=2))
    return 0


def add_arguments(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``log_growth`` to the sub-commands of ``python -m tools``."""
    tool = kinds.add_parser(
        "log_growth",
        help="issue 21's log growth, measured (events and bytes a table's log keeps per hour)",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    tool.add_argument("--mode", choices=("toggle", "race"), default="toggle")
    tool.add_argument("--seconds", type=float, default=30.0, help="how long (default 30)")
    tool.add_argument("--rate", type=float, default=20.0, help="messages a second per phone (default 20)")
    tool.add_argument("--clock", type=float, default=5.0, help="seconds a decision takes (default 5)")
    tool.add_argument("--before", default=None, help="also run it first against the package in this src folder")
    tool.set_defaults(run=main)
