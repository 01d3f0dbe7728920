"""``gemtable serve``: one process, an SQLite file, an address and a QR code for the phones."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import socket
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import segno
import uvicorn

from gemtable.machine import FolderBusy, FolderLock, data_home
from gemtable.server import busy
from gemtable.server.app import create_app
from gemtable.server.guard import guard_server
from gemtable.server.limits import Limits
from gemtable.server.node import EMBEDDED_LEASE
from gemtable.server.site import Site, SiteError
from gemtable.server.websocket import PING_SECONDS, SmallDeflate
from gemtable.store import Store
from gemtable.store.sqlite import SqliteStore

WS_IMPL: str | type[SmallDeflate] = os.environ.get("GEMTABLE_WS") or SmallDeflate
"""uvicorn's WebSocket implementation: its sans-I/O one (uvicorn's own default, "auto", since 0.35) with a
smaller compressor per connection (``websocket.py``).  ``GEMTABLE_WS`` picks one of uvicorn's own
(``auto``, ``websockets-sansio``, ``wsproto``) for comparison; ``websockets`` (the legacy one) is deprecated
by uvicorn and warns at start."""

MAX_FRAME = 64 * 1024
"""Bytes: uvicorn closes a WebSocket that sends a bigger frame (the protocol refuses anything over 4 KiB)."""


class QuietBadText(logging.Filter):
    """uvicorn logs a whole traceback, as an error, for every text frame that is not UTF-8 — so any
    phone could fill the log with them.  Such a phone is closed (1007, as RFC 6455 asks): keep one
    plain line that says so."""

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("Invalid UTF-8"):
            record.msg, record.args = "closed a phone that sent a text frame that is not UTF-8 (1007)", ()
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def data_folder(args: argparse.Namespace) -> Path:
    return Path(args.data) if args.data else data_home()


def claim_folder(folder: Path) -> FolderLock:
    """One process per data folder (a second one would run the same tables twice), and a folder this
    process can write: either is one plain sentence and exit 1, before anything is printed."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = FolderLock(folder).acquire()
    except FolderBusy:
        raise SystemExit(f"gemtable: another gemtable is already serving {folder}") from None
    except (OSError, sqlite3.Error) as exc:
        raise SystemExit(
            f"gemtable: cannot write to the data folder {folder} ({_why(exc)}): choose another with --data"
        ) from None
    return lock


def _why(exc: BaseException) -> str:
    return str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)


def free_port(host: str, port: int) -> int:
    """The port to serve on, checked before anything is printed by binding it as uvicorn will (an
    ``SO_REUSEADDR`` socket on POSIX, a plain one on Windows, where that option would let two servers share a
    port): a busy port, a port this user may not use or an address that is not this machine's is one plain
    sentence and exit 1.  ``port`` 0: one the system picks.

    uvicorn then binds it itself (its own ``host``/``port`` path: handing it this socket through
    ``sockets=`` was tried, and under the fuzzer's hostile phones a few connections ended without a close
    frame that way, docs/deploy.md).  If another program takes the port in the instant between, uvicorn's
    own error stands, and no address is printed, since :class:`Announcing` speaks only once serving."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.create_server((host, port), family=family) as probe:
            return int(probe.getsockname()[1])
    except OSError as exc:
        if exc.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)):
            why = f"port {port} is already in use on this machine (is another gemtable running?)"
            raise SystemExit(f"gemtable: {why}: stop that program, or choose another port with --port") from None
        if exc.errno in (errno.EACCES, getattr(errno, "WSAEACCES", -1)):
            raise SystemExit(
                f"gemtable: this user may not listen on port {port} ({_why(exc)}): choose a port above 1023 with --port"
            ) from None
        if exc.errno in (errno.EADDRNOTAVAIL, getattr(errno, "WSAEADDRNOTAVAIL", -1)):
            raise SystemExit(f"gemtable: {host} is not an address of this machine: leave --host out") from None
        raise SystemExit(f"gemtable: cannot listen on {host} port {port} ({_why(exc)})") from None
    except (socket.gaierror, UnicodeError, ValueError) as exc:
        raise SystemExit(f"gemtable: cannot listen on {host!r} ({exc})") from None


class Announcing(uvicorn.Server):
    """uvicorn's server, which says where to find it only once it is really serving: the app started
    (its lifespan) and the socket accepting."""

    def __init__(self, config: uvicorn.Config, ready: Callable[[], None]) -> None:
        super().__init__(config)
        self.ready = ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and not self.should_exit:
            self.ready()


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    limits = Limits()
    if getattr(args, "message_rate", None):
        limits = replace(limits, messages_per_second=args.message_rate, message_burst=3 * args.message_rate)
    if getattr(args, "people_per_address", None) is not None:
        if args.people_per_address < 1:
            raise SystemExit("gemtable: --people-per-address must be at least 1")
        limits = replace(limits, people_per_address=args.people_per_address)
    if getattr(args, "keep_days", None) is not None:
        if args.keep_days < 0:
            raise SystemExit("gemtable: --keep-days must be 0 (keep for ever) or more")
        limits = replace(limits, keep_days=args.keep_days)
    try:
        busy_at, busy_pace = busy.from_env()
    except ValueError:
        raise SystemExit("gemtable: GEMTABLE_BUSY_AT and GEMTABLE_BUSY_PACE must be numbers") from None
    if busy_pace is not None:
        limits = replace(limits, busy_broadcast_seconds=busy_pace)
    redis_url = args.redis or os.environ.get("GEMTABLE_REDIS")
    store: Store
    lock: FolderLock | None = None  # held for as long as this process serves its data folder
    if redis_url:
        from gemtable.bus.redis import RedisBus
        from gemtable.store.redis import RedisStore
        from gemtable.store.redis_access import RedisAccessError, check, redacted

        try:
            for warning in check(redis_url):
                print(f"gemtable: warning: {warning}", file=sys.stderr, flush=True)
        except RedisAccessError as exc:
            raise SystemExit(f"gemtable: {exc}") from None
        store, bus, node_id = RedisStore(redis_url), RedisBus(redis_url), None
        where = f"cluster node on {redacted(redis_url)}"
        lease = 3.0
    else:
        folder = data_folder(args)
        lock = claim_folder(folder)
        try:
            store = SqliteStore(folder / "gemtable.sqlite3")
        except (OSError, sqlite3.Error) as exc:
            raise SystemExit(
                f"gemtable: cannot write to the data folder {folder} ({_why(exc)}): choose another with --data"
            ) from None
        bus, node_id = None, "embedded"
        lease = EMBEDDED_LEASE  # the data folder is locked to this process: no other node can take over
        where = f"data in {folder}"
    port = free_port(args.host, args.port)
    try:
        site = Site.from_env(
            port,
            args.host,
            getattr(args, "public_url", None),
            getattr(args, "allow_host", None) or [],
            getattr(args, "allow_origin", None) or [],
        )
    except SiteError as exc:
        raise SystemExit(f"gemtable: {exc}") from None
    app = create_app(
        store,
        allow_scripts=bool(getattr(args, "allow_scripts", False)),
        limits=limits,
        bus=bus,
        node_id=node_id,
        site=site,
        tune_gc=True,
        lease_ttl=lease,
        busy=busy.Busy(busy_at),
    )

    def ready() -> None:
        print("\n" + site.banner(where), flush=True)
        if site.reachable and not args.no_qr and sys.stdout.isatty():
            segno.make(site.public_url + "/", error="l").terminal(compact=True)

    logging.getLogger("uvicorn.error").addFilter(QuietBadText())
    guarded = guard_server(limits, WS_IMPL)  # half-sent requests, unread answers, the open-file limit, the log
    config = uvicorn.Config(
        app,
        **guarded,
        host=args.host,
        port=port,
        log_level="warning",
        ws_max_size=MAX_FRAME,
        ws_ping_interval=PING_SECONDS,  # a silent phone only (``websocket.py``)
        ws_ping_timeout=PING_SECONDS,
        lifespan="on",
    )
    Announcing(config, ready).run()
    if lock is not None:
        lock.release()
    return 0
