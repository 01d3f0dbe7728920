"""The pieces of ``gemtable.server.guard`` on their own (tests/security/test_slowloris.py runs them in a server)."""

from __future__ import annotations

import logging
import sys
import time

from gemtable.server.guard import Guard, OncePerInterval
from gemtable.server.limits import Limits


def record(msg: str, name: str = "asyncio") -> logging.LogRecord:
    try:
        raise OSError(24, "Too many open files")
    except OSError:
        return logging.LogRecord(name, logging.ERROR, __file__, 1, msg, (), sys.exc_info())


def test_one_kind_of_line_is_written_once_per_interval_with_a_count() -> None:
    quiet = OncePerInterval(seconds=0.3)
    passed = [quiet.filter(record("socket.accept() out of system resource")) for _ in range(1000)]
    assert passed.count(True) == 1 and passed[0]
    assert quiet.filter(record("another message"))  # another kind has its own turn
    assert quiet.filter(record("socket.accept() out of system resource", name="uvicorn.error"))
    time.sleep(0.35)
    later = record("socket.accept() out of system resource")
    assert quiet.filter(later)
    assert "(and 999 more like it" in str(later.msg) and later.exc_info is None  # no traceback for the repeat


def test_the_kinds_remembered_are_bounded() -> None:
    quiet = OncePerInterval(seconds=60, kinds=100)
    for i in range(1000):
        assert quiet.filter(record(f"message {i}"))
    assert len(quiet.seen) <= 100


def test_unfinished_requests_are_counted_per_address_and_given_back() -> None:
    guard = Guard(Limits())
    assert all(guard.enter("192.168.1.7") for _ in range(16))
    assert not guard.enter("192.168.1.7") and guard.turned_away == 1
    assert guard.enter("192.168.1.8")
    guard.leave("192.168.1.7")
    assert guard.enter("192.168.1.7")
    for _ in range(17):
        guard.leave("192.168.1.7")
    assert "192.168.1.7" not in guard.unfinished  # nothing left behind
    assert all(guard.enter("127.0.0.1") for _ in range(100)) and "127.0.0.1" not in guard.unfinished
