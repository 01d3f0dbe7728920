"""The address phones can reach, through a real server: what ``serve`` prints, the links and QR codes it
hands out, and Host headers that do not name it."""

from __future__ import annotations

import asyncio
import http.client
import io
import ipaddress
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import segno
import websockets

from gemtable.server.site import Site, machine_interfaces, phone_addresses
from tests.server.harness import ServerProcess, free_port

PUBLIC = "http://gemtable.test:{port}"


def qr_svg(url: str) -> bytes:
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", xmldecl=False, nl=False, scale=8, border=2, dark="#111", light="#fff"
    )
    return out.getvalue()


def request(
    port: int, method: str, path: str, host: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True)
        conn.putheader("Host", host)
        for key, value in (headers or {}).items():
            conn.putheader(key, value)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def serve_banner(tmp_path: Path) -> tuple[int, str]:
    """The port and what ``gemtable serve`` prints until its addresses, on a free port (or its refusal of a
    taken one)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gemtable", "serve", "--port", str(port), "--data", str(tmp_path / "d"), "--no-qr"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        out = ""
        deadline = time.monotonic() + 20
        while "gemtable is running" not in out or "\n\n" not in out.split("gemtable is running", 1)[1]:
            assert time.monotonic() < deadline, out
            line = proc.stdout.readline()
            if not line and "is already in use" in out:
                return port, out
            assert line, out
            out += line
        while not out.rstrip().endswith("/") and "answers at" not in out and "localhost" not in out:
            out += proc.stdout.readline()
    finally:
        proc.terminate()
        proc.wait(10)
    return port, out


def test_serve_prints_the_lan_address_not_the_hostnames_loopback(tmp_path: Path) -> None:
    """On Debian and Ubuntu the hostname resolves to 127.0.1.1 (on this machine to 127.0.0.1): the address
    printed for phones comes from the interfaces instead."""
    for _ in range(5):  # another test may take the free port before the server binds it: then another port
        port, out = serve_banner(tmp_path)
        if "is already in use" not in out:
            break
    lan = phone_addresses(machine_interfaces())
    urls = re.findall(r"^\s+(http://\S+)$", out, re.M)
    assert urls, out
    if lan:
        assert urls[0] == f"http://{lan[0]}:{port}/", out
        assert not ipaddress.ip_address(lan[0]).is_loopback
        assert "open (or scan the QR code)" in out
    else:
        assert "no network address that phones could reach" in out


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("address") / "data", extra=[], public_url=PUBLIC).start()
    yield proc
    proc.stop()


def test_links_and_qr_codes_use_the_public_url_whatever_the_host_header(server: ServerProcess) -> None:
    public = server.public_url
    assert public == f"http://gemtable.test:{server.port}"
    status, body = server.post("/api/tables", {"game": "expedition"})
    assert status == 201
    code = body["code"]
    assert body["url"] == f"{public}/t/{code}"
    for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", f"gemtable.test:{server.port}"):
        status, raw = request(server.port, "GET", f"/api/tables/{code}", host)
        assert status == 200 and f'"url":"{public}/t/{code}"' in raw.decode(), (host, raw)
        status, svg = request(server.port, "GET", f"/api/tables/{code}/qr.svg", host)
        assert status == 200
        assert svg == qr_svg(f"{public}/t/{code}")  # the code of the public link, module for module
    status, info = server.get("/api/server")
    assert status == 200 and info["public_url"] == public and info["reachable"] is True
    assert info["urls"] == [public]  # with a public URL set, the host's other addresses are not listed


def test_a_host_header_that_does_not_name_this_server_is_refused_and_never_reflected(server: ServerProcess) -> None:
    status, body = server.post("/api/tables", {"game": "expedition"})
    code = body["code"]
    for path in ("/", f"/t/{code}", f"/api/tables/{code}", f"/api/tables/{code}/qr.svg", "/api/server"):
        status, raw = request(server.port, "GET", path, "evil.example")
        assert status == 400, path
        assert b"evil.example" not in raw
    status, raw = request(
        server.port,
        "POST",
        "/api/tables",
        f"evil.example:{server.port}",
        b'{"game":"expedition"}',
        {"Content-Type": "application/json"},
    )
    assert status == 400 and b"evil" not in raw
    long_host = "a" * 3000 + ".example"
    status, raw = request(server.port, "GET", f"/api/tables/{code}/qr.svg", long_host)
    assert status == 400 and long_host.encode() not in raw
    assert "Traceback" not in server.log.read_text()


def test_a_websocket_naming_another_host_is_refused(server: ServerProcess) -> None:
    async def attempt(host: str) -> bool:
        try:
            # the URI names the host (as a phone's browser would); the socket goes to this machine
            async with websockets.connect(f"ws://{host}/ws", host="127.0.0.1", port=server.port, open_timeout=5) as ws:
                await ws.send('{"type":"ping","v":1}')
                await asyncio.wait_for(ws.recv(), 5)
                return True
        except (websockets.InvalidStatus, websockets.InvalidHandshake):
            return False

    assert asyncio.run(attempt(f"gemtable.test:{server.port}")) is True
    assert asyncio.run(attempt(f"evil.example:{server.port}")) is False


def test_the_qr_of_an_unknown_code_is_a_404_that_counts_against_the_lookup_limit(tmp_path: Path) -> None:
    proc = ServerProcess(tmp_path / "data", extra=[]).start()
    try:
        statuses = [proc.get(f"/api/tables/{code}/qr.svg")[0] for code in ("ACDE", "ACDF", "ACDH", "ACDJ")]
        assert statuses == [404] * 4
        for _ in range(40):
            status, _ = proc.get("/api/tables/ACDK/qr.svg")
            if status == 429:
                break
            assert status == 404
        assert status == 429  # the same bucket as every other lookup of a code
        assert proc.get("/api/tables/ACDL")[0] == 429
    finally:
        proc.stop()


def test_the_default_site_is_this_machines() -> None:
    site = Site.build(8000)
    lan = phone_addresses(machine_interfaces())
    assert site.reachable == bool(lan)
    if lan:
        assert site.public_url == f"http://{lan[0]}:8000"
