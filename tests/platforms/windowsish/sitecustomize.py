"""Shows gemtable's own code a Windows-like Python, as far as Linux allows, in every process started with
this folder on ``PYTHONPATH`` (the worker processes of a simulation included).

To gemtable's modules (and only to them: the libraries under them run as they do on Linux, where psutil,
for one, needs ``resource``):

* the modules only POSIX systems have cannot be imported, at import time or later;
* ``sys.platform`` is ``"win32"``, so every ``sys.platform`` branch takes its Windows side;
* ``signal`` has no ``SIGALRM``, ``setitimer``, ``SIGKILL`` … and ``os`` no CPU affinity, ``fork``, user ids
  or load average, as on Windows.

For the whole process, ``multiprocessing`` starts its processes with ``spawn`` (Windows' and macOS'
default).  What it cannot show: Windows' own system calls (its file locking, its sockets, its consoles'
code pages) — the project's portable seams use each system's own through the standard library and
well-kept libraries, and are written to be right there by construction (docs/deploy.md).
"""

from __future__ import annotations

import builtins
import multiprocessing
import os
import signal
import sys
import types
from typing import Any

POSIX_ONLY = frozenset(
    {"fcntl", "resource", "termios", "tty", "pty", "pwd", "grp", "syslog", "crypt", "nis", "spwd", "posix"}
)
HIDDEN = {
    "signal": {
        "SIGALRM",
        "SIGKILL",
        "SIGPROF",
        "SIGVTALRM",
        "SIGHUP",
        "SIGQUIT",
        "SIGUSR1",
        "SIGUSR2",
        "SIGCHLD",
        "setitimer",
        "getitimer",
        "ITIMER_REAL",
        "ITIMER_PROF",
        "ITIMER_VIRTUAL",
        "alarm",
        "pause",
        "siginterrupt",
        "pthread_kill",
        "pthread_sigmask",
    },
    "os": {
        "sched_setaffinity",
        "sched_getaffinity",
        "fork",
        "forkpty",
        "getuid",
        "geteuid",
        "getgid",
        "getloadavg",
        "nice",
        "killpg",
        "setsid",
        "sysconf",
        "uname",
        "getpgid",
        "setpgrp",
        "chown",
    },
}


class Seen(types.ModuleType):
    """A module as gemtable sees it: the real one (read live), less what Windows' has not, plus ``extra``."""

    def __init__(self, real: types.ModuleType, hidden: set[str], **extra: Any) -> None:
        super().__init__(real.__name__)
        object.__setattr__(self, "_real", real)
        object.__setattr__(self, "_hidden", hidden)
        self.__dict__.update(extra)

    def __getattr__(self, name: str) -> Any:
        if name in self._hidden:
            raise AttributeError(
                f"module {self.__name__!r} has no attribute {name!r} (hidden: this test plays Windows)"
            )
        return getattr(self._real, name)


VIEWS = {
    "signal": Seen(signal, HIDDEN["signal"]),
    "os": Seen(os, HIDDEN["os"]),
    "sys": Seen(sys, set(), platform="win32"),
}
_real_import = builtins.__import__


def _import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
    importer = (globals or {}).get("__name__", "") if isinstance(globals, dict) else ""
    if level == 0 and (importer == "gemtable" or str(importer).startswith("gemtable.")):
        top = name.partition(".")[0]
        if top in POSIX_ONLY:
            raise ModuleNotFoundError(f"No module named {name!r} (hidden: this test plays Windows)", name=name)
        if name in VIEWS:
            return VIEWS[name]
    return _real_import(name, globals, locals, fromlist, level)


builtins.__import__ = _import
multiprocessing.set_start_method("spawn", force=True)
os.environ["GEMTABLE_WINDOWSISH"] = "1"

import warnings  # noqa: E402

# gemtable's own code never opens a text file in the system's encoding (cp1252 on a Western Windows):
# with PYTHONWARNDEFAULTENCODING=1 (the test sets it), an open() without encoding= is an error there.
warnings.filterwarnings("error", category=EncodingWarning, module=r"gemtable(\.|$)")
