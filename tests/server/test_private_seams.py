"""The one seam onto other libraries' internals (issue 39): every name of uvicorn's, websockets' or asyncio's
that ``gemtable.server.websocket`` uses beyond their public API is listed in ``websocket.PRIVATE``, and this
test finds each on a real connection of the installed versions.  An upgrade that removes one fails here,
naming it, instead of breaking phones at a party (``docs/upstream.md`` says why each is used and what
upstream fix would retire it)."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import uvicorn
import websockets

from gemtable.server import websocket as ws


def test_every_private_name_the_websocket_layer_uses_is_there() -> None:
    found: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        protocol = scope["extensions"][ws.WRITE_NOW].__self__
        found["protocol"], found["conn"], found["transport"] = protocol, protocol.conn, protocol.transport
        await send({"type": "websocket.send", "text": "ok"})
        await receive()

    async def scenario() -> None:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))  # bound here, handed to uvicorn: no other test can take the port meanwhile
        port = int(sock.getsockname()[1])
        config = uvicorn.Config(app, ws=ws.SmallDeflate, log_level="warning")
        server = uvicorn.Server(config)
        serving = asyncio.ensure_future(server.serve(sockets=[sock]))
        try:
            for _ in range(200):
                if server.started:
                    break
                await asyncio.sleep(0.05)
            async with websockets.connect(f"ws://127.0.0.1:{port}/") as client:
                assert await client.recv() == "ok"
        finally:
            server.should_exit = True
            await serving

    asyncio.run(scenario())
    assert set(found) == {"protocol", "conn", "transport"}
    selector = type(found["transport"]).__name__ == "_SelectorSocketTransport"
    missing = [
        f"{owner}.{name} ({type(found[owner]).__module__}.{type(found[owner]).__qualname__})"
        for owner, name in ws.PRIVATE
        if not hasattr(found[owner], name) and (owner != "transport" or selector)
    ]
    assert not missing, f"gone after an upgrade: {', '.join(missing)} (see docs/upstream.md)"
    protocol = found["protocol"]
    assert vars(protocol) == {}, f"uvicorn sets attributes websocket.UVICORN_ATTRIBUTES lacks: {sorted(vars(protocol))}"
    assert protocol.request is None and protocol.response is None  # let go once open (start_keepalive)
    assert isinstance(protocol.queue, ws.Inbox) and isinstance(protocol.writable, ws.Flag)


def test_the_list_names_what_the_module_uses() -> None:
    """Every private name listed is one the module's source still reads (a stale entry would hide nothing but
    mislead), and the module reads no attribute with a leading underscore that the list does not name."""
    import inspect
    import re

    source = inspect.getsource(ws)
    for _, name in ws.PRIVATE:
        assert re.search(rf"\.{name}\b", source), name
    underscored = set(re.findall(r"\b(?:transport|conn|self)\.(_[a-z]\w*)", source))
    assert underscored <= {name for _, name in ws.PRIVATE}, underscored
