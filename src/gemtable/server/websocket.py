"""uvicorn's sans-I/O WebSocket protocol, with a smaller permessage-deflate compressor per connection.

Each connection keeps a compressor and a decompressor for as long as it is open: with zlib's defaults
(a 32 KiB window, memLevel 8) that is about 300 KB a phone; uvicorn's sans-I/O protocol asks for a 4 KiB
window and memLevel 5 (about 45 KB).  A table's full state is 3 to 4 KB of JSON, much of it the same
as the state before it: a 4 KiB window (:data:`WINDOW_BITS`) holds the last state, so the next compresses
to a few dozen bytes, and memLevel 3 halves the compressor's hash tables.
See ``docs/benchmarks.md`` for what each choice measured.
"""

from __future__ import annotations

import os
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

WINDOW_BITS = int(os.environ.get("GEMTABLE_WS_WINDOW_BITS", "12"))
"""The server's compression window: 2**12 bytes hold a whole state, so the next one (mostly the same)
compresses to a few dozen bytes; 2**10 would save about 12 KB a phone but send 900-byte states."""
MEM_LEVEL = int(os.environ.get("GEMTABLE_WS_MEM_LEVEL", "3"))
"""zlib's memLevel of the server's compressor (1 to 9: memory for speed)."""
CLIENT_WINDOW_BITS = 12
"""The phones' window, as uvicorn's sans-I/O protocol asks (9 bits closed connections in the tests)."""


class SmallDeflate(WebSocketsSansIOProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn.available_extensions = [
                ServerPerMessageDeflateFactory(
                    server_max_window_bits=WINDOW_BITS,
                    client_max_window_bits=CLIENT_WINDOW_BITS,
                    compress_settings={"memLevel": MEM_LEVEL},
                )
            ]

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.conn.parser.close()
