"""Another site's page, opened by a guest, tries to use the gemtable server through the guest's browser
(issue 13, finding 3): in Chromium, a page served by another local server (another port is another
origin) tries to create a table and to open a WebSocket.  Both are refused; our own page does both."""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser

pytestmark = pytest.mark.browser

TRY = """async ([base, ws]) => {
  const out = {};
  for (const [name, init] of [
    ['form', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' },
               body: '{"game": "expedition"}' }],
    ['json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"game": "expedition"}' }],
  ]) {
    try {
      const r = await fetch(base + '/api/tables', { ...init, signal: AbortSignal.timeout(10000) });
      out[name] = r.type === 'opaque' ? 'opaque' : r.status;
    } catch (e) { out[name] = 'blocked'; }
  }
  out.ws = await new Promise((resolve) => {
    setTimeout(() => resolve('no answer in 10 s'), 10000);
    const s = new WebSocket(ws);
    s.onopen = () => { s.send(JSON.stringify({ type: 'ping' })); };
    s.onmessage = (e) => { resolve('open: ' + e.data); s.close(); };
    s.onclose = (e) => resolve('closed ' + e.code);
  });
  return out;
}"""


@contextlib.contextmanager
def other_site(folder: Path) -> Iterator[str]:
    """A static web server on another port: an origin that is not gemtable's."""
    (folder / "index.html").write_text("<!doctype html><title>Free prizes</title><h1>Free prizes</h1>")
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def tables(server: ServerProcess) -> int:
    return int(server.get("/api/node")[1]["runs"])


def test_a_page_of_another_site_cannot_create_tables_or_open_websockets(
    server: ServerProcess, browser: Browser, tmp_path: Path
) -> None:
    before = tables(server)
    with other_site(tmp_path) as evil:
        guest = browser.desktop("guest")
        guest.goto(evil + "/")
        assert guest.title() == "Free prizes"
        result: dict[str, Any] = guest.evaluate(TRY, [server.base, server.ws])
    assert result["form"] == "opaque"  # the browser sent it (no-cors) and hid the answer: the server refused it
    assert result["json"] == "blocked"  # a JSON POST needs a CORS preflight, which the server does not grant
    assert result["ws"] == "closed 1006", result  # the handshake was refused (403)
    assert tables(server) == before  # nothing was created
    # Our own page, in the same browser, does both.
    own = browser.desktop("own")
    own.goto("/")
    origin = own.evaluate("location.origin")  # (the page may live at the public URL rather than 127.0.0.1)
    mine: dict[str, Any] = own.evaluate(
        TRY.replace("mode: 'no-cors', ", ""), [origin, origin.replace("http", "ws", 1) + "/ws"]
    )
    assert mine["json"] == 201 and mine["ws"].startswith('open: {"type":"pong"'), mine
    assert mine["form"] == 415  # text/plain: refused whoever sends it
    assert tables(server) == before + 1
