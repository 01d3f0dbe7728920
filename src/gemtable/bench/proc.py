"""What the system says about a process: CPU time, resident memory, who listens on a port.

Read from ``/proc`` where there is one (Linux: cheap enough to sample while a benchmark runs), and through
psutil elsewhere (macOS, Windows)."""

from __future__ import annotations

import os
from pathlib import Path

from gemtable.machine import allowed_cores

PROC = Path("/proc")
HAS_PROC = (PROC / "self" / "stat").exists()
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU seconds used so far by ``pid`` (None if it cannot be read)."""
    if not HAS_PROC:
        return _psutil_cpu(pid)
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
    if not HAS_PROC:
        return _psutil_rss(pid)
    try:
        for line in (PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def listening_pids(port: int) -> list[int]:
    """The processes holding a listening TCP socket on ``port`` (those this user may look into)."""
    if not HAS_PROC:
        return _psutil_listening(port)
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
    cores = allowed_cores()
    return len(cores) if cores else (os.cpu_count() or 1)


def machine_busy_seconds() -> float | None:
    """CPU seconds spent busy by every core of the machine so far (from /proc/stat), or None."""
    if not HAS_PROC:
        import psutil

        times = psutil.cpu_times()
        return float(sum(times) - times.idle - getattr(times, "iowait", 0.0))
    try:
        first = (PROC / "stat").read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return None
    if first[0] != "cpu":
        return None
    ticks = [int(value) for value in first[1:9]]  # user nice system idle iowait irq softirq steal
    return (sum(ticks) - ticks[3] - ticks[4]) / _TICKS


def _psutil_cpu(pid: int) -> float | None:
    import psutil

    try:
        times = psutil.Process(pid).cpu_times()
    except psutil.Error:
        return None
    return float(times.user + times.system)


def _psutil_rss(pid: int) -> int | None:
    import psutil

    try:
        return int(psutil.Process(pid).memory_info().rss // 1024)
    except psutil.Error:
        return None


def _psutil_listening(port: int) -> list[int]:
    import psutil

    try:
        found = {
            c.pid
            for c in psutil.net_connections("tcp")
            if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid
        }
    except (psutil.Error, OSError):
        return []
    return sorted(p for p in found if p is not None)
