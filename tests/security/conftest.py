"""Servers for the security tests: production limits, scripted decks, or limits tuned down to test them."""

from __future__ import annotations

import json
import resource
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import ServerProcess

TUNED = Path(__file__).with_name("serve_tuned.py")


class TunedServer(ServerProcess):
    """``gemtable serve`` with some :class:`~gemtable.server.limits.Limits` changed (say, a 2 s hello timeout),
    so that a limit can be reached in a test; everything else is the production server."""

    def __init__(
        self, data: Path, limits: dict[str, Any], extra: list[str] | None = None, files: tuple[int, int] | None = None
    ) -> None:
        super().__init__(data, extra=[] if extra is None else extra)
        self.limits = limits
        self.files = files
        """The open-file limits (soft, hard) the process starts with, if not this process's own."""
        self.preexec = self._limit_files if files else None

    def _limit_files(self) -> None:
        if self.files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, self.files)

    def command(self) -> list[str]:
        return [
            sys.executable,
            str(TUNED),
            json.dumps(self.limits),
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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """As in tests/server: scripted decks allowed, the per-connection message rate lifted."""
    proc = ServerProcess(tmp_path / "data").start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture
def production(tmp_path: Path) -> Iterator[ServerProcess]:
    """The server as a party runs it: default limits, no scripted decks."""
    proc = ServerProcess(tmp_path / "data", extra=[]).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture
def scripted(tmp_path: Path) -> Iterator[ServerProcess]:
    """Default limits, scripted decks allowed."""
    proc = ServerProcess(tmp_path / "data", extra=["--allow-scripts"]).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture
def tuned(tmp_path: Path) -> Iterator[Callable[..., TunedServer]]:
    started: list[TunedServer] = []

    def start(extra: list[str] | None = None, files: tuple[int, int] | None = None, **limits: Any) -> TunedServer:
        server = TunedServer(tmp_path / f"data{len(started)}", limits, extra, files).start()
        started.append(server)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.stop()


def clean_log(server: ServerProcess) -> str:
    """The server's log, after checking it holds no traceback and no error line."""
    from tools.oracles import log_problems

    text = server.log.read_text("utf-8", "replace")
    assert not log_problems(text), log_problems(text)
    return text
