"""What ``/proc`` says about a process: CPU time, resident memory, who listens on a port (Linux only)."""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU seconds used so far by ``pid`` (None if it cannot be read)."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces or brackets: split after its last ')'.
    fields = text[text.rindex(")") + 2 :].split()
    # fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (int(fields[11]) + int(fields[12])) / _TICKS


def rss_kib(pid: int) -> int | None:
    """Resident memory of ``pid`` in KiB (VmRSS), or None."""
    try:
        for line in (PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def listening_pids(port: int) -> list[int]:
    """The processes holding a listening TCP socket on ``port`` (those this user may look into)."""
    inodes: set[str] = set()
    for name in ("tcp", "tcp6"):
        try:
            lines = (PROC / "net" / name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) < 10 or parts[3] != "0A":  # 0A: LISTEN
                continue
            if int(parts[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(parts[9])
    if not inodes:
        return []
    wanted = {f"socket:[{inode}]" for inode in inodes}
    found: list[int] = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                if os.readlink(fd) in wanted:
                    found.append(int(entry.name))
                    break
        except OSError:
            continue
    return sorted(found)


def cpu_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def machine_busy_seconds() -> float | None:
    """CPU seconds spent busy by every core of the machine so far (from /proc/stat), or None."""
    try:
        first = (PROC / "stat").read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return None
    if first[0] != "cpu":
        return None
    ticks = [int(value) for value in first[1:9]]  # user nice system idle iowait irq softirq steal
    return (sum(ticks) - ticks[3] - ticks[4]) / _TICKS
