"""``python -m tools hello_flood``: the attack of issue 21's finding 2, measured.

Joined persons (queued watchers are enough) say ``hello`` with their own token, again and again, on the
connection that is already theirs (``--mode repeat``), or alternately with and without it (``--mode
toggle``: each one a seat's disconnect or connect, which the table must tell everyone).  Meanwhile an
honest phone at the attacked table and one at another table of the same server (they share its one event
loop) ping it every 50 ms.  Printed, for a quiet spell first and then the attack: the honest phones' ping
p50, p99 and max, the states a second each receives, and the server's CPU.

``--before SRC`` runs the same attack first against the package in ``SRC`` (another checkout's ``src``, say
``main``'s), then against this one's, and prints the ratios (after / before), with the load average: figures
taken on a busy machine are noisy, their ratio in one run less so.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import websockets

from gemtable.bench.launch import Launcher
from gemtable.bench.proc import cpu_seconds
from gemtable.games import default_game
from tools import before_after

PER_ADDRESS = 6
"""People one address may bring to one table (``Limits.people_per_address``): the attackers spread out."""


@dataclass
class Phone:
    """One honest phone: its ping round trips and the table messages it received, by phase."""

    ws: Any
    phase: str = "quiet"
    rtts: dict[str, list[float]] = field(default_factory=dict)
    states: Counter[str] = field(default_factory=Counter)
    sent: dict[int, float] = field(default_factory=dict)

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                if message["type"] == "pong":
                    started = self.sent.pop(0, None)
                    if started is not None:
                        self.rtts.setdefault(self.phase, []).append(time.perf_counter() - started)
                elif message["type"] in ("state", "chosen"):
                    self.states[self.phase] += 1
        except websockets.ConnectionClosed:
            return

    async def ping(self, until: float) -> None:
        while time.monotonic() < until:
            if 0 not in self.sent:
                self.sent[0] = time.perf_counter()
                await self.ws.send('{"type":"ping","v":2}')
            await asyncio.sleep(0.05)


def summary(rtts: list[float]) -> dict[str, float]:
    if not rtts:
        return {"p50_ms": float("nan"), "p99_ms": float("nan"), "max_ms": float("nan"), "pings": 0}
    ordered = sorted(rtts)
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
        "pings": len(ordered),
    }


def create_table(server: Launcher) -> str:
    body = json.dumps({"game": default_game(), "countdown": 0, "ready_check": False}).encode()  # the tools name no game
    headers = {"content-type": "application/json"}
    request = urllib.request.Request(server.base + "/api/tables", data=body, method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return str(json.loads(response.read())["code"])


async def connect(server: Launcher, source: str) -> Any:
    return await websockets.connect(
        server.ws, local_addr=(source, 0), ping_interval=None, open_timeout=30, max_size=2**22
    )


async def join(server: Launcher, code: str, name: str, source: str) -> tuple[Any, str]:
    """A phone that joins ``code``: its socket and its seat token (once its first state came)."""
    ws = await connect(server, source)
    await ws.send(json.dumps({"type": "join", "v": 2, "code": code, "name": name}))
    token = ""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message["type"] == "welcome":
            token = message["token"]
        elif message["type"] == "error":
            raise RuntimeError(f"{name} could not join: {message}")
        elif message["type"] == "state" and token:
            return ws, token


async def drain(ws: Any, answers: Counter[str]) -> None:
    try:
        async for raw in ws:
            message = json.loads(raw)
            answers[message["code"] if message["type"] == "error" else message["type"]] += 1
    except websockets.ConnectionClosed:
        return


async def attack(args: argparse.Namespace, server: Launcher) -> dict[str, Any]:
    attacked, other = create_table(server), create_table(server)
    victim_ws, _ = await join(server, attacked, "Victim", "127.60.0.1")
    honest_ws, _ = await join(server, other, "Honest", "127.60.0.2")
    victim, honest = Phone(victim_ws), Phone(honest_ws)
    readers = [asyncio.ensure_future(victim.read()), asyncio.ensure_future(honest.read())]
    attackers = [
        await join(server, attacked, f"Flood {i}", f"127.61.{i // PER_ADDRESS}.1") for i in range(args.attackers)
    ]
    answers: Counter[str] = Counter()
    drains = [asyncio.ensure_future(drain(ws, answers)) for ws, _ in attackers]
    assert server.pid is not None
    pid = server.pid
    await asyncio.sleep(0.5)
    phases: dict[str, dict[str, float]] = {}
    for phase, seconds in (("quiet", args.quiet), ("attack", args.seconds), ("after", args.quiet)):
        victim.phase = honest.phase = phase
        cpu0, t0 = cpu_seconds(pid) or 0.0, time.monotonic()
        until = t0 + seconds
        work = [victim.ping(until), honest.ping(until)]
        if phase == "attack":
            work += [flood(ws, token, attacked, args, until, i) for i, (ws, token) in enumerate(attackers)]
        await asyncio.gather(*work)
        elapsed = time.monotonic() - t0
        phases[phase] = {"cpu_percent": round(100 * ((cpu_seconds(pid) or 0.0) - cpu0) / elapsed, 1)}
    for task in [*readers, *drains]:
        task.cancel()
    for ws in [victim_ws, honest_ws, *(ws for ws, _ in attackers)]:
        await ws.close()
    out: dict[str, Any] = {}
    for phase, seconds in (("quiet", args.quiet), ("attack", args.seconds), ("after", args.quiet)):
        out[phase] = {
            **phases[phase],
            "honest_table_ping": summary(honest.rtts.get(phase, [])),
            "attacked_table_ping": summary(victim.rtts.get(phase, [])),
            "states_per_s_attacked_table": round(victim.states[phase] / seconds, 1),
            "states_per_s_honest_table": round(honest.states[phase] / seconds, 1),
        }
    out["attackers_answers"] = dict(answers.most_common())
    return out


async def flood(ws: Any, token: str, code: str, args: argparse.Namespace, until: float, i: int) -> None:
    """One attacker: ``hello`` with its token at ``args.rate`` a second (or, toggling, without it every other
    time), on the connection that is already its seat."""
    gap = 1 / args.rate
    n = 0
    await asyncio.sleep(gap * i / max(1, args.attackers))
    while time.monotonic() < until:
        with_token = args.mode == "repeat" or n % 2 == 0
        message = {"type": "hello", "v": 2, "code": code, **({"token": token} if with_token else {})}
        try:
            await ws.send(json.dumps(message))
        except websockets.ConnectionClosed:
            return
        n += 1
        await asyncio.sleep(gap)


def ratios(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float]:
    def ratio(a: float, b: float) -> float:
        return round(b / a, 3) if a else float("nan")

    out: dict[str, float] = {}
    for key in ("honest_table_ping", "attacked_table_ping"):
        for stat in ("p50_ms", "p99_ms", "max_ms"):
            out[f"attack {key} {stat}"] = ratio(before["attack"][key][stat], after["attack"][key][stat])
    for key in ("states_per_s_attacked_table", "states_per_s_honest_table", "cpu_percent"):
        out[f"attack {key}"] = ratio(before["attack"][key], after["attack"][key])
    return out


def main(args: argparse.Namespace) -> int:
    runs = before_after.runs(attack, args, "hello-flood-")
    report: dict[str, Any] = {"mode": args.mode, "attackers": args.attackers, "rate": args.rate, "runs": runs}
    if args.before:
        report["after_over_before"] = ratios(runs[0], runs[1])
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{args.attackers} attackers, hello {args.mode} at {args.rate:g}/s each for {args.seconds:g} s")
    for run in runs:
        print(f"\n{run['label']} ({run['src']}), load average {run['load_average']}")
        for phase in ("quiet", "attack", "after"):
            f = run[phase]
            h, v = f["honest_table_ping"], f["attacked_table_ping"]
            print(
                f"  {phase:6}  cpu {f['cpu_percent']:5.1f} %  honest table ping p50/p99/max "
                f"{h['p50_ms']}/{h['p99_ms']}/{h['max_ms']} ms  attacked table ping {v['p50_ms']}/{v['p99_ms']}/"
                f"{v['max_ms']} ms  states/s: attacked table {f['states_per_s_attacked_table']}, honest table "
                f"{f['states_per_s_honest_table']}"
            )
        print(f"  attackers were answered: {run['attackers_answers']}")
    if args.before:
        print("\nafter / before, during the attack:")
        for key, value in report["after_over_before"].items():
            print(f"  {key}: {value}")
    return 0


def add_arguments(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``hello_flood`` to the sub-commands of ``python -m tools``."""
    tool = kinds.add_parser(
        "hello_flood",
        help="issue 21's hello flood, measured (honest pings, states a second, server CPU)",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    tool.add_argument("--attackers", type=int, default=16, help="joined persons flooding (default 16)")
    tool.add_argument("--rate", type=float, default=20.0, help="hellos a second each (default 20)")
    tool.add_argument("--seconds", type=float, default=20.0, help="how long the attack lasts (default 20)")
    tool.add_argument("--quiet", type=float, default=5.0, help="seconds measured before and after (default 5)")
    tool.add_argument("--mode", choices=("repeat", "toggle"), default="repeat", help="what the attackers say")
    tool.add_argument("--before", default=None, help="also run it first against the package in this src folder")
    tool.add_argument("--json", action="store_true")
    tool.set_defaults(run=main)
