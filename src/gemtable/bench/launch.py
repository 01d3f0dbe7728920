"""``gemtable serve`` in a child process: the one launcher of the tests and the benchmarks.

A free loopback port, a data folder of its own and a log file; ``start()`` returns once ``/healthz``
answers; ``stop()`` asks it to end (SIGTERM, then SIGKILL), ``kill()`` is a real SIGKILL, and ``start()``
again brings it back on the same port and data folder.  Subclasses change the command (a tuned server, the
baseline room server); ``core`` pins it to one CPU.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Self

from gemtable.machine import pin_to_cores


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PortTaken(RuntimeError):
    """The server could not listen on its port: another process took it first."""


class Launcher:
    """One server process.  See the module documentation."""

    def __init__(
        self,
        data: Path,
        extra: Sequence[str] = (),
        *,
        log: Path | None = None,
        core: int | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.data = data
        self.extra = list(extra)
        self.log = log or data / "server.log"
        self.core = core
        self.env = env
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.preexec: Callable[[], None] | None = None
        """Run in the child before the server starts (resource limits, say)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    url = base

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None and self.proc.poll() is None else None

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "gemtable",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--data",
            str(self.data),
            "--no-qr",
            *self.extra,
        ]

    def start(self, timeout: float = 30.0) -> Self:
        """Start (or start again) and wait until it answers ``/healthz``.  At the first start, a port taken in
        the instant between :func:`free_port` and the server's own bind (by another process, or as the local port
        of an outgoing connection) is given up for another, up to three times."""
        first = self.proc is None
        for _ in range(3):
            try:
                return self._start(timeout)
            except PortTaken:
                if not first:
                    raise
                self.port = free_port()
        return self._start(timeout)

    def _start(self, timeout: float) -> Self:
        self.data.mkdir(parents=True, exist_ok=True)
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                self.command(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env={**os.environ, **(self.env or {})},
                preexec_fn=self.preexec,
            )
        if self.core is not None:
            pin_to_cores(self.proc.pid, {self.core})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                tail = self.log_tail()
                if "already in use" in tail[-400:]:
                    raise PortTaken(f"port {self.port} was taken: {tail[-400:]}")
                raise RuntimeError(f"the server exited: {tail}")
            if self.healthy():
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not start in {timeout:g} s")

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/healthz", timeout=1) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return self.log.read_text("utf-8", "replace")[-chars:]
        except OSError:
            return ""

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM, and SIGKILL if it has not ended within ``timeout`` seconds."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()  # SIGKILL; TerminateProcess on Windows
            self.proc.wait(10)


__all__ = ["Launcher", "PortTaken", "free_port"]
