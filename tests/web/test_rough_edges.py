"""The phone's rough edges found in issue 23's rehearsal (§5), one test each: in camp a banner says so; the
time-out line says what was banked, relics included; a stale or mistyped link says the table does not exist
(and offers no QR code for it); a refused name stays at its field until it is changed; the start page's code
field does not show a code as its placeholder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import assert_accessible
from tests.web.conftest import ROOM_HOST, SHOTS, Browser
from tests.web.crowd import Crowd
from tests.web.test_a11y import everyone
from tests.web.test_play import join
from tests.web.test_reconnect import STUBS

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "data", public_url=f"http://{ROOM_HOST}:{{port}}").start()
    try:
        yield proc
    finally:
        proc.stop()


def test_in_camp_a_banner_says_so_and_a_time_out_says_the_relic_too(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table(script=[["relic", "3", "fire", "fire"]], options={"caves": 1}, seconds=3, pause=2)
    ann = browser.phone("edge-ann")
    join(ann, code, "Ann")
    crowd = Crowd(server.ws)
    try:
        crowd.join(code, "Bob")
        ann.locator("#start").tap()
        expect(ann.locator("#move-deeper")).to_be_visible()
        everyone(crowd, "deeper")  # Ann says nothing: the clock walks her out alone, with the relic
        expect(ann.locator(".timed-out")).to_have_text(
            "Time ran out: you went back to camp with 0 gems. And carried out a relic worth 5!", timeout=6000
        )
        expect(ann.locator(".safe-camp")).to_have_text("You're safe in camp with 0 gems and a relic worth 5.")
        expect(ann.locator("#actions")).to_be_hidden()
        shot(ann, "edge-camp-banner")
        assert_accessible(ann, "in camp")
    finally:
        crowd.close()


def test_a_table_that_does_not_exist_says_so_and_offers_another(browser: Browser, shot: Any) -> None:
    page = browser.phone("edge-missing")
    page.goto("/t/ZZZY")
    expect(page.locator("#banner h1")).to_have_text("There is no table ZZZY")
    expect(page.locator("#banner")).to_contain_text("Check the code with the host")
    expect(page.get_by_role("link", name="Join another table or start one")).to_have_attribute("href", "/")
    expect(page.locator("#invite-btn")).to_be_hidden()  # no QR code for a table that does not exist
    expect(page.locator("#join")).to_be_hidden()
    shot(page, "edge-no-table")
    assert_accessible(page, "no such table")


def test_a_refused_name_stays_at_its_field_until_it_is_changed(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table()
    join(browser.phone("edge-host"), code, "Ann")
    page = browser.phone("edge-taken")
    page.goto(f"/t/{code}")
    page.get_by_label("Your name").fill("Ann")
    page.locator("#join-go").tap()
    field = page.locator("#join-name")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#join-error")).to_have_text(
        "Someone at this table already has that name, or one that looks just like it."
    )
    expect(field).to_have_accessible_description(
        "Someone at this table already has that name, or one that looks just like it."
    )
    page.wait_for_timeout(5000)  # the toast is gone by now; the field still says it
    expect(page.locator("#join-error")).to_be_visible()
    assert_accessible(page, "a refused name")
    field.press("End")
    field.type("a")
    expect(field).to_have_attribute("aria-invalid", "false")
    expect(page.locator("#join-error")).to_be_hidden()


def test_the_code_field_s_placeholder_is_not_a_code(browser: Browser) -> None:
    page = browser.phone("edge-start")
    page.goto("/")
    expect(page.locator("#code")).to_have_attribute("placeholder", "4 letters")


FIT = """() => [...document.querySelectorAll('.path .card .cn, .hz .hn, .hz .hs, .newcard .cn')]
  .filter((el) => el.getClientRects().length)
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollWidth > el.parentElement.clientWidth + 1)
  .map((el) => `${el.textContent}: ${el.scrollWidth} px in ${el.parentElement.clientWidth}`)"""


@pytest.mark.parametrize("locale", ["en-GB", "hu-HU", "ja-JP"])
def test_every_hazard_s_name_fits_its_card_and_its_cell(server: ServerProcess, browser: Browser, locale: str) -> None:
    """ "Mummies" (77 px at 14 px bold) and "Kőomlás" no longer run out of the 62 px path card: a phone's path card
    grows to its name; the hazard row's cells hold theirs. All five hazards on the path, at 390 px."""
    code = server.create_table(script=[["snakes", "spiders", "mummies", "fire", "rockfall", "snakes"]], seconds=60)
    page = browser.phone(f"edge-fit-{locale}", locale=locale)
    join(page, code, "Ann", prompt={"en-GB": "Your name", "hu-HU": "A neved", "ja-JP": "あなたの名前"}[locale])
    page.locator("#add-bot").tap()
    expect(page.locator("#start")).to_be_enabled()
    page.locator("#start").tap()
    for cards in (2, 3, 4, 5):
        page.locator("#move-deeper").tap()
        expect(page.locator(".path li")).to_have_count(cards)
    assert page.evaluate(FIT) == []


def test_vibration_is_a_switch_on_the_phone_off_with_reduced_motion(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table(script=[["5", "7", "9", "fire", "fire"]], seconds=60)
    calm = browser.sized("edge-calm", viewport={"width": 390, "height": 844}, reduced_motion="reduce")
    calm.add_init_script(STUBS)
    join(calm, code, "Ann")
    busy = browser.phone("edge-busy", motion=True)
    busy.add_init_script(STUBS)
    join(busy, code, "Bob")
    calm.locator("#start").tap()
    for page in (calm, busy):
        expect(page.locator("#move-deeper")).to_be_visible()
    busy.wait_for_function("() => window.__calls.vibrate.length === 1")  # the first card, on a phone in motion
    assert calm.evaluate("window.__calls.vibrate.length") == 0  # reduced motion: off until switched on
    calm.locator("#invite-btn").tap()
    switch = calm.get_by_role("switch", name="Vibrate for a new card and for my turn")
    expect(switch).not_to_be_checked()
    switch.check()
    calm.locator("#invite-close").tap()
    for page in (calm, busy):
        page.locator("#move-deeper").tap()
    calm.wait_for_function("() => window.__calls.vibrate.length === 1")  # the next card buzzes now
    calm.reload()
    calm.locator("#invite-btn").tap()
    expect(calm.get_by_role("switch", name="Vibrate for a new card and for my turn")).to_be_checked()  # remembered


URL_PARTS = """() => [...document.querySelectorAll('.join-url')]
  .filter((el) => el.getClientRects().length).map((el) => {
  const width = el.getBoundingClientRect().width;
  const parts = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => {
    const range = document.createRange();
    range.selectNodeContents(n);
    return [n.textContent, Math.max(...[...range.getClientRects()].map((r) => r.width))];
  });
  const wide = parts.filter(([, w]) => w > width + 1);
  return {text: el.textContent, breaks: el.querySelectorAll('wbr').length, wide};
})"""


def test_the_join_address_breaks_only_after_a_slash_a_dot_or_a_colon(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table()
    page = browser.sized("edge-url", locale="hu-HU", viewport={"width": 320, "height": 640})
    join(page, code, "Ann", prompt="A neved")
    expect(page.locator("#lobby .join-url")).to_contain_text(f"/t/{code}")
    for url in page.evaluate(URL_PARTS):
        assert url["text"].endswith(f"/t/{code}") and url["breaks"] >= 4, url
        assert url["wide"] == [], url  # every piece between break points fits: no line breaks inside one


DRAW_CHART = """async (series) => {
  const { chart } = await import('/static/js/chart.js');
  if (!document.querySelector('link[href="/static/css/results.css"]')) {
    await new Promise((done) => {
      const link = Object.assign(document.createElement('link'), {rel: 'stylesheet', href: '/static/css/results.css'});
      link.onload = done;
      document.head.append(link);
    });
  }
  const figure = Object.assign(document.createElement('figure'), {className: 'chart', id: 'probe'});
  figure.append(chart(series, {xTitle: 'Cave', title: 'Chest cave by cave'}));
  document.querySelector('main').prepend(figure);
}"""
CROSSED = """() => {
  const out = [];
  const CLEAR = 2;  // units (2.2 px on a phone, 3.4 px on the TV): a label touched is crossed
  const hits = (label, el) => {
    const box = {x: label.x - CLEAR, y: label.y - CLEAR, width: label.width + 2 * CLEAR,
      height: label.height + 2 * CLEAR};
    const w = (parseFloat(getComputedStyle(el).strokeWidth) || 0) / 2;
    if (el.localName === 'polyline' || el.localName === 'line') {  // every half unit along the line
      for (let d = 0, len = el.getTotalLength(); d <= len; d += 0.5) {
        const p = el.getPointAtLength(d);
        const inside = p.x + w > box.x && p.x - w < box.x + box.width
          && p.y + w > box.y && p.y - w < box.y + box.height;
        if (inside) return true;
      }
      return false;
    }
    const s = el.getBBox();
    return s.x - w < box.x + box.width && s.x + s.width + w > box.x && s.y - w < box.y + box.height
      && s.y + s.height + w > box.y;
  };
  for (const svg of document.querySelectorAll('svg.chart-svg')) {
    for (const text of svg.querySelectorAll('text')) {
      const box = text.getBBox();  // the label's whole box: its advance and the font's ascent and descent
      for (const el of svg.querySelectorAll('line, polyline, circle, rect, polygon')) {
        const what = `${el.localName} ${el.getAttribute('class') || ''}`;
        if (hits(box, el)) out.push(`"${text.textContent}" is crossed by ${what}`);
      }
    }
  }
  return out;
}"""
# Eight seats (eight shapes of mark), every line from 0 (each mark beside the 0 label and over the caves' labels).
SERIES = [{"name": f"P{s}", "values": [0, s, 2 * s, s * s, 40 - 5 * s], "seat": s} for s in range(8)]


def test_no_line_crosses_a_label_of_the_results_chart(server: ServerProcess, browser: Browser) -> None:
    """The chart's labels (0 and the other values, the caves, 'Cave') are clear of every line and mark, on a phone
    and on the TV (its larger labels): measured from the SVG's own geometry, and a screenshot of each."""
    code = server.create_table()
    phone, tv = browser.phone("chart-phone"), browser.tv("chart-tv")
    phone.goto(f"/t/{code}")
    tv.goto(f"/t/{code}/tv")
    problems = []
    for where, page in (("phone", phone), ("tv", tv)):
        expect(page.locator("main")).to_be_visible()
        page.evaluate(DRAW_CHART, SERIES)
        expect(page.locator("#probe .chart-svg polyline")).to_have_count(len(SERIES))
        problems += [f"{where}: {p}" for p in page.evaluate(CROSSED)]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#probe .chart-svg").screenshot(path=str(SHOTS / f"edge-chart-{where}.png"))
    assert not problems, "\n".join(problems)
