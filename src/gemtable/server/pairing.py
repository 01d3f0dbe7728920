"""Getting the TV on (issue 22, §3): the TV shows a short pairing code; a phone at a table types it in ("Show on
the TV" in the invite sheet) and the TV opens that table's big screen.

A pairing is four digits (easy to read across a room and to type on a phone's number pad), lives
:data:`PAIR_SECONDS`, and is used once: the TV that made it learns the table and the pairing is gone.  Only that
TV can read it (it holds the pairing's secret, sent to it alone).  A phone's tries at a pairing code draw from
the same guessing budget per address as table codes (``Hub.spend_try``): only misses spend it.

Where pairings live: in this process for the embedded server; in Redis (``gt:pair:CODE``, with a time to live)
for a cluster, so that the TV and the phone may reach different nodes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

PAIR_SECONDS = 300.0
"""How long a TV's pairing code waits for a phone (the TV asks for a new one when it lapses)."""
DIGITS = 4
MAX_OPEN = 2000
"""Open pairings at most (each TV has one; a party has a TV or two): past this, new ones are refused."""


class PairingError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def normal_pairing(code: object) -> str | None:
    """A pairing code as typed (spaces and dashes allowed), or None when it cannot be one."""
    if not isinstance(code, str) or len(code) > 16:
        return None
    digits = "".join(ch for ch in code if ch not in " -")
    return digits if len(digits) == DIGITS and digits.isascii() and digits.isdigit() else None


class Board(Protocol):
    """Where open pairings are kept: ``{"secret": hash, "table": code or None}`` by pairing code."""

    async def put_new(self, code: str, data: dict[str, Any], ttl: float) -> bool: ...
    async def get(self, code: str) -> dict[str, Any] | None: ...
    async def put(self, code: str, data: dict[str, Any]) -> None: ...
    async def delete(self, code: str) -> None: ...


@dataclass
class _Entry:
    data: dict[str, Any]
    expires: float


class MemoryBoard:
    """This process's pairings (the embedded server: one process serves every phone and TV)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.entries: dict[str, _Entry] = {}

    def _prune(self) -> None:
        now = self.clock()
        for code in [c for c, e in self.entries.items() if e.expires <= now]:
            del self.entries[code]

    async def put_new(self, code: str, data: dict[str, Any], ttl: float) -> bool:
        self._prune()
        if code in self.entries or len(self.entries) >= MAX_OPEN:
            return False
        self.entries[code] = _Entry(dict(data), self.clock() + ttl)
        return True

    async def get(self, code: str) -> dict[str, Any] | None:
        self._prune()
        entry = self.entries.get(code)
        return None if entry is None else dict(entry.data)

    async def put(self, code: str, data: dict[str, Any]) -> None:
        entry = self.entries.get(code)
        if entry is not None:
            entry.data = dict(data)

    async def delete(self, code: str) -> None:
        self.entries.pop(code, None)


class RedisBoard:
    """A cluster's pairings, in Redis: ``gt:pair:CODE`` with the pairing's time to live."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis

    async def put_new(self, code: str, data: dict[str, Any], ttl: float) -> bool:
        return bool(await self.redis.set(f"gt:pair:{code}", json.dumps(data), nx=True, px=int(ttl * 1000)))

    async def get(self, code: str) -> dict[str, Any] | None:
        body = await self.redis.get(f"gt:pair:{code}")
        return None if body is None else dict(json.loads(body))

    async def put(self, code: str, data: dict[str, Any]) -> None:
        await self.redis.set(f"gt:pair:{code}", json.dumps(data), xx=True, keepttl=True)

    async def delete(self, code: str) -> None:
        await self.redis.delete(f"gt:pair:{code}")


class Pairings:
    """The TVs waiting for a table, and the phones that send them one."""

    def __init__(self, board: Board, rng: secrets.SystemRandom | None = None) -> None:
        self.board = board
        self.rng = rng or secrets.SystemRandom()

    async def open(self) -> tuple[str, str]:
        """A new pairing for a TV: its code (shown on the TV) and its secret (kept by the TV alone)."""
        secret = secrets.token_urlsafe(18)
        for _ in range(20):
            code = "".join(self.rng.choice("0123456789") for _ in range(DIGITS))
            if await self.board.put_new(code, {"secret": _hash(secret), "table": None}, PAIR_SECONDS):
                return code, secret
        raise PairingError("slow-down", "too many TVs are pairing at once; try again in a minute")

    async def send(self, code: object, table: str) -> None:
        """A phone sends the TV showing ``code`` to ``table`` (a table that exists: the caller checked)."""
        found = normal_pairing(code)
        data = None if found is None else await self.board.get(found)
        if found is None or data is None:
            raise PairingError("no-pairing", "no TV shows that number: check the number on the TV")
        if data.get("table") is not None:
            raise PairingError("pairing-used", "that TV has been sent to a table already")
        await self.board.put(found, {**data, "table": table})

    async def poll(self, code: object, secret: object) -> str | None:
        """The TV asks: the table a phone sent it to (the pairing is then used up), or None while it waits."""
        found = normal_pairing(code)
        data = None if found is None else await self.board.get(found)
        if (
            found is None
            or data is None
            or not isinstance(secret, str)
            or not hmac.compare_digest(str(data.get("secret")), _hash(secret))
        ):
            raise PairingError("no-pairing", "this pairing code has lapsed: the TV shows a new one")
        table = data.get("table")
        if table is None:
            return None
        await self.board.delete(found)
        return str(table)


def board_for(store: Any) -> Board:
    """Redis for a cluster node (its store's connection), this process otherwise."""
    redis = getattr(store, "redis", None)
    return RedisBoard(redis) if redis is not None else MemoryBoard()


__all__ = ["PAIR_SECONDS", "MemoryBoard", "PairingError", "Pairings", "RedisBoard", "board_for", "normal_pairing"]
