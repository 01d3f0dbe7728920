"""``gemtable bench server --generator node``: the same bot phones, played by ``tools/loadgen/load.mjs`` on
Node's ``ws`` client (issue 25).

The Python generator (``load.py``) reaches its core's limit before the bare ``websockets`` room server does,
so against that server its reveals per second measure the phones.  The Node generator holds the same
conversation with the same measurement (the same phases on the same monotonic clock, the same latency, the same
token bucket under the server's message limit, the game's honest move in JavaScript) at a fraction of the CPU per
message.  This module is its driver: it writes the configuration, starts ``node``, hands it the phases, and
offers :class:`NodeLoad` with the interface of :class:`gemtable.bench.load.Load` that the benchmark uses.

It needs a checkout (``tools/`` is not installed with the package), Node.js 18 or newer, and ``ws``, which
``npm ci`` installs into ``tools/loadgen/node_modules`` from the lock file at the first run.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gemtable.bench.load import Target, households
from gemtable.games import default_game, find_manifest, game_part
from gemtable.server.limits import Limits

LOADGEN = Path(__file__).resolve().parents[3] / "tools" / "loadgen"
SEND_SHARE = 0.85
"""As in load.py: a phone allows itself this share of the server's per-connection message rate."""


class NodeUnavailable(ValueError):
    """No Node.js, or no checkout holding tools/loadgen."""


def ready_loadgen(say: Any = None) -> list[str]:
    """The command that runs the Node generator, installing ``ws`` with ``npm ci`` the first time."""
    node = shutil.which("node")
    if node is None:
        raise NodeUnavailable("--generator node needs Node.js 18 or newer on the PATH")
    if not (LOADGEN / "load.mjs").is_file():
        raise NodeUnavailable(f"--generator node needs a checkout of gemtable: {LOADGEN} is missing")
    if not (LOADGEN / "node_modules" / "ws" / "package.json").is_file():
        npm = shutil.which("npm")
        if npm is None:
            raise NodeUnavailable("--generator node needs npm once, to install ws (npm ci in tools/loadgen)")
        if say:
            say("installing the Node generator's ws client (npm ci in tools/loadgen) ...")
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=LOADGEN, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise NodeUnavailable(f"npm ci in {LOADGEN} failed: {done.stderr.strip()[-300:]}")
    return [node, str(LOADGEN / "load.mjs")]


@dataclass
class _Table:
    code: str


class NodeLoad:
    """The bot phones of :class:`gemtable.bench.load.Load`, played by the Node generator."""

    def __init__(
        self,
        target: Target,
        table_indices: list[int],
        players: int,
        address_base: int,
        pause: float,
        deflate: bool = True,
        seed: int = 1,
        targets: list[Target] | None = None,
        rooms_by_join: bool = False,
        game: str = "",
        limits: Limits | None = None,
        say: Any = None,
    ) -> None:
        self.command = ready_loadgen(say)
        game = game or default_game()
        manifest = find_manifest(game)
        probes = game_part(manifest, manifest.probes) if manifest.probes else None
        move = getattr(probes, "NODE_MOVE", None)
        if probes is None or not isinstance(move, str):
            raise NodeUnavailable(f"{game}'s probes name no JavaScript move (NODE_MOVE): use --generator python")
        limits = limits or Limits()
        self.config = {
            "tables": [
                {
                    "index": index,
                    "addresses": households(address_base, index, players, limits),
                    "target": {"host": target.host, "port": target.port},
                }
                for index in table_indices
            ],
            "targets": [{"host": t.host, "port": t.port} for t in targets or []],
            "players": players,
            "pause": pause,
            "deflate": deflate,
            "seed": seed,
            "rooms_by_join": rooms_by_join,
            "game": game,
            "move_module": str(Path(probes.__file__).parent / move),
            "decision_seconds": 10.0,
            "messages_per_second": limits.messages_per_second,
            "message_burst": limits.message_burst,
            "people_per_address": max(1, limits.people_per_address),
            "send_share": SEND_SHARE,
        }
        self.proc: asyncio.subprocess.Process | None = None
        self.tables: list[_Table] = []
        self.windows: dict[str, dict[str, Any]] = {}
        self._connections = 0
        self._folder = Path(tempfile.mkdtemp(prefix="gemtable-loadgen-"))

    async def _line(self, timeout: float) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        raw = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        if not raw:
            raise RuntimeError(f"the Node generator stopped: {await self._stderr()}")
        event = json.loads(raw)
        if event.get("event") == "error":
            raise RuntimeError(f"the Node generator failed: {event.get('message')}")
        return dict(event)

    async def _stderr(self) -> str:
        if self.proc is None or self.proc.stderr is None:
            return ""
        try:
            return (await asyncio.wait_for(self.proc.stderr.read(), 5)).decode(errors="replace").strip()[-500:]
        except TimeoutError:
            return ""

    async def setup(self) -> None:
        config = self._folder / "config.json"
        config.write_text(json.dumps(self.config))
        self.proc = await asyncio.create_subprocess_exec(
            *self.command,
            str(config),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            limit=1 << 26,  # the last line holds every latency sample
        )
        ready = await self._line(600)
        self._connections = int(ready["connections"])
        self.tables = [_Table(str(code)) for code in ready["codes"]]

    async def run(self, phases: Iterable[tuple[str, float, float, float]]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        listed = list(phases)
        self.proc.stdin.write((json.dumps({"phases": [list(phase) for phase in listed]}) + "\n").encode())
        await self.proc.stdin.drain()
        last_end = max(end for _pace, _switch, _start, end in listed)
        loop = asyncio.get_running_loop()
        done = await self._line(max(60.0, last_end - loop.time() + 120))
        self.windows = done["windows"]
        self._connections = max((w["connections"] for w in self.windows.values()), default=self._connections)

    def connections(self) -> int:
        return self._connections

    def window(self, pace: str) -> dict[str, Any]:
        return self.windows[pace]

    async def close(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        shutil.rmtree(self._folder, ignore_errors=True)


__all__ = ["LOADGEN", "NodeLoad", "NodeUnavailable", "ready_loadgen"]
