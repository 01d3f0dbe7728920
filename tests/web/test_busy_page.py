"""A phone at a busy server: its own tap shows as chosen at once, everywhere on its page, though the server tells
the table's chatter up to a second later (``gemtable.server.busy``); the reveal still comes at once.

The server is told to count as busy from its first measure, with a busy pace long enough that nothing held can
slip out while the test looks: what a phone shows of its own tap is then the page's own doing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import ROOM_HOST
from tests.web.test_play import join, tap

pytestmark = pytest.mark.browser

CAVE = ["5", "7", "9", "11", "13", "14", "spiders", "spiders"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("web") / "data", public_url=f"http://{ROOM_HOST}:{{port}}")
    proc.env = {"GEMTABLE_BUSY_AT": "0", "GEMTABLE_BUSY_PACE": "600"}
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_tap_shows_as_chosen_on_its_own_phone_while_the_busy_server_holds_the_chatter(
    server: ServerProcess, browser: Any
) -> None:
    deadline = time.monotonic() + 30
    while not server.get("/api/node")[1]["busy"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    code = server.create_table(script=[CAVE], options={"caves": 1}, seconds=60)
    phones = {name: browser.phone(name) for name in ("Ann", "Bob", "Cy")}
    for name, page in phones.items():
        join(page, code, name)
    ann, bob, cy = phones.values()
    # Who joined is chatter too, held on this server: Ann's page learns it from the state a hello is answered with.
    ann.reload()
    expect(ann.locator("#lobby-count")).to_contain_text("3")
    ann.locator("#start").tap()  # a moment of the game: at once
    for page in phones.values():
        expect(page.locator("#move-deeper")).to_be_visible()
        expect(page.locator(".newcard .deciding")).to_have_text("Still deciding: Ann, Bob, Cy")
    tap(ann, "deeper")
    # Ann's own page: the button, the line of who is still deciding and her row, all at once.
    expect(ann.locator("#move-deeper")).to_have_attribute("aria-pressed", "true")
    expect(ann.locator(".newcard .deciding")).to_have_text("Still deciding: Bob, Cy")
    expect(ann.locator(".players li.is-me")).to_have_class("player s-chosen is-me")
    # The others are told with the chatter, which this server holds: Ann is still deciding on their pages.
    expect(bob.locator(".newcard .deciding")).to_have_text("Still deciding: Ann, Bob, Cy")
    tap(bob, "camp")
    expect(bob.locator(".newcard .deciding")).to_have_text("Still deciding: Ann, Cy")
    tap(cy, "deeper")
    # The last choice: the reveal at once (the busy pace is ten minutes), on every phone.
    for page in phones.values():
        expect(page.locator(".players li")).to_have_count(3)
        expect(page.locator(".newcard .newcard-name")).to_have_text("7 gems")
