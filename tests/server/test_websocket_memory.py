"""What a phone's WebSocket keeps in the server: no compressor between messages (``server/websocket.py``),
and nothing that only the garbage collector's full collections could free once it is closed."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import weakref
import zlib
from typing import Any

import websockets
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

from gemtable.server import protocol as wire
from gemtable.server.gcpolicy import keep_frozen, thaw
from gemtable.server.websocket import RAW_BELOW, RawWhenSmall
from tests.server.harness import ServerProcess


def test_a_phone_gets_states_compressed_and_small_messages_as_they_are(server: ServerProcess) -> None:
    """A browser's offer of permessage-deflate is answered with no context takeover either way (no compressor
    or decompressor kept per phone); a table's messages — a whole state, a short error — go out as they are
    (below ``RAW_BELOW``: compressing them costs more CPU than the bytes are worth, issue 25)."""
    code = server.create_table()
    frames: list[tuple[str, bool, int]] = []  # (type, compressed, bytes on the wire)

    async def scenario() -> str:
        async with websockets.connect(server.ws, compression="deflate") as ws:
            assert ws.response is not None
            answer = ws.response.headers["Sec-WebSocket-Extensions"]
            [ext] = ws.protocol.extensions
            assert isinstance(ext, PerMessageDeflate)
            decode = ext.decode

            def watch(frame: Frame, *, max_size: int | None = None) -> Frame:
                plain = decode(frame, max_size=max_size)
                frames.append((json.loads(bytes(plain.data))["type"], frame.rsv1, len(frame.data)))
                return plain

            ext.decode = watch  # type: ignore[method-assign]
            await ws.send(wire.encode(wire.Join(v=wire.VERSION, code=code, name="Ada")).decode())
            while not any(kind == "state" for kind, *_ in frames):
                await asyncio.wait_for(ws.recv(), 10)
            await ws.send(b"\x00binary")  # refused with a short error message
            while frames[-1][0] != "error":
                await asyncio.wait_for(ws.recv(), 10)
            return answer

    answer = asyncio.run(scenario())
    assert "server_no_context_takeover" in answer and "client_no_context_takeover" in answer
    states = [(compressed, size) for kind, compressed, size in frames if kind == "state"]
    assert states and all(not compressed and size < RAW_BELOW for compressed, size in states)
    assert frames[-1][1] is False and frames[-1][2] < RAW_BELOW  # the error, as it is


def test_the_extension_compresses_each_large_message_on_its_own() -> None:
    ext = RawWhenSmall(True, True, 12, 12, {"memLevel": 5})
    small = Frame(Opcode.TEXT, b'{"type":"error"}')
    assert ext.encode(small) is small
    big = json.dumps({"type": "state", "table": {"cards": ["gem-5"] * 1500}}).encode()
    assert len(big) >= RAW_BELOW
    out = [ext.encode(Frame(Opcode.TEXT, big)) for _ in range(2)]
    assert out[0].rsv1 and out[0].data == out[1].data and len(out[0].data) < len(big) // 10
    assert zlib.decompressobj(wbits=-12).decompress(bytes(out[0].data) + b"\x00\x00\xff\xff") == big
    assert not hasattr(ext, "encoder") and not hasattr(ext, "decoder")  # nothing kept between messages


def test_frozen_cycles_are_given_back_after_enough_closed_connections() -> None:
    """``keep_frozen`` freezes what lives; garbage in a cycle that was frozen comes back at the thaw that
    follows enough closed connections."""

    class Node:
        other: Any = None

    async def scenario() -> tuple[bool, bool]:
        closed = 0
        task = asyncio.ensure_future(keep_frozen(lambda: closed, freeze_every=0.01, thaw_after_closed=10))
        try:
            a, b = Node(), Node()
            a.other, b.other = b, a  # a cycle: reference counting alone never frees it
            gone = weakref.ref(a)
            while gc.get_freeze_count() == 0 or any(o is a for o in gc.get_objects()):
                await asyncio.sleep(0.01)  # wait until it is frozen
            del a, b
            gc.collect()
            kept_while_frozen = gone() is not None
            closed = 10
            for _ in range(1000):
                if gone() is None:
                    break
                await asyncio.sleep(0.01)
            return kept_while_frozen, gone() is None
        finally:
            task.cancel()
            gc.unfreeze()

    kept_while_frozen, freed = asyncio.run(scenario())
    assert kept_while_frozen and freed


def test_thaw_collects_and_freezes_again() -> None:
    try:
        gc.freeze()
        assert thaw() >= 0
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_while_the_upkeep_runs_only_young_collections_start_on_their_own() -> None:
    """Under ``keep_frozen`` the interpreter still collects young cycles by itself, never the older
    generations (what survives a young collection is frozen instead), and the thresholds come back when the
    upkeep stops."""

    class Node:
        other: Any = None

    before, enabled = gc.get_threshold(), gc.isenabled()
    gc.set_threshold(700, 10, 10)  # CPython's own: a test that ran before in this process may have changed them
    gc.enable()
    generations: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    async def scenario() -> tuple[bool, int]:
        task = asyncio.ensure_future(keep_frozen(freeze_every=3600))
        await asyncio.sleep(0)  # the upkeep starts: its first collection and freeze
        gc.callbacks.append(watch)
        try:
            a, b = Node(), Node()
            a.other, b.other = b, a  # a cycle, dropped at once
            gone = weakref.ref(a)
            del a, b
            kept = [[i] for i in range(100_000)]  # allocations that survive: older collections are due often
            freed = gone() is None
            return freed, len(kept)
        finally:
            gc.callbacks.remove(watch)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            gc.unfreeze()

    try:
        freed, _ = asyncio.run(scenario())
        assert gc.get_threshold() == (700, 10, 10)  # the upkeep gave back the thresholds it found
    finally:
        gc.set_threshold(*before)
        if not enabled:
            gc.disable()
    assert freed, "a young collection, started by the interpreter, freed the cycle"
    assert generations.count(0) >= 100, generations[:10]
    assert set(generations) == {0}, "no collection of an older generation started on its own"


TABLES = 6
SEATS = 8
PER_PHONE_KB = 17
"""The bound, in KB of Python objects, a phone joined to a table costs the server (its connection: uvicorn's
protocol, the ``websockets`` one, asyncio's transport, the ASGI task, its ``Conn``; its share of its table).
Measured 12.8 KB here (25.3 KB with uvicorn's queue, event and attribute dict, the handshake kept and the middleware
frames held: ``docs/benchmarks.md``)."""


def test_a_phone_at_a_table_costs_the_server_a_bounded_few_kb() -> None:
    """48 phones, 8 at each of 6 tables, over real WebSockets to the app on uvicorn with ``SmallDeflate`` (as
    ``gemtable serve`` runs it, in this process): what the server side of them allocated and still holds once
    each has its table's state, by tracemalloc, counted per phone.  The phones' own side (the ``websockets``
    client in the same loop) is told apart by where it was allocated: the server's under uvicorn or gemtable,
    or asyncio accepting a connection."""
    import inspect
    import os
    import socket
    import tracemalloc
    from asyncio import selector_events

    import uvicorn

    import gemtable
    from gemtable.server.app import create_app
    from gemtable.server.site import Site
    from gemtable.server.websocket import SmallDeflate
    from gemtable.store import MemoryStore

    roots = (os.path.dirname(gemtable.__file__) + os.sep, os.path.dirname(uvicorn.__file__) + os.sep)
    accepting = []
    for method in ("_accept_connection", "_accept_connection2"):
        lines, first = inspect.getsourcelines(getattr(selector_events.BaseSelectorEventLoop, method))
        accepting.append((first, first + len(lines)))

    def servers(traceback: tracemalloc.Traceback) -> bool:
        for frame in traceback:
            if frame.filename.startswith(roots):
                return True
            if frame.filename == selector_events.__file__ and any(a <= frame.lineno < b for a, b in accepting):
                return True
        return False

    def held(snapshot: tracemalloc.Snapshot) -> int:
        return sum(stat.size for stat in snapshot.statistics("traceback") if servers(stat.traceback))

    async def scenario() -> float:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
        site = Site.build(port, listen="127.0.0.1", interfaces=[], hostname="")
        app = create_app(MemoryStore(), site=site)
        config = uvicorn.Config(app, ws=SmallDeflate, log_level="warning", lifespan="on", ws_ping_interval=20)
        server = uvicorn.Server(config)
        serving = asyncio.ensure_future(server.serve(sockets=[sock]))
        phones: list[Any] = []
        try:
            while not server.started:
                await asyncio.sleep(0.02)

            async def table(number: int) -> None:
                code = (await app.state.hub.create(f"127.66.{number}.100", {"game": "expedition"})).code
                for seat in range(SEATS):
                    ws = await websockets.connect(
                        f"ws://127.0.0.1:{port}/ws", local_addr=(f"127.66.{number}.{seat + 1}", 0), compression=None
                    )
                    phones.append(ws)
                    await ws.send(wire.encode(wire.Join(v=wire.VERSION, code=code, name=f"P{seat}")).decode())
                    while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "state":
                        pass

            await table(0)  # the first table warms what every later one shares (imports, caches)
            gc.collect()
            tracemalloc.start(16)
            try:
                before = tracemalloc.take_snapshot()
                await asyncio.gather(*(table(number) for number in range(1, TABLES + 1)))
                await asyncio.sleep(0.2)  # whatever the last joins set going settles
                gc.collect()
                after = tracemalloc.take_snapshot()
            finally:
                tracemalloc.stop()
            return (held(after) - held(before)) / (TABLES * SEATS) / 1024
        finally:
            for ws in phones:
                await ws.close()
            server.should_exit = True
            await serving

    per_phone = asyncio.run(scenario())
    print(f"{per_phone:.1f} KB a phone")
    assert 0 < per_phone < PER_PHONE_KB


def test_the_light_queue_and_flag_wake_their_waiters_in_order() -> None:
    """``Inbox`` and ``Flag`` (what uvicorn's protocol gets instead of an ``asyncio.Queue`` and ``Event``): a
    reader waits for a message and gets them in order, a writer waits for the flag, and a cancelled wait leaves
    nothing behind."""
    from gemtable.server.websocket import Flag, Inbox

    async def scenario() -> None:
        inbox, flag = Inbox(), Flag(False)
        got, waited = asyncio.ensure_future(inbox.get()), asyncio.ensure_future(flag.wait())
        await asyncio.sleep(0)
        assert not got.done() and not waited.done() and inbox.empty() and not flag.is_set()
        inbox.put_nowait("a")
        inbox.put_nowait("b")
        flag.set()
        assert await got == "a" and inbox.qsize() == 1
        await waited
        assert await inbox.get() == "b" and inbox.empty()
        flag.clear()
        assert not flag.is_set()
        given_up = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        given_up.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await given_up
        assert not inbox.waiters
        inbox.put_nowait("c")
        assert await asyncio.wait_for(inbox.get(), 1) == "c"

    asyncio.run(scenario())
