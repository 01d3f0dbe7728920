"""The open-file limit on a Mac, with its system calls simulated (no macOS here): ``setrlimit`` there refuses a
soft limit above ``kern.maxfilesperproc`` even though the hard limit is ``RLIM_INFINITY``, so asking for 2^20
alone left the server at the shell's 256 open files (a small room for a party, and a slow-read attack needs
only ~250 connections).  The server retries with the platform's own maximum and logs where it ends."""

from __future__ import annotations

import logging
import sys
import types

import pytest

from gemtable import machine
from gemtable.server.guard import guard_server
from gemtable.server.limits import Limits

INFINITY = 2**63 - 1


class MacResource(types.ModuleType):
    """``resource`` as macOS answers it: soft 256, hard infinite, and no soft limit above ``maxfilesperproc``."""

    RLIMIT_NOFILE = 8
    RLIM_INFINITY = INFINITY

    def __init__(self, maxfilesperproc: int) -> None:
        super().__init__("resource")
        self.maxfilesperproc = maxfilesperproc
        self.limits = (256, INFINITY)
        self.asked: list[int] = []

    def getrlimit(self, which: int) -> tuple[int, int]:
        assert which == self.RLIMIT_NOFILE
        return self.limits

    def setrlimit(self, which: int, limits: tuple[int, int]) -> None:
        self.asked.append(limits[0])
        if limits[0] > self.maxfilesperproc:
            raise ValueError("current limit exceeds maximum limit")  # what CPython raises for EINVAL
        self.limits = limits


@pytest.fixture
def mac(monkeypatch: pytest.MonkeyPatch) -> MacResource:
    fake = MacResource(maxfilesperproc=61440)
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setitem(sys.modules, "resource", fake)
    return fake


def test_a_mac_gets_its_maxfilesperproc_when_infinity_is_refused(
    mac: MacResource, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(machine, "_platform_maximums", lambda: [61440, machine.OPEN_MAX])
    assert machine.raise_open_files() == (256, 61440)
    assert mac.asked == [1 << 20, 61440] and mac.limits == (61440, INFINITY)


def test_without_the_sysctl_a_mac_falls_back_to_open_max(mac: MacResource) -> None:
    # On this Linux machine libc has no sysctlbyname: the lookup fails quietly and OPEN_MAX is what is left.
    assert machine._platform_maximums() == [machine.OPEN_MAX]
    assert machine.raise_open_files() == (256, machine.OPEN_MAX)
    assert mac.limits[0] == 10240


def test_a_system_that_refuses_everything_keeps_its_limit_and_the_log_says_so(
    mac: MacResource, caplog: pytest.LogCaptureFixture
) -> None:
    mac.maxfilesperproc = 100
    with caplog.at_level(logging.INFO, logger="gemtable"):
        guard_server(Limits())
    assert mac.limits == (256, INFINITY)
    assert "open files: the limit stays at 256" in caplog.text


def test_the_log_names_the_limit_it_ends_with(mac: MacResource, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="gemtable"):
        guard_server(Limits())
    assert "open files: raised the limit from 256 to 10240" in caplog.text


def test_linux_takes_its_hard_limit_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = MacResource(maxfilesperproc=INFINITY)
    fake.limits = (1024, 524288)
    monkeypatch.setitem(sys.modules, "resource", fake)
    monkeypatch.setattr(sys, "platform", "linux")
    assert machine.raise_open_files() == (1024, 524288) and fake.asked == [524288]
