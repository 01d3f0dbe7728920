"""A real gemtable server in its own process, on a free port, with its own data folder."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Self

from gemtable.bench.launch import Launcher, free_port

__all__ = ["ServerProcess", "free_port"]


class ServerProcess(Launcher):
    """``gemtable serve`` as a child process (the launcher the benchmarks use too), with a test's conveniences.

    By default: scripted decks allowed, and (since scripted test games run far faster than thumbs) the
    per-connection message rate lifted.  ``extra=[]`` runs the server as a party would."""

    def __init__(self, data: Path, extra: list[str] | None = None, public_url: str | None = None) -> None:
        super().__init__(data, ["--allow-scripts", "--message-rate", "1000"] if extra is None else extra)
        self._public_url = public_url
        """``--public-url`` (``{port}`` is replaced by the server's port), as a host behind a name would set."""

    @property
    def public_url(self) -> str | None:
        return self._public_url.format(port=self.port) if self._public_url else None

    def command(self) -> list[str]:
        return [*super().command(), *(["--public-url", self.public_url] if self.public_url else [])]

    def start(self, timeout: float = 20.0) -> Self:
        return super().start(timeout)

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            method="POST",
            headers={"content-type": "application/json"},
        )
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
        """A new table (an expedition unless ``game`` says otherwise), without the start's countdown, the
        reveal's beat, the last call, the hold of a decision nobody answered or the ready check unless
        ``countdown``, ``beat``, ``last_call``, ``hold_silent`` or ``ready_check`` is given: a test about
        something else need not wait for them at every start and every card, nor answer every card to keep the
        clock going."""
        status, body = self.post(
            "/api/tables",
            {
                "game": "expedition",
                "countdown": 0,
                "beat": 0,
                "last_call": 0,
                "hold_silent": False,
                "ready_check": False,
                **settings,
            },
        )
        assert status == 201, body
        return str(body["code"])
