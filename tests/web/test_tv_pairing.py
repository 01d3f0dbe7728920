"""Getting the TV on (issue 22 §3) in a real browser: /tv on the TV with a keyboard (a remote) only, and a TV
paired from a phone's invite sheet; the pairing page readable from the sofa and accessible."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import assert_accessible, focus_ring, playwright_run
from tests.web.conftest import Browser
from tests.web.test_play import join
from tests.web.test_stage import set_lang

pytestmark = pytest.mark.browser

SMALLEST = """() => {
  let least = Infinity;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest('.sr-only, option') || !el.getClientRects().length) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    least = Math.min(least, parseFloat(getComputedStyle(el).fontSize));
  }
  return least;
}"""


def test_a_tv_opens_a_table_by_its_code_with_the_keyboard_only(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table()
    tv = browser.tv("pair-keys")
    tv.goto("/tv")
    expect(tv.locator("h1")).to_have_text("Show a table on this TV")
    expect(tv.locator("#pair-digits")).to_have_text(re.compile(r"^\d \d \d \d$"))
    expect(tv.locator("#pair-table")).to_be_focused()  # a remote needs no pointer
    assert tv.evaluate(SMALLEST) >= 24  # readable from the sofa at 1920×1080
    assert_accessible(tv, "the TV's pairing page", phone=False)
    shot(tv, "tv-pair-1080")
    set_lang(tv, "hu")
    tv.locator("#pair-table").focus()
    assert tv.evaluate(SMALLEST) >= 24
    assert_accessible(tv, "the TV's pairing page [hu]", phone=False)
    set_lang(tv, "en")
    tv.locator("#pair-table").focus()
    run = playwright_run(tv, axe=False)
    tv.keyboard.press("ArrowDown")
    expect(tv.locator("#pair-open")).to_be_focused()
    assert focus_ring(run) == ""
    tv.keyboard.press("ArrowUp")
    expect(tv.locator("#pair-table")).to_be_focused()
    assert focus_ring(run) == ""
    tv.keyboard.type("QQQQ")
    tv.keyboard.press("Enter")
    expect(tv.locator("#pair-error")).to_have_text("There is no table with that code.")
    expect(tv.locator("#pair-table")).to_be_focused()
    tv.keyboard.press("Control+A")
    tv.keyboard.type(code.lower())
    tv.keyboard.press("Enter")
    expect(tv).to_have_url(re.compile(f"/t/{code}/tv$"))
    expect(tv.locator(".tv-code .table-code")).to_have_text(code)
    small = browser.tv("pair-720")
    small.set_viewport_size({"width": 1280, "height": 720})
    small.goto("/tv")
    expect(small.locator("#pair-digits")).to_have_text(re.compile(r"\d"))
    assert small.evaluate(SMALLEST) >= 16  # two thirds of 24 at 1280×720
    shot(small, "tv-pair-720")


def test_a_phone_sends_the_tv_to_its_table_with_the_number_the_tv_shows(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table()
    tv = browser.tv("pair-phone", locale="ja-JP")
    tv.goto("/tv")
    expect(tv.locator("h1")).to_have_text("このテレビにテーブルを表示")
    digits = tv.locator("#pair-digits")
    expect(digits).to_have_text(re.compile(r"^\d \d \d \d$"))
    number = (digits.text_content() or "").replace(" ", "")
    assert_accessible(tv, "the TV's pairing page [ja]", phone=False)
    phone = browser.phone("pair-sender")
    join(phone, code, "Ann")
    phone.locator("#invite-btn").tap()
    sheet = phone.locator("#invite")
    button = sheet.locator("#invite-tv")
    expect(button).to_have_text("Show on the TV")
    expect(button).to_have_attribute("aria-expanded", "false")
    button.tap()
    expect(button).to_have_attribute("aria-expanded", "true")
    expect(sheet.locator("#tv-how")).to_contain_text(f"{browser.base}/tv")  # what to open on the TV
    expect(sheet.locator("#tv-how")).to_contain_text(code)
    field = sheet.locator("#tv-pairing")
    expect(field).to_be_focused()
    wrong = f"{(int(number) + 1) % 10000:04d}"
    field.fill(wrong)
    sheet.locator("#tv-send").tap()
    expect(sheet.locator("#tv-status")).to_have_text("No TV shows that number: check the number on the TV.")
    expect(field).to_have_attribute("aria-invalid", "true")
    field.fill(f"{number[:2]} {number[2:]}")
    sheet.locator("#tv-send").tap()
    expect(sheet.locator("#tv-status")).to_have_text("The TV is opening the table.")
    shot(phone, "phone-invite-tv")
    expect(tv).to_have_url(re.compile(f"/t/{code}/tv$"), timeout=15_000)
    expect(tv.locator(".tv-code .table-code")).to_have_text(code)
