"""Accessibility, measured: axe-core (WCAG 2.0–2.2 A and AA, heading order, landmarks) and the hand-written
checks of ``a11y.py`` on every page and phase a player sees, in English, Hungarian and Japanese (Chromium; WebKit
in test_webkit.py).

Each test collects every problem of every moment it visits and fails once, with the whole list, so one run
says everything that is wrong.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import check_page, focus_problem, focus_ring, playwright_run
from tests.web.conftest import ROOM_HOST, Browser
from tests.web.crowd import Crowd
from tests.web.test_booty import booty_table
from tests.web.test_play import cave_heading, join
from tests.web.test_stage import set_lang

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-GB", "hu": "hu-HU", "ja": "ja-JP"}
PROMPT = {"en": "Your name", "hu": "A neved", "ja": "あなたの名前"}
# Cave 1: 5, spiders, 7, spiders (a collapse); cave 2: 3, then both walk out: the results.
SCRIPT = [["5", "spiders", "7", "spiders"], ["3", "fire", "fire"]]
PAUSE = 5  # seconds between the caves: the collapse is measured in three languages before the next cave opens


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of each test's own: a full table in three languages is more joins from one address in a minute
    than the server lets one address make (``Limits.joins_per_minute``), and each test starts with fresh ones."""
    proc = ServerProcess(tmp_path / "data", public_url=f"http://{ROOM_HOST}:{{port}}").start()
    try:
        yield proc
    finally:
        proc.stop()


class Audit:
    """Problems found so far, by moment."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def page(self, page: Any, where: str, phone: bool = True) -> None:
        """The page as it is, in each of the three languages in turn (its language picker), then back in its own."""
        home = page.evaluate("document.documentElement.lang")
        if not page.locator("#lang").count():  # (the lab's report: English only)
            self.problems += check_page(playwright_run(page), where, phone)
            return
        for lang in (home, *(lang for lang in LOCALES if lang != home)):
            set_lang(page, lang)
            self.problems += check_page(playwright_run(page), f"{where} [{lang}]", phone)
        set_lang(page, home)

    def focus(self, page: Any, where: str) -> None:
        problem = focus_problem(playwright_run(page))
        if problem:
            self.problems.append(f"{where}: {problem}")

    def done(self) -> None:
        assert not self.problems, "\n".join(self.problems)


def test_the_start_lobby_cave_and_results_pass_axe_and_the_hand_checks(server: ServerProcess, browser: Browser) -> None:
    """Every page and phase a player sees, each in the three languages (the phones' own: Hungarian)."""
    lang = "hu"
    audit = Audit()
    ann = browser.phone(f"a11y-ann-{lang}", locale=LOCALES[lang])
    ann.goto("/")
    expect(ann.locator("#game option")).to_have_count(2)
    audit.page(ann, "start")
    for rules in ("/rules/expedition", "/rules/booty"):
        ann.goto(rules)
        expect(ann.locator("main h1")).to_be_visible()
        ann.wait_for_load_state("networkidle")
        audit.page(ann, f"{rules}")

    code = server.create_table(script=SCRIPT, options={"caves": 2}, seconds=60, pause=PAUSE)
    ann.goto(f"/t/{code}")
    expect(ann.get_by_label(PROMPT[lang])).to_be_visible()
    audit.page(ann, "name prompt")
    join(ann, code, "Ann", prompt=PROMPT[lang])
    audit.focus(ann, "after Join")
    bob = browser.phone(f"a11y-bob-{lang}", locale=LOCALES[lang])
    join(bob, code, "Bob", prompt=PROMPT[lang])
    expect(bob.locator("#lobby-wait")).to_be_visible()
    expect(ann.locator("#start")).to_be_enabled()
    audit.page(ann, "lobby (host)")
    audit.page(bob, "lobby (guest)")

    ann.locator("#start").tap()
    expect(ann.locator("#move-deeper")).to_be_visible()
    audit.focus(ann, "after Start")
    audit.page(ann, "choosing")
    ann.locator("#move-deeper").tap()
    expect(ann.locator("#move-deeper")).to_have_attribute("aria-pressed", "true")
    audit.focus(ann, "after Deeper")
    audit.page(ann, "chosen")
    bob.locator("#move-deeper").tap()
    expect(ann.locator(".hz.deadly")).to_have_count(1)  # the spiders: a reveal, a warning
    audit.page(ann, "reveal, a hazard")
    bob.locator("#move-camp").tap()
    ann.locator("#move-deeper").tap()
    expect(bob.locator("#actions")).to_be_hidden()
    audit.focus(bob, "after Camp")
    audit.page(bob, "in camp")
    ann.locator("#move-deeper").tap()
    expect(ann.locator(".collapse")).to_be_visible()
    audit.focus(ann, "after the collapse")
    audit.page(ann, "collapse")
    expect(ann.locator("h1.cave-title")).to_have_text(cave_heading(2), timeout=15_000)
    audit.page(ann, "cave 2")
    ann.locator("#move-camp").tap()
    bob.locator("#move-camp").tap()
    expect(ann.locator("#results")).to_be_visible(timeout=15_000)
    expect(ann.locator("table.scores")).to_be_visible()
    audit.focus(ann, "at the results")
    audit.page(ann, "results (host)")
    audit.page(bob, "results (guest)")
    ann.goto(f"/t/{code}/results/1")
    expect(ann.locator("table.scores")).to_be_visible()
    audit.page(ann, "results page")
    audit.done()


def everyone(crowd: Crowd, move: str) -> None:
    """Every phone of the crowd chooses ``move``."""

    def open_(state: dict[str, Any]) -> bool:  # a decision this phone has not answered yet
        me = state.get("me") or {}
        return bool(me.get("moves")) and not me.get("choice")

    async def one(client: Any) -> None:
        await client.until(open_)
        await client.choose(move)

    async def go(clients: dict[str, Any]) -> None:
        await asyncio.gather(*(one(client) for client in clients.values()))

    crowd.do(go)


def test_a_full_table_the_queue_a_pause_and_the_tv_in_each_of_its_states(
    server: ServerProcess, browser: Browser
) -> None:
    """A full table, a watcher and the TV, each state in the three languages (the pages' own: Japanese)."""
    lang = "ja"
    audit = Audit()
    code = server.create_table(script=SCRIPT, options={"caves": 2}, seconds=60, pause=PAUSE)
    ann = browser.phone(f"a11y-host-{lang}", locale=LOCALES[lang])
    join(ann, code, "Ann", prompt=PROMPT[lang])
    tv = browser.tv(f"a11y-tv-{lang}", locale=LOCALES[lang])
    tv.goto(f"/t/{code}/tv")
    crowd = Crowd(server.ws)
    try:
        crowd.join(code, *[f"Guest {i}" for i in range(7)])
        ivy = browser.phone(f"a11y-ivy-{lang}", locale=LOCALES[lang])
        join(ivy, code, "Ivy", prompt=PROMPT[lang])
        expect(ivy.locator("#banner")).to_be_visible()  # watching: number 1 in the queue
        expect(tv.locator("#queue")).to_contain_text("Ivy")
        audit.page(ivy, "watching, in the queue (lobby)")
        audit.page(ann, "a full lobby (host)")
        audit.page(tv, "TV lobby", phone=False)

        ann.locator("#start").tap()
        expect(ann.locator("#move-deeper")).to_be_visible()
        expect(tv.locator("#game .path li")).to_have_count(1)
        audit.page(tv, "TV in a cave", phone=False)
        audit.page(ivy, "watching a cave")
        ann.locator("#host-strip button").first.tap()  # Pause
        expect(ann.locator("#resume")).to_be_visible()
        expect(tv.locator("#banner")).to_be_visible()
        audit.focus(ann, "after Pause")
        audit.page(ann, "paused (host)")
        audit.page(ivy, "paused (watching)")
        audit.page(tv, "TV paused", phone=False)
        ann.locator("#resume").tap()
        expect(ann.locator("#resume")).to_be_hidden()
        audit.focus(ann, "after Resume")

        for cards in (2, 3):  # everyone deeper, three times: spiders, 7, spiders (a collapse)
            everyone(crowd, "deeper")
            ann.locator("#move-deeper").tap()
            expect(ann.locator("#game .path li")).to_have_count(cards)
        everyone(crowd, "deeper")
        ann.locator("#move-deeper").tap()
        expect(ann.locator("#game .collapse")).to_be_visible()
        expect(tv.locator("#game")).to_be_visible()
        audit.page(tv, "TV collapse (or its recap)", phone=False)  # the TV holds the collapse, then recaps
        expect(ann.locator(".cave-title")).to_have_text(cave_heading(2), timeout=15_000)
        everyone(crowd, "camp")
        ann.locator("#move-camp").tap()
        expect(tv.locator("#results")).to_be_visible(timeout=15_000)
        expect(tv.locator("table.scores")).to_be_visible()
        audit.page(tv, "TV results", phone=False)
        audit.page(ivy, "watching the results")
    finally:
        crowd.close()
    audit.done()


def test_booty_hunter_on_my_turn_and_on_another_s(server: ServerProcess, browser: Browser) -> None:
    """Booty Hunter's lobby, turns and TV, each in the three languages (the pages' own: English)."""
    lang = "en"
    audit = Audit()
    code = booty_table(server)
    kim = browser.phone(f"a11y-kim-{lang}", locale=LOCALES[lang])
    join(kim, code, "Kim", prompt=PROMPT[lang])
    lee = browser.phone(f"a11y-lee-{lang}", locale=LOCALES[lang])
    join(lee, code, "Lee", prompt=PROMPT[lang])
    kim.locator("#add-bot").tap()
    expect(kim.locator("#people .is-bot")).to_have_count(1)
    audit.page(kim, "Booty Hunter lobby (host)")
    kim.locator("#start").tap()
    for _ in range(100):  # whoever plays first (the bot may: then one of them is next)
        if kim.locator(".bh-rotate").is_visible() or lee.locator(".bh-rotate").is_visible():
            break
        kim.wait_for_timeout(100)
    mine, other = (kim, lee) if kim.locator(".bh-rotate").is_visible() else (lee, kim)
    expect(mine.locator(".bh-rotate")).to_be_visible()
    expect(other.locator(".bh-turn")).to_be_visible()
    audit.page(mine, "Booty Hunter, my turn")
    audit.page(other, "Booty Hunter, another's turn")
    kim = mine
    for _ in range(4):  # turned so that it fits somewhere
        if kim.locator(".bh-spot").count():
            break
        kim.locator(".bh-rotate").tap()
    kim.locator(".bh-spot").first.tap()
    expect(kim.locator(".bh-place")).to_be_enabled()
    audit.page(kim, "Booty Hunter, a spot chosen")
    tv = browser.tv(f"a11y-bh-tv-{lang}", locale=LOCALES[lang])
    tv.goto(f"/t/{code}/tv")
    expect(tv.locator(".bh-board")).to_be_visible()
    audit.page(tv, "Booty Hunter TV", phone=False)
    audit.done()


def test_the_strategy_lab_report(browser: Browser, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    subprocess.run(
        [sys.executable, "-m", "gemtable", "simulate", "--games", "30", "--players", "3", "--seed", "1",
         "--report", str(report)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    audit = Audit()
    page = browser.phone("a11y-report")
    page.goto(report.as_uri())
    expect(page.locator("h1")).to_be_visible()
    audit.page(page, "the lab report")
    desk = browser.desktop("a11y-report-desk")
    desk.goto(report.as_uri())
    audit.page(desk, "the lab report (desktop)", phone=False)
    audit.done()


LIVE_WATCH = """(() => {
  window.__said = [];
  let last = '';
  new MutationObserver(() => {
    const live = document.getElementById('live');
    const text = live ? live.textContent : '';
    if (text && text !== last) window.__said.push(text);
    last = text;
  }).observe(document, {subtree: true, childList: true, characterData: true});
})()"""
REGIONS = """() => [...document.querySelectorAll(
  '[aria-live], [role=status], [role=alert], [role=log], [role=timer], output')].map((el) => el.id || el.className)"""
WORDS = {
    "en": {
        "card": "Cave 1, new card: 5 gems.",
        "hazard": "Spiders, a hazard",
        "hurry": "s left to choose.",
        "timed_out": "Time ran out: you went back to camp with",
        "collapse": "The cave collapsed!",
        "winner": "Ann wins!",
        "standings": "Final scores: Ann 3, Bob 0.",
    },
    "hu": {
        "card": "1. barlang, új lap: 5 drágakő.",
        "hazard": "Pókok, veszély",
        "hurry": "mp a döntésre.",
        "timed_out": "Lejárt az idő",
        "collapse": "Beomlott a barlang!",
        "winner": "Ann nyert!",
        "standings": "Végeredmény: Ann 3, Bob 0.",
    },
}


@pytest.mark.parametrize("lang", list(WORDS))
def test_the_live_region_says_each_moment_once_in_the_pages_language(
    server: ServerProcess, browser: Browser, lang: str
) -> None:
    words = WORDS[lang]
    code = server.create_table(script=SCRIPT[:1], options={"caves": 1}, seconds=8, pause=2)
    ann = browser.phone(f"live-{lang}", locale=LOCALES[lang])
    ann.add_init_script(LIVE_WATCH)
    join(ann, code, "Ann", prompt=PROMPT[lang])
    assert ann.evaluate(REGIONS) == ["live"], ann.evaluate(REGIONS)  # the page's one live region
    live = ann.locator("#live")
    crowd = Crowd(server.ws)
    try:
        crowd.join(code, "Bob")
        ann.locator("#start").tap()
        expect(live).to_have_text(words["card"])  # the new card
        ann.locator("#move-deeper").tap()
        everyone(crowd, "deeper")
        expect(live).to_contain_text(words["hazard"])  # a hazard turns
        everyone(crowd, "deeper")  # Ann stays silent: the clock warns her once, then walks her out
        expect(live).to_contain_text(words["hurry"], timeout=8000)
        expect(live).to_contain_text(words["timed_out"], timeout=8000)  # the reveal: what she banked
        everyone(crowd, "deeper")  # Bob alone: the second spiders
        expect(live).to_contain_text(words["collapse"])
        expect(live).to_contain_text(words["standings"], timeout=8000)  # the final standings
        expect(live).to_contain_text(words["winner"])
        assert ann.evaluate(REGIONS) == ["live"], ann.evaluate(REGIONS)  # one polite live region, in every phase
    finally:
        crowd.close()
    said: list[str] = ann.evaluate("() => window.__said")
    for key, text in words.items():
        hits = [line for line in said if text in line]
        assert len(hits) == 1, (key, hits, said)  # each moment once
    assert len(said) == len(set(said)), said


def tab_to(page: Any, css: str, most: int = 40) -> int:
    """Press Tab until the focus is on ``css``; how many presses it took."""
    for n in range(1, most + 1):
        page.keyboard.press("Tab")
        if page.evaluate("(css) => document.activeElement && document.activeElement.matches(css)", css):
            return n
    raise AssertionError(
        f"{css} not reached in {most} Tabs; focus on {page.evaluate('document.activeElement.outerHTML')}"
    )


def test_a_keyboard_alone_plays_an_expedition_and_a_booty_hunter_turn(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table(script=SCRIPT[:1], options={"caves": 1}, seconds=60, pause=2)
    ann = browser.desktop("keys-ann")
    ann.goto(f"/t/{code}")
    expect(ann.locator("#join-name")).to_be_focused()  # the prompt takes the focus
    ann.keyboard.type("Ann")
    ann.keyboard.press("Enter")
    expect(ann.locator("#who")).to_have_text("Ann")
    crowd = Crowd(server.ws)
    try:
        crowd.join(code, "Bob")
        expect(ann.locator("#start")).to_be_enabled()
        tab_to(ann, "#start")
        ann.keyboard.press("Enter")
        expect(ann.locator("#move-deeper")).to_be_visible()
        assert focus_problem(playwright_run(ann)) == ""
        tab_to(ann, "#move-deeper")
        ann.keyboard.press("Enter")
        expect(ann.locator("#move-deeper")).to_have_attribute("aria-pressed", "true")
        expect(ann.locator("#move-deeper")).to_be_focused()  # focus stays on the choice
        assert focus_ring(playwright_run(ann, axe=False)) == ""  # and shows on it, chosen as it is
        ann.keyboard.press("Tab")
        expect(ann.locator("#move-camp")).to_be_focused()
        assert focus_ring(playwright_run(ann, axe=False)) == ""
        ann.keyboard.press("Enter")  # a change of mind
        expect(ann.locator("#move-camp")).to_have_attribute("aria-pressed", "true")
        ann.keyboard.press("Shift+Tab")
        ann.keyboard.press("Enter")
        expect(ann.locator("#move-deeper")).to_have_attribute("aria-pressed", "true")
        everyone(crowd, "deeper")
        expect(ann.locator(".hz.deadly")).to_have_count(1)
        tab_to(ann, "#move-camp")
        ann.keyboard.press("Enter")
        everyone(crowd, "deeper")
        expect(ann.locator("#actions")).to_be_hidden()
        assert focus_problem(playwright_run(ann)) == ""  # on the page's h1, not the body
        everyone(crowd, "deeper")  # Bob alone: the second spiders, the collapse, the results
        expect(ann.locator("#again")).to_be_visible(timeout=8000)
        tab_to(ann, "#again")
    finally:
        crowd.close()

    booty = booty_table(server)
    kim = browser.desktop("keys-kim")
    kim.goto(f"/t/{booty}")
    expect(kim.locator("#join-name")).to_be_focused()
    kim.keyboard.type("Kim")
    kim.keyboard.press("Enter")
    expect(kim.locator("#who")).to_have_text("Kim")
    tab_to(kim, "#add-bot")
    kim.keyboard.press("Enter")
    kim.keyboard.press("Enter")
    expect(kim.locator("#people .is-bot")).to_have_count(2)
    tab_to(kim, "#start")
    kim.keyboard.press("Enter")
    expect(kim.locator(".bh-rotate")).to_be_visible(timeout=15_000)  # my turn (after the bots', if first)
    for _ in range(4):  # turned so that it fits somewhere
        if kim.locator(".bh-spot").count() > 1:
            break
        tab_to(kim, ".bh-rotate")
        kim.keyboard.press("Enter")
    tab_to(kim, "[data-spot]")
    first = kim.evaluate("document.activeElement.dataset.spot")
    if kim.locator(".bh-spot").count() > 1:
        for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
            kim.keyboard.press(key)
            if kim.evaluate("document.activeElement.dataset.spot") != first:
                break
        assert kim.evaluate("document.activeElement.dataset.spot") != first  # the arrows move between spots
    spot = kim.evaluate("document.activeElement.dataset.spot")
    kim.keyboard.press("Enter")
    expect(kim.locator(".bh-board .bh-ghost")).to_have_count(1)
    assert kim.evaluate("document.activeElement.dataset.spot") == spot  # focus stays on the chosen spot
    expect(kim.locator(f'[data-spot="{spot}"]')).to_have_attribute("aria-pressed", "true")
    turned = kim.locator(".bh-mine svg").get_attribute("aria-label")
    kim.keyboard.press("r")  # rotate (only the turns that fit there)
    assert kim.evaluate("document.activeElement.dataset.spot") == spot
    assert kim.locator(".bh-mine svg").get_attribute("aria-label") is not None and turned is not None
    presses = tab_to(kim, ".bh-place")
    assert presses <= 6, presses  # not through every spot again
    placed = kim.locator(".bh-placed").text_content()
    kim.keyboard.press("Enter")
    expect(kim.locator(".bh-placed")).not_to_have_text(placed or "", timeout=10_000)


BREAK = """() => {
  const button = document.createElement('button');  // a button without a name: only a picture, no text, no label
  button.className = 'btn';
  button.append(document.createElementNS('http://www.w3.org/2000/svg', 'svg'));
  document.querySelector('#lobby').append(button);
  document.querySelector('#lobby-count').style.fontSize = '10px';  // a 10 px text
}"""


def test_the_checks_fail_on_a_deliberately_broken_page(server: ServerProcess, browser: Browser) -> None:
    """The checks are not vacuous: the lobby with a button that has no name and a 10 px text fails both axe and
    the hand checks, saying where (the list is printed: docs/pages.md shows it)."""
    code = server.create_table()
    page = browser.phone("a11y-broken")
    join(page, code, "Ann")
    run = playwright_run(page)
    assert check_page(run, "the lobby") == []
    page.evaluate(BREAK)
    problems = check_page(run, "the broken lobby")
    print("\n".join(problems))
    assert any("button-name (critical)" in p for p in problems), problems
    assert any("text under 14 px (10 px)" in p for p in problems), problems
