"""Rate limits: token buckets per connection and per address."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


@dataclass
class Bucket:
    """``rate`` tokens a second, at most ``burst`` saved up."""

    rate: float
    burst: float
    tokens: float = 0.0
    stamp: float = 0.0
    new: bool = True
    """Not used yet: full at its first use."""

    def take(self, now: float, cost: float = 1.0) -> bool:
        self.tokens, self.stamp, self.new = self.left(now), now, False
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def left(self, now: float) -> float:
        """The tokens there are now (below zero after :meth:`charge`: a debt being paid off)."""
        if self.new:
            return self.burst
        return min(self.burst, self.tokens + (now - self.stamp) * self.rate)

    def charge(self, now: float, cost: float) -> None:
        """Take ``cost`` whatever is left, into debt if need be: for a cost known only once it is spent."""
        self.tokens, self.stamp, self.new = self.left(now) - cost, now, False


@dataclass
class Limits:
    """Every limit the server enforces, in one place (see docs/security.md)."""

    messages_per_second: float = 20.0
    """Per connection: far above what a thumb can tap, far below a flood."""
    message_burst: float = 60.0
    strikes_before_close: int = 60
    """Refused messages (too fast, too large, malformed) before a connection is closed as abusive."""
    lookups_per_minute: float = 6.0
    lookup_burst: float = 12.0
    """Opening a table by code: unknown codes drain this bucket (guessing is slowed down)."""
    hellos_per_minute: float = 30.0
    hello_burst: float = 5.0
    """Per connection: ``hello``s that open a table (each binds the phone and costs a state; an unknown code
    costs a try instead).  A phone says hello once a connection, twice when its token is refused."""
    address_hellos_per_minute: float = 300.0
    address_hello_burst: float = 60.0
    """Per address, the same ``hello``s over all its connections: a household's phones coming back at once
    after the Wi-Fi dropped fit in the burst; one device opening connection after connection does not."""
    broadcast_seconds: float = 0.25
    """A table's changes are told to its phones at most once per this many seconds (``pacing.py``): the
    first change after a quiet spell at once, the ones within it together at its end, as the latest state.
    So no phone gets more than 4 table messages a second, whatever a burst of changes; 0 tells each at once."""
    busy_broadcast_seconds: float = 1.0
    """The same while the server is busy (``busy.py``): its tables' chatter coalesced over a second, so that the
    game's own moments stay quick."""
    joins_per_minute: float = 10.0
    join_burst: float = 20.0
    tables_per_hour: float = 30.0
    table_burst: float = 10.0
    connections_per_address: int = 64
    people_per_address: int = 6
    """People one address may bring to one table (``docs/security.md``): on a LAN every phone has its own
    address; a household behind one public address (an internet server) needs a few; one device cannot fill
    a table's chairs and its queue.  A reverse proxy on this host (:data:`LOCAL_PROXIES`) is not counted: it
    speaks for many phones, and uvicorn gives the phone's own address from ``X-Forwarded-For``."""
    hello_seconds: float = 30.0
    """A connection that has not opened a table (hello or join) by then is closed: sockets that never
    speak (a "slowloris") cannot pile up."""
    request_seconds: float = 10.0
    """Time to send a whole HTTP request (line, headers, body) once it begins; then the connection is closed
    (``gemtable.server.guard``: uvicorn has no such bound)."""
    unfinished_per_address: int = 16
    """Connections from one address whose request is still coming in; more are closed at once."""
    sockets_per_address: int = 96
    """Open connections from one address, HTTP and WebSocket together (a WebSocket counts here and in
    :attr:`connections_per_address`); more are closed as soon as they are accepted."""
    write_seconds: float = 10.0
    """A connection whose reader does not take what it is sent: once the server holds more than the socket's
    high-water mark for it (64 KiB), or still holds anything this long after it closed the connection, it is cut
    (``gemtable.server.guard``: uvicorn waits for such a reader for ever)."""
    reserve_sockets: int = 64
    """Descriptors kept for new phones: once the server's open connections come within this many of its open-file
    limit, an address that already holds :attr:`crowded_address` of them gets no more."""
    crowded_address: int = 4
    requests_per_second: float = 30.0
    request_burst: float = 300.0
    """HTTP requests per address, any path (``budget.py``): a page load is about 30 (its files are served from
    memory); a household behind one address loading the pages together fits in the burst."""
    api_per_second: float = 5.0
    api_burst: float = 60.0
    """HTTP requests to ``/api/*`` per address, on top of the above: a page asks for a handful; the TV's pairing
    asks every second or two."""
    max_body: int = 64 * 1024
    """Bytes of an HTTP request body (a new table's settings): more is refused unread (413)."""
    write_bytes_per_hour: float = 8 * 2**20
    write_burst: float = 2 * 2**20
    """Bytes of table log that one address's commands may write (``Hub._command``): an honest phone writes a
    few tens of KB an hour (a host changing settings often, a few hundred); past the burst, and until the debt
    is paid off at the hourly rate, the address's commands are refused (``slow-down``).  A reverse proxy on this
    host (:data:`LOCAL_PROXIES`) is not counted."""
    min_free_mb: int = 512
    """New tables are refused while the data folder's disk has less free space than this (MB; the embedded
    store): the tables already running play on into the space left, and nothing half-written is risked."""
    rest_seconds: float = 30 * 60.0
    """A table with no phone, nothing due and no change for this long leaves memory (``Node.rest``)."""
    keep_days: float = 30.0
    """A table unchanged for this long is deleted, its games' records with it (``gemtable serve --keep-days``;
    0: kept for ever)."""
    buckets_kept: int = 10_000
    """Addresses remembered; the stalest are forgotten first, so memory stays bounded."""


LOCAL_PROXIES = frozenset({"127.0.0.1", "::1"})
"""Where a reverse proxy on this host connects from (uvicorn trusts ``X-Forwarded-For`` from both, by its
default ``FORWARDED_ALLOW_IPS``): it speaks for many phones at once, so the limits that count people or
unfinished requests per address do not count it (the phones behind a proxy that forwards their addresses
are counted by those).  :func:`address_key` keeps these as they are, so ``key in LOCAL_PROXIES`` is the
test everywhere."""

HOST_NETWORKS = tuple(
    ipaddress.IPv6Network(net)
    for net in (
        "::1/128",  # loopback
        "fe80::/10",  # link-local: on a party's Wi-Fi every phone is in the same fe80::/64
        "fc00::/7",  # unique local addresses (a home router's own prefix)
        "fec0::/10",  # site-local (deprecated, still met)
    )
)
"""IPv6 networks counted one address at a time: on a LAN, a /64 is the whole party, not one household."""


def address_key(host: str) -> str:
    """What the limits per address count by: the IPv4 address; an IPv6 address on a local network
    (loopback, link-local, unique local: :data:`HOST_NETWORKS`) as itself; any other (global) IPv6
    address by its /64 network, since any host on a network may take as many of its 2**64 addresses as it
    likes.  An IPv4-mapped IPv6 address counts as its IPv4 address.  A local proxy's address
    (:data:`LOCAL_PROXIES`) is compared before any grouping and kept as it is."""
    if host in LOCAL_PROXIES:
        return host
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        bare = ipaddress.IPv6Address(ip.packed)  # without a zone (``%eth0``): the same host on any link
        if any(bare in net for net in HOST_NETWORKS):
            return str(bare)
        return f"{ipaddress.IPv6Network((bare, 64), strict=False).network_address}/64"
    return str(ip)


class SharedBudgets(Protocol):
    """Budgets per address that every node of a cluster takes from (``RedisBudgets``; none for one process)."""

    async def take(self, name: str, buckets: list[tuple[str, float, float]], cost: float = 1.0) -> bool: ...


def shared_buckets(address: str, rate: float, burst: float, wider: bool = False) -> list[tuple[str, float, float]]:
    """The buckets (key, rate, burst) a try from ``address`` takes from: its own, and with ``wider`` those of its
    wider networks too (:data:`WIDER`), as :class:`NetworkLimiter` does in one process."""
    out = [(address, rate, burst)]
    if wider:
        out += [(network, rate * times, burst * times) for network, times in wider_networks(address)]
    return out


WIDER = ((48, 4.0), (32, 16.0))
"""For a global IPv6 address (counted by its /64): its /48 and its /32, each with a budget this many times the
/64's.  A site or a tunnel broker's customer gets a /48 (65,536 /64s), an ISP holds a /32: without these, each /64
had a full budget of its own, and an attacker with a /48 had 65,536 of them."""


def wider_networks(key: str) -> list[tuple[str, float]]:
    """The wider networks an address key also counts against, with their budgets' multiples (global IPv6 only)."""
    if not key.endswith("/64"):
        return []
    network = ipaddress.IPv6Network(key)
    return [(str(network.supernet(new_prefix=prefix)), times) for prefix, times in WIDER]


@dataclass
class NetworkLimiter:
    """An :class:`AddressLimiter` for an address key, and others for the wider networks of a global IPv6 address
    (:data:`WIDER`): a try takes from every one of them."""

    rate: float
    burst: float
    keep: int = 10_000
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self.own = AddressLimiter(self.rate, self.burst, self.keep, self.clock)
        self.wider = {
            times: AddressLimiter(self.rate * times, self.burst * times, self.keep, self.clock) for _, times in WIDER
        }

    def allow(self, address: str) -> bool:
        allowed = self.own.allow(address)
        for network, times in wider_networks(address):
            allowed = self.wider[times].allow(network) and allowed
        return allowed

    def give_back(self, address: str) -> None:
        self.own.give_back(address)
        for network, times in wider_networks(address):
            self.wider[times].give_back(network)

    def peek(self, address: str) -> bool:
        return self.own.peek(address) and all(self.wider[t].peek(n) for n, t in wider_networks(address))


@dataclass
class AddressLimiter:
    """Buckets per address, bounded in number."""

    rate: float
    burst: float
    keep: int = 10_000
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, Bucket] = field(default_factory=dict)

    def allow(self, address: str, cost: float = 1.0) -> bool:
        bucket = self.buckets.pop(address, None) or Bucket(self.rate, self.burst)
        self.buckets[address] = bucket  # most recent last
        if len(self.buckets) > self.keep:
            self._forget_one()
        return bucket.take(self.clock(), cost)

    def _forget_one(self, look: int = 64) -> None:
        """Forget one address: among the stalest ``look``, the first whose bucket has filled up again (forgetting
        it gives nothing back: a new bucket is full too), else the stalest.  So an attacker who spreads over many
        addresses to push the table over its size is forgotten last, not first: an address it drained is kept
        while newer full ones go."""
        now = self.clock()
        stalest = next(iter(self.buckets))
        for _, (address, bucket) in zip(range(look), self.buckets.items(), strict=False):
            if bucket.tokens + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                stalest = address
                break
        del self.buckets[stalest]

    def charge(self, address: str, cost: float) -> None:
        """Take ``cost`` from ``address``'s bucket, into debt if need be (:meth:`Bucket.charge`)."""
        bucket = self.buckets.pop(address, None) or Bucket(self.rate, self.burst)
        self.buckets[address] = bucket
        if len(self.buckets) > self.keep:
            self._forget_one()
        bucket.charge(self.clock(), cost)

    def give_back(self, address: str, cost: float = 1.0) -> None:
        """What :meth:`allow` took, returned (up to the burst): the request turned out not to count."""
        bucket = self.buckets.get(address)
        if bucket is not None:
            bucket.tokens = min(bucket.burst, bucket.tokens + cost)

    def peek(self, address: str) -> bool:
        """Whether one more would be allowed, without taking it."""
        bucket = self.buckets.get(address)
        return bucket is None or bucket.left(self.clock()) >= 1.0
