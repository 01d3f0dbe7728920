"""Bytes of table log per address (issue 43, finding 5): one device cannot make the disk keep what it likes.

Each address's commands may write ``Limits.write_burst`` bytes of log at once, refilled at
``Limits.write_bytes_per_hour`` (``Hub._command``); past that its commands are refused with ``slow-down``
until the debt is paid, while other addresses play on.  A real server (tuned to a small budget), phones from
loopback addresses."""

from __future__ import annotations

from collections.abc import Callable

from gemtable.server.limits import AddressLimiter, Bucket
from tests.security.conftest import TunedServer, clean_log
from tests.security.test_refusals import phone_from
from tests.server.test_game_flow import run

BURST = 3000.0
"""Bytes: some twenty changes of the settings."""


def test_an_address_past_its_bytes_is_refused_and_another_writes_on(tuned: Callable[..., TunedServer]) -> None:
    server = tuned(write_burst=BURST, write_bytes_per_hour=3600.0)  # refilled at a byte a second
    mine, theirs = server.create_table(), server.create_table()

    async def scenario() -> None:
        ann = await phone_from(server, "127.51.0.1")
        await ann.join(mine, "Ann")
        accepted: list[int] = []
        refused = None
        for i in range(200):
            mark, seconds = len(ann.frames), (20, 10)[i % 2]
            await ann.change_settings(seconds=seconds)
            answered = lambda s, n=seconds, m=mark: s["settings"]["seconds"] == n or ann.errors_since(m) != []  # noqa: E731
            await ann.until(answered, after=mark)
            errors = ann.errors_since(mark)
            if errors:
                refused = errors[0]
                break
            accepted.append(seconds)
        assert refused is not None and refused["code"] == "slow-down", refused
        assert "written a great deal" in refused["message"]
        assert 5 < len(accepted) < 200
        state = await ann.hello(mine)  # nothing half-written: the table holds the last change accepted
        assert state["settings"]["seconds"] == accepted[-1]
        ben = await phone_from(server, "127.51.0.2")  # another address, at its own table, writes on
        await ben.join(theirs, "Ben")
        await ben.change_settings(seconds=30)
        assert (await ben.until(lambda s: s["settings"]["seconds"] == 30))["settings"]["seconds"] == 30
        await ann.close()
        await ben.close()

    run(scenario())
    clean_log(server)


def test_a_bucket_charged_past_empty_is_in_debt_until_refilled() -> None:
    now = [0.0]
    limiter = AddressLimiter(rate=10.0, burst=100.0, clock=lambda: now[0])
    assert limiter.peek("a")
    limiter.charge("a", 250.0)  # a cost known once spent: taken whole
    assert not limiter.peek("a")
    now[0] = 15.0  # 150 back: still 0 of 100
    assert not limiter.peek("a")
    now[0] = 15.2
    assert limiter.peek("a") and limiter.allow("a")
    fresh = Bucket(rate=1.0, burst=5.0)
    assert fresh.left(123.0) == 5.0 and fresh.take(123.0, 5.0) and not fresh.take(123.0)
