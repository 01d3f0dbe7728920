"""Your own bot: one small Python function, loaded from a file or a module, played in a process of its own.

A bot is a function of the seat's view, the legal moves and a random generator::

    def choose(view, moves, rng):
        return "camp" if view.carried >= 10 else "deeper"

It may take fewer arguments (``choose(view)`` or ``choose(view, moves)``).  It is named
on the command line as ``path/to/mybot.py`` (the function ``choose`` in it),
``path/to/mybot.py:name`` (another function in it) or ``package.module:function``.

**The boundary.**  A user bot runs in a process of its own (:class:`BotProcess`), started
fresh (``spawn``: it never held a game) by the process that plays the games.  At each
decision it is sent a copy of its seat's view (``view.snapshot()``: the same API over what
that seat may know, nothing else), the legal moves and a seed for its random generator (a
one-way hash of the game's generator, so the bot cannot work the deck's generator out from
it); it answers with a move, as JSON.  The game's state never enters the bot's process, so a
bot cannot read the next card or change a score, and nothing from the bot's process is
unpickled by the one that plays.  This is not a sandbox: the bot is a program with the
user's rights (files, network, other processes where the system lets it read them).

**Guard.**  Each decision runs under two limits:

* at the time limit, :class:`BotTimeout` is raised inside the bot, so the report shows
  where the bot was (its own frames), for a bot looping in Python or waiting.  Where the
  system has ``setitimer`` (Linux, macOS) a wall-clock timer's ``SIGALRM`` raises it, which
  also cuts a ``sleep`` or a wait short; elsewhere (Windows) a watchdog thread of the bot's
  process raises it in the bot's thread (``PyThreadState_SetAsyncExc``), at its next Python step;
* a little later (:func:`hard_limit`), for a bot stuck inside C code, where no Python can
  run: the playing process, which waits for the answer, ends the bot's process and names
  the bot.  Ending a process works the same on every system.

A bot that raises gets its exception reported with the traceback of its own frames
(gemtable's frames are left out); a bot that returns a move that is not legal is
reported with the move and the legal ones.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib
import importlib.util
import inspect
import multiprocessing
import pickle
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

import msgspec

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


# --- the guard, in the bot's process ------------------------------------------------------


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
    """The time limit as a thread that raises :class:`BotTimeout` in the bot's thread at the deadline
    (every system; used where there is no ``setitimer``)."""

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


def _illegal(name: str, move: object, moves: Sequence[str], where: str) -> BotFailure:
    shown = ", ".join(map(repr, list(moves)[:12])) + (" …" if len(moves) > 12 else "")
    return BotFailure(
        name, "illegal", f"bot {name!r} returned {move!r:.80}{where}, which is not a legal move; legal: {shown}"
    )


class GuardedBot:
    """A user bot under a time limit, in its own process; its failures become :class:`BotFailure`."""

    def __init__(self, spec: UserBotSpec, limit: float) -> None:
        self.name = spec.name
        self.limit = limit
        self._choose = load(spec)
        self.where = ""
        """The game and seat being decided, for reports."""
        self._clock = _clock()

    def choose(self, view: Any, moves: Sequence[str], rng: random.Random) -> str:
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
        if time.perf_counter() - started > self.limit:  # it swallowed the alarm
            raise BotFailure(
                self.name,
                "timeout",
                f"bot {self.name!r} took longer than {self.limit:g} s to decide"
                f"{self.where} (and caught the signal that should have stopped it)",
            )
        if not isinstance(move, str) or move not in moves:
            raise _illegal(self.name, move, moves, self.where)
        return move


class Reply(msgspec.Struct, forbid_unknown_fields=True):
    """The bot's process's answer: ``ready`` (loaded), ``move``, or a failure's kind and report."""

    kind: str
    move: str = ""
    text: str = ""


_encode = msgspec.json.encode
_decode_reply = msgspec.json.Decoder(Reply).decode


def serve(spec: UserBotSpec, limit: float, conn: Any) -> None:
    """The bot's process: load the bot, then answer decisions until the pipe closes."""
    try:
        bot = GuardedBot(spec, limit)
    except BotFailure as failure:
        conn.send_bytes(_encode(Reply(failure.kind, text=failure.text)))
        return
    conn.send_bytes(_encode(Reply("ready")))
    while True:
        try:
            view, moves, seed, bot.where = pickle.loads(conn.recv_bytes())
        except EOFError:  # the playing process is done (or gone)
            return
        try:
            reply = Reply("move", move=bot.choose(view, moves, random.Random(seed)))
        except BotFailure as failure:
            reply = Reply(failure.kind, text=failure.text)
        conn.send_bytes(_encode(reply))


# --- the guard, in the playing process -------------------------------------------------------

LOAD_LIMIT = 60.0
"""Seconds a bot's process may take to start and load the bot (a fresh interpreter importing gemtable)."""
ENDING = 10.0
"""Seconds a bot's process is given to exit by itself once its work is done (it takes a fraction of a second;
one killed while it saves a coverage measurement leaves a broken file)."""
MAX_REPLY = 1 << 16
"""Bytes of one answer from a bot's process; a longer one is a broken bot."""


def hard_limit(limit: float) -> float:
    """Seconds after which a call that the time limit could not interrupt has its process ended."""
    return limit * 2 + 1.0


def _bot_seed(rng: random.Random) -> int:
    """A seed for the bot's generator: a one-way function of the game's generator."""
    word = rng.getrandbits(64).to_bytes(8, "little")
    return int.from_bytes(hashlib.blake2b(word, digest_size=8, person=b"gemtable-bot").digest(), "little")


class BotProcess:
    """A user bot in a process of its own, as the playing process sees it: ``choose`` sends a copy of
    the seat's view and waits for the move, under the hard limit."""

    def __init__(self, spec: UserBotSpec, limit: float) -> None:
        self.name = spec.name
        self.limit = limit
        self.where = ""
        """The game and seat being decided, for reports."""
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: it never held a game
        self._conn, child = context.Pipe()
        self._process = context.Process(
            target=serve, args=(spec, limit, child), name=f"gemtable-bot-{spec.name}", daemon=True
        )
        self._process.start()
        child.close()
        reply = self._receive(LOAD_LIMIT, f"bot {self.name!r} did not load within {LOAD_LIMIT:g} s")
        if reply.kind != "ready":
            self.end(at_once=True)
            raise BotFailure(self.name, reply.kind, reply.text)

    def choose(self, view: Any, moves: Sequence[str], rng: random.Random) -> str:
        legal = list(moves)
        self._conn.send_bytes(pickle.dumps((view.snapshot(), legal, _bot_seed(rng), self.where), protocol=5))
        late = (
            f"bot {self.name!r} did not answer within {self.limit:g} s and could not be interrupted "
            f"(stuck inside C code){self.where}; its process was ended"
        )
        reply = self._receive(hard_limit(self.limit), late)
        if reply.kind != "move":
            self.end(at_once=True)
            raise BotFailure(self.name, reply.kind, reply.text)
        if reply.move not in legal:  # checked here too: the answer comes from the bot's process
            self.end(at_once=True)
            raise _illegal(self.name, reply.move, legal, self.where)
        return reply.move

    def _receive(self, seconds: float, late: str) -> Reply:
        conn = self._conn
        try:
            if not conn.poll(seconds):
                self.end(at_once=True)
                raise BotFailure(self.name, "killed", late)
            return _decode_reply(conn.recv_bytes(MAX_REPLY))
        except (EOFError, OSError, msgspec.DecodeError) as exc:
            self.end(at_once=True)
            code = self._process.exitcode
            why = f"ended (exit code {code})" if code is not None else f"broke its pipe ({type(exc).__name__})"
            raise BotFailure(self.name, "died", f"bot {self.name!r}'s process {why}{self.where}") from None

    def end(self, at_once: bool = False) -> None:
        """End the bot's process: its pipe is closed, so it returns and exits as a process does (its atexit
        handlers run: a coverage measurement is saved); one that has not within :data:`ENDING` seconds, or a
        failed one (``at_once``), is killed."""
        self._conn.close()
        if not at_once:
            self._process.join(ENDING)
        if self._process.is_alive():
            self._process.kill()  # SIGKILL; TerminateProcess on Windows
        self._process.join(10)
