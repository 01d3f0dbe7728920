"""A host who opens gemtable as localhost on the laptop: the pages hand the room the public URL, never
``localhost``, and say why."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.server.test_address import qr_svg
from tests.web.conftest import Browser

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def public_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("addr") / "data", public_url="http://gemtable.test:{port}").start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_host_on_localhost_hands_out_the_public_url(chromium: Any, public_server: ServerProcess, shot: Any) -> None:
    public = public_server.public_url
    for base in (f"http://localhost:{public_server.port}", public_server.base):
        b = Browser(chromium, base=base)
        try:
            page = b.desktop("host")
            page.goto("/")
            note = page.locator("#phones-note")
            expect(note).to_be_visible()
            expect(page.locator("#phones-url")).to_have_text(f"{public}/")
            expect(page.locator("#phones-why")).to_contain_text("localhost")
            shot(page, "start-localhost-note")
            page.locator("#create").click()
            page.wait_for_url("**/t/*")
            code = page.url.rstrip("/").split("/")[-1]
            link = f"{public}/t/{code}"
            page.get_by_label("Your name").fill("Host")
            page.locator("#join-go").click()
            expect(page.locator("#who")).to_have_text("Host")
            for el in page.locator(".join-url").all():
                assert el.text_content() in ("", link)
            page.locator("#invite-btn").click()
            expect(page.locator("#invite-link")).to_have_value(link)
            page.locator("#invite-tv").click()
            expect(page.locator("#tv-how")).to_contain_text(f"{public}/tv")  # the public address, not localhost
            src = page.locator("#invite-qr img").get_attribute("src")
            assert src is not None
            assert page.request.get(src).body() == qr_svg(link)  # the QR code names the public link
            shot(page, "invite-localhost")
            tv = b.tv()
            tv.goto(f"/t/{code}/tv")
            expect(tv.locator(".join-url").first).to_have_text(link)
            problems = b.problems()
            assert not problems, problems
        finally:
            b.close_all()
