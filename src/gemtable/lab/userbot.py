"""Your own bot: one small Python function, loaded from a file or a module, played under guard.

A bot is a function of the seat's view, the legal moves and a random generator::

    def choose(view, moves, rng):
        return "camp" if view.carried >= 10 else "deeper"

It may take fewer arguments (``choose(view)`` or ``choose(view, moves)``).  It is named
on the command line as ``path/to/mybot.py`` (the function ``choose`` in it),
``path/to/mybot.py:name`` (another function in it) or ``package.module:function``.

**Guard.**  User bots only ever run in worker processes, never in the process that
prints the results.  Each decision runs under two limits:

* at the time limit, :class:`BotTimeout` is raised inside the bot, so the report shows
  where the bot was (its own frames), for a bot looping in Python or waiting.  Where the
  system has ``setitimer`` (Linux, macOS) a wall-clock timer's ``SIGALRM`` raises it, which
  also cuts a ``sleep`` or a wait short; elsewhere (Windows) a watchdog thread of the worker
  raises it in the bot's thread (``PyThreadState_SetAsyncExc``), at its next Python step;
* a little later (:func:`hard_limit`), for a bot stuck inside C code, where no Python can
  run: the parent process ends the worker (every worker notes its pid, the bot and the start
  of its open call in shared memory, which the parent watches), the pool breaks, and the
  parent names the bot whose call was open.  Ending a process works the same on every system.

A bot that raises gets its exception reported with the traceback of its own frames
(gemtable's frames are left out); a bot that returns a move that is not legal is
reported with the move and the legal ones.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import importlib.util
import inspect
import os
import random
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

from gemtable.games.api import GameError

_PACKAGE_DIR = str(Path(__file__).resolve().parents[1])
"""gemtable's own source folder: frames from here are ours, not the user's."""


class BotFailure(GameError):
    """A user bot raised, took too long or returned an illegal move.  ``str()`` is the whole report."""

    def __init__(self, bot: str, kind: str, text: str) -> None:
        super().__init__(text)
        self.bot = bot
        self.kind = kind
        self.text = text

    def __reduce__(self) -> tuple[Any, ...]:  # crosses the process boundary intact
        return (BotFailure, (self.bot, self.kind, self.text))


class BotTimeout(BaseException):
    """Raised inside a bot at its time limit (a BaseException: ``except Exception`` cannot swallow it)."""


@dataclass(frozen=True)
class UserBotSpec:
    """Where a user bot lives: a file or a module, and the function's name."""

    spec: str
    name: str
    path: str | None
    module: str | None
    function: str


def parse_spec(spec: str) -> UserBotSpec:
    """``file.py``, ``file.py:function`` or ``module:function``; :class:`GameError` when it is neither."""
    target, function, named = spec, "choose", False
    head, sep, tail = spec.rpartition(":")
    if sep and head and tail.isidentifier():
        target, function, named = head, tail, True
    if target.endswith(".py") or "/" in target or Path(target).is_file():
        path = Path(target).expanduser()
        if not path.is_file():
            raise GameError(f"no bot file {target!r}")
        name = path.stem if function == "choose" else f"{path.stem}.{function}"
        return UserBotSpec(spec, name, str(path.resolve()), None, function)
    if not named:
        raise GameError(f"a bot is path/to/bot.py, path/to/bot.py:function or module:function, not {spec!r}")
    return UserBotSpec(spec, function if function != "choose" else target.rpartition(".")[2], None, target, function)


def _user_frames(tb: TracebackType | None) -> list[traceback.FrameSummary]:
    """The frames of a traceback that are not gemtable's own."""
    frames = traceback.extract_tb(tb)
    return [f for f in frames if not f.filename.startswith(_PACKAGE_DIR) and not f.filename.startswith("<frozen")]


def format_user_error(exc: BaseException, header: str) -> str:
    """A report of ``exc`` with the user's frames only."""
    lines = [header, "Traceback (most recent call last):\n"]
    lines += traceback.format_list(_user_frames(exc.__traceback__))
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines).rstrip("\n")


Choose = Callable[[Any, Sequence[str], random.Random], str]


def load(spec: UserBotSpec) -> Choose:
    """The bot's function, called with (view, moves, rng) whatever its own arity."""
    try:
        if spec.path is not None:
            module_name = f"gemtable_user_bot_{abs(hash(spec.path)):x}"
            if module_name in sys.modules:
                module = sys.modules[module_name]
            else:
                loader = importlib.util.spec_from_file_location(module_name, spec.path)
                if loader is None or loader.loader is None:
                    raise GameError(f"cannot load {spec.path!r} as Python")
                module = importlib.util.module_from_spec(loader)
                sys.modules[module_name] = module
                try:
                    loader.loader.exec_module(module)
                except BaseException:
                    del sys.modules[module_name]
                    raise
        else:
            assert spec.module is not None
            module = importlib.import_module(spec.module)
    except GameError:
        raise
    except Exception as exc:
        report = format_user_error(exc, f"bot {spec.name!r} could not be loaded:\n")
        raise BotFailure(spec.name, "load", report) from None
    function = getattr(module, spec.function, None)
    if not callable(function):
        raise BotFailure(spec.name, "load", f"bot {spec.name!r}: {spec.spec!r} has no function {spec.function!r}")
    return _with_three_arguments(function, spec.name)


def _with_three_arguments(function: Callable[..., Any], name: str) -> Choose:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return function
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(p.kind == p.VAR_POSITIONAL for p in parameters) or len(positional) >= 3:
        return function
    if len(positional) == 2:
        return lambda view, moves, rng: function(view, moves)
    if len(positional) == 1:
        return lambda view, moves, rng: function(view)
    raise BotFailure(name, "load", f"bot {name!r}: its function takes (view, moves, rng), or fewer, not nothing")


# --- the guard, in a worker process ---------------------------------------------------------

FIELDS = 3
"""Per worker in the shared table of open calls: bot index + 1 (0: none), start of its open call, pid."""
_SLOTS: Any = None
_SLOT = -1


def new_slots(context: Any, workers: int) -> Any:
    """The shared table of open calls for ``workers`` worker processes (``context``: a multiprocessing context)."""
    return context.RawArray("d", FIELDS * workers)


def init_worker(slots: Any, counter: Any) -> None:
    """Pool initializer: take a slot in the shared table of open calls."""
    global _SLOTS, _SLOT
    with counter.get_lock():
        _SLOT = counter.value
        counter.value += 1
    _SLOTS = slots
    slots[FIELDS * _SLOT + 2] = os.getpid()


def hard_limit(limit: float) -> float:
    """Seconds after which a call that the time limit could not interrupt has its worker ended."""
    return limit * 2 + 1.0


class _Alarm:
    """The time limit as a wall-clock timer (``SIGALRM``), where the system has ``setitimer``."""

    def __init__(self) -> None:
        if sys.platform != "win32":
            signal.signal(signal.SIGALRM, _on_alarm)

    def arm(self, seconds: float) -> None:
        if sys.platform != "win32":
            signal.setitimer(signal.ITIMER_REAL, seconds)

    def disarm(self) -> None:
        if sys.platform != "win32":
            signal.setitimer(signal.ITIMER_REAL, 0)


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise BotTimeout


class _Watchdog:
    """The time limit as a thread of the worker that raises :class:`BotTimeout` in the bot's thread at
    the deadline (every system; used where there is no ``setitimer``)."""

    def __init__(self) -> None:
        self.target = threading.get_ident()
        self.deadline: float | None = None
        self.armed = 0
        """Counts the calls armed, so that a late wake-up never stops the next call."""
        self.changed = threading.Condition()
        threading.Thread(target=self._watch, name="gemtable-bot-clock", daemon=True).start()

    def arm(self, seconds: float) -> None:
        with self.changed:
            self.deadline = time.monotonic() + seconds
            self.armed += 1
            self.changed.notify()

    def disarm(self) -> None:
        with self.changed:
            self.deadline = None
            self.changed.notify()

    def _watch(self) -> None:
        with self.changed:
            while True:
                if self.deadline is None:
                    self.changed.wait()
                    continue
                left = self.deadline - time.monotonic()
                if left > 0:
                    self.changed.wait(left)
                    continue
                self.deadline = None
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.target), ctypes.py_object(BotTimeout))


def _clock() -> _Alarm | _Watchdog:
    if sys.platform != "win32" and hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM"):
        return _Alarm()
    return _Watchdog()


class GuardedBot:
    """A user bot under a time limit; its failures become :class:`BotFailure`."""

    def __init__(self, spec: UserBotSpec, index: int, limit: float) -> None:
        self.name = spec.name
        self.index = index
        self.limit = limit
        self._choose = load(spec)
        self.where = ""
        """The game and seat being decided, for reports."""
        self._clock = _clock()

    def choose(self, view: Any, moves: Sequence[str], rng: random.Random) -> str:
        slots, slot = _SLOTS, _SLOT
        if slots is not None and slot >= 0:
            slots[FIELDS * slot] = self.index + 1
            slots[FIELDS * slot + 1] = time.monotonic()
        started = time.perf_counter()
        try:
            self._clock.arm(self.limit)
            try:
                move = self._choose(view, moves, rng)
            finally:
                self._clock.disarm()
        except BotTimeout as exc:
            header = f"bot {self.name!r} took longer than {self.limit:g} s to decide{self.where}; stopped here:\n"
            report = format_user_error(exc, header).replace("gemtable.lab.userbot.BotTimeout", "(stopped: time limit)")
            raise BotFailure(self.name, "timeout", report) from None
        except Exception as exc:
            raise BotFailure(
                self.name, "error", format_user_error(exc, f"bot {self.name!r} raised an exception{self.where}:\n")
            ) from None
        finally:
            if slots is not None and slot >= 0:
                slots[FIELDS * slot] = 0
        if time.perf_counter() - started > self.limit:  # it swallowed the alarm
            raise BotFailure(
                self.name,
                "timeout",
                f"bot {self.name!r} took longer than {self.limit:g} s to decide"
                f"{self.where} (and caught the signal that should have stopped it)",
            )
        if move not in moves:
            shown = ", ".join(map(repr, list(moves)[:12])) + (" …" if len(moves) > 12 else "")
            raise BotFailure(
                self.name,
                "illegal",
                f"bot {self.name!r} returned {move!r:.80}{self.where}, which is not a legal move; legal: {shown}",
            )
        return move


# --- the guard, in the parent process --------------------------------------------------------


class Overseer:
    """A thread of the parent that ends a worker whose bot call has been open past :func:`hard_limit`
    (a bot stuck in C code cannot be interrupted from inside its process on any system)."""

    def __init__(self, slots: Any, limit: float, every: float = 0.05) -> None:
        self.slots = slots
        self.limit = hard_limit(limit)
        self.every = every
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="gemtable-bot-overseer", daemon=True)

    def __enter__(self) -> Overseer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join()

    def _watch(self) -> None:
        import psutil

        slots = self.slots
        while not self.stopped.wait(self.every):
            now = time.monotonic()
            for i in range(len(slots) // FIELDS):
                bot, start, pid = slots[FIELDS * i], slots[FIELDS * i + 1], int(slots[FIELDS * i + 2])
                if bot and pid and now - start > self.limit:
                    with contextlib.suppress(psutil.Error):
                        psutil.Process(pid).kill()  # SIGKILL; TerminateProcess on Windows


def killed_report(slots: Any, names: Sequence[str], limit: float) -> BotFailure | None:
    """After a worker died: the user bot whose call had been open longest, if any."""
    if slots is None:
        return None
    now = time.monotonic()
    open_calls = [
        (now - slots[FIELDS * i + 1], int(slots[FIELDS * i]) - 1)
        for i in range(len(slots) // FIELDS)
        if slots[FIELDS * i]
    ]
    if not open_calls:
        return None
    _, index = max(open_calls)
    name = names[index] if 0 <= index < len(names) else "?"
    return BotFailure(
        name,
        "killed",
        f"bot {name!r} did not answer within {limit:g} s and could not be interrupted "
        "(stuck inside C code); its worker process was ended",
    )
