"""Only this server's own pages may act through a guest's browser.

A page on another site, opened by a guest on the party's Wi-Fi, runs in that guest's browser, which can
reach the server as well as the guest's phone can: it could create tables, or open a WebSocket to watch a
table and take a seat.  Browsers say where such a request comes from: they send ``Origin`` on every
WebSocket handshake and on every cross-origin ``POST`` (and ``fetch`` cannot leave it out).  So a WebSocket
handshake, or any request that is not a ``GET``, ``HEAD`` or ``OPTIONS``, whose ``Origin`` is not one of
this server's (:attr:`gemtable.server.site.Site.origins`: the public URL's, this server's host names at its
own port, and those the host added with ``--allow-origin``) is refused: 403 before anything is read.

A request *without* ``Origin`` is allowed: it does not come from a web page (our Python client, the
benchmarks, ``curl``), and a program outside a browser needs no guest's browser to send whatever it likes —
the limits per address are what hold it back.  ``POST /api/tables`` also requires
``Content-Type: application/json`` (``app.py``): a JSON type is not one a plain HTML form can send.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from starlette.types import ASGIApp, Receive, Scope, Send

from gemtable.server.site import Site

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


class SameOrigin:
    """ASGI middleware: refuses WebSocket handshakes and unsafe requests from another web origin."""

    def __init__(self, app: ASGIApp, site: Site) -> None:
        self.app = app
        self.site = site

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        checked = kind == "websocket" or (kind == "http" and scope["method"] not in SAFE)
        origin = _header(scope, b"origin") if checked else None
        if origin is None or self.site.allows_origin(origin):
            await self.app(scope, receive, send)
        elif kind == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # before the handshake: uvicorn answers 403
        else:
            body = json.dumps({"error": "cross-origin", "message": "only this server's own pages may do that"})
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"vary", b"origin")],
                }
            )
            await send({"type": "http.response.body", "body": body.encode()})


FOREIGN_FETCH_SITES = frozenset({"cross-site", "same-site"})
"""``Sec-Fetch-Site`` values of a request another site's page made (``same-site`` is another port of the same
host, or another name of its domain: another program's pages).  ``same-origin`` is ours; ``none`` a user who
typed or pasted the address."""


def from_another_site(headers: Mapping[str, str], site: Site) -> bool:
    """Whether a ``GET`` was made by another site's page: an ``<img src>`` or ``fetch`` that looks a table code
    up (its QR code, its summary, a record) through a guest's browser, which would spend that guest's
    address's tries at guessing codes.  Browsers say so in ``Sec-Fetch-Site`` (every browser since 2023) and,
    unless told not to, in ``Referer``; a ``fetch`` sends ``Origin`` too.  Our own pages send ``same-origin``,
    and no ``Referer`` (``Referrer-Policy: no-referrer``); a request that says none of these (a program, an
    older browser, a link typed in) is not refused here — the tries per address hold it back."""
    if headers.get("sec-fetch-site", "").strip().lower() in FOREIGN_FETCH_SITES:
        return True
    for name in ("origin", "referer"):
        value = headers.get(name)
        if value is not None and not site.allows_origin(value):
            return True
    return False


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


__all__ = ["FOREIGN_FETCH_SITES", "SameOrigin", "from_another_site"]
