"""A phone that loses the server, a seat opened on a second phone, the wake lock and the vibration.

This module kills its own server in the middle of a game (a real SIGKILL) and starts it again on
the same port and data folder: the page must say it is reconnecting, come back by itself, and
carry on without a reload.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.test_play import join, tap

pytestmark = pytest.mark.browser

STUBS = """
window.__calls = { wake: 0, vibrate: [], lock: null };
Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: { request: async () => {
  window.__calls.wake += 1;
  const lock = new EventTarget();
  lock.release = async () => {};
  window.__calls.lock = lock;
  return lock;
} } });
Object.defineProperty(navigator, 'vibrate', { configurable: true, value: (pattern) => {
  window.__calls.vibrate.push(pattern);
  return true;
} });
"""


def test_the_page_reconnects_by_itself_and_resumes_without_a_reload(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table(script=[["5", "fire", "7", "fire"]], seconds=60, pause=1)
    ann = browser.phone("ann", motion=True)  # (a phone that buzzes: not one asking for reduced motion)
    ann.add_init_script(STUBS)
    join(ann, code, "Ann")
    bob = browser.phone("bob")
    join(bob, code, "Bob")
    ann.wait_for_function("() => window.__calls.wake === 0")  # no wake lock in the lobby
    ann.locator("#start").tap()
    expect(ann.locator("#move-deeper")).to_be_visible()

    # The screen stays awake during the game, and the lock comes back after the page was hidden.
    ann.wait_for_function("() => window.__calls.wake === 1")
    ann.evaluate(
        "window.__calls.lock.dispatchEvent(new Event('release'));document.dispatchEvent(new Event('visibilitychange'))"
    )
    ann.wait_for_function("() => window.__calls.wake === 2")
    # The first card made the phone buzz.
    ann.wait_for_function("() => window.__calls.vibrate.length === 1")

    tap(ann, "deeper")
    expect(ann.locator(".choice-note")).to_contain_text("Your choice: Deeper")
    ann.evaluate("window.__same_page = true")
    server.kill()
    expect(ann.locator("#net")).to_have_text("Connection lost — reconnecting…")
    # The bar never covers the clock: it sits under the top bar, the clock under it.
    ann.wait_for_function(
        """() => { const n = document.querySelector('#net').getBoundingClientRect();
          const c = document.querySelector('#clock').getBoundingClientRect();
          return n.height > 0 && c.height > 0 && n.bottom <= c.top + 0.5; }"""
    )
    shot(ann, "phone-18-reconnecting")
    server.start()
    expect(ann.locator("#net")).to_be_hidden(timeout=20_000)
    expect(bob.locator("#net")).to_be_hidden(timeout=20_000)
    assert ann.evaluate("window.__same_page") is True
    # The choice made before the crash counts (saved, or, if the server died before it saved it, sent
    # again by the page, which showed it chosen); Bob's makes the reveal.
    expect(ann.locator("#move-deeper")).to_have_attribute("aria-pressed", "true")
    tap(bob, "deeper")
    expect(ann.locator("main")).to_contain_text("Everyone went deeper.")
    expect(ann.locator("main")).to_contain_text("Another Fire collapses the cave!")
    ann.wait_for_function("() => window.__calls.vibrate.length === 2")


def test_a_seat_opened_on_another_phone_moves_there_and_can_come_back(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table()
    ann = browser.phone("ann")
    join(ann, code, "Ann")
    token = ann.evaluate(f"localStorage.getItem('gemtable.token.{code}')")
    assert token
    again = browser.phone("ann-again")
    again.add_init_script(f"localStorage.setItem('gemtable.token.{code}', {json.dumps(token)})")
    again.goto(f"/t/{code}")
    expect(again.locator("#who")).to_have_text("Ann")
    expect(again.locator("#join")).to_be_hidden()
    expect(ann.locator("#banner")).to_contain_text("Your seat was opened on another phone.")
    ann.get_by_role("button", name="Play on this phone").tap()
    expect(ann.locator("#banner")).to_be_hidden()
    expect(again.locator("#banner")).to_contain_text("Your seat was opened on another phone.")
    # A reload keeps the seat: the token is kept per table code.
    ann.reload()
    expect(ann.locator("#who")).to_have_text("Ann")
    expect(ann.locator("#lobby-title")).to_have_text(f"Table {code}")
