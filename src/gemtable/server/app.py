"""The ASGI application, put together from modules named for what they serve: the HTTP API (``api.py``),
the phones' WebSocket endpoint (``phones.py``) and the pages (``pages.py``), behind the Host check and the
security headers."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import WebSocketRoute

from gemtable.bus import Bus
from gemtable.server import pages
from gemtable.server.api import QR_CACHE, Api
from gemtable.server.gcpolicy import keep_frozen
from gemtable.server.hub import Hub
from gemtable.server.limits import Limits
from gemtable.server.origin import SameOrigin
from gemtable.server.pages import WEB
from gemtable.server.phones import Phones
from gemtable.server.security import SecurityHeaders
from gemtable.server.site import Site
from gemtable.store import Store


def create_app(store: Store, *, allow_scripts: bool = False, limits: Limits | None = None,
               bus: Bus | None = None, node_id: str | None = None, hub: Hub | None = None,
               site: Site | None = None, tune_gc: bool = False, lease_ttl: float = 3.0) -> Starlette:
    """The application.  ``tune_gc``: keep long-lived objects out of the garbage collector's full
    collections (``gcpolicy.py``; what ``gemtable serve`` does)."""
    hub = hub or Hub(store, limits, allow_scripts=allow_scripts, bus=bus, node_id=node_id,
                     lease_ttl=lease_ttl)
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

    routes = [*pages.routes(), *Api(hub, store, site).routes(), WebSocketRoute("/ws", Phones(hub).serve)]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(SameOrigin, site=site)  # another site's page cannot act through a guest's browser
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(site.hosts), www_redirect=False)
    app.add_middleware(SecurityHeaders)
    app.state.hub = hub
    app.state.site = site
    return app


__all__ = ["QR_CACHE", "WEB", "create_app"]
