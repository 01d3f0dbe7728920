"""Guessing codes from many IPv6 networks (issue 43 finding 6): a global IPv6 address counts against its /64, its
/48 and its /32, each with a budget of its own, and the limiter's eviction cannot be used to forget an attacker.
Against a real server, the addresses given by a proxy on this host (``X-Forwarded-For``, which uvicorn trusts from
127.0.0.1), as behind nginx on the internet."""

from __future__ import annotations

import http.client

from gemtable.server.limits import AddressLimiter, Limits, NetworkLimiter, address_key, wider_networks
from tests.server.harness import ServerProcess

LIMITS = Limits()


def miss(server: ServerProcess, address: str) -> int:
    """One try of an unknown code, from ``address``: its status (404 a miss answered, 429 refused)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request(
            "GET", "/api/tables/ZZZZ", headers={"Host": f"127.0.0.1:{server.port}", "X-Forwarded-For": address}
        )
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_a_48_gets_four_times_a_64s_tries_not_65536_times(tmp_path: object) -> None:
    from pathlib import Path

    server = ServerProcess(Path(str(tmp_path)) / "data", extra=[]).start()
    try:
        statuses = [miss(server, f"2001:db8:1:{n:x}::1") for n in range(100)]  # 100 /64s of one /48
        answered = statuses.count(404)
        wide = 4 * LIMITS.lookup_burst
        assert wide <= answered <= wide + 2, statuses  # (+2: what refilled meanwhile, at 24 a minute)
        assert set(statuses) == {404, 429}
        assert miss(server, "2001:db8:2::1") == 404  # another /48 has its own
    finally:
        server.stop()


def test_wider_networks_of_an_address() -> None:
    assert address_key("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert wider_networks("2001:db8:1:2::/64") == [("2001:db8:1::/48", 4.0), ("2001:db8::/32", 16.0)]
    assert wider_networks("192.0.2.7") == [] and wider_networks("fe80::1") == []


def test_a_32_has_its_own_budget() -> None:
    now = [0.0]
    limiter = NetworkLimiter(LIMITS.lookups_per_minute / 60, LIMITS.lookup_burst, clock=lambda: now[0])
    # 20 /48s of one /32, 12 tries each (each /48 could take 48): the /32's 192 run out first.
    allowed = sum(limiter.allow(f"2001:db8:{n:x}:{i:x}::/64") for n in range(20) for i in range(12))
    assert allowed == 16 * LIMITS.lookup_burst
    assert limiter.allow("2001:db9::/64")  # another /32
    limiter.give_back("2001:db8:1:1::/64")  # a hit gives back to every budget it took from
    assert limiter.allow("2001:db8:1:1::/64")


def test_an_attacker_cannot_push_its_own_drained_bucket_out() -> None:
    """A table of 4 buckets: an address drains its bucket, three more arrive, and 14 s later a fifth: the
    stalest bucket is the attacker's, still short of full; a newer one that has filled up again is forgotten
    instead (forgetting the attacker's would have given it a full bucket back)."""
    now = [0.0]
    limiter = AddressLimiter(rate=0.1, burst=2, keep=4, clock=lambda: now[0])
    assert limiter.allow("attacker") and limiter.allow("attacker") and not limiter.allow("attacker")
    now[0] = 1.0
    for name in ("a", "b", "c"):
        assert limiter.allow(name)  # one try each: full again 10 s later
    now[0] = 15.0
    assert limiter.allow("d")
    assert list(limiter.buckets) == ["attacker", "b", "c", "d"]  # "a" (full again) was forgotten, not the stalest
