"""The audience plays, in Chromium on a 390×844 phone: the ninth person at a full table (arrived during a cave:
she watches it from the queue) predicts by tapping, sees the call locked at the reveal and scored, and the TV
shows the audience's standings between caves."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.test_a11y import Audit
from tests.web.test_hold import HOLDS
from tests.web.test_play import join
from tests.web.test_stage import off_stage, resized

pytestmark = pytest.mark.browser

# The first cave: a treasure, a first spider (no collapse), the second (the collapse); a long pause after it.
SCRIPT = [["5", "spiders", "spiders"], ["4", "4", "4"]]


def test_the_ninth_person_predicts_by_tapping_and_the_tv_shows_the_standings(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table(script=SCRIPT, seconds=60, pause=60, options={"caves": 2})
    ann = browser.phone("ann")
    join(ann, code, "Ann")
    for count in range(2, 9):  # seven bots: every chair taken
        ann.locator("#add-bot").tap()
        expect(ann.locator("#people li.person:not(.empty)")).to_have_count(count)
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    ann.locator("#start").tap()
    expect(ann.locator("#move-deeper")).to_be_visible()
    ivy = browser.phone("ivy")
    join(ivy, code, "Ivy")  # the ninth, in the cave: in the queue, watching (a bot gives her its chair at the next)
    panel = ivy.locator("#audience")
    expect(panel.get_by_role("group", name="Who walks out now?")).to_be_visible()
    names = panel.get_by_role("group", name="Who walks out now?").get_by_role("button")
    expect(names).to_have_count(8)
    ann_name = panel.get_by_role("button", name="Ann", exact=True)
    expect(ann_name).to_have_attribute("aria-pressed", "false")
    ann_name.tap()  # Ann walks out, she says; and the cave holds
    expect(ann_name).to_have_attribute("aria-pressed", "true")
    panel.get_by_role("button", name="No", exact=True).tap()
    expect(panel.get_by_role("button", name="No", exact=True)).to_have_attribute("aria-pressed", "true")
    expect(panel.locator("#aud-state")).to_have_text("Your prediction is in: you can change it until the reveal.")
    audit = Audit()  # axe and the hand checks, in English, Hungarian and Japanese
    audit.page(ivy, "the audience's panel")
    audit.done()
    shot(ivy, "phone-42-audience")
    # Ann goes deeper (her name was a wrong call: no point for it); the first spider does not collapse the cave.
    ann.locator("#move-deeper").tap()
    locked = panel.locator("#aud-locked")
    expect(locked).to_contain_text("Locked at the reveal")
    expect(locked).to_contain_text("You said: Ann walk out. You said the cave holds.")
    expect(locked.locator("#aud-scored")).to_have_text("Your call scored 1 point")
    expect(panel.locator("#aud-score")).to_have_text("You have 1 point tonight · number 1 of the audience")
    # Ann walks out; the cave ends (the bots' second spider, or nobody left): the TV shows the standings.
    ann.locator("#move-camp").tap()
    expect(tv.locator("#tv-audience")).to_have_text(re.compile("^The audience: 1\\. \u2068Ivy\u2069 \\(1 point\\)$"))
    shot(tv, "tv-42-audience")
    for size in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720}):  # it fits, the QR code too
        resized(tv, size)
        assert tv.evaluate(HOLDS) == [] and off_stage(tv) == [], size
