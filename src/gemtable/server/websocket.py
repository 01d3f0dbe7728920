"""uvicorn's sans-I/O WebSocket protocol, with a permessage-deflate that keeps no compressor per phone.

permessage-deflate with "context takeover" (what browsers and uvicorn ask for) keeps a compressor and a
decompressor per connection for as long as it is open: with uvicorn's sans-I/O settings (a 4 KiB window,
memLevel 5) about 40 KB a phone, more than everything else a connection costs together.  Here neither
side keeps one (``server_no_context_takeover`` and ``client_no_context_takeover``, which a server may ask
for even when the browser did not offer them, RFC 7692 7.1.1): a message is compressed with a compressor
made for it and dropped at once, and a phone's message is decompressed the same way.  A whole state
(2.7 KB of JSON) then goes out in about 830 bytes instead of about 80, and costs about 26 us to compress
instead of about 15 (zlib level 1; measured on recorded states, docs/benchmarks.md).

Compression only where it pays: a message under :data:`RAW_BELOW` bytes — every message a table sends, a
whole state included (at 8 players up to 4.1 KB in a cave, 5.4 KB with the results) — goes out as it is,
which permessage-deflate allows message by message.  Compressing states cost a quarter of the server's CPU
per reveal (issue 25: 1.35 against 1.04 ms at 100 tables x 6 phones, measured A/B in the same runs) to save
~2 KB per phone per card, which a room's Wi-Fi carries in well under a millisecond; larger messages are
still compressed.  ``GEMTABLE_WS_CONTEXT=1`` keeps the compressors (the old setting) for comparisons.

A phone's messages are written to the socket in the sender's turn of the loop while the socket takes them
(:meth:`SmallDeflate.write_now`, found by the endpoint in the connection's scope), not through the ASGI
``send`` and a writer task each.

A phone's text message is handled as its bytes arrive, in that turn of the loop: the endpoint gives the
connection's :class:`Inbox` its handler (:meth:`SmallDeflate.on_text`, found in the scope under
:data:`ON_TEXT`), and the inbox runs it at once (``eager.py``) instead of queueing the message for the phone's
task, which a wake-up would run in a later turn, behind everything else that turn does.  A task takes over only
what has to wait; the messages after it, and the end of the connection, wait for it, in order.  (Issue 39: at
1,000 tables of 8 phones at the human pace, the reveal's p50 and the server's CPU a reveal both lower; figures
in ``docs/benchmarks.md``.)

Keep-alive pings only where they tell something: a connection is pinged (and closed if it does not
answer) once it has been silent for :data:`PING_SECONDS`; a phone that spoke in that time proved it is
there, and its ping is put off to :data:`PING_SECONDS` after the last thing it said
(:meth:`SmallDeflate.send_keepalive_ping`).  A dead phone is still closed within two intervals of its last
word, as before; a phone at a table, whose page sends a ``ping`` every 15 s, is never pinged.

What a connection keeps for its life is cut to what it uses (``docs/benchmarks.md``, memory per connection;
``tests/server/test_websocket_memory.py`` bounds it): uvicorn's ``asyncio.Queue`` of messages for the app and its
``asyncio.Event`` ``writable`` are an :class:`Inbox` and a :class:`Flag` (the queue and the event were ~3.8 KB
of deques, empty nearly always); uvicorn's ~40 attributes are slots (:data:`UVICORN_ATTRIBUTES`; as a
``__dict__`` they were a 1.6 KB table); the handshake's request and response, which uvicorn keeps, are let go
once the connection is open (:meth:`SmallDeflate.start_keepalive`, ~3.7 KB of parsed headers).

The ``websockets`` protocol object and its parser generator refer to each other, and so does asyncio's
socket transport with its read callback; both cycles are broken when the connection is lost, so that
everything a closed connection held is freed by reference counting, without waiting for a full
collection of the garbage collector (``gcpolicy.py``).
"""

from __future__ import annotations

import asyncio
import os
import struct
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.protocol import OPEN
from websockets.typing import ExtensionParameter

from gemtable.server.eager import run_eagerly

CONTEXT = os.environ.get("GEMTABLE_WS_CONTEXT", "0") == "1"
"""Keep a compressor and a decompressor per phone between messages (about 26 + 11 KB a phone with the
settings below; states then compress to ~80 bytes).  Off by default: see the module's documentation."""
WINDOW_BITS = int(os.environ.get("GEMTABLE_WS_WINDOW_BITS", "12"))
"""The server's compression window: 2**12 bytes hold a whole state (with the context kept, the next state,
mostly the same, compresses to a few dozen bytes; 2**10 would send 900-byte states)."""
MEM_LEVEL = int(os.environ.get("GEMTABLE_WS_MEM_LEVEL", "3" if CONTEXT else "5"))
"""zlib's memLevel of the server's compressor (1 to 9: memory for speed; a compressor that lives for one
message only can afford uvicorn's 5)."""
LEVEL = int(os.environ.get("GEMTABLE_WS_LEVEL", "6" if CONTEXT else "1"))
"""zlib's compression level: without the context, level 1 compresses a state in about 26 us to ~830 bytes,
level 6 in about 37 us to ~760 (measured on recorded states)."""
READ_AHEAD = 16
"""Messages from one phone taken off the socket before the server has read them: uvicorn stops reading the
socket after every message and starts again when it is read (two ``epoll_ctl`` system calls a message,
8 % of the server's time at 100 x 6 instant); here only once this many wait.  A phone's messages are at
most 4 KB by the protocol and 64 KiB by the frame limit, so this bounds what one phone can queue."""
PING_SECONDS = float(os.environ.get("GEMTABLE_WS_PING_SECONDS", "20"))
"""A connection silent this long is pinged, and closed if no pong comes within as long again
(``run.py`` gives uvicorn both; tests make it short)."""
CLIENT_WINDOW_BITS = 12
"""The phones' window, as uvicorn's sans-I/O protocol asks."""
RAW_BELOW = int(os.environ.get("GEMTABLE_WS_RAW_BELOW", "8192"))
"""Bytes: a smaller message goes out uncompressed (``GEMTABLE_WS_RAW_BELOW=128`` compresses states again:
below that, a fresh compressor would not make a message smaller)."""


PRIVATE = (
    ("protocol", "read_paused"),  # uvicorn: READ_AHEAD (send_receive_event_to_app)
    ("protocol", "queue"),  # uvicorn: the messages waiting for the app (READ_AHEAD)
    ("protocol", "writable"),  # uvicorn: whether the transport takes more now (write_now)
    ("protocol", "initial_response"),  # uvicorn: a handshake answered over HTTP (write_now)
    ("protocol", "close_sent"),  # uvicorn: the app closed the connection (write_now)
    ("protocol", "handshake_complete"),  # uvicorn (write_now)
    ("protocol", "disconnected"),  # uvicorn (write_now)
    ("protocol", "ping_timer"),  # uvicorn: re-armed by send_keepalive_ping
    ("protocol", "ping_interval"),  # uvicorn (send_keepalive_ping)
    ("protocol", "send_keepalive_ping"),  # uvicorn's method, overridden: pings only for silent phones
    ("protocol", "send_receive_event_to_app"),  # uvicorn's method, overridden: READ_AHEAD
    ("protocol", "handle_connect"),  # uvicorn's method, overridden: write_now in the scope
    ("protocol", "start_keepalive"),  # uvicorn's method, overridden: the handshake's objects let go once open
    ("protocol", "request"),  # uvicorn: the handshake's request, kept for the connection's life (start_keepalive)
    ("protocol", "response"),  # uvicorn: the handshake's response, likewise (start_keepalive)
    ("conn", "writes"),  # websockets: frames being written (write_now frames small texts itself only when empty)
    ("conn", "expect_continuation_frame"),  # websockets: inside a fragmented message (write_now)
    ("conn", "parser"),  # websockets: the parser generator, closed to break its cycle (connection_lost)
    ("transport", "_read_ready_cb"),  # asyncio's selector transport: cleared to break its cycle (connection_lost)
)
"""Every name of uvicorn's, websockets' or asyncio's internals this module uses, by the object that has it (the
uvicorn protocol, its websockets connection, its asyncio transport) and why; the pins in ``pyproject.toml`` hold
them, ``tests/server/test_private_seams.py`` finds each on a real connection and names any an upgrade removed,
and ``docs/upstream.md`` proposes the upstream fixes that would retire them."""


class RawWhenSmall(PerMessageDeflate):
    """permessage-deflate that sends a small message as it is (RSV1 not set: an uncompressed message)."""

    def encode(self, frame: Frame) -> Frame:
        if (
            frame.fin
            and frame.opcode in (Opcode.TEXT, Opcode.BINARY)
            and len(frame.data) < RAW_BELOW
            and self.local_no_context_takeover
        ):
            return frame
        return super().encode(frame)


class Factory(ServerPerMessageDeflateFactory):
    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, ext = super().process_request_params(params, accepted_extensions)
        return response, RawWhenSmall(
            ext.remote_no_context_takeover,
            ext.local_no_context_takeover,
            ext.remote_max_window_bits,
            ext.local_max_window_bits,
            ext.compress_settings,
        )


_TEXT_HEADERS = [bytes((0x81, length)) for length in range(126)]
"""The header of a whole, unmasked, uncompressed text frame of each length up to 125 (RFC 6455 5.2): what the
server puts before a message that :class:`RawWhenSmall` sends as it is."""


def text_frame_header(length: int) -> bytes:
    """The header of a whole, unmasked, uncompressed text frame of ``length`` bytes (``Frame.serialize``'s)."""
    if length < 126:
        return _TEXT_HEADERS[length]
    if length < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, length)
    return struct.pack("!BBQ", 0x81, 127, length)


class _Waiters:
    """The futures of the tasks waiting for a change (:class:`Inbox`, :class:`Flag`): none kept while nobody
    waits, a list only while someone does."""

    __slots__ = ("waiters",)

    def __init__(self) -> None:
        self.waiters: list[asyncio.Future[None]] | None = None

    async def until(self, ready: Callable[[], object]) -> None:
        """Wait until ``ready()`` (asked again after every :meth:`wake`)."""
        while not ready():
            waiter = asyncio.get_running_loop().create_future()
            if self.waiters is None:
                self.waiters = []
            self.waiters.append(waiter)
            try:
                await waiter
            finally:
                if self.waiters is not None and waiter in self.waiters:
                    self.waiters.remove(waiter)

    def wake(self) -> None:
        waiters, self.waiters = self.waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)


WAKE = {"type": "websocket.receive", "text": None}
"""What the app's task is given when a message handled at once closed its connection (it finds it closed)."""


def _never() -> bool:
    return False


class Inbox(_Waiters):
    """What uvicorn's protocol needs of its ``asyncio.Queue`` of messages for the app (``put_nowait``, ``get``,
    ``qsize``, ``empty``), in about 150 bytes instead of about 3 KB: an ``asyncio.Queue`` is three deques and an
    ``Event`` with a fourth, each deque ~760 bytes even when empty, for a queue that is read by one task and
    holds at most :data:`READ_AHEAD` messages (so a list, and a future only while someone waits).

    With a :attr:`handler` (the endpoint's, given through :data:`ON_TEXT`), a text message is not queued: it
    is handled at once, in the turn of the loop its bytes arrived in (``eager.py``).  Order is kept: while
    the rest of a message's handling runs as a task (it had to wait for something), the messages after it
    are queued, and :meth:`get` gives none of them, nor the end of the connection, until that task is done."""

    __slots__ = ("done", "handler", "items", "running")

    def __init__(self) -> None:
        super().__init__()
        self.items: list[Any] = []
        self.handler: Callable[[str], Coroutine[Any, Any, None]] | None = None
        """Handles a text message at once (or None: every message is queued for the app's task)."""
        self.done: Callable[[], bool] = _never
        """Whether the app is done with the connection (it closed it): no message is handled at once any more,
        and the app's task, waiting for the next message, is woken (:data:`WAKE`) to finish."""
        self.running: asyncio.Future[None] | None = None
        """The rest of a message's handling, while it runs as a task."""

    def put_nowait(self, item: Any) -> None:
        handler = self.handler
        if (
            handler is not None
            and self.running is None
            and not self.items
            and item["type"] == "websocket.receive"
            and (text := item.get("text")) is not None
        ):
            running = run_eagerly(handler(text))
            if running is not None:
                self.running = running
                running.add_done_callback(self.ran)
            elif self.done():
                self.finish()
            return
        self.items.append(item)
        if self.waiters:
            self.wake()

    def ran(self, _: asyncio.Future[None]) -> None:
        """The rest of a message's handling is done: the messages queued behind it may go."""
        self.running = None
        if self.handler is not None and self.done():
            self.finish()
        elif self.waiters:
            self.wake()

    def finish(self) -> None:
        """The app closed the connection while handling a message: it handles no more, and its task is woken."""
        self.handler = None
        self.items.append(WAKE)
        if self.waiters:
            self.wake()

    def deliverable(self) -> bool:
        return bool(self.items) and self.running is None

    async def get(self) -> Any:
        if not self.deliverable():
            await self.until(self.deliverable)
        return self.items.pop(0)

    def qsize(self) -> int:
        return len(self.items)

    def empty(self) -> bool:
        return not self.items


class Flag(_Waiters):
    """What uvicorn's protocol needs of its ``asyncio.Event`` ``writable`` (``set``, ``clear``, ``is_set``,
    ``wait``), without the Event's deque (~760 bytes a connection, for a flag that is almost always set)."""

    __slots__ = ("value",)

    def __init__(self, value: bool) -> None:
        super().__init__()
        self.value = value

    def is_set(self) -> bool:
        return self.value

    def set(self) -> None:
        self.value = True
        self.wake()

    def clear(self) -> None:
        self.value = False

    async def wait(self) -> None:
        if not self.value:
            await self.until(self.is_set)


WRITE_NOW = "gemtable.write_now"
"""The key, in a phone's ASGI scope's ``extensions``, of :meth:`SmallDeflate.write_now` (``phones.py``)."""
ON_TEXT = "gemtable.on_text"
"""The key, in a phone's ASGI scope's ``extensions``, of :meth:`SmallDeflate.on_text` (``phones.py``)."""


UVICORN_ATTRIBUTES = (
    "app",
    "app_state",
    "asgi_version",
    "client",
    "close_sent",
    "close_timeout",
    "close_timer",
    "config",
    "conn",
    "connections",
    "curr_msg_data_type",
    "default_headers",
    "disconnected",
    "frames",
    "handshake_complete",
    "handshake_initiated",
    "initial_response",
    "last_ping_rtt",
    "logger",
    "loop",
    "pending_ping_payload",
    "ping_interval",
    "ping_sent_at",
    "ping_timeout",
    "ping_timer",
    "pong_timer",
    "queue",
    "read_paused",
    "request",
    "response",
    "root_path",
    "scheme",
    "scope",
    "server",
    "tasks",
    "transport",
    "writable",
)
"""Every attribute uvicorn's protocol sets on itself, made slots of :class:`SmallDeflate`: uvicorn's class has no
``__slots__``, and its ~40 attributes (more than a dict shares keys for) made each connection's ``__dict__`` a
1.6 KB table; as slots they are 8 bytes each and the ``__dict__`` stays empty.  A name uvicorn adds in an
upgrade still works (it lands in the ``__dict__``); ``tests/server/test_websocket_memory.py`` says so."""


class SmallDeflate(WebSocketsSansIOProtocol):
    __slots__ = (*UVICORN_ATTRIBUTES, "heard", "plain")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn.available_extensions = [
                Factory(
                    server_no_context_takeover=not CONTEXT,
                    client_no_context_takeover=not CONTEXT,
                    server_max_window_bits=WINDOW_BITS,
                    client_max_window_bits=CLIENT_WINDOW_BITS,
                    compress_settings={"memLevel": MEM_LEVEL, "level": LEVEL},
                )
            ]
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Flag(True)  # type: ignore[assignment]
        self.heard = self.loop.time()
        """When the phone last sent anything (a message, a pong: bytes on its socket)."""
        self.plain: bool | None = None
        """Whether a message under :data:`RAW_BELOW` bytes goes out as it is (no extension, or this module's
        permessage-deflate without context takeover): then :meth:`write_now` frames it itself.  Known once the
        handshake has chosen the extensions."""

    def data_received(self, data: bytes) -> None:
        self.heard = self.loop.time()
        super().data_received(data)

    def send_keepalive_ping(self) -> None:
        """Ping the phone only if it has said nothing for an interval; else look again an interval after
        the last thing it said.  (uvicorn pings every connection every interval: at 2,000 tables x 8 phones
        that was 800 pings, pongs and pairs of timers a second, about 6 % of the server's time, to phones that
        had just spoken.)"""
        assert self.ping_interval is not None
        wait = self.heard + self.ping_interval - self.loop.time()
        if wait > 0.0:
            self.ping_timer = self.loop.call_later(wait, self.send_keepalive_ping)
            return
        super().send_keepalive_ping()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # (the app's task is made, not yet run: it finds these in its scope)
            scope["extensions"][WRITE_NOW] = self.write_now
            scope["extensions"][ON_TEXT] = self.on_text

    def on_text(self, handler: Callable[[str], Coroutine[Any, Any, None]], done: Callable[[], bool]) -> None:
        """From now on, ``handler(text)`` handles each text message at once (:class:`Inbox`), until ``done()``
        says the app closed the connection."""
        inbox = self.queue
        assert isinstance(inbox, Inbox)
        inbox.handler, inbox.done = handler, done

    def start_keepalive(self) -> None:
        """uvicorn calls this once it has written the response that opens the connection: from then on the
        handshake's request and response (their headers parsed into ``websockets`` ``Headers``, ~4 KB) are
        read by nobody, yet uvicorn keeps both for the connection's life.  The request is emptied of its
        headers (``Headers.clear``, public) as well, since the parser generator of ``websockets`` keeps it
        too, in a local variable of its suspended frame."""
        request = getattr(self, "request", None)
        if request is not None:
            request.headers.clear()
        self.request = None  # type: ignore[assignment]
        self.response = None  # type: ignore[assignment]
        super().start_keepalive()

    def write_now(self, data: bytes) -> bool:
        """Write one text message (its UTF-8 bytes) to the socket at once, or say it cannot (False).

        The ASGI way costs a coroutine, a wait on the writable event and the text decoded then encoded
        again, per message; and a phone's writer task (``conn.py``) for every message queued while it was
        idle — which is every message, at a table.  asyncio's transport never blocks: it writes what the
        socket takes and keeps the rest, and tells the protocol when it holds too much (``pause_writing``).
        So while the socket takes everything and the connection is open, a message is framed and written
        here, in the caller's turn of the loop; otherwise (a phone that does not read, a connection closing)
        the caller queues it and its writer goes the ASGI way, which waits.  (Issue 25, measured A/B in the
        same runs: at 2,000 tables x 8 phones at the human pace, 32 messages a reveal, 2.06 / 1.99 ms of the
        server's CPU per reveal without, 1.77 / 1.65 ms with; at 100 x 6 instant, 6.8 messages a reveal, no
        difference the machine can show.)"""
        if (
            self.disconnected
            or not self.handshake_complete
            or self.close_sent
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        conn = self.conn
        plain = self.plain
        if plain is None:
            plain = self.plain = all(
                isinstance(ext, RawWhenSmall) and ext.local_no_context_takeover for ext in conn.extensions
            )
        if (
            plain
            and len(data) < RAW_BELOW
            and conn.state is OPEN
            and not conn.expect_continuation_frame
            and not conn.writes
        ):
            # What ``send_text`` would write, framed here: a header of two to four bytes.  (Its Frame object,
            # the extensions' look at it and the serialisation cost about as much as the socket's write.)
            self.transport.write(text_frame_header(len(data)) + data)
            return True
        try:
            conn.send_text(data)
        except InvalidState:
            return False
        self.transport.write(b"".join(conn.data_to_send()))
        return True

    def send_receive_event_to_app(self) -> None:
        keep_reading = not self.read_paused and self.queue.qsize() < READ_AHEAD
        if keep_reading:
            self.read_paused = True  # so that uvicorn does not stop reading the socket for this message
        super().send_receive_event_to_app()
        if keep_reading:
            self.read_paused = False

    def connection_lost(self, exc: Exception | None) -> None:
        transport = self.transport
        super().connection_lost(exc)
        self.conn.parser.close()  # it refers to the protocol object and the protocol to it: a cycle
        scope = getattr(self, "scope", None)
        if scope is not None:  # the scope refers to write_now, a method of the protocol, and it to the scope
            scope["extensions"].pop(WRITE_NOW, None)
            scope["extensions"].pop(ON_TEXT, None)
        inbox = self.queue
        if isinstance(inbox, Inbox):  # (the handler refers to the connection, and through it to this)
            inbox.handler, inbox.done = None, _never
        # asyncio's socket transport refers to itself through its read callback (a bound method), and so
        # would wait for a full collection; it reads no more once the connection is lost.
        if getattr(transport, "_read_ready_cb", None) is not None:
            transport._read_ready_cb = None  # type: ignore[attr-defined]
