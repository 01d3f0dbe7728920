"""The reveal's beat on the phones and the TV: everyone's choice on its own, then the next card.

The host sets the beat in the settings sheet (between games); when the last choice is in, every screen shows
the reveal — who walked out and what they took, who went deeper — with the path as it was and the clock saying
"Next card in", nobody's buttons up; after the beat the next card turns on every screen.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.test_play import join, tap
from tests.web.test_stage import PREFIX, off_stage, small_text

pytestmark = pytest.mark.browser


def test_every_screen_shows_the_reveal_for_the_beat_before_the_next_card(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table(script=[["5", "7", "3", "9"]], seconds=60, beat=1)
    ann, bob = browser.phone("ann"), browser.phone("bob")
    join(ann, code, "Ann")
    join(bob, code, "Bob")
    ann.get_by_role("button", name="Change the settings").tap()
    sheet = ann.locator("#host-sheet")
    expect(sheet.locator("#set-beat")).to_have_value("1")
    sheet.locator("#set-beat").select_option("4")
    shot(ann, "beat-phone-settings")
    sheet.get_by_role("button", name="Save").tap()
    expect(bob.locator("#lobby-news")).to_contain_text("Ann changed the settings.")
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    ann.locator("#start").tap()
    expect(tv.locator("#game .path li")).to_have_count(1)
    tap(ann, "camp")
    tap(bob, "deeper")
    # The beat: the reveal, the path as it was, no buttons, the clock counting down to the next card.
    expect(tv.locator("body")).to_have_attribute("data-phase", "reveal")
    expect(tv.locator("#game .reveal")).to_contain_text("Ann walked out")
    expect(tv.locator("#game .reveal")).to_contain_text("Bob went deeper")
    expect(tv.locator("#game .path li")).to_have_count(1)
    expect(tv.locator("#clock-label")).to_have_text("Next card in")
    expect(tv.locator("#waiting-for")).to_have_count(0)
    assert not small_text(tv), small_text(tv)
    assert not off_stage(tv), off_stage(tv)
    shot(tv, PREFIX + "tv-1080p-beat")
    for phone in (ann, bob):
        expect(phone.locator(".reveal")).to_contain_text("Ann walked out")
        expect(phone.locator("#actions")).to_be_hidden()
        expect(phone.locator("#clock-label")).to_have_text("Next card in")
    shot(bob, "beat-phone-reveal")
    # Then the next card, on every screen, and Bob decides again.
    expect(tv.locator("#game .path li")).to_have_count(2, timeout=12_000)
    expect(tv.locator("#waiting-for")).to_have_text("Waiting for: Bob")
    expect(bob.locator("#move-deeper")).to_be_visible()
    expect(bob.locator(".newcard .newcard-name")).to_have_text("7 gems")
