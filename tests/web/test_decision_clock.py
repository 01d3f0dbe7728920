"""The expedition with its decision clock off (issue 23 §3, WCAG 2.2.1), as the host and a player see it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.test_play import join

pytestmark = pytest.mark.browser


def test_a_host_switches_the_clock_off_and_the_cave_waits_for_everyone(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    page = browser.phone("no-clock", locale="hu-HU")
    page.goto("/")
    expect(page.locator("#clock-options")).to_contain_text("Döntési óra")
    expect(page.locator("#seconds option")).to_have_count(8)  # up to 100 s: ten times the default
    expect(page.locator("#seconds option").last).to_have_text("100")
    page.locator("#opt-clock").tap()
    expect(page.locator("#opt-clock")).not_to_be_checked()
    expect(page.locator("#seconds")).to_be_disabled()
    expect(page.locator("#clock-hint")).to_contain_text("Óra nélkül")
    page.locator("#create").tap()
    expect(page).to_have_url(re.compile(r"/t/[A-Z]{4}$"))
    code = page.url.rsplit("/", 1)[1]
    status, summary = server.get(f"/api/tables/{code}")
    assert status == 200 and summary["game"] == "expedition"
    page.get_by_label("A neved").fill("Anna")
    page.locator("#join-go").tap()
    expect(page.locator("#lobby-game")).to_contain_text("nincs óra")
    other = browser.phone("no-clock-2")
    join(other, code, "Bob")
    expect(page.locator("#start")).to_be_enabled()
    page.locator("#start").tap()
    other.get_by_role("button", name="I'm ready").tap()  # a table the start page makes asks everyone first
    expect(page.locator("#move-deeper")).to_be_visible(timeout=15_000)
    expect(page.locator("#clock-label")).to_have_text("Nincs óra: a felfedés mindenkit megvár")
    expect(page.locator(".silence")).to_contain_text("Nincs óra")
    expect(other.locator(".silence")).to_have_text(
        "No clock: take your time. A phone gone for 60 s walks back to camp with what it carries."
    )
    page.wait_for_timeout(11_000)  # past the default ten seconds: nobody was sent back to camp
    expect(page.locator("#move-deeper")).to_be_visible()
    expect(other.locator("#move-camp")).to_be_visible()
    shot(page, "no-clock-cave-hu")
    page.locator("#move-deeper").tap()
    other.locator("#move-deeper").tap()
    # The next decision, still with no clock: the next card, or (the deck is the table's own, not scripted: the
    # start page made it) the next cave after a collapse, once the pause between caves is over.
    expect(page.locator("#move-deeper")).to_be_visible(timeout=30_000)
    expect(page.locator("#clock-label")).to_have_text("Nincs óra: a felfedés mindenkit megvár")
