"""``gemtable serve``: one process, an SQLite file, an address and a QR code for the phones."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from dataclasses import replace
from pathlib import Path

import segno
import uvicorn

from gemtable.server.app import create_app
from gemtable.server.guard import guard_server
from gemtable.server.limits import Limits
from gemtable.server.node import EMBEDDED_LEASE
from gemtable.server.site import Site, SiteError
from gemtable.server.websocket import SmallDeflate
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


def default_data() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gemtable"


def data_folder(args: argparse.Namespace) -> Path:
    return Path(args.data) if args.data else default_data()


def lock_data(folder: Path) -> object:
    """One process per data folder: a second one would run the same tables twice."""
    import fcntl

    folder.mkdir(parents=True, exist_ok=True)
    handle = (folder / "gemtable.lock").open("w")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise SystemExit(f"gemtable: another gemtable is already serving {folder}") from None
    return handle


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    limits = Limits()
    if getattr(args, "message_rate", None):
        limits = replace(limits, messages_per_second=args.message_rate, message_burst=3 * args.message_rate)
    if getattr(args, "people_per_address", None) is not None:
        if args.people_per_address < 1:
            raise SystemExit("gemtable: --people-per-address must be at least 1")
        limits = replace(limits, people_per_address=args.people_per_address)
    redis_url = args.redis or os.environ.get("GEMTABLE_REDIS")
    store: Store
    lock: object | None = None  # held for as long as this process serves its data folder
    if redis_url:
        from gemtable.bus.redis import RedisBus
        from gemtable.store.redis import RedisStore

        store, bus, node_id, where = RedisStore(redis_url), RedisBus(redis_url), None, f"cluster node on {redis_url}"
        lease = 3.0
    else:
        folder = data_folder(args)
        lock = lock_data(folder)
        store, bus, node_id = SqliteStore(folder / "gemtable.sqlite3"), None, "embedded"
        lease = EMBEDDED_LEASE  # the data folder is locked to this process: no other node can take over
        where = f"data in {folder}"
    try:
        site = Site.from_env(
            args.port,
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
    )
    host = args.host
    print("\n" + site.banner(where), flush=True)
    if site.reachable and not args.no_qr and sys.stdout.isatty():
        segno.make(site.public_url + "/", error="l").terminal(compact=True)
    logging.getLogger("uvicorn.error").addFilter(QuietBadText())
    guarded = guard_server(limits)  # half-sent requests, the open-file limit, a flooding log
    uvicorn.run(
        app,
        **guarded,
        host=host,
        port=args.port,
        log_level="warning",
        ws=WS_IMPL,
        ws_max_size=MAX_FRAME,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        lifespan="on",
    )
    del lock
    return 0
