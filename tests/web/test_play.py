"""Whole games through the pages, by tapping, in a real Chromium against a real server.

The deck is scripted, so the test knows every card:

* cave 1: 5 (each of three carries 1, 2 stay on the path), spiders, 7, spiders — a collapse;
* cave 2: a relic, then 14.

Three phones and a TV play it; a fourth phone arrives late and walks into cave 2; a phone
reloads in the middle of a decision and keeps its seat.  What is asserted is what a person
reads on the screen.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser

pytestmark = pytest.mark.browser

SCRIPT = [["5", "spiders", "7", "spiders"], ["relic", "14", "fire", "fire"]]


def join(page: Any, code: str, name: str, prompt: str = "Your name", button: str = "Join") -> None:
    page.goto(f"/t/{code}")
    expect(page.get_by_label(prompt)).to_be_visible()
    page.get_by_label(prompt).fill(name)
    page.locator("#join-go").tap()
    expect(page.locator("#who")).to_have_text(name)


def tap(page: Any, move: str) -> None:
    page.locator(f"#move-{move}").tap()


def cave_heading(cave: int) -> re.Pattern[str]:
    """A cave's title in any of the page's languages ("Cave 2 of 2" in English): wait for it with
    ``to_have_text``, since "Cave 1 of 2" contains a "2" too."""
    return re.compile(rf"Cave {cave} of|{cave}\. barlang|洞窟 {cave}／")


def text(page: Any) -> Any:
    return expect(page.locator("main"))


def contrast_failures(page: Any) -> list[str]:
    """Visible text whose colour is below 4.5:1 against its (first opaque) background."""
    return list(
        page.evaluate(
            """() => {
      const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
      const lum = ([r, g, b]) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const bg = (el) => {
        for (; el; el = el.parentElement) {
          const c = parse(getComputedStyle(el).backgroundColor);
          if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
        }
        return [255, 255, 255];
      };
      const bad = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!node.textContent.trim() || !el || el.closest('svg, .sr-only, [hidden], option')) continue;
        const box = el.getBoundingClientRect();
        if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
        const a = lum(parse(getComputedStyle(el).color).slice(0, 3));
        const b = lum(bg(el));
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        if (ratio < 4.5) bad.push(`${node.textContent.trim().slice(0, 30)} (${ratio.toFixed(2)})`);
      }
      return bad;
    }"""
        )
    )


def small_targets(page: Any) -> list[str]:
    """Visible buttons, inputs and selects smaller than 44×44 px."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('button, select, input:not([type=checkbox]), a.btn')]
          .filter((el) => el.offsetParent !== null || getComputedStyle(el).position === 'fixed')
          .map((el) => [el, el.getBoundingClientRect()])
          .filter(([, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
          .map(([el, r]) => `${el.id || el.textContent.trim()} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
        )
    )


def test_a_whole_game_through_the_pages(server: ServerProcess, browser: Browser, shot: Any) -> None:
    code = server.create_table(script=SCRIPT, options={"caves": 2}, seconds=25, pause=3)
    ann = browser.phone("ann")
    ann.goto(f"/t/{code}")
    expect(ann.get_by_label("Your name")).to_be_visible()
    shot(ann, "phone-01-name-prompt")
    join(ann, code, "Ann")
    text(ann).to_contain_text(f"Table {code}")
    expect(ann.locator("#start")).to_be_visible()
    bob = browser.phone("bob")
    join(bob, code, "Bob")
    cat = browser.phone("cat")
    join(cat, code, "Cat")
    text(bob).to_contain_text("Waiting for Ann to start the game.")
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    tv_main = expect(tv.locator("main"))
    tv_main.to_contain_text("Cat")
    expect(tv.locator("#lobby-qr .qr")).to_be_visible()
    text(ann).to_contain_text("3 of 8 chairs taken")
    shot(ann, "phone-02-lobby-host")
    shot(tv, "tv-01-lobby")
    assert not small_targets(ann), small_targets(ann)
    assert not contrast_failures(ann), contrast_failures(ann)

    # The host starts: the first card, 5, is on every screen.
    ann.locator("#start").tap()
    for page in (ann, bob, cat):
        text(page).to_contain_text("Cave 1 of 2")
        expect(page.locator("#move-deeper")).to_be_visible()
        expect(page.locator("#live")).to_contain_text("new card: 5 gems")
    tv_main.to_contain_text("Cave 1 of 2")

    # Decision 1: Ann goes deeper; Bob says camp, then changes his mind; Cat reloads mid-decision.
    tap(ann, "deeper")
    expect(ann.locator("#move-deeper")).to_have_attribute("aria-pressed", "true")
    expect(ann.locator(".choice-note")).to_contain_text("Your choice: Deeper")
    tap(bob, "camp")
    expect(bob.locator(".choice-note")).to_contain_text("Your choice: Camp")
    tap(bob, "deeper")
    expect(bob.locator(".choice-note")).to_contain_text("Your choice: Deeper")
    expect(bob.locator("#move-camp")).to_have_attribute("aria-pressed", "false")
    text(cat).to_contain_text("has chosen")
    cat.reload()
    expect(cat.locator("#who")).to_have_text("Cat")
    expect(cat.locator("#join")).to_be_hidden()
    expect(cat.locator("#move-deeper")).to_be_visible()
    text(cat).to_contain_text("Cave 1 of 2")
    shot(ann, "phone-03-chosen")
    assert not small_targets(ann), small_targets(ann)
    assert not contrast_failures(ann), contrast_failures(ann)
    tap(cat, "deeper")

    # The spiders: a warning everyone can see, with the odds of a collapse.
    for page in (ann, bob, cat):
        text(page).to_contain_text("Everyone went deeper.")
        text(page).to_contain_text("Another Spiders collapses the cave!")
        text(page).to_contain_text("Chance the next card collapses the cave:")
    expect(ann.locator("#live")).to_contain_text("Spiders, a hazard")
    shot(cat, "phone-04-hazard")

    # Decision 2: Ann walks out with 1 + the 2 lying on the path; the others go on and find a 7.
    tap(ann, "camp")
    tap(bob, "deeper")
    tap(cat, "deeper")
    for page in (ann, bob, cat):
        text(page).to_contain_text("Ann walked out: banked 1 gem + 2 gems from the path.")
        text(page).to_contain_text("Bob and Cat went deeper.")
    expect(ann.locator("#actions")).to_be_hidden()
    expect(ann.locator(".mine .chest")).to_contain_text("3")
    expect(bob.locator(".mine .carry")).to_contain_text("4")
    tv_main.to_contain_text("Ann walked out")

    # A late arrival, in Hungarian: waits in camp for the next cave.
    dan = browser.phone("dan", locale="hu-HU")
    join(dan, code, "Dan", prompt="A neved")
    expect(dan.locator("#banner")).to_contain_text("Várakozol — a következő barlangba már te is bemész.")
    text(ann).to_contain_text("waiting")
    shot(dan, "phone-05-late-arrival-hu")

    # Decision 3: Bob and Cat go deeper into the second spiders: the cave collapses.
    tap(bob, "deeper")
    tap(cat, "deeper")
    for page in (ann, bob, cat):
        text(page).to_contain_text("The cave collapsed!")
        text(page).to_contain_text("A second Spiders.")
    text(ann).to_contain_text("Bob lost 4 gems.")
    tv_main.to_contain_text("The cave collapsed!")
    expect(tv.locator("#clock")).to_contain_text("Next cave in")
    shot(bob, "phone-06-collapse")
    shot(tv, "tv-02-collapse")

    # Cave 2: Dan walks in. Ann walks out alone with the relic; the others find 14 and leave.
    for page in (ann, bob, cat):
        text(page).to_contain_text("Cave 2 of 2", timeout=8000)
    expect(dan.locator("#move-deeper")).to_contain_text("Mélyebbre")
    expect(dan.locator("#banner")).to_be_hidden()
    shot(tv, "tv-03-cave")
    tap(ann, "camp")
    for page in (bob, cat, dan):
        tap(page, "deeper")
    text(bob).to_contain_text("Ann walked out with a relic worth 5!")
    shot(dan, "phone-07-cave-hu")
    shot(tv, "tv-04-relic")
    for page in (bob, cat, dan):
        tap(page, "camp")

    # The results: Ann 3 gems + a relic of 5; the others 4 each.
    for page in (ann, bob, cat):
        text(page).to_contain_text("Ann wins!")
    expect(dan.locator("main")).to_contain_text("Ann nyert!")
    scores = ann.locator("table.scores tbody tr")
    expect(scores).to_have_count(4)
    expect(scores.first).to_contain_text("Ann")
    expect(scores.first.locator(".total")).to_have_text("8")
    expect(ann.locator(".chart svg polyline")).to_have_count(4)
    expect(ann.locator("#again")).to_be_visible()
    text(bob).to_contain_text("Waiting for Ann to start a new game.")
    tv_main.to_contain_text("Ann wins!")
    shot(ann, "phone-08-results")
    shot(tv, "tv-05-results")
    assert not contrast_failures(ann), contrast_failures(ann)

    # The standalone results page, from the record.
    page = browser.phone("results")
    page.goto(f"/t/{code}/results/1")
    text(page).to_contain_text("Ann wins!")
    expect(page.locator("table.scores tbody tr")).to_have_count(4)
    shot(page, "phone-09-results-page")

    # Play again: the host starts a new game; everyone is back in cave 1.
    ann.locator("#again").tap()
    for page in (ann, bob, cat, dan):
        expect(page.locator(".cave-title")).to_have_text(re.compile(r"Cave 1 of 2|1\. barlang"))


def test_a_silent_phone_walks_out_at_the_deadline(server: ServerProcess, browser: Browser, shot: Any) -> None:
    code = server.create_table(script=[["5", "snakes", "snakes"]], options={"caves": 1}, seconds=3, pause=1)
    eve = browser.phone("eve")
    join(eve, code, "Eve")
    fay = browser.desktop("fay")
    join(fay, code, "Fay")
    eve.locator("#start").tap()
    expect(fay.locator("#move-deeper")).to_be_visible()
    tap(fay, "deeper")
    expect(eve.locator("#clock")).to_contain_text("Choose within")
    # Eve says nothing: at the deadline she walks out with what she carried, plus the path.
    text(eve).to_contain_text("Eve walked out: banked 2 gems + 1 gem from the path.", timeout=6000)
    expect(eve.locator(".mine .chest")).to_contain_text("3")
    shot(eve, "phone-10-silent-walked-out")
    shot(fay, "desktop-03-in-game")
