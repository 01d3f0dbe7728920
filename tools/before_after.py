"""Run an attack against a fresh server, optionally first against an older checkout's package (``--before``).

The attack tools (``hello_flood``, ``log_growth``) measure the same attack before and after a fix: each run starts
a server of its own on a temporary data folder (with ``PYTHONPATH`` pointing at the older ``src`` for the run
"before"), records the machine's load average beside the figures, and stops the server."""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from gemtable.bench.launch import Launcher

Attack = Callable[[argparse.Namespace, Launcher], Coroutine[Any, Any, dict[str, Any]]]


def run_one(
    attack: Attack,
    args: argparse.Namespace,
    src: str | None,
    label: str,
    prefix: str,
    preexec: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """One run of ``attack`` against a server of the package in ``src`` (None: this checkout); ``preexec`` runs in
    the server's process before it starts (resource limits)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        server = Launcher(Path(folder) / "data", [], env={"PYTHONPATH": src} if src else None)
        server.preexec = preexec
        server.start()
        try:
            load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
            figures = asyncio.run(attack(args, server))
        finally:
            server.stop()
    return {"label": label, "src": src or "this checkout", "load_average": [round(x, 2) for x in load], **figures}


def runs(
    attack: Attack, args: argparse.Namespace, prefix: str, preexec: Callable[[], None] | None = None
) -> list[dict[str, Any]]:
    """The run "before" (if ``args.before`` names a src folder), then this checkout's."""
    done = []
    if args.before:
        done.append(run_one(attack, args, str(Path(args.before).resolve()), "before", prefix, preexec))
    done.append(run_one(attack, args, None, "after" if args.before else "this checkout", prefix, preexec))
    return done
