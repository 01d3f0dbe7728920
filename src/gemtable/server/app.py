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
) -> Starlette:
    """The application.  ``tune_gc``: keep long-lived objects out of the garbage collector's full
    collections (``gcpolicy.py``; what ``gemtable serve`` does)."""
    hub = hub or Hub(store, limits, allow_scripts=allow_scripts, bus=bus, node_id=node_id, lease_ttl=lease_ttl)
    site = site or Site.build(8000)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        gc_task = asyncio.ensure_future(keep_frozen(lambda: hub.closed)) if tune_gc else None
        try:
            yield
        finally:
            if gc_task is not None:
                gc_task.cancel()
            await hub.stop()
            await store.close()
            if bus is not None:
                await bus.close()

    app = Starlette(routes=[*pages.routes(), *Api(hub, store, site).routes()], lifespan=lifespan)
    app.add_middleware(SameOrigin, site=site)  # another site's page cannot act through a guest's browser
    app.add_middleware(RequestBudget, limits=hub.limits, site=site)  # requests per address; no API for other sites
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(site.host_headers), www_redirect=False)
    app.add_middleware(SecurityHeaders)
    phones = Phones(hub)

    async def endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        await phones.serve(WebSocket(scope, receive, send))

    # The same Host and Origin checks in front of the phones' endpoint as in front of everything else.
    checked = TrustedHostMiddleware(
        SameOrigin(endpoint, site), allowed_hosts=list(site.host_headers), www_redirect=False
    )
    app.add_middleware(PhonesFirst, phones=checked)
    app.state.hub = hub
    app.state.site = site
    return app


class PhonesFirst:
    """ASGI middleware: a phone's WebSocket (``/ws``) goes straight to its endpoint, behind its own Host and
    Origin checks, instead of through the whole stack the pages and the API need (the error pages, the
    router, the security headers of HTTP answers).  A connection lives for hours, and every layer it passes
    stays in memory as long as it does: about 5 KB a phone (``docs/benchmarks.md``)."""

    def __init__(self, app: ASGIApp, phones: ASGIApp) -> None:
        self.app = app
        self.phones = phones

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws":
            await self.phones(scope, receive, send)
        else:
            await self.app(scope, receive, send)


__all__ = ["QR_CACHE", "WEB", "PhonesFirst", "create_app"]
