"""The host removes someone whose phone is gone, from the lobby's player list (a real server, Chromium)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import expect

from gemtable.client import Client
from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.test_play import join

pytestmark = pytest.mark.browser


def test_the_host_removes_a_phone_that_went_dark(server: ServerProcess, browser: Browser, shot: Any) -> None:
    code = server.create_table()
    gus = browser.phone("gus")
    join(gus, code, "Gus")

    async def bob_joins_and_goes_dark() -> None:
        bob = await Client.open(server.ws)
        await bob.join(code, "Bob")
        await bob.close()

    with ThreadPoolExecutor(1) as pool:  # (Playwright's sync API holds this thread's event loop)
        pool.submit(asyncio.run, bob_joins_and_goes_dark()).result(30)
    bob_row = gus.locator("#people .person").filter(has_text="Bob")
    expect(bob_row).to_contain_text("offline")
    # No button on the host's own row; on Bob's, the host's actions (a sheet: make host, remove, remove and ban).
    expect(gus.locator("#people .person").filter(has_text="Gus").get_by_role("button")).to_have_count(0)
    manage = gus.get_by_role("button", name="Manage Bob")
    expect(manage).to_be_visible()
    shot(gus, "phone-lobby-remove-absent")
    manage.tap()
    sheet = gus.locator("#host-sheet")
    expect(sheet).to_be_visible()
    expect(sheet.get_by_role("button", name="Make Bob the host")).to_have_count(0)  # his phone is gone
    shot(gus, "phone-lobby-manage-absent")
    sheet.get_by_role("button", name="Remove Bob", exact=True).tap()
    gus.locator("#sure").get_by_role("button", name="Yes, remove").tap()  # (asked once)
    expect(sheet).to_be_hidden()
    expect(gus.locator("#people")).not_to_contain_text("Bob")
    expect(gus.locator("#lobby-count")).to_have_text("1 of 8 chairs taken")
