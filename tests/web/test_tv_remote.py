"""The TV with a remote: the "Sound on" switch has the focus and works with Enter; the arrows move between the
top bar's controls; in English, Hungarian and Japanese, axe and the hand checks pass with the switch focused, and
the focus ring shows on either (2 px or more, 3:1 against what is beside it)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import check_page, focus_ring, playwright_run
from tests.web.conftest import Browser
from tests.web.test_stage import set_lang

pytestmark = pytest.mark.browser


WAITS_FOR_A_GESTURE = """(() => {
  // An AudioContext as Safari's and most TV browsers' are: suspended until the page is touched or a key is
  // pressed.  (This Chromium sometimes starts a page's sound on its own a moment after it loads, and
  // sometimes not, so the real one would make the switch's first state a race.)
  class WaitsForAGesture extends EventTarget {
    constructor() { super(); this.state = 'suspended'; }
    async resume() {
      if (navigator.userActivation && !navigator.userActivation.isActive) return;
      this.state = 'running';
      this.dispatchEvent(new Event('statechange'));
    }
  }
  window.AudioContext = WaitsForAGesture;
  window.webkitAudioContext = undefined;
})();"""


def test_the_sound_switch_works_with_a_remote_s_enter_and_arrows(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table()
    tv = browser.tv()
    tv.add_init_script(WAITS_FOR_A_GESTURE)
    tv.goto(f"/t/{code}/tv")
    sound = tv.locator("#sound")
    expect(sound).to_be_focused()
    expect(sound).to_have_text("Tap for sound")
    # The key is the browser's gesture and the switch's own key: the sound starts, and only once (were the key
    # to start it before the click that follows, the click would find it on and turn it off).
    tv.keyboard.press("Enter")
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


STARTS_BY_ITSELF = """(() => {
  // An AudioContext that starts suspended, then plays on its own a moment later (as this Chromium sometimes
  // does): the test says when, with window.startSound().
  class StartsByItself extends EventTarget {
    constructor() { super(); this.state = 'suspended'; window.startSound = () => this.start(); }
    start() { this.state = 'running'; this.dispatchEvent(new Event('statechange')); }
    async resume() { this.start(); }
  }
  window.AudioContext = StartsByItself;
  window.webkitAudioContext = undefined;
})();"""


def test_a_tap_meant_for_tap_for_sound_that_lands_after_the_sound_started_keeps_it_on(
    server: ServerProcess, browser: Browser
) -> None:
    code = server.create_table()
    tv = browser.tv()
    tv.add_init_script(STARTS_BY_ITSELF)
    tv.goto(f"/t/{code}/tv")
    sound = tv.locator("#sound")
    expect(sound).to_have_text("Tap for sound")
    # The sound starts by itself just as the tap aimed at "Tap for sound" is on its way: it stays on.
    tv.evaluate("window.startSound()")
    sound.click()
    expect(sound).to_have_text("Sound on")
    expect(sound).to_have_attribute("aria-pressed", "true")
    # A tap a moment later is meant: it turns the sound off.
    tv.wait_for_timeout(1600)
    sound.click()
    expect(sound).to_have_text("Sound off")
    expect(sound).to_have_attribute("aria-pressed", "false")
