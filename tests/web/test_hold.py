"""Screens that hold (issue 40), each through the pages in a real Chromium against a real server:

* a count is said with its noun in the right number: "1 gem", "2 gems", never "1 gems";
* the results chart's value ticks are whole numbers of gems;
* the invite sheet closes by itself when the host starts, so Deeper and Camp are not covered;
* Leave asks with the app's own dialog (no browser ``confirm()``): Cancel keeps the seat, Leave leaves.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import assert_accessible
from tests.web.conftest import Browser
from tests.web.crowd import Crowd
from tests.web.test_a11y import everyone, tab_to
from tests.web.test_play import join, small_targets, tap
from tests.web.test_stage import PREFIX, TEXT_SIZES, off_stage, overlaps, set_lang

pytestmark = pytest.mark.browser

CROWD_SOURCES = ("127.0.40.1", "127.0.40.2", "127.0.40.3")
"""Where this module's crowds connect from, in turn: their joins (the TV's ten, say) have budgets of their own,
apart from the browsers' on the same server, whatever the order and pace the tests run at."""


def said(locator: Any) -> str:
    """What a screen reader reads of an element: its text, the visually hidden words included, spaces tidied."""
    return " ".join(str(locator.text_content()).split())


def test_one_gem_is_one_gem_and_two_are_two_gems(server: ServerProcess, browser: Browser) -> None:
    # Two explorers: a 3 gives each 1 and leaves 1 on the path; a second 3 makes it 2 carried and 2 on the path.
    code = server.create_table(script=[["3", "3", "spiders", "spiders"]], options={"caves": 1}, seconds=60)
    ann = browser.phone("ann")
    join(ann, code, "Ann")
    bob = browser.phone("bob")
    join(bob, code, "Bob")
    ann.locator("#start").tap()
    carry = ann.locator(".mine .carry .gems")
    on_path = ann.locator(".path-foot .gems")
    expect(carry).to_have_text("1 gem")
    assert said(carry) == "1 gem"
    expect(on_path).to_have_text("1 gem")
    expect(ann.locator(".path-foot")).to_have_text("Lying on the path: 1 gem")
    expect(ann.locator("#move-camp")).to_contain_text("walk out with 1 gem")
    # The players' list, each with what they carry: 1 gem.
    expect(ann.locator(".players .carried").first).to_have_text("1 gem")
    tap(ann, "deeper")
    tap(bob, "deeper")
    expect(carry).to_have_text("2 gems")
    expect(on_path).to_have_text("2 gems")
    expect(ann.locator(".path-foot")).to_have_text("Lying on the path: 2 gems")
    expect(ann.locator(".players .carried").first).to_have_text("2 gems")
    # The counts no state here shows at 1, from the page's own texts (the same module the page draws with).
    words = ann.evaluate(
        """async () => {
          const { t } = await import('/static/js/i18n.js');
          return [1, 2].flatMap((n) => [t('exp.deck_left', { n }), t('lobby.need', { n }),
            t('lobby.chairs', { taken: 1, chairs: n, n })]);
        }"""
    )
    assert words == [
        "1 card in the deck",
        "At least 1 player is needed.",
        "1 of 1 chair taken",
        "2 cards in the deck",
        "At least 2 players are needed.",
        "1 of 2 chairs taken",
    ]


VALUE_TICKS = """(root) => [...root.querySelectorAll('svg.chart-svg text.tick[text-anchor="end"]')]
  .map((tick) => tick.textContent)"""
CHART_TICKS = """async (tops) => {
  const { chart } = await import('/static/js/chart.js');
  const ticks = (body) => [...body.querySelectorAll('text.tick[text-anchor="end"]')].map((tick) => tick.textContent);
  return tops.map((top) => ticks(chart([{ name: 'A', values: [0, top] }])));
}"""


def test_the_chart_ticks_whole_gems(server: ServerProcess, browser: Browser) -> None:
    # Two explorers: a 5 gives each 2 (1 stays on the path); both walk out: 2 gems each, the chart's top value.
    code = server.create_table(script=[["5", "spiders", "spiders"]], options={"caves": 1}, seconds=60, pause=1)
    ann = browser.phone("chart-ann")
    join(ann, code, "Ann")
    bob = browser.phone("chart-bob")
    join(bob, code, "Bob")
    ann.locator("#start").tap()
    tap(ann, "camp")
    tap(bob, "camp")
    expect(ann.locator("main")).to_contain_text("share the win")  # after the last cave's recap (a 1 s pause)
    expect(ann.locator(".chart svg polyline")).to_have_count(2)
    assert ann.evaluate(VALUE_TICKS, ann.locator(".chart").element_handle()) == ["0", "1", "2"]
    # Every largest value, drawn by the chart itself: three whole ticks, the top at or above the value.
    tops = [0, 1, 2, 3, 5, 7, 9, 11, 25, 45, 49, 61, 99, 101, 249]
    for top, ticks in zip(tops, ann.evaluate(CHART_TICKS, tops), strict=True):
        values = [int(tick) for tick in ticks]  # (a "2.5" would not parse)
        assert len(values) == 3 and values[0] == 0 and values[2] == 2 * values[1] >= top, (top, ticks)


def open_invite(page: Any) -> Any:
    page.locator("#invite-btn").tap()
    sheet = page.locator("#invite")
    expect(sheet).to_be_visible()
    expect(sheet.locator("#invite-close")).to_be_visible()
    return sheet


def two_in_the_lobby(server: ServerProcess, browser: Browser, label: str, countdown: float) -> tuple[Any, Any]:
    code = server.create_table(script=[["5", "spiders", "spiders"]], options={"caves": 1}, countdown=countdown)
    ann = browser.phone(f"{label}-ann")
    join(ann, code, "Ann")
    bob = browser.phone(f"{label}-bob")
    join(bob, code, "Bob")
    return ann, bob


def test_the_invite_sheet_closes_when_the_game_starts(server: ServerProcess, browser: Browser) -> None:
    """Bob has the invite sheet open, and Leave's question over it, when Ann starts: both close by themselves,
    focus is on the game's heading, and Deeper and Camp are in view and take a tap."""
    ann, bob = two_in_the_lobby(server, browser, "start", countdown=0)
    sheet = open_invite(bob)
    sheet.locator("#invite-leave").tap()
    ask = bob.get_by_role("dialog", name="Leave this table for good?")
    expect(ask).to_be_visible()
    ann.locator("#start").tap()
    expect(bob.locator(".cave-title")).to_have_text("Cave 1 of 1")
    expect(ask).to_be_hidden()
    expect(sheet).to_be_hidden()
    assert not bob.evaluate("() => document.querySelector('#invite').open")
    expect(bob.locator("h1.cave-title")).to_be_focused()
    for move in ("deeper", "camp"):
        expect(bob.locator(f"#move-{move}")).to_be_visible()
        expect(bob.locator(f"#move-{move}")).to_be_in_viewport()
    tap(bob, "camp")  # (Playwright taps only a button nothing covers)
    expect(bob.locator("#move-camp")).to_have_attribute("aria-pressed", "true")
    tap(bob, "deeper")
    expect(bob.locator("#move-deeper")).to_have_attribute("aria-pressed", "true")
    expect(bob.locator(".choice-note")).to_contain_text("Your choice: Deeper")


def test_the_invite_sheet_closes_when_the_countdown_begins(server: ServerProcess, browser: Browser) -> None:
    """With a countdown the sheet closes as it begins (a long one: the test reads the moment, then Ann cancels)."""
    ann, bob = two_in_the_lobby(server, browser, "count", countdown=30)
    sheet = open_invite(bob)
    ann.locator("#start").tap()
    expect(bob.locator("#banner")).to_contain_text("Ann is starting the game.")
    expect(sheet).to_be_hidden()
    expect(bob.locator("h1#lobby-title")).to_be_focused()
    ann.locator("#cancel-start").tap()
    expect(bob.locator("#banner")).to_be_hidden()  # the start cancelled: the lobby as it was


def test_leave_asks_in_the_page_s_own_dialog(server: ServerProcess, browser: Browser) -> None:
    """Leave opens the app's dialog, never the browser's: No (and Escape) keep Bob seated, focus back on Leave;
    Yes leaves."""
    ann, bob = two_in_the_lobby(server, browser, "leave", countdown=0)
    browser_dialogs: list[str] = []

    def refuse(dialog: Any) -> None:  # (a browser dialog left open would hang the page)
        browser_dialogs.append(dialog.message)
        dialog.dismiss()

    bob.on("dialog", refuse)
    expect(ann.locator("#lobby-count")).to_have_text("2 of 8 chairs taken")
    sheet = open_invite(bob)
    leave = sheet.locator("#invite-leave")
    ask = bob.get_by_role("dialog", name="Leave this table for good?")

    leave.tap()
    expect(ask).to_be_visible()
    expect(ask).to_have_accessible_description("Your chair goes to the next in line.")
    expect(bob.locator("#leave-no")).to_be_focused()
    assert_accessible(bob, "the leave dialog")
    assert not small_targets(bob), small_targets(bob)
    bob.keyboard.press("Escape")
    expect(ask).to_be_hidden()
    expect(sheet).to_be_visible()
    expect(leave).to_be_focused()

    leave.press("Enter")  # the keyboard's way in
    expect(ask).to_be_visible()
    bob.locator("#leave-no").tap()
    expect(ask).to_be_hidden()
    expect(leave).to_be_focused()
    expect(ann.locator("#lobby-count")).to_have_text("2 of 8 chairs taken")
    expect(bob.locator("#who")).to_have_text("Bob")

    # In Japanese (the words of all three languages are in the texts: test_assets.py): Yes leaves.
    sheet.locator("#invite-close").tap()
    bob.locator("#lang").select_option("ja")
    open_invite(bob)
    leave.tap()
    ask = bob.get_by_role("dialog", name="このテーブルを離れますか？")
    expect(ask).to_be_visible()
    expect(ask.get_by_role("button", name="いいえ、残る")).to_be_focused()
    ask.get_by_role("button", name="はい、離れる").tap()
    expect(ask).to_be_hidden()
    expect(sheet).to_be_hidden()
    expect(ann.locator("#lobby-count")).to_have_text("1 of 8 chairs taken")
    expect(bob.locator("#join-name")).to_be_visible()  # looking on, asked for a name to play again
    assert browser_dialogs == []


# --- the TV holds: fixed regions, each shrinking its own content ----------------------------------------------

LONG = ["5", "snakes", "7", "1", "spiders", "11", "2", "relic", "3", "mummies", "4", "9", "13", "fire", "14", "5"]
LONG += ["rockfall", "15", "fire"]  # 18 cards on the path, then a second fire: the cave collapses at card 19
SEATED = [
    "Zsófia Kovács-Nagyváradi",
    "Bartholomew Fitzgerald",
    "たかはしさくらこ・ミッドナイト",
    "Erzsébet Szentgyörgyi",
    "Maximilian Oberhauser",
    "さくらこ",
    "Gergely Tóth-Bárány",
    "Christopher Montgomery",
]
QUEUED = ["Kunigunda Pálfi-Horváth", "やまもとゆういちろう"]
TV_SIZES = ((1920, 1080), (1280, 720), (3840, 2160))
FLOOR = {720: 20.0, 1080: 28.0}  # px: the TV's smallest text at 720p and at 1080p (the sofa's floor)

HOLDS = """() => {
  const bad = [];
  const de = document.documentElement;
  if (de.scrollHeight > innerHeight) bad.push(`scrolls: ${de.scrollHeight} > ${innerHeight}`);
  if (de.scrollWidth > innerWidth) bad.push(`scrolls sideways: ${de.scrollWidth} > ${innerWidth}`);
  const qr = [...document.querySelectorAll('#lobby-qr .qr, #corner-qr .qr')].find((q) => q.getClientRects().length);
  if (!qr) bad.push('no join QR code');
  else {
    const r = qr.getBoundingClientRect();
    const off = r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight;
    if (off) bad.push(`the QR code is off: ${r.bottom}`);
    if (r.width < innerHeight * 0.16) bad.push(`the QR code is small: ${r.width}`);
    for (let box = qr.parentElement; box && box !== document.body; box = box.parentElement) {
      const b = box.getBoundingClientRect();
      if (getComputedStyle(box).overflow !== 'visible' && (r.top < b.top - 1 || r.bottom > b.bottom + 1)) {
        bad.push(`the QR code is cut by ${box.className}`);
      }
    }
  }
  // "What happened" and "Lately": whole lines only, at least one of them, none cut by its box
  for (const box of document.querySelectorAll('#results-story:not([hidden]), #tv-news:not([hidden])')) {
    if (!box.getClientRects().length) continue;
    const b = box.getBoundingClientRect();
    const lines = [...box.querySelectorAll('li')].filter((li) => li.getClientRects().length);
    const whole = lines.filter((li) => {
      const r = li.getBoundingClientRect();
      return r.top >= b.top - 1 && r.bottom <= b.bottom + 1 && r.bottom <= innerHeight;
    });
    if (!whole.length) bad.push(`#${box.id}: no line shown whole`);
    for (const li of lines) {
      const r = li.getBoundingClientRect();
      if (!whole.includes(li) && r.top < b.bottom - 1 && r.bottom > b.top) bad.push(`#${box.id}: a line cut`);
    }
  }
  return bad;
}"""


def floor_text(tv: Any) -> list[str]:
    """Texts under the sofa's floor (FLOOR, by the TV's height)."""
    least = FLOOR.get(tv.viewport_size["height"])
    if least is None:
        return []
    return [
        f"{t['size']:.1f}px < {least:.0f}: {t['text']!r} ({t['where']})"
        for t in tv.evaluate(TEXT_SIZES)
        if t["size"] < least - 0.3
    ]


def holds(tv: Any, state: str, problems: list[str], shot: Any, langs: tuple[str, ...] = ("en", "ja", "hu")) -> None:
    """The TV at each size and in each language: no scrolling, the stage and the join QR code whole, the floor."""
    for width, height in TV_SIZES:
        tv.set_viewport_size({"width": width, "height": height})
        for lang in langs if height < 2000 else ("hu",):
            set_lang(tv, lang)
            found = tv.evaluate(HOLDS) + off_stage(tv) + floor_text(tv) + overlaps(tv)
            problems += [f"{state} {height}p [{lang}]: {p}" for p in found]
        if height < 2000:
            shot(tv, f"{PREFIX}hold-{state}-{height}p-{langs[-1]}")
    tv.set_viewport_size({"width": 1920, "height": 1080})


def test_the_tv_holds_at_every_size(server: ServerProcess, browser: Browser, shot: Any) -> None:
    """Eight chairs with long names and two people queueing, a path of 18 cards: the lobby, a decision, the host's
    pause, the collapse's recap and the results (with a story), each at 1920×1080, 1280×720 and 3840×2160 in
    English, Hungarian and Japanese: the TV never scrolls, the join QR code is whole, the text floor holds."""
    code = server.create_table(script=[LONG], options={"caves": 1}, seconds=60, pause=30)
    tv = browser.tv("hold-tv")
    tv.clock.install()
    tv.goto(f"/t/{code}/tv")
    crowd = Crowd(server.ws, CROWD_SOURCES)
    problems: list[str] = []
    try:
        crowd.join(code, *SEATED, *QUEUED)
        expect(tv.locator("#queue li")).to_have_count(2)
        holds(tv, "lobby", problems, shot)
        host = crowd.clients[SEATED[0]]
        crowd.do(lambda _: host.start())
        expect(tv.locator("#game .path li")).to_have_count(1)
        for leaver in SEATED[6:]:  # two leave with what they carry: the story has something to tell
            crowd.run(crowd.clients[leaver].leave())  # (and the two queueing have their chairs for the next game)

        def everyone(names: list[str]) -> None:
            async def go(c: dict[str, Any]) -> None:
                for name in names:
                    await c[name].until(lambda s: bool((s.get("me") or {}).get("moves")))
                    await c[name].choose("deeper")

            crowd.do(go)

        for card in range(2, 19):
            everyone(SEATED[:6])
            expect(tv.locator("#game .path li:not(.earlier)")).to_have_count(card)
        everyone(SEATED[1:6])  # all but the host: the TV waits for her
        expect(tv.locator("#waiting-for")).to_be_visible()
        holds(tv, "deciding", problems, shot)
        crowd.do(lambda c: host.pause())
        expect(tv.locator("#banner")).to_be_visible()
        holds(tv, "paused", problems, shot)
        crowd.do(lambda c: host.resume())
        everyone(SEATED[:1])
        expect(tv.locator("#game .recap")).to_be_visible()
        holds(tv, "recap", problems, shot)
        tv.clock.fast_forward(31_000)
        expect(tv.locator("#results table.scores")).to_be_visible()
        expect(tv.locator("#results-story li")).to_have_count(2)
        holds(tv, "results", problems, shot)
    finally:
        crowd.close()
    assert not problems, "\n".join(problems[:60])


# --- the host's controls keep focus ------------------------------------------------------------------------------

MARK = "() => { document.activeElement.__kept = true; return document.activeElement.textContent; }"
KEPT = "() => Boolean(document.activeElement && document.activeElement.__kept)"
PHASES = """() => {
  window.__phases = [];
  new MutationObserver(() => {
    const now = document.body.dataset.phase;
    if (window.__phases.at(-1) !== now) window.__phases.push(now);
  })
    .observe(document.body, { attributes: true, attributeFilter: ['data-phase'] });
}"""
FOCUSED = "() => (document.activeElement.id || '') + ' ' + document.activeElement.outerHTML.slice(0, 120)"


def test_the_host_s_controls_keep_focus_through_choices_reveals_and_cards(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    """The host reaches Pause with Tab while the others change their minds; focus stays on that same element (the
    page draws the strip once and changes it in place) through choices, reveals (a beat of 1 s) and new cards, and
    through Pause and Resume pressed from the keyboard; in the host's sheet, focus on Manage Bob stays there as cards
    turn under it."""
    cards = ["5", "7", "9", "11", "13", "14", "15", "spiders", "spiders"]
    code = server.create_table(script=[cards], options={"caves": 1}, seconds=60, beat=1)
    ann = browser.phone("keep-ann")
    join(ann, code, "Ann")
    crowd = Crowd(server.ws, CROWD_SOURCES)
    chosen: dict[str, int] = {}

    def choose(move: str, *names: str) -> None:  # each a decision it has not answered yet (by number)
        async def go(c: dict[str, Any]) -> None:
            for name in names:
                state = await c[name].until(
                    lambda s, name=name: (
                        s.get("phase") == "playing"
                        and bool((s.get("me") or {}).get("moves"))
                        and s.get("decision", 0) > chosen.get(name, -1)
                    )
                )
                chosen[name] = state["decision"]
                await c[name].choose(move, state["decision"])

        crowd.do(go)

    def fidget() -> Any:  # Bob and Cy change their minds (8 times, under the server's 10): a state each time
        async def go() -> None:
            for n in range(8):
                await crowd.clients[("Bob", "Cy")[n % 2]].choose(("camp", "camp", "deeper", "deeper")[n % 4])
                await asyncio.sleep(0.1)

        return asyncio.run_coroutine_threadsafe(go(), crowd.loop)

    path = ann.locator("#game .path li")
    try:
        crowd.join(code, "Bob", "Cy")
        ann.evaluate(PHASES)
        ann.locator("#start").tap()
        expect(path).to_have_count(1)
        fidgeting = fidget()
        tab_to(ann, "#strip-pause")  # reached by Tab while the states come
        assert ann.evaluate(MARK) == "Pause"
        ann.wait_for_timeout(400)
        assert ann.evaluate(KEPT), ann.evaluate(FOCUSED)
        fidgeting.result(5)
        for card in (2, 3, 4):  # Ann's choice (a click that moves no focus), the others', the beat, a new card
            ann.evaluate("() => document.querySelector('#move-deeper').click()")
            choose("deeper", "Bob", "Cy")
            expect(path).to_have_count(card)
            assert ann.evaluate(KEPT), (card, ann.evaluate(FOCUSED))
        assert ann.evaluate("() => window.__phases.filter((p) => p === 'reveal').length") == 3
        ann.keyboard.press("Enter")  # Pause, from the keyboard: the same button now resumes
        expect(ann.locator("#resume")).to_be_visible()
        strip_pause = ann.locator("#strip-pause")
        expect(strip_pause).to_have_text("Resume the game")
        shot(ann, "hold-host-strip-paused")
        assert ann.evaluate(KEPT), ann.evaluate(FOCUSED)
        ann.keyboard.press("Enter")
        expect(ann.locator("#resume")).to_be_hidden()
        expect(strip_pause).to_have_text("Pause")
        assert ann.evaluate(KEPT), ann.evaluate(FOCUSED)

        # The sheet: Ann walks out (so the others turn cards without her), opens the host's tools from the keyboard
        # and puts focus on Manage Bob; three cards turn under the open sheet.
        ann.evaluate("() => document.querySelector('#move-camp').click()")
        ann.keyboard.press("Tab")
        expect(ann.locator("#host-strip button").nth(1)).to_be_focused()
        ann.keyboard.press("Enter")
        sheet = ann.locator("#host-sheet")
        expect(sheet).to_be_visible()
        manage = sheet.get_by_role("button", name="Manage Bob")
        for _ in range(6):
            if ann.evaluate("() => document.activeElement.getAttribute('aria-label') === 'Manage Bob'"):
                break
            ann.keyboard.press("Tab")
        expect(manage).to_be_focused()
        shot(ann, "hold-host-sheet-focus")
        ann.evaluate(MARK)
        for card in (5, 6, 7):
            choose("deeper", "Bob", "Cy")
            expect(path).to_have_count(card)
            assert ann.evaluate(KEPT), (card, ann.evaluate(FOCUSED))
        ann.keyboard.press("Enter")  # the kept button still works: Bob's actions
        expect(sheet.get_by_role("heading", name="Bob", exact=True)).to_be_visible()
    finally:
        crowd.close()


# --- Play again in reach -----------------------------------------------------------------------------------------

IN_VIEW = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return { top: Math.round(r.top), bottom: Math.round(r.bottom), height: innerHeight, scrolled: scrollY };
}"""


def test_play_again_is_in_reach_on_a_laptop_and_a_phone(server: ServerProcess, browser: Browser, shot: Any) -> None:
    """The host's results, with four players, a chart and a story: Play again is on screen without scrolling on a
    1366×768 laptop and on a 390×844 phone, in English and Hungarian."""
    code = server.create_table(script=[["5", "7", "spiders", "spiders"]], options={"caves": 1}, seconds=60, pause=1)
    ann = browser.desktop("again-ann")
    ann.set_viewport_size({"width": 1366, "height": 768})
    join(ann, code, "Ann")
    crowd = Crowd(server.ws, CROWD_SOURCES)
    try:
        crowd.join(code, "Bob", "Cy", "Dora")
        ann.locator("#start").tap()
        expect(ann.locator("#move-camp")).to_be_visible()
        dora = crowd.clients.pop("Dora")
        crowd.run(dora.leave())  # a story: Dora left
        crowd.run(dora.close())
        ann.locator("#move-deeper").tap()
        everyone(crowd, "deeper")
        expect(ann.locator("#game .path li")).to_have_count(2)
        ann.locator("#move-camp").tap()
        everyone(crowd, "camp")
        expect(ann.locator("#results-story li").first).to_be_visible(timeout=8000)
        again = ann.locator("#again")
        expect(again).to_be_visible()
        for lang in ("en", "hu"):
            set_lang(ann, lang)
            for width, height in ((1366, 768), (390, 844)):
                ann.set_viewport_size({"width": width, "height": height})
                ann.evaluate("() => window.scrollTo(0, 0)")
                shot(ann, f"hold-again-{width}-{lang}")
                box = ann.evaluate(IN_VIEW, "#again")
                assert box["bottom"] <= box["height"], (width, lang, box)
                toast = ann.evaluate(IN_VIEW, "#toast")  # a notice's toast (Dora left) stays clear of it
                assert toast["bottom"] <= box["top"] or ann.locator("#toast").is_hidden(), (width, lang, toast, box)
        again.tap()  # (Playwright taps only what nothing covers)
        expect(ann.locator("#move-deeper")).to_be_visible()
    finally:
        crowd.close()
