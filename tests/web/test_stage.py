"""The TV is a stage: one screen, always, at 1920×1080 and at 1280×720.

Eight chairs (three people with long names, in English, Hungarian and Japanese, and five bots),
a scripted first cave of 25 cards that ends in a collapse, and a last cave whose final reveal is
shown before the results.  At every card the TV is checked in all three languages: the page does
not scroll and every piece of the stage (cave, path, hazards, every explorer, the countdown, the
join QR code, the reveal or the collapse) lies inside the viewport.  A screenshot of each state is
saved in artifacts/screenshots/.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import ROOT, Browser
from tests.web.test_play import cave_heading, join

pytestmark = pytest.mark.browser

# Cave 1: 24 cards without a collapse (every hazard once), then a second fire: card 25 collapses it.
CAVE1 = [
    "5",
    "snakes",
    "7",
    "1",
    "spiders",
    "11",
    "2",
    "relic",
    "3",
    "mummies",
    "4",
    "9",
    "13",
    "fire",
    "14",
    "5",
    "rockfall",
    "15",
    "7",
    "17",
    "11",
    "1",
    "2",
    "3",
    "fire",
]
CAVE2 = ["9", "relic", "4"]
PEOPLE = [
    ("Bartholomew Fitzgerald", "en-GB", "Your name"),
    ("Zsófia Kovács-Nagyváradi", "hu-HU", "A neved"),
    ("たかはしさくらこ・ミッドナイト", "ja-JP", "名前"),
]
PREFIX = os.environ.get("GEMTABLE_SHOTS_PREFIX", "")
SIZES_FILE = ROOT / "artifacts" / "tv-text-sizes.json"

STAGE = [
    "#game .cave-head",
    "#game .path li",
    "#tv-hazards .danger",
    "#tv-hazards .hz",
    "#game .players li",
    "#game .reveal",
    "#game .collapse",
    "#clock",
    "#clock-num",
    "#corner-qr .qr",
    "#results .results-title",
    "#results table.scores tr",
    "#results .chart",
    "#lobby-qr .qr",
    "#lobby .person",
    "#game .recap-row",
    ".bh-turn",
    ".bh-drawn",
    ".bh-pl",
]


OFF_STAGE = """(sels) => {
  const bad = [];
  const se = document.scrollingElement;
  if (se.scrollHeight > innerHeight) bad.push(`page scrolls: ${se.scrollHeight} > ${innerHeight}`);
  if (se.scrollWidth > innerWidth) bad.push(`page scrolls sideways: ${se.scrollWidth} > ${innerWidth}`);
  const at = (r) => `${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`;
  for (const sel of sels) {
    for (const el of document.querySelectorAll(sel)) {
      if (!el.getClientRects().length) continue;
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      const what = `${sel} "${el.textContent.trim().slice(0, 24)}"`;
      if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
        bad.push(`${what} at ${at(r)}`);
      }
      // Inside the screen but cut off by a box that hides what overflows it (the results, the path...).
      for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).overflow === 'visible') continue;
        const b = box.getBoundingClientRect();
        if (r.left < b.left - 1 || r.top < b.top - 1 || r.right > b.right + 1 || r.bottom > b.bottom + 1) {
          bad.push(`${what} at ${at(r)} cut by .${box.className} at ${at(b)}`);
          break;
        }
      }
    }
  }
  const clock = document.querySelector('#clock');
  if (clock && clock.getClientRects().length) {
    const r = clock.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (hit && !clock.contains(hit)) bad.push(`the countdown is covered by ${hit.className}`);
  }
  // An explorer's cell, name or hazard tile wider than itself (a name that found no place to break).
  const cells = '#game .players li, #game .players .name, .tv-hazards .hz :is(.hn, .hs)';
  for (const el of document.querySelectorAll(cells)) {
    if (el.scrollWidth > el.clientWidth + 1) bad.push(`cut: ${el.textContent.trim().slice(0, 24)}`);
  }
  return bad;
}"""
"""``off_stage``'s check, a function of the selectors to look at (``STAGE``)."""


def resized(page: Any, size: dict[str, int]) -> None:
    """The page at a new viewport size, once it has fitted itself to it: the pages fit their regions from a
    ``ResizeObserver`` and a ``resize`` listener, which run at the next frames, not when the viewport changes
    (a check made at once measured the path's cards still at the size before)."""
    page.set_viewport_size(size)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def off_stage(page: Any) -> list[str]:
    """What does not fit: the page scrolls, or a stage element lies (partly) outside the viewport,
    or the countdown is covered by something else."""
    return list(page.evaluate(OFF_STAGE, STAGE))


TEXT_SIZES = """() => {
  // Every visible text node of the page and the size it is drawn at: an HTML text's computed font size; an SVG
  // text's times the scale its drawing is shown at. A select shows its chosen option in its own font.
  const LARGE = ['#clock-num', '.player .st', '.waiting-for', '.player .name', '.person .name', '.bh-turn-name'];
  const out = [];
  const seen = (el) => {
    if (!el.getClientRects().length || el.closest('.sr-only, [hidden]')) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== 'hidden' && Number(cs.opacity) > 0.05;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('select, script, style') || !seen(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = [...range.getClientRects()].find((r) => r.width > 0 && r.height > 0);
    if (!box || box.right < 0 || box.bottom < 0 || box.left > innerWidth || box.top > innerHeight) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement && el.getScreenCTM()) {
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    }
    const large = !el.closest('.tag') && LARGE.some((sel) => el.closest(sel));
    out.push({ size, large, text: text.slice(0, 32), where: el.className.baseVal ?? el.className });
  }
  for (const el of document.querySelectorAll('select')) {
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (seen(el)) out.push({ size, large: false, text: 'select', where: el.id });
  }
  return out;
}"""


def record_sizes(page: Any, texts: list[dict[str, Any]], where: dict[str, Any]) -> None:
    """The smallest text drawn, and the smallest name, status, "Waiting for" or clock, at one state of a TV: into
    artifacts/tv-text-sizes.json, one entry per test, state, screen, players and language (the Done-when
    matrix's figures; a later run replaces an entry of the same key)."""
    size = page.viewport_size
    where = {
        **where,
        "screen": f"{size['width']}x{size['height']}",
        "lang": page.evaluate("document.documentElement.lang"),
    }
    entry: dict[str, Any] = {**where, "limit": round(24 * size["height"] / 1080, 1)}
    entry["limit_large"] = round(36 * size["height"] / 1080, 1)
    for kind, chosen in (("min", texts), ("min_large", [t for t in texts if t["large"]])):
        least = min(chosen, key=lambda t: t["size"], default=None)
        entry[kind] = round(least["size"], 1) if least else None
        entry[kind + "_text"] = least["text"] if least else None
    key = "/".join(str(where[k]) for k in ("test", "state", "screen", "players", "lang"))
    SIZES_FILE.parent.mkdir(parents=True, exist_ok=True)
    try:
        figures = json.loads(SIZES_FILE.read_text("utf-8"))
    except (OSError, ValueError):
        figures = {}
    figures[key] = entry
    # Written aside, then put in place at once: the suite's two workers may read it while the other writes.
    aside = SIZES_FILE.with_name(f"{SIZES_FILE.name}.{os.getpid()}")
    aside.write_text(json.dumps(figures, indent=1, ensure_ascii=False, sort_keys=True) + "\n", "utf-8")
    os.replace(aside, SIZES_FILE)


def small_text(page: Any, record: dict[str, Any] | None = None) -> list[str]:
    """Texts drawn smaller than the issue's sizes from the sofa: at 1080p no text under 24 px, names, statuses,
    "Waiting for" and the clock at least 36 px; at 720p two thirds of that (scaled by the viewport's height).
    With ``record`` (the test and state, and the players), the smallest sizes found go to the figures' file."""
    scale = page.viewport_size["height"] / 1080
    least, large = 24 * scale - 0.3, 36 * scale - 0.3
    texts = page.evaluate(TEXT_SIZES)
    if record is not None:
        record_sizes(page, texts, record)
    return [
        f"{t['size']:.1f}px < {large if t['large'] else least:.0f}: {t['text']!r} ({t['where']})"
        for t in texts
        if t["size"] < (large if t["large"] else least)
    ]


OVERLAPS = """() => {
  // Text drawn over other text: every visible text node's line boxes, against every other's (a text and the
  // texts inside it excepted); a few pixels of touching edges are not an overlap.
  const boxes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest('.sr-only, [hidden], select, script, style')) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || Number(cs.opacity) <= 0.05 || !el.getClientRects().length) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const text = node.textContent.trim();
    for (const r of range.getClientRects()) if (r.width > 1 && r.height > 1) boxes.push({ r, el, text });
  }
  const out = [];
  for (let i = 0; i < boxes.length && out.length < 20; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const a = boxes[i], b = boxes[j];
      if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (w > 3 && h > 3) out.push(`"${a.text.slice(0, 20)}" over "${b.text.slice(0, 20)}"`);
    }
  }
  return out;
}"""


def overlaps(page: Any) -> list[str]:
    """Text drawn over other text."""
    return list(page.evaluate(OVERLAPS))


def smallest(page: Any) -> float:
    return float(min(t["size"] for t in page.evaluate(TEXT_SIZES)))


def set_lang(page: Any, lang: str) -> None:
    if page.evaluate("document.documentElement.lang") != lang:
        page.locator("#lang").select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
    page.wait_for_timeout(80)


LANGS = ("en", "hu", "ja")


def check_tv(
    tv: Any, problems: list[str], label: str, shot: Any, name: str | None = None, langs: tuple[str, ...] = LANGS
) -> None:
    """The TV in every language (or ``langs``): nothing off the stage; a screenshot (in the last language) when
    named."""
    for lang in langs:
        set_lang(tv, lang)
        problems += [f"{label} [{lang}]: {p}" for p in off_stage(tv)]
        problems += [f"{label} [{lang}]: {p}" for p in small_text(tv) + overlaps(tv)]
    if name:
        shot(tv, PREFIX + name)


def path_len(tv: Any) -> int:
    return int(tv.locator("#game .path li").count())


def decide(phones: list[Any], moves: dict[int, str], inside: set[int] | None = None) -> None:
    """Each phone still inside waits for the new decision (nothing chosen) and taps its move."""
    for i, phone in enumerate(phones):
        if inside is not None and i not in inside:
            continue
        for move in ("deeper", "camp"):
            expect(phone.locator(f"#move-{move}")).to_have_attribute("aria-pressed", "false", timeout=15_000)
        phone.locator(f"#move-{moves.get(i, 'deeper')}").tap()


BETWEEN = 6  # seconds between the caves of the whole game below (and before its results)


def test_the_tv_fits_one_screen_through_a_whole_game(server: ServerProcess, browser: Browser, shot: Any) -> None:
    """Two TVs watch the same game, one at 1920×1080 and one at 1280×720, checked at every card."""
    code = server.create_table(script=[CAVE1, CAVE2], options={"caves": 2}, seconds=60, pause=BETWEEN)
    phones = []
    for name, locale, prompt in PEOPLE:
        page = browser.phone(name.split()[0], locale=locale)
        join(page, code, name, prompt=prompt)
        phones.append(page)
    host = phones[0]
    for strategy in ["cautious", "cautious", "odds", "montecarlo", "random"]:
        host.locator("#bot-kind").select_option(strategy)
        host.locator("#add-bot").tap()
    expect(host.locator("#lobby-count")).to_have_text("8 of 8 chairs taken")
    tvs = {}
    for width, height in ((1920, 1080), (1280, 720)):
        context = browser._context(viewport={"width": width, "height": height}, locale="en-GB", base_url=browser.base)
        tvs[f"{height}p"] = page = browser._page(f"tv-{height}", context)
        page.goto(f"/t/{code}/tv")
    tv = tvs["1080p"]
    problems: list[str] = []

    def check_both(label: str, named: str | None, langs: tuple[str, ...] = LANGS) -> None:
        for tag, page in tvs.items():
            check_tv(page, problems, f"{tag} {label}", shot, f"tv-{tag}-{named}" if named else None, langs)

    def english() -> None:
        for page in tvs.values():
            set_lang(page, "en")

    for page in tvs.values():
        expect(page.locator("#lobby .person")).to_have_count(8)
    check_both("lobby", "01-lobby")
    english()

    host.locator("#start").tap()
    expect(tv.locator("#game .path li")).to_have_count(1)
    shot(phones[0], PREFIX + "phone-choosing-en")
    shot(phones[1], PREFIX + "phone-choosing-hu")
    check_both("card 1", "02-card-1")
    # Cave 1: the people go deeper every time; the bots do as they like.  Card 25 collapses the cave.
    for card in range(2, 26):
        decide(phones, {})
        expect(tv.locator("#game .path li")).to_have_count(card, timeout=15_000)
        named = {9: "03-card-9", 16: "04-card-16", 24: "05-card-24"}.get(card)
        # The named cards in every language, every third card in one of them in turn (the layout is fixed by
        # construction, test_hold.py: what a card changes is the path's length).
        if named or card % 3 == 0:
            check_both(f"card {card}", named, LANGS if named else (LANGS[card // 3 % 3],))
    expect(tv.locator("#game .collapse")).to_be_visible()
    expect(tv.locator("#clock")).to_be_visible()
    # The host pauses the pause between caves, so that the collapse is checked and photographed before the next
    # cave opens however busy the machine is (the paused banner is part of the screen then, as in the room).
    host.locator("#strip-pause").tap()
    expect(tv.locator("#banner")).to_be_visible()
    check_both("collapse", "06-collapse")
    shot(phones[1], PREFIX + "phone-collapse-hu")
    expect(tv.locator("#game .collapse")).to_be_visible()  # all checked before the next cave opened
    host.locator("#strip-pause").tap()

    # Cave 2: 9, then a relic; Bartholomew walks out at the relic, the others at the next card.
    expect(tv.locator("#game .cave-title")).to_have_text(cave_heading(2), timeout=BETWEEN * 1000 + 10_000)
    english()
    decide(phones, {})
    expect(tv.locator("#game .path li")).to_have_count(2, timeout=15_000)
    decide(phones, {0: "camp"})
    check_both("cave 2", "07-cave-2")
    decide(phones, {1: "camp", 2: "camp"}, inside={1, 2})
    # The last reveal (or the deck running out) is shown for the pause before the results.
    english()
    expect(tv.locator("#results")).to_be_visible(timeout=BETWEEN * 1000 + 10_000)
    check_both("results", "08-results")
    assert not problems, "\n".join(problems[:60])


def test_the_tv_says_whom_the_room_waits_for_and_who_watches(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    """Two people and six bots: the TV's big line names who has not chosen yet, and only them; someone who
    arrives to a full table is shown in the queue under the stage; every seat has its own mark; the type is
    the sofa's size at 1080p."""
    code = server.create_table(script=[["5", "7", "9", "1"]], seconds=60)
    ann, bob = browser.phone("ann"), browser.phone("bob")
    join(ann, code, "Ann")
    join(bob, code, "Bob")
    for _ in range(6):
        ann.locator("#add-bot").tap()
    expect(ann.locator("#lobby-count")).to_have_text("8 of 8 chairs taken")
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    expect(tv.locator("#people .tv-mark")).to_have_count(8)
    ann.locator("#start").tap()
    wait = tv.locator("#waiting-for")
    expect(wait).to_have_text("Waiting for: Ann, Bob")
    ann.locator("#move-deeper").tap()
    expect(wait).to_have_text("Waiting for: Bob")
    kim = browser.phone("kim")
    join(kim, code, "Kim")
    expect(tv.locator("#tv-queue")).to_contain_text("Kim")
    marks = tv.locator("#game .player .seat-mark")
    expect(marks).to_have_count(8)
    styles = {marks.nth(i).get_attribute("data-seat-style") for i in range(8)}
    assert len(styles) == 8, styles
    assert not small_text(tv), small_text(tv)
    assert not off_stage(tv), off_stage(tv)
    shot(tv, PREFIX + "tv-1080p-waiting-for")
    bob.locator("#move-camp").tap()
    expect(tv.locator("#game .path li")).to_have_count(2)
    expect(wait).to_have_text("Waiting for: Ann")
