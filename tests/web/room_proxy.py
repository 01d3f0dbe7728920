"""A tiny HTTP proxy for the tests: the room's name (``gemtable.test``) goes to 127.0.0.1, nothing else anywhere.

WebKit has no ``--host-resolver-rules``; it is given this proxy through the WebDriver ``proxy`` capability
instead, so it opens ``http://gemtable.test:PORT`` (a name that is not local: an insecure context, as on a
LAN) and reaches the test server on this machine.  It speaks just enough HTTP/1.1: ``CONNECT`` tunnels, and
absolute-form requests (``GET http://gemtable.test:PORT/path``, and ``ws://`` for a WebSocket: WebKit asks
so) rewritten to origin form, one request per connection (``Connection: close``) except a WebSocket
upgrade, which is then piped both ways as is.

``cut()`` drops every connection it carries and refuses new ones until ``mend()``: the phones behind it lose the
network (as when the Wi-Fi goes), while the server and any phone not behind it carry on.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from urllib.parse import urlsplit


class RoomProxy:
    def __init__(self, name: str, target: str = "127.0.0.1") -> None:
        self.name = name.lower()
        self.target = target
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = int(self.sock.getsockname()[1])
        self.refused: list[str] = []
        self.closed = False
        self.cut_off = False
        self.live: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._accept, name="room-proxy", daemon=True)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> RoomProxy:
        self.thread.start()
        return self

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError):
            self.sock.close()

    def cut(self) -> None:
        """Drop every connection, and refuse new ones until :meth:`mend`."""
        with self.lock:
            self.cut_off = True
            for s in self.live:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def mend(self) -> None:
        with self.lock:
            self.cut_off = False

    def _keep(self, s: socket.socket) -> bool:
        """Count ``s`` among the connections carried; False (and ``s`` closed) while cut off."""
        with self.lock:
            if self.cut_off:
                with contextlib.suppress(OSError):
                    s.close()
                return False
            self.live.add(s)
            return True

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _where(self, host: str, port: int | None) -> tuple[str, int] | None:
        if host.lower() != self.name or port is None:
            return None
        return self.target, port

    def _serve(self, client: socket.socket) -> None:
        upstream: socket.socket | None = None
        if not self._keep(client):
            return
        try:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = client.recv(65536)
                if not chunk:
                    return
                head += chunk
                if len(head) > 256 * 1024:
                    return
            head, _, rest = head.partition(b"\r\n\r\n")
            lines = head.split(b"\r\n")
            method, target, version = lines[0].decode("latin-1").split(" ", 2)
            if method == "CONNECT":
                host, _, port_text = target.rpartition(":")
                where = self._where(host, int(port_text) if port_text.isdigit() else None)
                if where is None:
                    self._refuse(client, target)
                    return
                upstream = socket.create_connection(where, timeout=10)
                upstream.settimeout(None)
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            else:
                url = urlsplit(target)
                where = self._where(url.hostname or "", url.port or 80) if url.scheme in ("http", "ws") else None
                if where is None:
                    self._refuse(client, target)
                    return
                path = (url.path or "/") + (f"?{url.query}" if url.query else "")
                headers = [line for line in lines[1:] if not line.lower().startswith(b"proxy-")]
                upgrade = any(line.lower().startswith(b"upgrade:") for line in headers)
                if not upgrade:
                    headers = [line for line in headers if not line.lower().startswith(b"connection:")]
                    headers.append(b"Connection: close")
                upstream = socket.create_connection(where, timeout=10)
                upstream.settimeout(None)
                upstream.sendall(
                    b"\r\n".join([f"{method} {path} {version}".encode("latin-1"), *headers]) + b"\r\n\r\n" + rest
                )
                rest = b""
            if rest:
                upstream.sendall(rest)
            back = threading.Thread(target=_pipe, args=(upstream, client), daemon=True)
            back.start()
            _pipe(client, upstream)
            back.join(timeout=30)
        except (OSError, ValueError):
            pass
        finally:
            with self.lock:
                self.live.discard(client)
            for s in (client, upstream):
                if s is not None:
                    with contextlib.suppress(OSError):
                        s.close()

    def _refuse(self, client: socket.socket, target: str) -> None:
        self.refused.append(target)
        client.sendall(b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")


def _pipe(src: socket.socket, dst: socket.socket) -> None:
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)
