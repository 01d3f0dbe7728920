"""Booty Hunter on a phone: on every one of my turns, every legal spot is in view.

A whole game with a shuffled bag: one phone (390×844) and two bots.  At each of my turns the
board has fitted itself so that every highlighted spot's box lies inside the board's viewport
(and clear of the zoom buttons); then I place the tile on one of them, as a person would.  A TV at
1280×720 watches: the players' names are never broken letter by letter and the page does not
scroll.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.test_booty import booty_table
from tests.web.test_play import join

pytestmark = pytest.mark.browser

MY_TURN = """() => document.body.dataset.phase === 'results'
  || (!document.querySelector('#actions').hidden && document.querySelectorAll('.bh-spot').length > 0
      && !document.querySelector('.bh-ghost'))"""

SPOTS_OUT = """() => {
  const board = document.querySelector('.bh-board').getBoundingClientRect();
  const zoom = document.querySelector('.bh-zoom').getBoundingClientRect();
  const bad = [];
  for (const el of document.querySelectorAll('.bh-spot')) {
    const r = el.getBoundingClientRect();
    const inside = r.left >= board.left - 1 && r.top >= board.top - 1 && r.right <= board.right + 1
      && r.bottom <= board.bottom + 1;
    const underButtons = r.right > zoom.left && r.left < zoom.right && r.bottom > zoom.top && r.top < zoom.bottom;
    if (!inside || underButtons) bad.push(`${el.dataset.spot} ${inside ? 'under the zoom buttons' : 'outside'}`);
  }
  return bad;
}"""

SMALL_TEXT = """() => {
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.closest('svg, .sr-only, [hidden], option, dialog:not([open])')) continue;
    if (!el.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 14) bad.push(`text under 14 px: "${n.textContent.trim().slice(0, 20)}" ${size}px`);
  }
  return bad;
}"""

TV_PROBLEMS = """() => {
  const bad = [];
  const se = document.scrollingElement;
  if (se.scrollHeight > innerHeight || se.scrollWidth > innerWidth) {
    bad.push(`scrolls ${se.scrollWidth}x${se.scrollHeight}`);
  }
  for (const el of document.querySelectorAll('.bh-name')) {
    const r = el.getBoundingClientRect();
    const line = parseFloat(getComputedStyle(el).lineHeight) || 20;
    if (r.height > 2.5 * line) {
      bad.push(`name broken up: ${el.textContent} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    if (r.right > innerWidth || r.bottom > innerHeight) bad.push(`name off screen: ${el.textContent}`);
  }
  for (const sel of ['.bh-wrap', '#clock', '#corner-qr .qr']) {
    const el = document.querySelector(sel);
    if (!el || !el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    if (r.right > innerWidth + 1 || r.bottom > innerHeight + 1) bad.push(`${sel} off screen`);
  }
  return bad;
}"""


def test_every_legal_spot_is_in_view_at_every_turn_of_a_whole_game(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = booty_table(server, seconds=120)
    me = browser.phone("me")
    join(me, code, "Maximiliane Oppenheimer")
    me.locator("#bot-kind").select_option("greedy")
    me.locator("#add-bot").tap()
    me.locator("#bot-kind").select_option("random")
    me.locator("#add-bot").tap()
    expect(me.locator("#lobby-count")).to_have_text("3 of 3 chairs taken")
    tv = browser._page(
        "tv", browser._context(viewport={"width": 1280, "height": 720}, locale="en-GB", base_url=browser.base)
    )
    tv.goto(f"/t/{code}/tv")
    me.locator("#start").tap()
    turns = 0
    problems: list[str] = []
    while True:
        me.wait_for_function(MY_TURN, timeout=30_000)
        if me.evaluate("document.body.dataset.phase") == "results":
            break
        me.wait_for_timeout(250)  # the board fits itself after the render
        turns += 1
        out = me.evaluate(SPOTS_OUT)
        problems += [f"turn {turns}: {p}" for p in out]
        problems += [f"phone at turn {turns}: {p}" for p in me.evaluate(SMALL_TEXT)]
        problems += [f"tv at my turn {turns}: {p}" for p in tv.evaluate(TV_PROBLEMS)]
        if turns in (1, 6, 10) or out:
            shot(me, f"booty-spots-turn-{turns}")
            shot(tv, f"booty-tv-720p-turn-{turns}")
        me.locator(".bh-spot").last.tap()
        expect(me.locator(".bh-ghost")).to_have_count(1)
        me.locator(".bh-place").tap()
        expect(me.locator(".bh-spot")).to_have_count(0)
    assert turns >= 8, f"only {turns} turns of mine: the game should be a whole game"
    expect(me.locator("#results")).to_be_visible(timeout=30_000)
    assert not problems, "\n".join(problems)
