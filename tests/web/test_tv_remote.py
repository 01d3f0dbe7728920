"""The TV with a remote: the "Sound on" switch has the focus and works with Enter; the arrows move between the
top bar's controls; in English, Hungarian and Japanese, axe and the hand checks pass with the switch focused, and
the focus ring shows on either (2 px or more, 3:1 against what is beside it)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import check_page, focus_ring, playwright_run
from tests.web.conftest import Browser
from tests.web.test_stage import set_lang

pytestmark = pytest.mark.browser


def test_the_sound_switch_works_with_a_remote_s_enter_and_arrows(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table()
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    sound = tv.locator("#sound")
    expect(sound).to_be_focused()
    expect(sound).to_have_text(re.compile("Tap for sound|Sound on"))
    tv.keyboard.press("Enter")  # the browser's gesture, and the switch's own key
    expect(sound).to_have_text("Sound on")
    expect(sound).to_have_attribute("aria-pressed", "true")
    tv.keyboard.press("Enter")
    expect(sound).to_have_text("Sound off")
    expect(sound).to_have_attribute("aria-pressed", "false")
    tv.keyboard.press("ArrowRight")
    expect(tv.locator("#lang")).to_be_focused()
    tv.keyboard.press("ArrowLeft")
    expect(sound).to_be_focused()
    tv.keyboard.press("Enter")
    expect(sound).to_have_text("Sound on")
    run = playwright_run(tv)
    problems: list[str] = []
    for lang in ("en", "hu", "ja"):
        set_lang(tv, lang)
        sound.focus()
        expect(sound).to_be_focused()
        problems += [*check_page(run, f"{lang}, the sound switch focused", phone=False), focus_ring(run)]
        tv.keyboard.press("ArrowRight")
        expect(tv.locator("#lang")).to_be_focused()
        problems.append(focus_ring(run))
    problems = [p for p in problems if p]
    assert not problems, "\n".join(problems)
