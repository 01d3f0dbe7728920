"""The pages as a phone in the room sees them: plain HTTP at a LAN name, an insecure context.

Over ``http://`` to a name that is not local the browser has no Wake Lock, no Clipboard API and
no Web Share.  Here the pages are opened at ``http://gemtable.test:PORT`` (see conftest): the join
link, the QR code (read back from a screenshot, as a camera would), the copy fallback, the screen
kept awake by the tiny looping video, a tap made while the phone is reconnecting or cut off (kept, sent with the
number of its decision once the connection is back: it counts while that decision is open, and the phone says
plainly when it did not), and a phone back without a reload told what happened to it while it was gone, in the
second person ("While you were away"), once, never toasted about itself in the third (issue 41).
"""

from __future__ import annotations

import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import ROOM_HOST, Browser
from tests.web.crowd import Crowd
from tests.web.qr_decode import read_qr
from tests.web.test_play import join, tap

pytestmark = pytest.mark.browser

PLAYING = """() => {
  const v = document.querySelector('video.keep-awake');
  return Boolean(v) && !v.paused && !v.ended && v.readyState >= 2 && v.currentTime > 0;
}"""
# What Blink checks before a playing video keeps the screen on (VideoWakeLock): muted, it must be at least
# 75 % on screen and cover at least 20 % of the viewport.  And no loop attribute (WebKit's rule).
SHAPE = """() => {
  const v = document.querySelector('video.keep-awake');
  const r = v.getBoundingClientRect();
  const shown = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0))
    * Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
  return {loop: v.loop, onScreen: shown / (r.width * r.height), ofViewport: shown / (innerWidth * innerHeight),
          tappable: getComputedStyle(v).pointerEvents !== 'none'};
}"""
TOASTS = """addEventListener('DOMContentLoaded', () => {
  window.__toasts = [];
  const el = document.querySelector('#toast');
  new MutationObserver(() => { if (!el.hidden) __toasts.push(el.textContent); })
    .observe(el, { childList: true, characterData: true, subtree: true, attributes: true });
});"""
"""Every toast a page shows, kept in ``window.__toasts`` (a toast lasts seconds: a test asks afterwards)."""


def test_the_room_is_an_insecure_context_and_the_invite_sheet_still_works(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table()
    ann = browser.phone("ann")
    join(ann, code, "Ann")
    link = f"http://{ROOM_HOST}:{server.port}/t/{code}"
    assert ann.url == link
    apis = ann.evaluate(
        "({secure: isSecureContext, wakeLock: 'wakeLock' in navigator, "
        "clipboard: 'clipboard' in navigator, share: 'share' in navigator})"
    )
    assert apis == {"secure": False, "wakeLock": False, "clipboard": False, "share": False}

    # The QR codes, read from the pixels as a camera would, are that link: the lobby's, then the sheet's.
    expect(ann.locator("#lobby-qr .qr")).to_be_visible()
    assert read_qr(ann.locator("#lobby-qr .qr").screenshot()) == [link]
    ann.locator("#invite-btn").tap()
    sheet = ann.locator("#invite")
    expect(sheet.locator(".qr")).to_be_visible()
    expect(sheet.locator("#invite-link")).to_have_value(link)
    expect(ann.locator(".join-url").first).to_have_text(link)
    # No button that silently fails: there is no Web Share here, so no "Share".
    expect(sheet.locator("#invite-share")).to_be_hidden()
    assert read_qr(sheet.locator(".qr").screenshot()) == [link]

    # "Copy the link" copies without the Clipboard API: pasted into a text field, it is the link.
    sheet.locator("#invite-copy").tap()
    expect(ann.locator("#toast")).to_have_text("Link copied")
    expect(sheet.locator("#invite-hold")).to_be_hidden()
    shot(ann, "room-01-invite-insecure")
    sheet.locator("#invite-close").tap()
    ann.evaluate("""() => {
      const field = document.createElement('textarea');
      field.id = 'paste-here';
      document.body.append(field);
      field.focus();
    }""")
    ann.keyboard.press("Control+V")
    expect(ann.locator("#paste-here")).to_have_value(link)


def test_a_copy_that_fails_leaves_the_link_selected_and_says_so(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table()
    bea = browser.phone("bea", locale="hu-HU")
    bea.add_init_script("document.execCommand = () => false;")  # a browser that refuses to copy
    join(bea, code, "Bea", prompt="A neved")
    bea.locator("#invite-btn").tap()
    bea.locator("#invite-copy").tap()
    hold = "A másoláshoz tartsd lenyomva a linket."
    expect(bea.locator("#toast")).to_have_text(hold)
    expect(bea.locator("#invite-hold")).to_have_text(hold)
    selected = bea.evaluate(
        "() => { const f = document.activeElement; return [f.id, f.value.slice(f.selectionStart, f.selectionEnd)]; }"
    )
    assert selected == ["invite-link", f"http://{ROOM_HOST}:{server.port}/t/{code}"]
    shot(bea, "room-02-copy-by-hand-hu")


def test_the_screen_stays_awake_over_plain_http_with_the_looping_video(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table(script=[["5", "fire", "fire"]], options={"caves": 1}, seconds=60, pause=1)
    ann = browser.phone("ann")
    join(ann, code, "Ann")
    bob = browser.phone("bob")
    join(bob, code, "Bob")
    assert not ann.evaluate(PLAYING)  # not in the lobby
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    tv.wait_for_function(PLAYING)  # a TV is never tapped: muted, the video starts by itself
    ann.locator("#start").tap()
    expect(ann.locator("#move-deeper")).to_be_visible()
    tap(ann, "deeper")  # a tap: the video may start now if it had not
    ann.wait_for_function(PLAYING)
    bob.locator("#move-deeper").tap()
    bob.wait_for_function(PLAYING)
    shape = ann.evaluate(SHAPE)
    assert shape["loop"] is False and shape["tappable"] is False, shape
    assert shape["onScreen"] >= 0.75 and shape["ofViewport"] >= 0.2, shape
    # It loops by seeking back (the file is two seconds long): still playing three seconds later.
    ann.wait_for_timeout(3000)
    assert ann.evaluate(PLAYING)
    source = ann.evaluate("document.querySelector('video.keep-awake').currentSrc")
    assert re.fullmatch(rf"http://{ROOM_HOST}:\d+/static/media/keep-awake\.(mp4|webm)", source), source
    # The second fire collapses the only cave: the results, and the video stops.
    for page in (ann, bob):
        tap(page, "deeper")
    expect(ann.locator("#results")).to_be_visible(timeout=10_000)
    ann.wait_for_function("() => document.querySelector('video.keep-awake').paused")


def test_a_tap_while_reconnecting_is_sent_when_the_connection_is_back(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    # No clock, and a gone phone holds the decision for 10 minutes: under the clock, Bob's phone gone for 5 s after
    # the restart (``decisions.GRACE``: a loaded machine) is rightly sent to camp.
    code = server.create_table(script=[["5", "fire", "7", "fire"]], turn_clock=False, absent_grace=600, pause=1)
    ann = browser.phone("ann")
    join(ann, code, "Ann")
    bob = browser.phone("bob")
    join(bob, code, "Bob")
    ann.locator("#start").tap()
    expect(ann.locator("#move-deeper")).to_be_visible()
    server.kill()
    expect(ann.locator("#net")).to_have_text("Connection lost — reconnecting…")
    tap(ann, "deeper")
    expect(ann.locator("#toast")).to_have_text(
        "Offline: your tap is kept and will be sent when the connection is back."
    )
    expect(ann.locator("#move-deeper")).to_have_attribute("aria-pressed", "true")
    shot(ann, "room-03-tap-kept")
    server.start()
    expect(ann.locator("#net")).to_be_hidden(timeout=20_000)
    expect(bob.locator("#net")).to_be_hidden(timeout=20_000)
    # Bob sees that Ann has chosen: the kept tap reached the server.
    expect(bob.locator("main")).to_contain_text("has chosen")
    tap(bob, "deeper")
    expect(ann.locator("main")).to_contain_text("Everyone went deeper.")
    expect(bob.locator("main")).to_contain_text("Everyone went deeper.")


def test_a_tap_made_while_cut_off_for_five_seconds_counts_while_its_decision_is_open(
    server: ServerProcess, browser: Browser
) -> None:
    code = server.create_table(script=[["5", "7", "9"]], seconds=60)
    crowd = Crowd(server.ws)
    try:
        crowd.join(code, "Bob")  # the host: a phone of the Python client
        ann = browser.phone("ann")
        ann.add_init_script(TOASTS)
        join(ann, code, "Ann")
        crowd.do(lambda c: c["Bob"].start())
        expect(ann.locator("#move-deeper")).to_be_visible()
        # Cut off for about five seconds, Ann taps Deeper: the tap is kept and sent once she is back; Bob has not
        # chosen, so the decision is still open and it counts: Bob's choice then makes the reveal.
        ann.context.set_offline(True)
        expect(ann.locator("#net")).to_have_text("Connection lost — reconnecting…")
        tap(ann, "deeper")
        expect(ann.locator("#toast")).to_have_text(
            "Offline: your tap is kept and will be sent when the connection is back."
        )
        ann.wait_for_timeout(4500)
        ann.context.set_offline(False)
        expect(ann.locator("#net")).to_be_hidden()
        crowd.do(lambda c: c["Bob"].until(lambda s: any(p["chosen"] for p in s["people"] if p["name"] == "Ann")))
        crowd.do(lambda c: c["Bob"].choose("deeper"))
        expect(ann.locator("main")).to_contain_text("Everyone went deeper.")
        # The server saw her gone for five seconds, but nothing happened to her: nothing to tell, nothing toasted.
        expect(ann.locator("#banner")).to_be_hidden()
        toasts = ann.evaluate("window.__toasts")
        assert not [line for line in toasts if "Ann" in line or "did not count" in line], toasts
    finally:
        crowd.close()


def test_a_tap_while_offline_says_it_did_not_count_when_the_decision_is_over(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table(script=[["5", "fire", "7", "fire"]], seconds=4, pause=30)
    ann = browser.phone("ann", locale="ja-JP")
    ann.add_init_script(TOASTS)
    join(ann, code, "Ann", prompt="あなたの名前")
    bob = browser.phone("bob")
    join(bob, code, "Bob")
    ann.locator("#start").tap()
    expect(ann.locator("#move-deeper")).to_be_visible()
    tap(bob, "deeper")
    ann.context.set_offline(True)
    expect(ann.locator("#net")).to_be_visible()
    tap(ann, "deeper")
    expect(ann.locator("#toast")).to_have_text("オフラインです：タップは保存され、接続が戻ったら送信されます。")
    # The deadline passes while Ann is offline: she walks out, and the next card is drawn.
    expect(bob.locator("main")).to_contain_text("Ann walked out", timeout=10_000)
    ann.context.set_offline(False)
    expect(ann.locator("#toast")).to_have_text(
        "オフライン中のタップは無効でした：その判断はもう終わっています。", timeout=20_000
    )
    expect(ann.locator("#net")).to_be_hidden()
    # Back without a reload, her phone tells her what happened to her, in the second person, and never toasts it in
    # the third ("Phone offline: Ann went back to camp", as Bob's does).
    banner = ann.locator("#banner")
    expect(banner).to_contain_text("離れている間に")
    expect(banner).to_contain_text("スマホがオフラインの間、第1洞窟でキャンプに戻されました。")
    shot(ann, "room-04-tap-did-not-count-ja")
    toasts = ann.evaluate("window.__toasts")
    assert not [line for line in toasts if "Ann" in line], toasts
    # Once: OK puts it away, and a reload does not tell it again.
    banner.get_by_role("button", name="OK").tap()
    expect(banner).to_be_hidden()
    ann.reload()
    expect(ann.locator("#who")).to_have_text("Ann")
    ann.wait_for_timeout(300)
    expect(banner).to_be_hidden()


def test_the_keep_awake_videos_are_served_in_ranges(server: ServerProcess) -> None:
    """Safari fetches a video in byte ranges and plays none that is not served so."""
    for name, kind in (("keep-awake.mp4", "video/mp4"), ("keep-awake.webm", "video/webm")):
        req = urllib.request.Request(f"{server.base}/static/media/{name}", headers={"Range": "bytes=0-99"})
        with urllib.request.urlopen(req, timeout=10) as r:
            assert r.status == 206, name
            assert r.headers.get_content_type() == kind
            assert r.headers["content-range"].startswith("bytes 0-99/")
            assert len(r.read()) == 100
