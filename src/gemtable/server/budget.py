"""What one address may ask of the server over HTTP: a request budget, and no API for another site's page.

Every HTTP request costs the server something, and nothing bounded how many one address could make: 64
kept-alive connections asking for ``/api/schema`` (then rebuilt at every call) held a core at 90 % and an honest
phone's ping at half a second.  So each address has two token buckets (:class:`gemtable.server.limits.Limits`):
one for every request (the pages and their files, served from memory, are cheap: a page load is about 30 of
them), and a smaller one for ``/api/*``.  Over budget: ``429`` with ``Retry-After``, before any work, and the
connection is closed.  A reverse proxy on this host, and the host's own browser on ``localhost``
(:data:`LOCAL_PROXIES`), are not counted: uvicorn gives the phone's own address from ``X-Forwarded-For``
behind the proxy.

Another site's page, open in a guest's browser, can send ``GET``s here too (``fetch(…, {mode: 'no-cors'})``,
an ``<img>``): it cannot read the answers, but it spends the guest's budget and the server's time.  So a ``GET``
of the API that the browser says comes from another site (``Sec-Fetch-Site``, ``Origin`` or ``Referer``:
``origin.from_another_site``) is refused with ``403`` before it costs anything, as a WebSocket from another site
is.  A plain link to a table (``/t/CODE``) is a page, not the API: it still opens.
"""

from __future__ import annotations

import json

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from gemtable.server.limits import LOCAL_PROXIES, AddressLimiter, Limits, address_key
from gemtable.server.origin import from_another_site
from gemtable.server.site import Site


class RequestBudget:
    """ASGI middleware: requests per address, ``/api/*`` apart, and the API closed to other sites' pages."""

    def __init__(self, app: ASGIApp, limits: Limits, site: Site) -> None:
        self.app = app
        self.site = site
        keep = limits.buckets_kept
        self.requests = AddressLimiter(limits.requests_per_second, limits.request_burst, keep)
        self.api = AddressLimiter(limits.api_per_second, limits.api_burst, keep)
        self.refused = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope["path"].startswith("/api/")
        if api and from_another_site(Headers(scope=scope), self.site):
            await _answer(send, 403, "cross-origin", "another site's page may not use this server's API")
            return
        client = scope.get("client")
        address = address_key(client[0] if client else "?")
        if address not in LOCAL_PROXIES and (not self.requests.allow(address) or (api and not self.api.allow(address))):
            self.refused += 1
            await _answer(send, 429, "slow-down", "too many requests from this address; wait a moment")
            return
        await self.app(scope, receive, send)


async def _answer(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    # A refused request closes its connection: a client that goes on asking pays a new connection each time
    # (which the limits on connections count), rather than tens of thousands of refusals a second on one.
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    if status == 429:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = ["RequestBudget"]
