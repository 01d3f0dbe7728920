"""A real gemtable server in its own process, on a free port, with its own data folder."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``gemtable serve`` as a child process; ``kill()`` is a real SIGKILL."""

    def __init__(self, data: Path, extra: list[str] | None = None, public_url: str | None = None) -> None:
        self.data = data
        self.port = free_port()
        self.public_url = public_url.format(port=self.port) if public_url else None
        """``--public-url`` (``{port}`` is replaced by the server's port), as a host behind a name would set."""
        # By default: scripted decks allowed, and (since scripted test games run far faster than thumbs)
        # the per-connection message rate lifted.  ``extra=[]`` runs the server as a party would.
        self.extra = ["--allow-scripts", "--message-rate", "1000"] if extra is None else extra
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data / "server.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> ServerProcess:
        self.data.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "gemtable", "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--data", str(self.data), "--no-qr", *self.extra]
        if self.public_url:
            cmd += ["--public-url", self.public_url]
        log = self.log.open("ab")
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
        return self._open(req)

    def get(self, path: str) -> tuple[int, Any]:
        return self._open(urllib.request.Request(self.base + path))

    def _open(self, req: urllib.request.Request) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                body = r.read()
                return r.status, json.loads(body) if r.headers.get_content_type() == "application/json" else body
        except urllib.error.HTTPError as e:
            body = e.read()
            try:
                return e.code, json.loads(body)
            except ValueError:
                return e.code, body

    def create_table(self, **settings: Any) -> str:
        status, body = self.post("/api/tables", {"game": "expedition", **settings})
        assert status == 201, body
        return str(body["code"])
