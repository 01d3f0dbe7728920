"""The moments that matter, as a person reads them on the screen.

A scripted two-cave game between a laptop (Ann) and a phone (Bob), with a TV:

* cave 1: a relic, 7, spiders, spiders.  Ann walks out alone at the relic with nothing else: one
  sentence says she carried out the relic (never "empty-handed").  Bob goes on and is buried with
  7 gems: the hazard panel says the cave collapsed (no "Another Spiders…" and no odds), and a phone
  that reloads during the collapse still says who lost what.  The TV rumbles (its sound switch).
* cave 2: 3, snakes, 5.  Bob says nothing: his phone says "Time ran out: you went back to camp with
  2 gems".  Ann walks out at the snakes: the last cave's final reveal stays on the screens for the
  pause ("Results in"), then the results.  Play again on the laptop brings the new cave into view.

And a Hungarian phone among seven bots: the bots have seven names, the new card is the largest
thing on the phone, who is still deciding is in view, no text is under 14 px, the bottom bar never
covers the last explorer, the long name is not cut, the Hungarian "halálos" stays in its tile.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.test_play import contrast_failures, join, small_targets, tap, text

pytestmark = pytest.mark.browser

SCRIPT = [["relic", "7", "spiders", "spiders"], ["3", "snakes", "5"]]


def in_view(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """(sel) => { const el = document.querySelector(sel); if (!el) return false;
          const r = el.getBoundingClientRect();
          return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }""",
            selector,
        )
    )


def test_relic_collapse_time_out_and_the_final_reveal(server: ServerProcess, browser: Browser, shot: Any) -> None:
    code = server.create_table(script=SCRIPT, options={"caves": 2}, seconds=5, pause=6)
    ann = browser.desktop("ann")
    join(ann, code, "Ann")
    bob = browser.phone("bob")
    join(bob, code, "Bob")
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    expect(tv.locator("#lobby .person:not(.empty)")).to_have_count(2)
    # The TV's sound: a visible switch; the browser may want a tap first ("Tap for sound").
    sound = tv.locator("#sound")
    expect(sound).to_have_text(re.compile("Tap for sound|Sound on"))
    if sound.text_content() == "Tap for sound":
        sound.click()
    expect(sound).to_have_text("Sound on")
    expect(sound).to_have_attribute("aria-pressed", "true")

    ann.locator("#start").tap()
    expect(tv.locator("body")).to_have_attribute("data-last-sound", "card")
    # Ann walks out alone at the relic with nothing else in her hands.
    tap(ann, "camp")
    tap(bob, "deeper")
    for page in (ann, bob, tv):
        text(page).to_contain_text("Ann walked out with a relic worth 5!")
        text(page).not_to_contain_text("empty-handed")
    expect(tv.locator("body")).to_have_attribute("data-last-sound", "reveal")
    tap(bob, "deeper")
    text(bob).to_contain_text("Another Spiders collapses the cave!")
    tap(bob, "deeper")
    # The collapse: one story on every screen, the hazard panel included.
    for page in (ann, bob, tv):
        text(page).to_contain_text("The cave collapsed!")
        text(page).to_contain_text("Bob lost 7 gems.")
        text(page).to_contain_text("The cave collapsed: a second Spiders.")
        text(page).not_to_contain_text("Another Spiders")
        text(page).not_to_contain_text("Chance the next card")
    expect(tv.locator("body")).to_have_attribute("data-last-sound", "collapse")
    expect(tv.locator("#clock")).to_contain_text("Next cave in")
    shot(tv, "moments-tv-collapse")
    # The host holds the collapse with Pause (the pause between caves keeps its rest), so that the reload below
    # never races the next cave on a busy machine.
    ann.locator("#host-strip button").first.tap()  # Pause
    expect(ann.locator("#resume")).to_be_visible()
    bob.reload()  # a phone that reloads during the collapse still knows who lost what
    expect(bob.locator("#who")).to_have_text("Bob")
    text(bob).to_contain_text("Bob lost 7 gems.")
    text(bob).to_contain_text("The cave collapsed!")
    shot(bob, "moments-phone-collapse-after-reload")
    ann.locator("#resume").tap()

    # Cave 2: Bob says nothing; the clock walks him out with what he carried and his share.
    text(bob).to_contain_text("Cave 2 of 2", timeout=12_000)
    expect(bob.locator(".silence")).to_have_text("No answer = camp, with what you carry.")
    tap(ann, "deeper")
    text(bob).to_contain_text("Time ran out: you went back to camp with 2 gems.", timeout=8000)
    expect(bob.locator("#live")).to_contain_text("Time ran out")
    text(ann).to_contain_text("Bob walked out: banked 1 gem + 1 gem from the path.")
    expect(ann.locator(".leavers .late")).to_have_text("time ran out")
    text(ann).not_to_contain_text("Time ran out: you")  # only Bob is told "you"
    shot(bob, "moments-phone-time-ran-out")

    # Ann walks out at the snakes: the final reveal stays for the pause, then the results.
    tap(ann, "camp")
    for page in (ann, bob, tv):
        text(page).to_contain_text("Everyone is back in camp.")
        text(page).to_contain_text("Ann walked out")
        expect(page.locator("#clock")).to_contain_text("Results in")
        expect(page.locator("#results")).to_be_hidden()
    shot(tv, "moments-tv-final-reveal")
    for page in (ann, bob, tv):
        expect(page.locator("#results")).to_be_visible(timeout=12_000)
        text(page).to_contain_text("Ann wins!")
    expect(tv.locator("#clock")).to_be_hidden()

    # The switch is remembered.
    sound.click()
    expect(sound).to_have_text("Sound off")
    tv.reload()
    expect(tv.locator("#sound")).to_have_text("Sound off")
    expect(tv.locator("#sound")).to_have_attribute("aria-pressed", "false")

    # Play again on a laptop scrolled down to the chart: the new cave comes into view.
    ann.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    ann.wait_for_timeout(100)
    assert ann.evaluate("scrollY") > 0
    ann.locator("#again").click()
    expect(ann.locator(".cave-title")).to_have_text("Cave 1 of 2")
    ann.wait_for_timeout(300)
    assert in_view(ann, "#game .path li"), "the new cave's first card is out of view"
    assert in_view(ann, "#game .cave-title"), ann.evaluate("scrollY")


def phone_layout_problems(page: Any) -> list[str]:
    """At 390×844, scrolled to the top: the new card is the largest thing, who is still deciding is in
    view above the bottom bar, no text under 14 px, no cut name or hazard word."""
    page.wait_for_timeout(700)  # the new card's turn (an animation) is over
    return list(
        page.evaluate(
            """() => {
      const bad = [];
      const area = (el) => { const r = el.getBoundingClientRect(); return r.width * r.height; };
      const hero = document.querySelector('.newcard .card');
      if (!hero) return ['no new card shown'];
      const big = area(hero);
      for (const el of document.querySelectorAll('.card, button, svg, img, .qr, .clock-num, .gems')) {
        if (el === hero || hero.contains(el) || !el.getClientRects().length) continue;
        if (area(el) >= big) bad.push(`as large as the new card: ${el.id || el.className.baseVal || el.className}`);
      }
      const bar = document.querySelector('#actions').getBoundingClientRect();
      const who = document.querySelector('.deciding');
      if (!who) bad.push('nobody shown deciding');
      else {
        const r = who.getBoundingClientRect();
        if (r.top < 0 || r.bottom > bar.top) {
          bad.push(`who is deciding is out of view: ${r.top}-${r.bottom} (bar ${bar.top})`);
        }
      }
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!n.textContent.trim() || !el || el.closest('svg, .sr-only, [hidden], option, dialog:not([open])')) continue;
        if (!el.getClientRects().length) continue;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < 14) bad.push(`text under 14 px: "${n.textContent.trim().slice(0, 20)}" ${size}px`);
      }
      for (const el of document.querySelectorAll('.hz, .hz .hn, .hz .hs, #who, .card .cn')) {
        if (!el.getClientRects().length || el.classList.contains('sr-only')) continue;
        if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
          bad.push(`cut: ${el.id || el.className} "${el.textContent.trim().slice(0, 24)}" `
            + `${el.scrollWidth}x${el.scrollHeight} > ${el.clientWidth}x${el.clientHeight}`);
        }
      }
      return bad;
    }"""
        )
    )


def test_a_hungarian_phone_among_seven_bots(server: ServerProcess, browser: Browser, shot: Any) -> None:
    code = server.create_table(
        script=[["5", "spiders", "7", "9", "11", "13"]], options={"caves": 1}, seconds=60, pause=2
    )
    zso = browser.phone("zso", locale="hu-HU")
    join(zso, code, "Zsófia Kovács-Nagyváradi", prompt="A neved")
    code_box = zso.locator(".room-code b")
    expect(code_box).to_have_text(code)
    assert code_box.bounding_box()["height"] >= 40, "the room code is big in the lobby"
    bots = zso.locator("#people .is-bot")
    for added in range(1, 8):  # each bot seen in the lobby before the next is asked for, as a host would
        zso.locator("#bot-kind").select_option("cautious")
        zso.locator("#add-bot").tap()
        expect(bots).to_have_count(added)
    names = bots.locator(".name").all_text_contents()
    assert len(set(names)) == 7, names
    expect(bots.first).to_contain_text("Óvatos gép")  # the strategy is shown beside the name
    shot(zso, "moments-phone-lobby-hu")
    zso.locator("#start").tap()
    expect(zso.locator("#move-deeper")).to_be_visible()
    expect(zso.locator(".deciding")).to_contain_text("Zsófia Kovács-Nagyváradi")
    problems = phone_layout_problems(zso)
    shot(zso, "moments-phone-choosing-hu")
    assert not problems, problems
    assert not small_targets(zso), small_targets(zso)
    assert not contrast_failures(zso), contrast_failures(zso)
    # The spiders: "halálos" stays inside its tile; the seven names are told apart.
    tap(zso, "deeper")
    expect(zso.locator(".hz.deadly")).to_have_count(1)
    expect(zso.locator(".hz.deadly .hs")).to_have_text("halálos")
    problems = phone_layout_problems(zso)
    assert not problems, problems
    # Scrolled to the bottom, the last explorer's row is above the bottom bar.
    zso.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    zso.wait_for_timeout(150)
    last = zso.locator(".players li").last.bounding_box()
    bar = zso.locator("#actions").bounding_box()
    assert last["y"] + last["height"] <= bar["y"] + 1, (last, bar)
    shot(zso, "moments-phone-bottom-hu")
    assert not contrast_failures(zso), contrast_failures(zso)


def test_links_and_checkboxes_are_big_enough_to_tap(server: ServerProcess, browser: Browser) -> None:
    page = browser.phone("start")
    page.goto("/")
    expect(page.locator("#game option")).not_to_have_count(0)
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('a, input[type=checkbox]')]
          .filter((el) => el.getClientRects().length)
          .map((el) => { const r = el.getBoundingClientRect();
            return [el.id || el.textContent.trim(), Math.round(r.width), Math.round(r.height)]; })"""
    )
    assert boxes and all(w >= 44 and h >= 44 for _, w, h in boxes), boxes
    code = server.create_table()
    join(page, code, "Ann")
    expect(page.locator("#rules-link")).to_be_visible()
    box = page.locator("#rules-link").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box
    page.locator("#invite-btn").tap()
    box = page.locator("#invite-tv").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box
