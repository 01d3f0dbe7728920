"""The ASGI application, put together from modules named for what they serve: the HTTP API (``api.py``),
the phones' WebSocket endpoint (``phones.py``) and the pages (``pages.py``), behind the Host check and the
security headers."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from gemtable.bus import Bus
from gemtable.server import pages
from gemtable.server.api import QR_CACHE, Api
from gemtable.server.budget import RequestBudget
from gemtable.server.busy import Busy, keep_watch
from gemtable.server.gcpolicy import keep_frozen
from gemtable.server.hub import Hub
from gemtable.server.limits import Limits
from gemtable.server.origin import SameOrigin
from gemtable.server.pages import WEB
from gemtable.server.phones import Phones
from gemtable.server.security import SecurityHeaders
from gemtable.server.site import Site
from gemtable.store import Store


def create_app(
    store: Store,
    *,
    allow_scripts: bool = False,
    limits: Limits | None = None,
    bus: Bus | None = None,
    node_id: str | None = None,
    hub: Hub | None = None,
    site: Site | None = None,
    tune_gc: bool = False,
    lease_ttl: float = 3.0,
    busy: Busy | None = None,
) -> App:
    """The application.  ``tune_gc``: keep long-lived objects out of the garbage collector's full
    collections (``gcpolicy.py``; what ``gemtable serve`` does).  ``busy``: tell the tables' chatter less often
    while this process is busy (``busy.py``; what ``gemtable serve`` does)."""
    hub = hub or Hub(store, limits, allow_scripts=allow_scripts, bus=bus, node_id=node_id, lease_ttl=lease_ttl)
    site = site or Site.build(8000)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        gc_task = asyncio.ensure_future(keep_frozen(lambda: hub.closed)) if tune_gc else None
        busy_task = asyncio.ensure_future(keep_watch(busy, hub.shed)) if busy is not None else None
        try:
            yield
        finally:
            for task in (gc_task, busy_task):
                if task is not None:
                    task.cancel()
            await hub.stop()
            await store.close()
            if bus is not None:
                await bus.close()

    app = App(routes=[*pages.routes(), *Api(hub, store, site).routes()], lifespan=lifespan)
    app.add_middleware(SameOrigin, site=site)  # another site's page cannot act through a guest's browser
    app.add_middleware(RequestBudget, limits=hub.limits, site=site)  # requests per address; no API for other sites
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(site.host_headers), www_redirect=False)
    app.add_middleware(SecurityHeaders)
    # The same Host and Origin checks in front of the phones' endpoint as in front of everything else.
    app.checks = TrustedHostMiddleware(
        SameOrigin(_passed, site), allowed_hosts=list(site.host_headers), www_redirect=False
    )
    app.phones = Phones(hub)
    app.state.hub = hub
    app.state.site = site
    return app


CHECKED = "gemtable.checked"
"""Set in a phone's scope by the end of :attr:`App.checks` when its handshake passed them."""


async def _passed(scope: Scope, receive: Receive, send: Send) -> None:
    scope[CHECKED] = True


class App(Starlette):
    """The application: a phone's WebSocket (``/ws``) goes straight to its endpoint, after its own Host and Origin
    checks, instead of through the whole stack the pages and the API need (the error pages, the router, the
    security headers of HTTP answers).  A connection lives for hours, and every layer it passes stays in memory
    as long as it does (a coroutine and its frame, ~300-450 bytes each): so the checks run to their end and
    return, and only then is the endpoint awaited, from here (``docs/benchmarks.md``, memory per connection)."""

    checks: ASGIApp
    """The Host and Origin checks (the middlewares themselves): they refuse a handshake, or mark it passed."""
    phones: Phones | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws" and self.phones is not None:
            await self.checks(scope, receive, send)
            if scope.pop(CHECKED, False):
                await self.phones.serve(WebSocket(scope, receive, send))
            return
        await super().__call__(scope, receive, send)


__all__ = ["QR_CACHE", "WEB", "App", "create_app"]
