"""``gemtable bench server``: tables of bot phones against a real server, through real WebSockets.

By default the benchmark starts a fresh ``gemtable serve`` (its own process, a
free port on 127.0.0.1, a temporary data folder, SQLite) and, on a machine with
two or more cores, pins the server to core 0 and itself (the load generator) to
the others, so the two never take each other's time.  ``--url`` benchmarks a
server (or cluster) that is already running on a loopback address instead.

For each load (``human``: people answering in 0.5 to 4 s; ``instant``: bots
answering at once, the ceiling), after a warm-up, it measures for ``--seconds``:
reveals per second, the latency from the last choice of a table to every phone
of that table holding the next card (p50, p99, max), the server's CPU (as a
percentage of one core) and its memory per table.  See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gemtable.bench import proc
from gemtable.bench.launch import Launcher
from gemtable.bench.load import HUMAN, INSTANT, PACES, Load, Target, summary_ms
from gemtable.bench.node import NodeLoad, ready_loadgen
from gemtable.games import default_game, find_manifest
from gemtable.machine import allowed_cores, pin_to_cores

OTHER_CPU_WARNING = 10.0
"""Percent of one core used by other programs during a window above which the report warns."""
AIM_P99_MS = 50.0
GENERATORS = ("python", "node")
GENERATOR_BOUND = 80.0
"""Percent of its core above which the load generator, not the server, may be what limits a run: such a run's
reveals per second say nothing about the server, and no ratio of them is reported (server CPU per reveal still
is: it does not depend on how fast the phones talk)."""
"""The aim: p99 under 50 ms at the human pace (500 tables of 6 phones, one server process)."""


def add_arguments(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``gemtable bench server`` to the sub-commands of ``gemtable bench``."""
    bench = kinds.add_parser(
        "server",
        help="tables of bot phones against a real server, through real WebSockets",
        description="Drive N tables of M bot phones through real WebSockets on loopback and report "
        "reveals per second, reveal latency, and the server's CPU and memory.",
    )
    bench.add_argument("--tables", type=int, default=500, help="tables (default 500)")
    bench.add_argument("--players", type=int, default=6, help="phones per table, 2 to 8 (default 6)")
    bench.add_argument(
        "--pace",
        choices=(*PACES, "both"),
        default="both",
        help="human (answers in 0.5-4 s), instant (at once: the ceiling) or both (default)",
    )
    bench.add_argument("--seconds", type=float, default=30.0, help="measurement per load (default 30)")
    bench.add_argument("--warmup", type=float, default=8.0, help="seconds before each measurement (default 8)")
    bench.add_argument(
        "--pause", type=float, default=1.0, help="the tables' pause between caves, 0.5 to 60 s (default 1)"
    )
    bench.add_argument(
        "--url", default=None, help="benchmark a server already running at this loopback URL (default: start one)"
    )
    bench.add_argument(
        "--server-pid",
        type=int,
        action="append",
        default=None,
        help="with --url: the server process(es) to measure (default: whoever listens on the port)",
    )
    bench.add_argument(
        "--no-pin",
        action="store_true",
        help="do not pin the server to core 0 and the load generator to the other cores",
    )
    bench.add_argument(
        "--no-deflate",
        action="store_true",
        help="do not offer permessage-deflate (browsers do, so by default the phones do)",
    )
    bench.add_argument("--seed", type=int, default=None, help="seed of the bots' choices and delays")
    bench.add_argument(
        "--generator",
        choices=GENERATORS,
        default="python",
        help="who plays the phones: this process (python, the default) or tools/loadgen on Node's ws client "
        "(node: a fraction of the CPU per message, so that the phones are not the bottleneck; needs a checkout "
        "and Node.js)",
    )
    bench.add_argument(
        "--nodes",
        type=int,
        default=0,
        help="cluster mode: start a redis-server and this many nodes, spread the phones over "
        "them (default 0: one embedded server)",
    )
    bench.add_argument(
        "--kill",
        action="store_true",
        help="cluster mode: at the end, kill -9 a node and time until its tables run again",
    )
    bench.add_argument(
        "--baseline",
        action="store_true",
        help="also run the same phones against a minimal room server written with the websockets "
        "library alone (the one the default game's manifest names), and print both figures and their ratio",
    )
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")
    bench.set_defaults(run=main)


@dataclass
class Options:
    tables: int = 500
    players: int = 6
    paces: tuple[str, ...] = PACES
    seconds: float = 30.0
    warmup: float = 8.0
    pause: float = 1.0
    url: str | None = None
    server_pids: list[int] = field(default_factory=list)
    pin: bool = True
    deflate: bool = True
    seed: int | None = None
    nodes: int = 0
    kill: bool = False
    baseline: bool = False
    generator: str = "python"

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Options:
        return cls(
            tables=args.tables,
            players=args.players,
            paces=PACES if args.pace == "both" else (args.pace,),
            seconds=args.seconds,
            warmup=args.warmup,
            pause=args.pause,
            url=args.url,
            server_pids=list(args.server_pid or []),
            pin=not args.no_pin,
            deflate=not args.no_deflate,
            seed=args.seed,
            nodes=args.nodes,
            kill=args.kill,
            baseline=getattr(args, "baseline", False),
            generator=getattr(args, "generator", "python"),
        )

    def check(self) -> None:
        if not 1 <= self.tables <= 20_000:
            raise ValueError("--tables must be from 1 to 20000")
        if not 2 <= self.players <= 8:
            raise ValueError("--players must be from 2 to 8 (the chairs of a table)")
        if self.seconds <= 0 or self.warmup < 0:
            raise ValueError("--seconds must be positive and --warmup not negative")
        if not 0.5 <= self.pause <= 60:
            raise ValueError("--pause must be from 0.5 to 60 seconds")
        if not 0 <= self.nodes <= 8 or (self.nodes and self.url):
            raise ValueError("--nodes must be from 0 to 8, and not with --url")
        if self.kill and self.nodes < 2:
            raise ValueError("--kill needs a cluster of at least two nodes")
        if self.baseline and self.url:
            raise ValueError("--baseline starts both servers itself: not with --url")
        if self.generator not in GENERATORS:
            raise ValueError(f"--generator must be one of {', '.join(GENERATORS)}")


def main(args: argparse.Namespace) -> int:
    options = Options.from_args(args)
    try:
        options.check()
        if options.url:
            Target.parse(options.url)
        if options.generator == "node":
            ready_loadgen(None if args.json else _say)
    except ValueError as exc:
        print(f"gemtable bench server: {exc}", file=sys.stderr)
        return 2
    if not args.json:
        _say(
            f"bench server: {options.tables} tables x {options.players} phones, "
            f"{' then '.join(options.paces)}, {options.warmup:g} s warm-up + {options.seconds:g} s each ..."
        )
    result = run_bench(options, progress=None if args.json else _say)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_report(result)
        if "baseline" in result:
            print_report(result["baseline"])
            print_ratios(result)
    runs = [*result["runs"].values(), *result.get("baseline", {}).get("runs", {}).values()]
    return 0 if all(run["errors"] == 0 for run in runs) else 1


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# --- the server under test ----------------------------------------------------------------------


class LocalServer(Launcher):
    """``gemtable serve`` in a child process (the launcher the tests use too), on a free port, with a temporary
    data folder removed when it stops."""

    def __init__(self, core: int | None, extra: list[str] | None = None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="gemtable-bench-"))
        super().__init__(self.folder / "data", extra or [], log=self.folder / "server.log", core=core)

    def stop(self, timeout: float = 20.0) -> None:
        super().stop(timeout)
        shutil.rmtree(self.folder, ignore_errors=True)


class BaselineServer(LocalServer):
    """The default game's minimal room server (its manifest's ``baseline``) in a child process, started the
    same way."""

    def __init__(self, core: int | None, pause: float) -> None:
        manifest = find_manifest(default_game())
        if manifest.baseline is None:
            raise ValueError(f"{manifest.name} has no baseline room server: not with --baseline")
        super().__init__(core)
        self.module = manifest.module(manifest.baseline)[0]
        self.pause = pause

    def command(self) -> list[str]:
        return [sys.executable, "-m", self.module, "--port", str(self.port), "--pause", str(self.pause)]


class Cluster:
    """A redis-server and N ``gemtable serve --redis`` nodes, for the cluster figures."""

    def __init__(self, nodes: int) -> None:
        from gemtable.bench.redis_server import RedisServer

        self.folder = Path(tempfile.mkdtemp(prefix="gemtable-cluster-"))
        self.redis = RedisServer(self.folder / "redis")
        self.count = nodes
        self.nodes: list[LocalServer] = []

    def start(self) -> Cluster:
        self.redis.start()
        self.nodes = [LocalServer(core=None, extra=["--redis", self.redis.url]).start() for _ in range(self.count)]
        return self

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        self.redis.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def kill_and_time(self, codes: list[str]) -> dict[str, Any]:
        """SIGKILL the node running the most tables; seconds until each of its tables has a new owner."""
        import redis as redis_sync

        client = redis_sync.Redis.from_url(self.redis.url, decode_responses=True)
        ids = {}
        for node in self.nodes:
            with urllib.request.urlopen(node.url + "/api/node", timeout=5) as response:
                ids[json.loads(response.read())["node"]] = node
        held = client.mget([f"gt:{{{code}}}:lease" for code in codes])
        owners = {code: str(owner) for code, owner in zip(codes, held, strict=True) if owner is not None}
        counts: dict[str, int] = {}
        for owner in owners.values():
            if owner in ids:
                counts[owner] = counts.get(owner, 0) + 1
        victim_id = max(counts, key=lambda k: counts[k])
        victim = ids[victim_id]
        orphans = [code for code, owner in owners.items() if owner == victim_id]
        assert victim.proc is not None
        died = time.monotonic()
        victim.proc.kill()  # SIGKILL; TerminateProcess on Windows
        victim.proc.wait(10)
        back: dict[str, float] = {}
        while len(back) < len(orphans) and time.monotonic() - died < 60:
            now_owners = client.mget([f"gt:{{{code}}}:lease" for code in orphans])
            for code, holder in zip(orphans, now_owners, strict=True):
                if code not in back and holder is not None and str(holder) != victim_id:
                    back[code] = time.monotonic() - died
            time.sleep(0.02)
        times = sorted(back.values())
        return {
            "tables_of_the_dead_node": len(orphans),
            "taken_over": len(times),
            "seconds_p50": round(times[len(times) // 2], 2) if times else None,
            "seconds_max": round(times[-1], 2) if times else None,
            "lease_ttl_seconds": 3.0,
        }


# --- the run ------------------------------------------------------------------------------------


def run_bench(options: Options, progress: Any = None) -> dict[str, Any]:
    """Run the benchmark described by ``options``; returns the report (see ``--json``).  With
    ``options.baseline``, the same phones then play against the minimal room server, whose report is
    ``result["baseline"]``, and ``result["ratio"]`` compares the two, pace by pace."""
    result = _run_one(options, progress)
    if options.baseline:
        say = progress or (lambda text: None)
        say("baseline: the same phones against the minimal websockets room server ...")
        base = _run_one(options, progress, baseline=True)
        result["baseline"] = base
        result["ratio"] = {
            pace: _ratio(run, base["runs"][pace]) for pace, run in result["runs"].items() if pace in base["runs"]
        }
    return result


def _ratio(ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, Any]:
    def div(a: Any, b: Any) -> float | None:
        return None if a is None or not b else round(a / b, 3)

    bound = [name for name, run in (("gemtable", ours), ("baseline", theirs)) if run["generator_bound"]]
    refused = (
        f"not a ratio: the load generator used more than {GENERATOR_BOUND:g} % of its core in the "
        f"{' and '.join(bound)} run{'s' if len(bound) > 1 else ''}, so its reveals per second measure the generator"
        if bound
        else None
    )
    return {
        "server_cpu_per_reveal": div(ours["server_cpu_ms_per_reveal"], theirs["server_cpu_ms_per_reveal"]),
        "server_cpu_per_message": div(ours["server_cpu_us_per_message"], theirs["server_cpu_us_per_message"]),
        "reveals_per_second": None if bound else div(ours["reveals_per_second"], theirs["reveals_per_second"]),
        "reveals_per_second_refused": refused,
        "latency_p50": div(ours["latency_ms"]["p50"], theirs["latency_ms"]["p50"]),
        "latency_p50_queue": div(_queue(ours["server_cpu_percent"]), _queue(theirs["server_cpu_percent"])),
        "latency_p99": div(ours["latency_ms"]["p99"], theirs["latency_ms"]["p99"]),
        "server_cpu": div(ours["server_cpu_percent"], theirs["server_cpu_percent"]),
        "rss_per_table": div(ours["rss_per_table_kb"], theirs["rss_per_table_kb"]),
    }


QUEUE_FROM = 25.0
"""Percent of its core from which a server's queue, not the network, is taken to set its reveal's p50 (``_queue``):
the law was measured with the servers at 38-70 %."""


def _queue(cpu_percent: float | None) -> float | None:
    """A server's wait in its queue, in units of its own time a message: ρ / (1 − ρ), ρ its busy share of its
    core.  The ratio of the two servers' is the p50 ratio their loads alone predict (docs/benchmarks.md, "The
    gaps"): a measured ratio near it is the queue's law, one far above it a slower path.  None where ρ is not
    a share of one core (a cluster's nodes, a server at its limit), or under :data:`QUEUE_FROM` (a light load:
    the queue is then a small part of a reveal's time, which the network and the phones' own work make)."""
    if cpu_percent is None or not QUEUE_FROM <= cpu_percent < 100:
        return None
    busy = cpu_percent / 100
    return busy / (1 - busy)


def _run_one(options: Options, progress: Any = None, baseline: bool = False) -> dict[str, Any]:
    options.check()
    say = progress or (lambda text: None)
    cpus = os.cpu_count() or 1
    previous = allowed_cores() if options.pin and options.url is None and cpus >= 2 else None
    pin = previous is not None
    server: LocalServer | None = None
    cluster: Cluster | None = None
    try:
        if options.nodes:
            pin = False  # every node, Redis and the load share the machine's cores: see the report
            previous = None
            cluster = Cluster(options.nodes).start()
            server = cluster.nodes[0]
            target = Target.parse(server.url)
            pids = [pid for node in cluster.nodes if (pid := node.pid) is not None]
        elif baseline:
            server = BaselineServer(core=0 if pin else None, pause=options.pause).start()
            target = Target.parse(server.url)
            pids = [pid for pid in [server.pid] if pid is not None]
        elif options.url is None:
            server = LocalServer(core=0 if pin else None).start()
            target = Target.parse(server.url)
            pids = [pid for pid in [server.pid] if pid is not None]
        else:
            target = Target.parse(options.url)
            pids = options.server_pids or proc.listening_pids(target.port)
        if pin:
            pin_to_cores(0, set(range(1, cpus)))
        placement = (
            f"server pinned to core 0, load generator to core{'s' if cpus > 2 else ''} "
            f"{','.join(str(c) for c in range(1, cpus))} ({cpus} cores)"
            if pin
            else f"not pinned: server and load generator share {cpus} core{'s' if cpus > 1 else ''}"
        )
        say(placement)
        targets = [Target.parse(node.url) for node in cluster.nodes] if cluster else []
        result = asyncio.run(_drive(options, target, pids, say, targets, cluster, baseline))
        result["placement"] = placement
        result["server"] = {
            "url": target.base,
            "pids": pids,
            "started_by_bench": server is not None,
            "kind": "baseline (websockets alone)" if baseline else "gemtable",
            "store": (
                "none"
                if baseline
                else f"redis, {options.nodes} node{'s' if options.nodes > 1 else ''}"
                if cluster
                else "sqlite (temporary folder)"
                if server is not None
                else "as configured"
            ),
            **result["server"],
        }
        if server is not None and server.proc is not None and server.proc.poll() is not None:
            result["server"]["exited"] = server.proc.returncode
        return result
    finally:
        if previous is not None:
            pin_to_cores(0, previous)
        if cluster is not None:
            cluster.stop()
        elif server is not None:
            server.stop()


def _server_cpu(pids: list[int]) -> float | None:
    values = [proc.cpu_seconds(pid) for pid in pids]
    return None if not pids or any(v is None for v in values) else sum(v for v in values if v is not None)


def _server_rss(pids: list[int]) -> int | None:
    values = [proc.rss_kib(pid) for pid in pids]
    return None if not pids or any(v is None for v in values) else sum(v for v in values if v is not None)


async def _drive(
    options: Options,
    target: Target,
    pids: list[int],
    say: Any,
    targets: list[Target] | None = None,
    cluster: Cluster | None = None,
    baseline: bool = False,
) -> dict[str, Any]:
    seed = options.seed if options.seed is not None else random.randrange(1 << 30)
    base = random.Random(seed).randrange(100, 200)  # fresh source addresses for every run
    idle_rss = _server_rss(pids)
    common: dict[str, Any] = {
        "deflate": options.deflate,
        "seed": seed,
        "targets": targets or [],
        "rooms_by_join": baseline,
    }
    tables = list(range(options.tables))
    load: Load | NodeLoad
    if options.generator == "node":
        load = NodeLoad(target, tables, options.players, base, options.pause, game=default_game(), say=say, **common)
    else:
        load = Load(target, tables, options.players, base, options.pause, **common)
    takeover: dict[str, Any] | None = None
    began = time.monotonic()
    try:
        await load.setup()
        setup_seconds = time.monotonic() - began
        say(f"setup: {options.tables} tables, {load.connections()} connections seated in {setup_seconds:.1f} s")
        phases: list[tuple[str, float, float, float]] = []
        at = time.monotonic() + 0.2
        for pace in options.paces:
            start = at + options.warmup
            end = start + options.seconds
            phases.append((pace, at, start, end))
            at = end
        server: dict[str, dict[str, Any]] = {}

        async def sample() -> None:
            for pace, _switch, start, end in phases:
                await _sleep_until(start)
                cpu0, busy0 = _server_cpu(pids), proc.machine_busy_seconds()
                say(f"{pace}: measuring for {options.seconds:g} s")
                await _sleep_until(end)
                cpu1, busy1 = _server_cpu(pids), proc.machine_busy_seconds()
                server[pace] = {
                    "cpu": None if cpu0 is None or cpu1 is None else cpu1 - cpu0,
                    "busy": None if busy0 is None or busy1 is None else busy1 - busy0,
                    "rss": _server_rss(pids),
                }

        await asyncio.gather(load.run(phases), sample())
        if options.kill and cluster is not None:
            say("killing a node (SIGKILL) and timing until its tables run again ...")
            takeover = await asyncio.get_running_loop().run_in_executor(
                None, cluster.kill_and_time, [t.code for t in load.tables]
            )
    finally:
        await load.close()
    runs = {pace: _run_report(pace, options, load, server[pace], idle_rss) for pace, *_ in phases}
    return {
        "benchmark": "server",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "seed": seed,
        "settings": {
            "tables": options.tables,
            "players": options.players,
            "seconds": options.seconds,
            "warmup": options.warmup,
            "pause": options.pause,
            "decision_seconds": 10.0,
            "deflate": options.deflate,
            "source_addresses": (
                f"127.{base}.x.y, one per table; 127.{base + 56}.x.y for its phones past the people per address"
            ),
        },
        "generator": "node (tools/loadgen, ws)" if options.generator == "node" else "python (load.py, websockets)",
        "setup_seconds": round(setup_seconds, 2),
        "nodes": options.nodes or 1,
        "takeover": takeover,
        "server": {"idle_rss_mb": None if idle_rss is None else round(idle_rss / 1024, 1)},
        "runs": runs,
    }


def _run_report(
    pace: str, options: Options, load: Load | NodeLoad, server: dict[str, Any], idle_rss: int | None
) -> dict[str, Any]:
    seen = load.window(pace)
    seconds = seen["seconds"]
    rss = server["rss"]
    cpu = server["cpu"]
    busy = server["busy"]
    # Everything else the machine did meanwhile: other programs compete for the same cores.
    other = None if busy is None or cpu is None else max(0.0, busy - cpu - seen["cpu"])
    generator = round(100 * seen["cpu"] / seconds, 1)
    return {
        "pace": pace,
        "tables": options.tables,
        "players": options.players,
        "connections": seen["connections"],
        "seconds": round(seconds, 2),
        "reveals": seen["reveals"],
        "reveals_per_second": round(seen["reveals"] / seconds, 1),
        "deadline_reveals": seen["deadline_reveals"],
        "latency_ms": summary_ms(seen["latencies"]),
        "messages_per_second": round(seen["received"] / seconds),
        "server_cpu_percent": None if cpu is None else round(100 * cpu / seconds, 1),
        # What a reveal costs the server, whatever the pace: its CPU over the window, per reveal and per message
        # the phones received (every message the server sent them).
        "server_cpu_ms_per_reveal": None
        if cpu is None or not seen["reveals"]
        else round(1000 * cpu / seen["reveals"], 3),
        "server_cpu_us_per_message": None
        if cpu is None or not seen["received"]
        else round(1_000_000 * cpu / seen["received"], 2),
        "messages_per_reveal": None if not seen["reveals"] else round(seen["received"] / seen["reveals"], 1),
        "generator_bound": generator > GENERATOR_BOUND,
        "server_rss_mb": None if rss is None else round(rss / 1024, 1),
        "rss_per_table_kb": None if rss is None or idle_rss is None else round((rss - idle_rss) / options.tables, 1),
        "client_cpu_percent": generator,
        "client_loop_lag_ms": summary_ms(seen["lags"]),
        "other_cpu_percent": None if other is None else round(100 * other / seconds, 1),
        "throttled_sends": seen["throttled"],
        "errors": seen["errors"],
        "error_codes": seen["error_codes"],
    }


async def _sleep_until(when: float) -> None:
    delay = when - time.monotonic()
    if delay > 0:
        await asyncio.sleep(delay)


# --- the report ---------------------------------------------------------------------------------


def print_report(result: dict[str, Any]) -> None:
    """The report as a table: one column per load."""
    from rich.console import Console
    from rich.table import Table

    def show(value: Any, unit: str = "") -> str:
        return "-" if value is None else f"{value:,}{unit}"

    settings = result["settings"]
    runs = result["runs"]
    kind = result["server"].get("kind", "gemtable")
    table = Table(
        title=f"{kind}: {settings['tables']} tables x {settings['players']} phones",
        caption=f"{result['date']}, Python {result['python']}, {result['cpus']} cores, phones: {result['generator']}",
    )
    table.add_column("")
    for pace in runs:
        table.add_column(f"{pace} pace", justify="right")
    rows: list[tuple[str, Any]] = [
        ("tables", lambda r: show(r["tables"])),
        ("connections", lambda r: show(r["connections"])),
        ("reveals per second", lambda r: show(r["reveals_per_second"])),
        ("latency p50", lambda r: show(r["latency_ms"]["p50"], " ms")),
        ("latency p99", lambda r: show(r["latency_ms"]["p99"], " ms")),
        ("latency max", lambda r: show(r["latency_ms"]["max"], " ms")),
        ("reveals measured", lambda r: show(r["latency_ms"]["samples"])),
        ("server CPU (one core)", lambda r: show(r["server_cpu_percent"], " %")),
        ("server CPU per reveal", lambda r: show(r["server_cpu_ms_per_reveal"], " ms")),
        ("server CPU per message", lambda r: show(r["server_cpu_us_per_message"], " µs")),
        ("messages per reveal", lambda r: show(r["messages_per_reveal"])),
        ("server RSS", lambda r: show(r["server_rss_mb"], " MB")),
        ("server RSS per table", lambda r: show(r["rss_per_table_kb"], " KB")),
        ("messages to phones per s", lambda r: show(r["messages_per_second"])),
        ("load generator CPU", lambda r: show(r["client_cpu_percent"], " %")),
        ("load generator lag p99", lambda r: show(r["client_loop_lag_ms"]["p99"], " ms")),
        ("other programs' CPU", lambda r: show(r["other_cpu_percent"], " %")),
        ("reveals forced by deadline", lambda r: show(r["deadline_reveals"])),
        ("errors", lambda r: show(r["errors"])),
    ]
    for name, cell in rows:
        table.add_row(name, *(cell(run) for run in runs.values()))
    console = Console()
    console.print(table)
    console.print(
        f"{result['placement']}.  Server idle RSS {show(result['server']['idle_rss_mb'], ' MB')}; "
        f"setup {result['setup_seconds']} s; each load: {settings['warmup']:g} s warm-up, then "
        f"{settings['seconds']:g} s measured; pause between caves {settings['pause']:g} s."
    )
    console.print(
        "Latency: from the last choice of a table to every phone of that table holding the next "
        "card (or phase).  Lag: how late the load generator's own event loop runs."
    )
    human = runs.get(HUMAN)
    if human is not None and human["latency_ms"]["p99"] is not None:
        met = human["latency_ms"]["p99"] < AIM_P99_MS and human["errors"] == 0
        console.print(
            f"Aim (p99 under {AIM_P99_MS:g} ms at the human pace): {'met' if met else 'NOT met'} "
            f"at {settings['tables']} tables x {settings['players']} phones."
        )
    for pace, run in runs.items():
        if (run["other_cpu_percent"] or 0) > OTHER_CPU_WARNING:
            console.print(
                f"[yellow]{pace}: other programs used {run['other_cpu_percent']} % of a core during "
                "the measurement: these figures are not of a quiet machine.[/yellow]"
            )
        if run["generator_bound"]:
            console.print(
                f"[yellow]{pace}: the load generator used {run['client_cpu_percent']} % of its core (over "
                f"{GENERATOR_BOUND:g} %): the phones, not the server, may be what limits this run's reveals per "
                "second; the server's CPU per reveal is still its own.[/yellow]"
            )
        if run["errors"]:
            console.print(f"[red]{pace}: {run['errors']} errors: {run['error_codes']}[/red]")
        if pace == INSTANT and run["throttled_sends"]:
            console.print(
                f"{pace}: {run['throttled_sends']:,} sends waited for the server's per-connection "
                "message limit: at this size that limit, not the server, is the ceiling."
            )


def print_ratios(result: dict[str, Any]) -> None:
    """gemtable against the baseline measured in the same run: above 1 means gemtable's figure is larger."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="gemtable / baseline, same run")
    table.add_column("")
    ratios = result["ratio"]
    for pace in ratios:
        table.add_column(f"{pace} pace", justify="right")
    for key, label in (
        ("server_cpu_per_reveal", "server CPU per reveal"),
        ("server_cpu_per_message", "server CPU per message"),
        ("reveals_per_second", "reveals per second"),
        ("latency_p50", "latency p50"),
        ("latency_p50_queue", "  as the busy shares predict"),
        ("latency_p99", "latency p99"),
        ("server_cpu", "server CPU"),
        ("rss_per_table", "RSS per table"),
    ):
        table.add_row(label, *("-" if r[key] is None else f"{r[key]:.2f}" for r in ratios.values()))
    console = Console()
    console.print(table)
    for pace, r in ratios.items():
        if r["reveals_per_second_refused"]:
            console.print(f"{pace}: reveals per second {r['reveals_per_second_refused']}.")


__all__ = ["Options", "add_arguments", "print_ratios", "run_bench"]
