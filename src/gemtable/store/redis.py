"""Cluster mode's store: event logs, leases, the table directory and records in Redis.

Keys (``{CODE}`` is a hash tag, so one table's keys would share a slot):

* ``gt:{CODE}:log`` — a list, one JSON event per item, event N at index N-1 (an empty item: pruned);
* ``gt:{CODE}:lease`` — the node running the table, with a time to live;
* ``gt:{CODE}:records`` — a hash, game number → record JSON;
* ``gt:tables`` — a sorted set, code → time of the last event (the directory);
* ``gt:secret`` — the cluster's secret key, hex (made by the first node that asks, ``SET NX``).

A table that has not changed for the retention time is deleted whole (``forget``, a script per table).

Appends and leases are Lua scripts, so that "check the lease, check the next
event number, append" is one atomic step (fencing: a node that lost its lease
can never write again).  See docs/deploy.md for the Redis persistence settings
that keep games safe.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

from gemtable.store import SECRET_BYTES, Conflict, Event, LeaseLost, pruned

APPEND = """
if ARGV[1] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[1] then return -1 end
local length = redis.call('LLEN', KEYS[1])
if length + 1 ~= tonumber(ARGV[2]) then return -2 - length end
for i = 5, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
return length + #ARGV - 4
"""

PRUNE = """
local length = redis.call('LLEN', KEYS[1])
for i = 1, #ARGV do
  local n = tonumber(ARGV[i])
  if n >= 1 and n < length then redis.call('LSET', KEYS[1], n - 1, '') end
end
return 0
"""

ACQUIRE = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

FORGET = """
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local updated = redis.call('ZSCORE', KEYS[4], ARGV[1])
if updated == false or tonumber(updated) >= tonumber(ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('ZREM', KEYS[4], ARGV[1])
return 1
"""

TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local cost = tonumber(ARGV[1])
local allowed = 1
for i, k in ipairs(KEYS) do
  local rate, burst = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local b = redis.call('HMGET', k, 'tokens', 'at')
  local tokens = math.min(burst, (tonumber(b[1]) or burst) + (now - (tonumber(b[2]) or now)) * rate)
  if cost < 0 or tokens >= cost then tokens = math.min(burst, tokens - cost) else allowed = 0 end
  redis.call('HSET', k, 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', k, math.ceil((burst - tokens) / rate * 1000) + 1000)
end
return allowed
"""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def connect(url: str, retry: bool = True, **options: Any) -> aioredis.Redis:
    """A client for ``url``.  With ``retry``, a command whose connection turns out dead is sent once more on
    a new one: after Redis restarts, every connection in the pool is dead, and without it the first command
    on each failed (a follower's update lost, a player's tap refused).  A command sent twice is safe here:
    an append that did land the first time is refused the second by its event number (``Conflict``), and
    the others set what they set (a lease, a record) or are heard twice (a published update, which the
    followers take by number).  Not for pub/sub: a listener must see the drop, to catch up on what it
    missed (``RedisBus``)."""
    if retry:
        options["retry"] = Retry(ExponentialBackoff(cap=0.5, base=0.05), 2, (RedisConnectionError,))
    return aioredis.Redis.from_url(url, socket_connect_timeout=5, health_check_interval=10, **options)


DIRECTORY = "gt:tables"
SECRET = "gt:secret"


def key(code: str, part: str) -> str:
    return f"gt:{{{code}}}:{part}"


class RedisBudgets:
    """Token buckets in Redis (``gt:budget:NAME:KEY``, a hash that expires once it would be full again), taken
    from in one atomic script on Redis's own clock: a cluster's nodes share each address's budget, as one
    process's limits do (``docs/security.md``)."""

    def __init__(self, script: Any) -> None:
        self._take = script

    async def take(self, name: str, buckets: list[tuple[str, float, float]], cost: float = 1.0) -> bool:
        """Take ``cost`` from every bucket of ``buckets`` (key, rate a second, burst): whether each had it (one
        that had not is left as it was).  A negative ``cost`` gives back, up to the burst."""
        keys = [f"gt:budget:{name}:{bucket}" for bucket, _, _ in buckets]
        args: list[float] = [cost]
        for _, rate, burst in buckets:
            args += [rate, burst]
        return bool(await self._take(keys=keys, args=args))


class RedisStore:
    def __init__(self, url: str) -> None:
        self.url = url
        self.redis = connect(url, decode_responses=True, socket_timeout=5)
        self._append = self.redis.register_script(APPEND)
        self._acquire = self.redis.register_script(ACQUIRE)
        self._prune = self.redis.register_script(PRUNE)
        self._release = self.redis.register_script(RELEASE)
        self._forget = self.redis.register_script(FORGET)
        self.budgets = RedisBudgets(self.redis.register_script(TAKE))
        """Per-address budgets every node takes from (``gemtable.server.limits.SharedBudgets``)."""

    async def append(self, code: str, first_seq: int, events: list[Event], owner: str | None = None) -> int:
        if not events:
            return 0
        bodies = [json.dumps(e, separators=(",", ":")) for e in events]
        updated = float(events[-1].get("at", 0.0))
        result = int(
            await self._append(
                keys=[key(code, "log"), key(code, "lease"), DIRECTORY],
                args=[owner or "", first_seq, updated, code, *bodies],
            )
        )
        if result == -1:
            raise LeaseLost(f"table {code} is not run by {owner}")
        if result < -1:
            raise Conflict(f"table {code}: expected event {-result - 1}, got {first_seq}")
        return sum(len(body) for body in bodies)

    async def load(self, code: str, start: int = 1) -> list[Event]:
        items = await self.redis.lrange(key(code, "log"), max(0, start - 1), -1)
        return [json.loads(item) if item else pruned() for item in items]

    async def prune(self, code: str, numbers: list[int]) -> None:
        """Each item becomes an empty string (a list keeps its indexes: event N stays at N-1), a few bytes."""
        await self._prune(keys=[key(code, "log")], args=numbers)

    async def exists(self, code: str) -> bool:
        return await self.redis.zscore(DIRECTORY, code) is not None

    async def active(self, since: float) -> list[str]:
        codes = await self.redis.zrangebyscore(DIRECTORY, since, "+inf")
        return sorted(str(code) for code in codes)

    async def acquire(self, code: str, owner: str, ttl: float) -> bool:
        return bool(await self._acquire(keys=[key(code, "lease")], args=[owner, max(1, int(ttl * 1000))]))

    async def renew(self, codes: list[str], owner: str, ttl: float) -> set[str]:
        """One round trip for all the tables (a pipeline of the same atomic script as :meth:`acquire`)."""
        if not codes:
            return set()
        ms = max(1, int(ttl * 1000))
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                await self._acquire(keys=[key(code, "lease")], args=[owner, ms], client=pipe)
            answers = await pipe.execute()
        return {code for code, answer in zip(codes, answers, strict=True) if answer}

    async def owners(self, codes: list[str]) -> dict[str, str | None]:
        if not codes:
            return {}
        holders = await self.redis.mget([key(code, "lease") for code in codes])
        return {code: None if holder is None else str(holder) for code, holder in zip(codes, holders, strict=True)}

    async def release(self, code: str, owner: str) -> None:
        await self._release(keys=[key(code, "lease")], args=[owner])

    async def forget(self, before: float, limit: int = 500) -> list[str]:
        """Each table in an atomic script that looks at its lease and its time again (a node may have taken
        it, or appended to it, since the directory was read)."""
        codes = [str(code) for code in await self.redis.zrangebyscore(DIRECTORY, "-inf", f"({before}", 0, limit)]
        if not codes:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                await self._forget(
                    keys=[key(code, "log"), key(code, "lease"), key(code, "records"), DIRECTORY],
                    args=[code, before],
                    client=pipe,
                )
            answers = await pipe.execute()
        return sorted(code for code, answer in zip(codes, answers, strict=True) if answer)

    async def save_record(self, code: str, number: int, record: dict[str, Any]) -> None:
        await self.redis.hset(key(code, "records"), str(number), json.dumps(record, separators=(",", ":")))

    async def record(self, code: str, number: int) -> dict[str, Any] | None:
        body = await self.redis.hget(key(code, "records"), str(number))
        return None if body is None else dict(json.loads(body))

    async def records_of(self, code: str) -> list[dict[str, Any]]:
        found = await self.redis.hgetall(key(code, "records"))
        return [dict(json.loads(found[number])) for number in sorted(found, key=int)]

    async def secret(self) -> bytes:
        await self.redis.set(SECRET, secrets.token_hex(SECRET_BYTES), nx=True)
        return bytes.fromhex(str(await self.redis.get(SECRET)))

    def commit_per_turn(self, opened: Callable[[], None], saved: Callable[[set[str] | None], None]) -> bool:
        return False  # (an append is kept when its script returns)

    def commit_turn(self) -> None:
        pass

    @property
    def folder(self) -> Path | None:
        return None  # (Redis keeps its own memory: its maxmemory, docs/deploy.md)

    async def close(self) -> None:
        await self.redis.aclose()
