"""What the HTTP server does not bound by itself: half-sent requests, the open-file limit, a flooding log.

uvicorn (h11 and httptools alike) starts no timer while a request comes in: ``timeout_keep_alive`` runs only
*between* requests and is cancelled by the first byte of the next one, so a client that sends half a request
line, or a byte a second, holds its socket for as long as it likes (the "slowloris"; uvicorn's own issue #157
lists ``--timeout-request-start`` as never done).  ASGI middleware cannot help: it runs only once the headers
are complete.  So the guard sits where the bytes arrive, in the protocol: :func:`guarded_http` is uvicorn's
h11 protocol with a deadline armed when a request begins (the connection is made, or the next request's
first byte arrives) and disarmed when the whole request — line, headers and body — has arrived, or the
connection became a WebSocket.  A request not complete by then is closed.  Meanwhile the connection counts as
*unfinished* for its address; an address that already has :attr:`Limits.unfinished_per_address` of them has
its next connection closed at once, before it costs more than a file descriptor for an instant.

Two more things the process does at start (``machine.raise_open_files``, :func:`quiet_floods`): raise its
open-file soft limit to the hard limit (a laptop's usual 1,024 is a few hundred phones), and rate-limit the
log, since asyncio's accept loop (CPython 3.11) logs a traceback for every ``accept`` that fails for lack of
file descriptors — up to uvicorn's backlog of 2,048 of them at each try.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from gemtable.machine import raise_open_files
from gemtable.server.limits import LOCAL_PROXIES, Limits, address_key

log = logging.getLogger("gemtable")

RECEIVING = (h11.IDLE, h11.SEND_BODY)
"""The client's h11 states while its request is still coming in."""


PROXIES = LOCAL_PROXIES
"""Where a reverse proxy on this host connects from: its unfinished requests are not counted (their deadline
still holds), and it has its own bound on slow clients (nginx's ``client_header_timeout``, 60 s)."""


class Guard:
    """The unfinished requests per address, and the time each may take."""

    def __init__(self, limits: Limits) -> None:
        self.seconds = limits.request_seconds
        self.most = limits.unfinished_per_address
        self.unfinished: dict[str, int] = {}
        self.timed_out = 0
        self.turned_away = 0

    def enter(self, address: str) -> bool:
        if address in PROXIES:
            return True
        count = self.unfinished.get(address, 0)
        if count >= self.most:
            self.turned_away += 1
            return False
        self.unfinished[address] = count + 1
        return True

    def leave(self, address: str) -> None:
        if address in PROXIES:
            return
        left = self.unfinished.get(address, 1) - 1
        if left > 0:
            self.unfinished[address] = left
        else:
            self.unfinished.pop(address, None)


def guarded_http(guard: Guard) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, with ``guard``'s deadline and count per address (pass it as ``http=``)."""

    class GuardedH11(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _address = "?"

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._address = address_key(self.client[0] if self.client else "?")
            self._begin()

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self._begin()  # the next request on a kept-alive connection: the same bound
            super().data_received(data)
            upgraded = self.transport.get_protocol() is not self
            if self._deadline is not None and (upgraded or self.conn.their_state not in RECEIVING):
                self._end()

        def connection_lost(self, exc: Exception | None) -> None:
            self._end()
            super().connection_lost(exc)

        def _begin(self) -> None:
            if not guard.enter(self._address):
                self.transport.close()
                return
            self._deadline = self.loop.call_later(guard.seconds, self._expire)

        def _end(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
                guard.leave(self._address)

        def _expire(self) -> None:
            self._deadline = None
            guard.leave(self._address)
            guard.timed_out += 1
            self.transport.close()

    return GuardedH11


class OncePerInterval(logging.Filter):
    """Lets through the first record of each kind (logger and message template), then at most one of that
    kind per ``seconds``, saying how many like it were held back; the tracebacks of the held-back ones
    are dropped.  One misbehaving phone, or a flood of failing ``accept`` calls, costs a line every few
    seconds, not megabytes."""

    def __init__(self, seconds: float = 10.0, kinds: int = 1000) -> None:
        super().__init__()
        self.seconds = seconds
        self.kinds = kinds
        self.seen: dict[tuple[str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg)[:200])
        now = time.monotonic()
        last, held = self.seen.get(key, (-1e18, 0))
        if now - last < self.seconds:
            self.seen[key] = (last, held + 1)
            return False
        if len(self.seen) >= self.kinds:
            self.seen.clear()
        self.seen[key] = (now, 0)
        if held:
            record.msg = f"{record.msg} (and {held} more like it in {now - last:.0f} s, not logged)"
            record.exc_info, record.exc_text = None, None
        return True


def quiet_floods(*names: str, seconds: float = 10.0) -> None:
    """Rate-limit the loggers ``names`` (each record kind at most once per ``seconds``)."""
    for name in names:
        logging.getLogger(name).addFilter(OncePerInterval(seconds))


def guard_server(limits: Limits) -> dict[str, Any]:
    """Everything above, done for ``gemtable serve``: the open-file limit raised, the log rate-limited, and
    the keyword arguments for ``uvicorn.run`` that install the guarded protocol."""
    limits_raised = raise_open_files()
    if limits_raised is None:
        log.info("open files: this system has no per-process limit to raise; left as it is")
    elif limits_raised[1] != limits_raised[0]:
        log.info("open files: raised the limit from %s to %s", *limits_raised)
    else:
        log.info("open files: the limit stays at %s (the system allows no more)", limits_raised[0])
    quiet_floods("asyncio", "uvicorn.error", "gemtable")
    return {"http": guarded_http(Guard(limits))}


__all__ = ["Guard", "OncePerInterval", "guard_server", "guarded_http", "quiet_floods"]
