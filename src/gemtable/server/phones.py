"""The WebSocket endpoint (``/ws``): one connection per phone or TV, its messages handed to the hub.

A connection lives for hours, so what it keeps is kept small: once it is open, its ASGI scope's headers (the whole
handshake's, ~1 KB, read by nothing after the Host and Origin checks) are dropped, and it is reached from the
application straight after those checks have returned (``app.App``), not through the middleware stack."""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket, WebSocketDisconnect

from gemtable.server import protocol as p
from gemtable.server.conn import Conn
from gemtable.server.hub import Hub
from gemtable.server.limits import address_key
from gemtable.server.websocket import ON_TEXT, WRITE_NOW


class Phones:
    """The ``/ws`` endpoint: admit a connection, read its text frames into the hub, count it out at the end.

    Under uvicorn with ``SmallDeflate`` a text message is handed to the hub as its bytes arrive, in that turn
    of the loop (``websocket.Inbox``, ``eager.py``); the loop here then reads only what waited behind a message
    whose handling had to wait, binary frames, and the end of the connection (or is woken when a message
    closed it)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def serve(self, ws: WebSocket) -> None:
        address = address_key(ws.client.host if ws.client else "?")
        if not self.hub.admit(address):
            await ws.close(code=1008)
            return

        async def send(data: bytes) -> None:
            await ws.send_text(data.decode())

        conn = Conn(send, lambda code: ws.close(code=code), address, self.hub.limits, self.hub.gate)
        idle = asyncio.get_running_loop().call_later(self.hub.limits.hello_seconds, _close_if_idle, conn)
        try:  # from here on, whatever happens, the connection is counted out again (``drop``)
            await ws.accept()
            extensions = ws.scope.get("extensions", {})
            conn.write_now = extensions.get(WRITE_NOW)  # uvicorn with ``SmallDeflate``
            on_text = extensions.get(ON_TEXT)
            if on_text is not None:  # (uvicorn with ``SmallDeflate``: a message is handled as its bytes arrive)
                on_text(lambda text: self.hub.receive(conn, text), lambda: conn.closed)
            ws.scope["headers"] = []  # read by nobody once open (Host and Origin were checked): ~1 KB a phone
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect" or conn.closed:
                    break
                text = message.get("text")
                if text is None:  # a binary frame: refused like any other bad message (the rate, the strikes)
                    self.hub.refuse(conn, "binary", "send text frames of JSON")
                    continue
                await self.hub.receive(conn, text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            idle.cancel()
            await self.hub.drop(conn)


def _close_if_idle(conn: Conn) -> None:
    """A connection that has not opened a table in time (it holds a socket and says nothing): closed."""
    if conn.code is None and not conn.closed:
        conn.tell(p.Error(code="idle", message="say hello to a table first"))
        conn.close(1008)


__all__ = ["Phones"]
