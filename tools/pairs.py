"""``python -m tools pairs --before SRC``: this checkout against an older one, in alternating pairs of benchmarks.

A speed aim ("no worse than the previous main", issue 39) is a ratio of two checkouts measured on one machine,
and a single run of each drifts by a few per cent with the machine: so the two run in turns, the order flipping
every pair (old then new, new then old, ...), each a whole ``gemtable bench server`` of its own with
``PYTHONPATH`` pointing at its ``src`` (the same interpreter and installed libraries for both).  Printed: each
run's server CPU per reveal, reveal latency and memory per table, each pair's new/old ratio of CPU per reveal, and
their median.  Keep the machine quiet while it runs (nothing else on either core)."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[1] / "src"
"""This checkout's package."""

LOADS = {
    "instant": ["--tables", "100", "--players", "6", "--pace", "instant", "--seconds", "10", "--warmup", "3"],
    "human": ["--tables", "1000", "--players", "8", "--pace", "human", "--seconds", "15", "--warmup", "5"],
}
"""The issue's two loads (``--load``); ``--bench`` replaces them with arguments of your own."""


def order(pairs: int) -> list[tuple[int, str]]:
    """The runs in turn: (pair, side), old first in odd pairs and new first in even ones."""
    runs: list[tuple[int, str]] = []
    for number in range(1, pairs + 1):
        sides = ("old", "new") if number % 2 else ("new", "old")
        runs.extend((number, side) for side in sides)
    return runs


def bench(src: Path, arguments: list[str]) -> dict[str, Any]:
    """One benchmark of the package in ``src``: its run's figures (the first pace it measured)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-m", "gemtable", "bench", "server", *arguments, "--json"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the benchmark of {src} failed: {done.stderr.strip()[-500:]}")
    runs = json.loads(done.stdout)["runs"]
    figures: dict[str, Any] = next(iter(runs.values()))
    return figures


def compare(before: Path, arguments: list[str], pairs: int, say: Any = print) -> dict[str, Any]:
    """Alternating pairs of ``arguments`` with ``before``'s package (old) and this checkout's (new)."""
    sources = {"old": before, "new": SRC}
    table: dict[int, dict[str, dict[str, Any]]] = {}
    for number, side in order(pairs):
        figures = bench(sources[side], arguments)
        kept = {
            "cpu_ms_per_reveal": figures["server_cpu_ms_per_reveal"],
            "latency_p50_ms": figures["latency_ms"]["p50"],
            "rss_per_table_kb": figures["rss_per_table_kb"],
            "errors": figures["errors"],
        }
        table.setdefault(number, {})[side] = kept
        say(f"pair {number} {side}: {kept}")
    ratios = [_ratio(runs["new"]["cpu_ms_per_reveal"], runs["old"]["cpu_ms_per_reveal"]) for runs in table.values()]
    known = [ratio for ratio in ratios if ratio is not None]
    return {
        "before": str(before),
        "after": str(SRC),
        "bench": arguments,
        "pairs": [{"pair": number, **runs} for number, runs in table.items()],
        "new_over_old": ratios,
        "median": round(statistics.median(known), 3) if known else None,
    }


def _ratio(new: float | None, old: float | None) -> float | None:
    """new / old, or None if a run revealed nothing (a load too small or too short to measure)."""
    return round(new / old, 3) if new and old else None


def add_arguments(kinds: Any) -> None:
    pairs = kinds.add_parser(
        "pairs",
        help="this checkout against an older one, in alternating pairs of `gemtable bench server`",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    pairs.add_argument("--before", required=True, help="the older checkout's src folder (or the checkout itself)")
    pairs.add_argument("--pairs", type=int, default=4, help="pairs of runs (default 4)")
    pairs.add_argument("--load", choices=sorted(LOADS), default="instant", help="the issue's load (default instant)")
    pairs.add_argument("--generator", choices=["python", "node"], default="node", help="who plays (default node)")
    pairs.add_argument(
        "--bench", default=None, help="arguments for `gemtable bench server` instead of --load's, as one string"
    )
    pairs.add_argument("--json", action="store_true", help="print JSON instead of lines")
    pairs.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    before = Path(args.before).resolve()
    if (before / "src" / "gemtable").is_dir():
        before = before / "src"
    if not (before / "gemtable").is_dir():
        print(f"{args.before}: no gemtable package there (give a checkout or its src folder)", file=sys.stderr)
        return 2
    if args.pairs < 1:
        print("--pairs must be at least 1", file=sys.stderr)
        return 2
    arguments = args.bench.split() if args.bench else [*LOADS[args.load], "--no-deflate", "--generator", args.generator]
    result = compare(before, arguments, args.pairs, say=(lambda _: None) if args.json else print)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"new/old CPU per reveal: {', '.join(map(str, result['new_over_old']))} (median {result['median']})")
    return 0
