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

Responses nobody reads are the same attack the other way round: a client that sends whole requests (twenty
pipelined GETs of a script, say) and never reads the answers kept uvicorn's request cycle waiting in
``drain()`` for ever, and a connection closed with bytes still unsent waits for them for ever too.  So every
connection, HTTP or WebSocket, has a write deadline (:class:`Unread`): once the transport holds more than its
high-water mark (asyncio calls ``pause_writing``) it must be taken within :attr:`Limits.write_seconds`, and a
connection the server closed must have been flushed by then; otherwise it is cut (``abort``) and its descriptor
freed.  Open connections are counted per address, HTTP and WebSocket together (:attr:`Limits.sockets_per_address`),
and near the process's open-file limit the last :attr:`Limits.reserve_sockets` descriptors go only to addresses
that hold few: a new phone still gets in while one address holds hundreds.

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
    """The unfinished requests per address and the time each may take; the open connections per address and in
    all, and the time a reader may leave what it is sent."""

    def __init__(self, limits: Limits, files: int | None = None) -> None:
        self.seconds = limits.request_seconds
        self.most = limits.unfinished_per_address
        self.unfinished: dict[str, int] = {}
        self.timed_out = 0
        self.turned_away = 0
        self.write_seconds = limits.write_seconds
        self.sockets_most = limits.sockets_per_address
        self.reserve = limits.reserve_sockets
        self.crowded = limits.crowded_address
        self.files = files
        """The process's open-file limit, where it has one: the last :attr:`reserve` are kept for new phones."""
        self.sockets: dict[str, int] = {}
        self.open = 0
        self.cut = 0
        """Connections cut because their reader did not read (``write_seconds``)."""
        self.refused = 0
        """Connections closed on arrival: their address held too many, or the reserve was reached."""

    def connect(self, address: str, admitted: bool = False) -> bool:
        """A connection is accepted from ``address``: counted, or refused (False) unless ``admitted`` already."""
        held = self.sockets.get(address, 0)
        if address not in PROXIES and not admitted:
            crowded = self.files is not None and self.open >= self.files - self.reserve and held >= self.crowded
            if held >= self.sockets_most or crowded:
                self.refused += 1
                return False
        self.sockets[address] = held + 1
        self.open += 1
        return True

    def disconnect(self, address: str) -> None:
        self.open -= 1
        left = self.sockets.get(address, 1) - 1
        if left > 0:
            self.sockets[address] = left
        else:
            self.sockets.pop(address, None)

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


class Unread:
    """A write deadline for a protocol on an asyncio transport (mixed into the HTTP and the WebSocket protocol).

    asyncio's transport never blocks: it keeps what the socket does not take and calls ``pause_writing`` once it
    holds more than its high-water mark, ``resume_writing`` once the reader caught up.  Paused for longer than
    ``guard.write_seconds``, the connection is cut; so is one closed by the server whose bytes are still unsent
    that long after (``transport.close`` waits for them for ever).  Only public ``asyncio.Protocol`` and
    ``Transport`` calls are used."""

    guard: Guard
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    _stall: asyncio.TimerHandle | None = None
    _address = "?"
    _counted = False

    def _count(self, transport: asyncio.BaseTransport, admitted: bool = False) -> bool:
        peer = transport.get_extra_info("peername")
        self._address = address_key(str(peer[0]) if isinstance(peer, tuple) and peer else "?")
        self._counted = self.guard.connect(self._address, admitted)
        return self._counted

    def _uncount(self) -> None:
        self._unstall()
        if self._counted:
            self._counted = False
            self.guard.disconnect(self._address)

    def pause_writing(self) -> None:
        super().pause_writing()  # type: ignore[misc]
        self._stalled()

    def resume_writing(self) -> None:
        self._unstall()
        super().resume_writing()  # type: ignore[misc]

    def _stalled(self) -> None:
        if self._stall is None:
            self._stall = self.loop.call_later(self.guard.write_seconds, self._cut)

    def _unstall(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    def _closed_unsent(self) -> None:
        """The server closed the connection: if bytes are still waiting for the reader, they get their time."""
        if self.transport.get_write_buffer_size() > 0:
            self._stalled()

    def _cut(self) -> None:
        self._stall = None
        self.guard.cut += 1
        self.transport.abort()


def guarded_http(guard: Guard) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, with ``guard``'s deadlines and counts per address (pass it as ``http=``)."""

    class GuardedH11(Unread, H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            self.guard = guard
            super().connection_made(transport)
            if not self._count(transport):
                transport.abort()
                return
            self._begin()

        def data_received(self, data: bytes) -> None:
            if self._deadline is None and self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self._begin()  # the next request on a kept-alive connection: the same bound
            super().data_received(data)
            upgraded = self.transport.get_protocol() is not self
            if self._deadline is not None and (upgraded or self.conn.their_state not in RECEIVING):
                self._end()
            if upgraded:  # the WebSocket protocol counts the socket from here on (``guarded_ws``)
                self._uncount()

        def timeout_keep_alive_handler(self) -> None:
            super().timeout_keep_alive_handler()
            self._closed_unsent()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.transport.is_closing():  # ``Connection: close``: answered, and closed with what is unsent
                self._closed_unsent()

        def connection_lost(self, exc: Exception | None) -> None:
            self._end()
            self._uncount()
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


def guarded_ws(guard: Guard, base: type[asyncio.Protocol]) -> type[asyncio.Protocol]:
    """A WebSocket protocol class (``base``: ``websocket.SmallDeflate``) with ``guard``'s write deadline and
    count per address (pass it as ``ws=``)."""

    class GuardedWebSocket(Unread, base):  # type: ignore[valid-type, misc]
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self.guard = guard
            super().connection_made(transport)
            # Admitted already as an HTTP connection: counted even past the bound (the hub has its own for
            # WebSockets), so that the address's figure stays true.
            self._count(transport, admitted=True)

        def connection_lost(self, exc: Exception | None) -> None:
            self._uncount()
            super().connection_lost(exc)

    GuardedWebSocket.__name__ = GuardedWebSocket.__qualname__ = f"Guarded{base.__name__}"
    return GuardedWebSocket


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


def guard_server(limits: Limits, ws: type[asyncio.Protocol] | str | None = None) -> dict[str, Any]:
    """Everything above, done for ``gemtable serve``: the open-file limit raised, the log rate-limited, and
    the keyword arguments for ``uvicorn.Config`` that install the guarded protocols (``ws``: the WebSocket
    protocol class to guard; one of uvicorn's own by name is passed on unguarded)."""
    limits_raised = raise_open_files()
    if limits_raised is None:
        log.info("open files: this system has no per-process limit to raise; left as it is")
    elif limits_raised[1] != limits_raised[0]:
        log.info("open files: raised the limit from %s to %s", *limits_raised)
    else:
        log.info("open files: the limit stays at %s (the system allows no more)", limits_raised[0])
    quiet_floods("asyncio", "uvicorn.error", "gemtable")
    guard = Guard(limits, files=limits_raised[1] if limits_raised else None)
    chosen: dict[str, Any] = {"http": guarded_http(guard)}
    if ws is not None:
        chosen["ws"] = guarded_ws(guard, ws) if isinstance(ws, type) else ws
    return chosen


__all__ = ["Guard", "OncePerInterval", "Unread", "guard_server", "guarded_http", "guarded_ws", "quiet_floods"]
