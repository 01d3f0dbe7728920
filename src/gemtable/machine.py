"""What differs between the machines gemtable runs on — Linux, macOS, Windows — kept in one place.

Everything a user runs (``serve``, ``simulate``, the lab, ``replay``, ``bench``) imports only portable
modules at import time; the few things only some systems have are asked for here, at the moment they
are needed, and each has an answer on every system:

* :func:`data_home`: where the data folder lives by default (platformdirs: ``~/.local/share/gemtable``
  on Linux, ``~/Library/Application Support/gemtable`` on macOS, ``%LOCALAPPDATA%\\gemtable`` on Windows);
* :class:`FolderLock`: one process per data folder, with SQLite's own file locking (POSIX advisory
  locks on Linux and macOS, ``LockFileEx`` on Windows), which the system releases when the process ends,
  however it ends;
* :func:`raise_open_files`: the open-file limit, where the system has one (``resource``, POSIX only);
* :func:`allowed_cores` / :func:`pin_to_cores`: CPU affinity for the benchmarks, where the system has it
  (Linux and Windows through psutil; macOS has none, and the benchmarks then say they are not pinned).
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from pathlib import Path

APP = "gemtable"


def data_home() -> Path:
    """The default data folder of this user on this system (``XDG_DATA_HOME`` is honoured on Linux)."""
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


class FolderBusy(RuntimeError):
    """Another process holds this data folder."""


class FolderLock:
    """An exclusive lock on a data folder, held for the life of this object (or of the process).

    It is an SQLite transaction on ``gemtable.lock`` in the folder, begun ``EXCLUSIVE`` and never ended:
    a second process's ``BEGIN EXCLUSIVE`` fails at once.  No lock file is left behind to clear by hand:
    the lock is the system's, and goes with the process that held it (``kill -9`` and power cuts
    included)."""

    NAME = "gemtable.lock"

    def __init__(self, folder: Path) -> None:
        self.path = folder / self.NAME
        self._db: sqlite3.Connection | None = None

    def acquire(self) -> FolderLock:
        db = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=DELETE")
            db.execute("BEGIN EXCLUSIVE")
        except sqlite3.OperationalError as exc:
            db.close()
            if "locked" in str(exc) or "busy" in str(exc):
                raise FolderBusy(str(self.path.parent)) from None
            raise
        except sqlite3.DatabaseError:  # not an SQLite file (an older gemtable's empty lock file is one)
            db.close()
            raise
        self._db = db
        return self

    def release(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


OPEN_MAX = 10240
"""macOS's per-process ceiling on open files (``<sys/syslimits.h>``): its ``setrlimit(2)`` refuses a soft limit
above ``kern.maxfilesperproc`` even where the hard limit is ``RLIM_INFINITY``, and advises
``min(OPEN_MAX, rlim_max)``."""


def free_bytes(folder: Path) -> int | None:
    """Bytes free for this user on the file system that holds ``folder`` (None if it cannot be told): the
    standard library's ``shutil.disk_usage``, on every system."""
    import shutil

    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def raise_open_files() -> tuple[int, int] | None:
    """Raise this process's open-file soft limit as far as the system allows, where it has such a limit:
    the limits before and after (the same if it could not), or None where there is none (Windows, whose
    sockets are not bounded by a per-process limit of this kind).

    The hard limit is asked for first (or 2^20 where the hard limit is infinite, as on macOS); a system that
    refuses it is asked for its own per-process maximum (macOS: ``kern.maxfilesperproc``, then ``OPEN_MAX``),
    so that a Mac does not stay at its shell's 256."""
    if sys.platform == "win32":
        return None
    try:
        import resource
    except ImportError:  # a POSIX system without it (or a test that hides it): nothing to raise
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return soft, soft
    infinite = hard == resource.RLIM_INFINITY
    wants = [hard if not infinite else max(soft, 1 << 20), *_platform_maximums()]
    for want in sorted({w if infinite else min(w, hard) for w in wants}, reverse=True):
        if want <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError):
            continue
        return soft, want
    return soft, soft


def _platform_maximums() -> list[int]:
    """The system's own ceilings on a process's open files, where it has them beyond the hard limit: on macOS
    ``kern.maxfilesperproc`` (through ``sysctlbyname``) and ``OPEN_MAX``; elsewhere none."""
    if sys.platform != "darwin":
        return []
    found = [OPEN_MAX]
    with contextlib.suppress(Exception):  # no libc, no such name: OPEN_MAX alone
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        value, size = ctypes.c_int(0), ctypes.c_size_t(ctypes.sizeof(ctypes.c_int))
        if libc.sysctlbyname(b"kern.maxfilesperproc", ctypes.byref(value), ctypes.byref(size), None, 0) == 0:
            found.append(value.value)
    return [n for n in found if n > 0]


def open_files_at_least(needed: int) -> None:
    """The benchmarks open thousands of sockets: raise the soft limit to ``needed`` where there is one."""
    if sys.platform == "win32":
        return
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(
                resource.RLIMIT_NOFILE, (needed if hard == resource.RLIM_INFINITY else min(needed, hard), hard)
            )


def allowed_cores(pid: int = 0) -> set[int] | None:
    """The cores ``pid`` (0: this process) may run on, or None where the system cannot say."""
    import psutil

    try:
        process = psutil.Process(pid or None)
        get = getattr(process, "cpu_affinity", None)  # Linux, Windows, FreeBSD; not macOS
        return set(get()) if get is not None else None
    except (psutil.Error, OSError):
        return None


def pin_to_cores(pid: int, cores: set[int]) -> bool:
    """Keep ``pid`` (0: this process) on ``cores``; False where the system has no CPU affinity."""
    import psutil

    try:
        process = psutil.Process(pid or None)
        set_affinity = getattr(process, "cpu_affinity", None)
        if set_affinity is None:
            return False
        set_affinity(sorted(cores))
        return True
    except (psutil.Error, OSError, ValueError):
        return False


__all__ = [
    "FolderBusy",
    "FolderLock",
    "allowed_cores",
    "data_home",
    "open_files_at_least",
    "pin_to_cores",
    "raise_open_files",
]
