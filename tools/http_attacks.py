"""``python -m tools http_attacks``: issue 43's slow read and HTTP flood, measured against a live server.

``--attack slow-read``: one address opens ``--connections`` connections (default 300), each sends 20 pipelined
GETs of the biggest script and never reads the answers.  ``--attack flood``: one address keeps 64 connections
asking for ``/api/schema`` as fast as they are answered.  The server runs under an open-file limit of ``--files``
(default 256, a Mac's).  Meanwhile a seated phone from another address pings every 50 ms, and during the attack
a new phone from a third address connects and joins a table, once a second.  Printed, for a quiet spell, the
attack and after: the seated phone's ping p50/p99/max, how long each new phone took to join (and how many could
not), the server's CPU and its open descriptors.  ``--before SRC`` runs it first against another checkout's
package, as ``hello_flood`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import sys
import time
from typing import Any

import psutil

from gemtable.bench.launch import Launcher
from gemtable.bench.proc import cpu_seconds
from tools import before_after
from tools.hello_flood import Phone, create_table, join, summary

SCRIPT = b"GET /static/js/table.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
SCHEMA = b"GET /api/schema HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
ATTACKER = "127.62.0.1"


async def slow_read(server: Launcher, args: argparse.Namespace, until: float, held: list[socket.socket]) -> None:
    """Connections that ask for the script 20 times each and read nothing, 40 at a time."""
    loop = asyncio.get_running_loop()
    for i in range(args.connections):
        if time.monotonic() >= until:
            return
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.setblocking(False)
        s.bind((ATTACKER, 0))
        try:
            await asyncio.wait_for(loop.sock_connect(s, ("127.0.0.1", server.port)), 5)
            await asyncio.wait_for(loop.sock_sendall(s, SCRIPT * 20), 5)
        except (OSError, TimeoutError):
            s.close()
            continue
        held.append(s)
        if i % 40 == 39:
            await asyncio.sleep(0.3)


async def flood(server: Launcher, until: float, answered: list[int]) -> None:
    """64 kept-alive connections asking for the schema as fast as they are answered (a reader per connection)."""

    async def one() -> None:
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port, local_addr=(ATTACKER, 0))
            except OSError:
                await asyncio.sleep(0.1)
                continue
            try:
                while time.monotonic() < until:
                    writer.write(SCHEMA)
                    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
                    length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                    await reader.readexactly(length)
                    answered.append(int(head.split(b" ")[1]))
            except (OSError, asyncio.IncompleteReadError, TimeoutError, IndexError, ValueError):
                pass
            finally:
                writer.close()

    await asyncio.gather(*(one() for _ in range(64)))


NEWCOMERS = iter(range(1, 60_000))
"""Each new phone comes from an address of its own (one address may bring only 6 people to a table)."""


async def newcomers(server: Launcher, code: str, until: float, joins: list[float], failed: list[str]) -> None:
    """A new phone from another address joins once a second: the seconds each took (connect to first state)."""
    while time.monotonic() < until:
        n = next(NEWCOMERS)
        started = time.perf_counter()
        try:
            ws, _ = await asyncio.wait_for(join(server, code, f"New {n}", f"127.63.{n // 250}.{n % 250 + 1}"), 10)
            joins.append(time.perf_counter() - started)
            await ws.close()
        except Exception as exc:  # (what went wrong is the figure)
            failed.append(f"{type(exc).__name__}: {exc}"[:120])
        await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - started)))


async def watch_fds(process: psutil.Process, until: float, fds: list[int]) -> None:
    while time.monotonic() < until:
        with contextlib.suppress(psutil.Error, AttributeError):  # (Windows counts handles, not descriptors)
            fds.append(int(getattr(process, "num_fds")()))  # noqa: B009
        await asyncio.sleep(0.2)


async def attack(args: argparse.Namespace, server: Launcher) -> dict[str, Any]:
    code = create_table(server)
    seated_ws, _ = await join(server, code, "Seated", "127.60.0.1")
    seated = Phone(seated_ws)
    reader = asyncio.ensure_future(seated.read())
    assert server.pid is not None
    process = psutil.Process(server.pid)
    out: dict[str, Any] = {"attack": args.attack, "files": args.files}
    held: list[socket.socket] = []
    for phase, seconds in (("quiet", args.quiet), ("attack", args.seconds), ("after", args.quiet)):
        seated.phase = phase
        cpu0, t0 = cpu_seconds(server.pid) or 0.0, time.monotonic()
        until = t0 + seconds
        joins: list[float] = []
        failed: list[str] = []
        answered: list[int] = []
        work = [seated.ping(until), newcomers(server, code, until, joins, failed)]
        if phase == "attack":
            work.append(
                slow_read(server, args, until, held) if args.attack == "slow-read" else flood(server, until, answered)
            )
        fds: list[int] = [0]
        await asyncio.gather(*work, watch_fds(process, until, fds))
        most_fds = max(fds)
        elapsed = time.monotonic() - t0
        ordered = sorted(joins)
        out[phase] = {
            "cpu_percent": round(100 * ((cpu_seconds(server.pid) or 0.0) - cpu0) / elapsed, 1),
            "seated_ping": summary(seated.rtts.get(phase, [])),
            "new_phone_join_s": {
                "median": round(ordered[len(ordered) // 2], 3) if ordered else None,
                "max": round(ordered[-1], 3) if ordered else None,
                "joined": len(ordered),
                "failed": len(failed),
            },
            "most_descriptors": most_fds,
            **({"attacker_answers": {str(k): answered.count(k) for k in set(answered)}} if answered else {}),
        }
    out["held_by_attacker"] = len(held)
    for s in held:
        s.close()
    reader.cancel()
    await seated_ws.close()
    return out


def main(args: argparse.Namespace) -> int:
    def limit_files() -> None:
        if sys.platform != "win32":  # (Windows has no per-process limit of this kind)
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (args.files, args.files))

    runs = before_after.runs(attack, args, "http-attacks-", None if sys.platform == "win32" else limit_files)
    if args.json:
        print(json.dumps(runs, indent=2))
        return 0
    print(f"{args.attack} from one address for {args.seconds:g} s, the server under {args.files} open files")
    for run in runs:
        print(f"\n{run['label']} ({run['src']}), load average {run['load_average']}")
        for phase in ("quiet", "attack", "after"):
            f = run[phase]
            ping, joined = f["seated_ping"], f["new_phone_join_s"]
            print(
                f"  {phase:6}  cpu {f['cpu_percent']:5.1f} %  seated phone ping p50/p99/max "
                f"{ping['p50_ms']}/{ping['p99_ms']}/{ping['max_ms']} ms  new phones joined {joined['joined']} "
                f"(median {joined['median']} s, max {joined['max']} s), failed {joined['failed']}  "
                f"descriptors at most {f['most_descriptors']}"
                + (f"  attacker answered {f['attacker_answers']}" if "attacker_answers" in f else "")
            )
    return 0


def add_arguments(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``http_attacks`` to the sub-commands of ``python -m tools``."""
    tool = kinds.add_parser(
        "http_attacks",
        help="issue 43's slow read and HTTP flood, measured (a seated phone's ping, new phones' joins, CPU)",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    tool.add_argument("--attack", choices=("slow-read", "flood"), default="slow-read")
    tool.add_argument("--connections", type=int, default=300, help="slow readers (default 300)")
    tool.add_argument("--files", type=int, default=256, help="the server's open-file limit (default 256)")
    tool.add_argument("--seconds", type=float, default=20.0, help="how long the attack lasts (default 20)")
    tool.add_argument("--quiet", type=float, default=5.0, help="seconds measured before and after (default 5)")
    tool.add_argument("--before", default=None, help="also run it first against the package in this src folder")
    tool.add_argument("--json", action="store_true")
    tool.set_defaults(run=main)
