"""The phone's rough edges found in issue 23's rehearsal (§5), one test each: in camp a banner says so; the
time-out line says what was banked, relics included; a stale or mistyped link says the table does not exist
(and offers no QR code for it); a refused name stays at its field until it is changed; the start page's code
field does not show a code as its placeholder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import assert_accessible
from tests.web.conftest import ROOM_HOST, Browser
from tests.web.crowd import Crowd
from tests.web.test_a11y import everyone
from tests.web.test_play import join

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data", public_url=f"http://{ROOM_HOST}:{{port}}").start()
    try:
        yield proc
    finally:
        proc.stop()


def test_in_camp_a_banner_says_so_and_a_time_out_says_the_relic_too(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table(script=[["relic", "3", "fire", "fire"]], options={"caves": 1}, seconds=3, pause=2)
    ann = browser.phone("edge-ann")
    join(ann, code, "Ann")
    crowd = Crowd(server.ws)
    try:
        crowd.join(code, "Bob")
        ann.locator("#start").tap()
        expect(ann.locator("#move-deeper")).to_be_visible()
        everyone(crowd, "deeper")  # Ann says nothing: the clock walks her out alone, with the relic
        expect(ann.locator(".timed-out")).to_have_text(
            "Time ran out: you went back to camp with 0 gems. And carried out a relic worth 5!", timeout=6000
        )
        expect(ann.locator(".safe-camp")).to_have_text("You're safe in camp with 0 gems and a relic worth 5.")
        expect(ann.locator("#actions")).to_be_hidden()
        shot(ann, "edge-camp-banner")
        assert_accessible(ann, "in camp")
    finally:
        crowd.close()


def test_a_table_that_does_not_exist_says_so_and_offers_another(browser: Browser, shot: Any) -> None:
    page = browser.phone("edge-missing")
    page.goto("/t/ZZZY")
    expect(page.locator("#banner h1")).to_have_text("There is no table ZZZY")
    expect(page.locator("#banner")).to_contain_text("Check the code with the host")
    expect(page.get_by_role("link", name="Join another table or start one")).to_have_attribute("href", "/")
    expect(page.locator("#invite-btn")).to_be_hidden()  # no QR code for a table that does not exist
    expect(page.locator("#join")).to_be_hidden()
    shot(page, "edge-no-table")
    assert_accessible(page, "no such table")


def test_a_refused_name_stays_at_its_field_until_it_is_changed(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table()
    join(browser.phone("edge-host"), code, "Ann")
    page = browser.phone("edge-taken")
    page.goto(f"/t/{code}")
    page.get_by_label("Your name").fill("Ann")
    page.locator("#join-go").tap()
    field = page.locator("#join-name")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#join-error")).to_have_text(
        "Someone at this table already has that name, or one that looks just like it."
    )
    expect(field).to_have_accessible_description(
        "Someone at this table already has that name, or one that looks just like it."
    )
    page.wait_for_timeout(5000)  # the toast is gone by now; the field still says it
    expect(page.locator("#join-error")).to_be_visible()
    assert_accessible(page, "a refused name")
    field.press("End")
    field.type("a")
    expect(field).to_have_attribute("aria-invalid", "false")
    expect(page.locator("#join-error")).to_be_hidden()


def test_the_code_field_s_placeholder_is_not_a_code(browser: Browser) -> None:
    page = browser.phone("edge-start")
    page.goto("/")
    expect(page.locator("#code")).to_have_attribute("placeholder", "4 letters")
