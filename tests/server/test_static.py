"""Static files through a real server: gzip for text, cache headers, cheap revalidation, WebSockets intact; the
shared files under ``/static/`` and each game's own folder under ``/games/<name>/`` alike."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets

from tests.server.harness import ServerProcess

SRC = Path(__file__).resolve().parents[2] / "src" / "gemtable"
WEB = SRC / "web" / "static"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("static") / "data").start()
    try:
        yield proc
    finally:
        proc.stop()


def fetch(server: ServerProcess, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(server.base + path, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


TEXT_FILES = {
    "/static/js/table.js": WEB / "js/table.js",
    "/static/css/app.css": WEB / "css/app.css",
    "/static/i18n/ja.json": WEB / "i18n/ja.json",
    "/static/icons/icon.svg": WEB / "icons/icon.svg",
    "/games/booty/page.js": SRC / "games/booty/web/page.js",
    "/games/booty/page.css": SRC / "games/booty/web/page.css",
    "/games/expedition/texts.ja.json": SRC / "games/expedition/web/texts.ja.json",
}


@pytest.mark.parametrize("path", list(TEXT_FILES))
def test_text_files_go_out_gzipped_and_revalidate_with_a_304(server: ServerProcess, path: str) -> None:
    raw = TEXT_FILES[path].read_bytes()
    status, headers, body = fetch(server, path, **{"Accept-Encoding": "gzip, deflate"})
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert headers["cache-control"] == "no-cache"
    assert "accept-encoding" in headers["vary"].lower()
    assert gzip.decompress(body) == raw
    assert len(body) < len(raw)
    assert "content-security-policy" in headers  # the security headers still apply
    etag = headers["etag"]
    status, again, body = fetch(server, path, **{"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert status == 304 and body == b""
    assert again["etag"] == etag
    # A browser without gzip gets the file as it is, with its own validator.
    status, plain, body = fetch(server, path)
    assert status == 200 and body == raw
    assert "content-encoding" not in plain
    assert plain["cache-control"] == "no-cache"
    status, _, body = fetch(server, path, **{"If-None-Match": plain["etag"]})
    assert status == 304 and body == b""


def test_pngs_are_not_compressed_again_and_missing_files_are_404(server: ServerProcess) -> None:
    status, headers, body = fetch(server, "/static/icons/icon-192.png", **{"Accept-Encoding": "gzip"})
    assert status == 200 and "content-encoding" not in headers
    assert body == (WEB / "icons/icon-192.png").read_bytes()
    assert headers["cache-control"] == "no-cache" and headers["etag"]
    status, _, _ = fetch(server, "/static/js/nothing.js", **{"Accept-Encoding": "gzip"})
    assert status == 404
    status, _, _ = fetch(server, "/static/../pyproject.toml", **{"Accept-Encoding": "gzip"})
    assert status == 404
    status, _, _ = fetch(server, "/games/booty/nothing.js", **{"Accept-Encoding": "gzip"})
    assert status == 404


@pytest.mark.parametrize(
    "path",
    [
        "/games/booty/../manifest.py",
        "/games/booty/../../server/app.py",
        "/games/booty/%2e%2e/manifest.py",
        "/games/booty/..%2fmanifest.py",
        "/games/booty/%2e%2e%2f%2e%2e%2fserver%2fapp.py",
        "/games/booty//etc/passwd",
        "/games/booty/web/../../manifest.py",
        "/games/expedition/../booty/manifest.py",
        "/games/nosuchgame/page.js",
        "/games/../pyproject.toml",
    ],
)
def test_a_games_folder_serves_nothing_outside_its_web_files(server: ServerProcess, path: str) -> None:
    """Sent byte for byte (no client tidies the dots away): a game's path leads only into its ``web/``."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.putheader("Accept-Encoding", "gzip")
        connection.endheaders()
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    assert response.status in (400, 404), (path, response.status)
    for secret in (SRC / "games/booty/manifest.py", SRC / "server/app.py"):
        assert secret.read_bytes()[:60] not in body and secret.read_bytes()[:60] not in gzip_or_raw(body)


def gzip_or_raw(body: bytes) -> bytes:
    try:
        return gzip.decompress(body)
    except (OSError, EOFError):
        return body


def test_the_websocket_and_the_api_are_untouched(server: ServerProcess) -> None:
    code = server.create_table()
    status, headers, body = fetch(server, f"/api/tables/{code}", **{"Accept-Encoding": "gzip"})
    assert status == 200 and "content-encoding" not in headers
    assert json.loads(body)["code"] == code

    async def hello() -> dict[str, object]:
        async with websockets.connect(server.ws) as ws:
            await ws.send(json.dumps({"type": "hello", "code": code, "token": None, "tv": True}))
            return dict(json.loads(await asyncio.wait_for(ws.recv(), 10)))

    msg = asyncio.run(hello())
    assert msg["type"] in {"state", "welcome"}
