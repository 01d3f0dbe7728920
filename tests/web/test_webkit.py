"""The important flows in WebKit, the engine of every browser on an iPhone, over plain HTTP at a LAN name.

Debian's WebKitGTK (MiniBrowser) through WebKitWebDriver and Selenium, under an Xvfb display of its own,
each person a browser of their own (see tests/web/webkit.py).  Joining by link with the invite sheet,
a whole expedition cave by tapping with a reload in the middle and the TV watching (opened through /tv with the
keyboard only; at a reveal's beat and at the recap, what it says and its text sizes), a Booty Hunter
turn (rotate, pick a spot, place), the host's Pause reached and kept with the keyboard alone, and the TV at
1280×720 with eight long names in a paused decision; and issue 41's screens: a tap while reconnecting, a phone
cut off and back ("While you were away"), extra time, a bot mid-game and a switch of game, the start's countdown,
a pause, a ban and a removal, the ready check, the last call, looks kept across games, the silent hold, and the
night kept (the result card and the record on the results page, the night's games); issue 42's replay stepped by
keyboard, and its audience (a watcher predicts and sees the score).
axe-core and the hand checks at their moments, in English, Hungarian and Japanese in turn (``accessible``).
Screenshots go beside Chromium's as artifacts/screenshots/webkit-*.png.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.keys import Keys

from tests.server.harness import ServerProcess
from tests.server.test_night_kept import HOSTILE, play_short_game
from tests.server.test_replay_page import play_booty
from tests.web.a11y import check_page, webdriver_run
from tests.web.conftest import ROOM_HOST, SHOTS, room_base
from tests.web.crowd import Crowd
from tests.web.qr_decode import read_qr
from tests.web.room_proxy import RoomProxy
from tests.web.test_booty import BAG, booty_table
from tests.web.test_hold import FLOOR, FOCUSED, HOLDS, KEPT, MARK, PHASES, SEATED
from tests.web.test_stage import OFF_STAGE, STAGE, TEXT_SIZES
from tests.web.test_switch import SCRIPT as TWO_CAVES
from tests.web.test_switch import start_playing_along
from tests.web.webkit import Page, WebKit, Xvfb

pytestmark = pytest.mark.webkit

PLAYING = """const v = document.querySelector('video.keep-awake');
  return Boolean(v) && !v.paused && !v.ended && v.readyState >= 2 && v.currentTime > 0;"""
# What WebKit checks before a playing video keeps the screen on (HTMLMediaElement::shouldDisableSleep):
# no loop attribute, and it can be heard: not muted, a volume, a sound track (ours is silent).
AUDIBLE = """const v = document.querySelector('video.keep-awake');
  return {loop: v.loop, muted: v.muted, volume: v.volume,
          sound: v.audioTracks ? v.audioTracks.length : (v.webkitAudioDecodedByteCount || 0)};"""


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    xvfb = Xvfb()
    try:
        yield xvfb.display
    finally:
        xvfb.stop()


@pytest.fixture(scope="module")
def proxy() -> Iterator[RoomProxy]:
    p = RoomProxy(ROOM_HOST).start()
    try:
        yield p
    finally:
        p.close()


@pytest.fixture
def webkit(display: str, proxy: RoomProxy, server: ServerProcess) -> Iterator[WebKit]:
    """The MiniBrowsers of one test; at the end, no page may have thrown or broken the CSP."""
    with tempfile.TemporaryDirectory(prefix="webkit-logs-") as logs:
        wk = WebKit(display, proxy, room_base(server), Path(logs))
        try:
            yield wk
            problems = wk.problems()
            assert not problems, "\n".join(problems)
            assert not proxy.refused, proxy.refused  # nothing but the test server was asked for
        finally:
            wk.close_all()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.js("return new Promise((done) => requestAnimationFrame(() => setTimeout(done, 150)))")
    (SHOTS / f"webkit-{name}.png").write_bytes(page.png())


def set_lang(page: Page, lang: str) -> None:
    """Switch the page's language with its own switch (as a person does), and wait until it is shown."""
    page.js(
        "const s = document.querySelector('#lang');"
        "if (s.value !== arguments[0]) { s.value = arguments[0]; s.dispatchEvent(new Event('change')); }",
        lang,
    )
    page.until(lambda: page.js("return document.documentElement.lang") == lang, f"the page in {lang}")


def accessible(page: Page, where: str, phone: bool = True, langs: tuple[str, ...] = ("en",)) -> None:
    """axe-core and the hand checks of a11y.py, in WebKit, in each of ``langs`` (switched to and back to English,
    which the rest of each test reads).  Each flow's moments rotate through English, Hungarian and Japanese, one
    language a moment: an axe run in WebKit costs about a second, and what the engine can get wrong (layout,
    names, sizes) shows in any language, while Hungarian's long words and Japanese's script are where it would
    show first; Chromium runs every moment in all three (test_a11y.py)."""
    problems = []
    for lang in langs:
        set_lang(page, lang)
        problems += check_page(webdriver_run(page.driver), f"webkit {where} [{lang}]", phone)
    set_lang(page, "en")
    assert not problems, "\n".join(problems)


def qr_text(page: Page, css: str) -> list[str]:
    """The QR code of the element, read from WebKit's own screenshot of the page.

    (Not WebKitGTK's screenshot of the element alone: that one comes out black for an image.)"""
    page.until(
        lambda: page.js("const i = document.querySelector(arguments[0]); return i.complete && i.naturalWidth > 0", css),
        f"{css} to be loaded",
    )
    page.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", css)
    where: list[int] = []

    # Read as a camera does, frame after frame: a screenshot can come before the image is painted, and the
    # page may still be laying itself out (a TV refits its stage as people arrive), so each frame is read
    # where the code is at that moment.
    def read() -> list[str]:
        where[:] = page.js(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect(); "
            "return [r.left, r.top, r.width, r.height].map(Math.round)",
            css,
        )
        left, top, width, height = where
        margin = 16  # the quiet zone a camera needs around the code
        png = page.png()
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / f"webkit-qr-read-{page.label}.png").write_bytes(png)  # the last frame read, to look at
        return read_qr(png, (left - margin, top - margin, width + 2 * margin, height + 2 * margin))

    # (The wait is a ceiling for a page that never shows it, not a measure: each try takes a screenshot.)
    return page.until(read, f"the QR code in {css} to read", 20)


# The TV's moments, caught by the page itself as they come (a beat is 2 s: no polling from here could be sure to
# see it): at each reveal (the beat before the next card) and at the recap, once the stage has refitted, what it
# says, how many cards the path shows and every text drawn smaller than issue 22's §1 allows at this window's
# height (24 px, 36 px for names, statuses and the clock at 1080 px; in proportion below), as test_stage measures.
MOMENTS = (
    """const sizes = ("""
    + TEXT_SIZES
    + """);
window.__gtMoments = [];
let inReveal = false, inRecap = false;
// What the moment says is read when it appears (a loaded machine may be past it 300 ms later); its type sizes
// once it is laid out.
const take = (what) => {
  const moment = { what, phase: document.body.dataset.phase, text: document.querySelector('#main').innerText,
    cards: document.querySelectorAll('#game .path li').length };
  requestAnimationFrame(() => setTimeout(() => {
    const scale = innerHeight / 1080;
    const small = sizes().filter((x) => x.size < (x.large ? 36 : 24) * scale - 0.3)
      .map((x) => `${x.size.toFixed(1)}px ${x.text} (${x.where})`);
    __gtMoments.push({ ...moment, least: Math.min(...sizes().map((x) => x.size)), small, height: innerHeight,
      width: innerWidth });
  }, 300));
};
const look = () => {
  const reveal = document.body.dataset.phase === 'reveal', recap = Boolean(document.querySelector('#game .recap'));
  if (reveal && !inReveal) take('reveal');
  if (recap && !inRecap) take('recap');
  inReveal = reveal;
  inRecap = recap;
};
new MutationObserver(look).observe(document.body, { attributes: true, childList: true, subtree: true });
look();"""
)


def join(page: Page, code: str, name: str) -> None:
    page.goto(f"/t/{code}")
    page.wait_visible("#join-name")
    page.fill("#join-name", name)
    page.tap("#join-go")
    page.until(lambda: page.text("#who") == name, f"#who to be {name}")


def test_joining_by_link_and_the_invite_sheet_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    code = server.create_table()
    link = f"http://{ROOM_HOST}:{server.port}/t/{code}"
    ann = webkit.phone("ann")
    ann.goto(f"/t/{code}")
    ann.wait_visible("#join-name")
    shot(ann, "phone-01-name-prompt")
    accessible(ann, "name prompt")
    join(ann, code, "Ann")
    assert ann.driver.current_url == link
    apis = ann.js(
        "return {secure: isSecureContext, wakeLock: 'wakeLock' in navigator, "
        "clipboard: 'clipboard' in navigator, share: 'share' in navigator}"
    )
    assert apis["secure"] is False
    assert apis["wakeLock"] is False
    ann.wait_text("#lobby-count", "1 of 8 chairs taken")
    ann.wait_visible("#start")
    # The lobby's QR code, read from WebKit's pixels, is the link.
    ann.wait_visible("#lobby-qr .qr")
    assert qr_text(ann, "#lobby-qr .qr") == [link]
    shot(ann, "phone-02-lobby-host")
    accessible(ann, "lobby (host)", langs=("hu", "ja"))

    ann.tap("#invite-btn")
    ann.wait_visible("#invite .qr")
    assert ann.find("#invite-link").get_attribute("value") == link
    assert not ann.visible("#invite-share"), "a Share button that cannot share"
    assert qr_text(ann, "#invite .qr") == [link]
    ann.tap("#invite-copy")
    ann.wait_text("#toast", "Link copied")
    shot(ann, "phone-13-invite")
    ann.tap("#invite-close")
    ann.wait_hidden("#invite")
    # What was copied is the link: pasted into a text field.
    ann.js("""const f = document.createElement('textarea'); f.id = 'paste-here';
      document.querySelector('main').prepend(f); f.focus();""")
    ann.find("#paste-here").send_keys(Keys.CONTROL, "v")
    ann.until(lambda: ann.find("#paste-here").get_attribute("value") == link, "the pasted link")

    # A second person, a browser of their own, joins by the same link.
    bob = webkit.phone("bob")
    join(bob, code, "Bob")
    ann.wait_text("#lobby-count", "2 of 8 chairs taken")
    bob.wait_text("#lobby-wait", "Waiting for Ann to start the game.")


def test_a_whole_cave_by_tapping_with_a_reload_and_the_tv_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    code = server.create_table(
        script=[["5", "spiders", "7", "spiders"]], options={"caves": 1}, seconds=60, pause=2, beat=2
    )
    ann = webkit.phone("ann")
    join(ann, code, "Ann")
    bob = webkit.phone("bob")
    join(bob, code, "Bob")
    # The TV opens the table through /tv with the keyboard only, as with a remote: the field has the focus.
    tv = webkit.tv()
    tv.goto("/tv")
    tv.wait_text("h1", "Show a table on this TV")
    tv.until(lambda: tv.js("return document.activeElement.id") == "pair-table", "the code field to have the focus")
    # Its pairing digits come from the server (a request after the page loads): wait for them.
    tv.until(
        lambda: tv.js("return /^\\d \\d \\d \\d$/.test(document.querySelector('#pair-digits').textContent)"),
        "the pairing digits to show",
    )
    small = tv.js("const s = (" + TEXT_SIZES + ")(); return s.filter((x) => x.size < 24 * innerHeight / 1080 - 0.3)")
    assert not small, small
    shot(tv, "tv-00-pair")
    tv.keys(Keys.ARROW_DOWN)
    tv.until(lambda: tv.js("return document.activeElement.id") == "pair-open", "Open to have the focus")
    tv.keys(Keys.ARROW_UP)
    tv.until(lambda: tv.js("return document.activeElement.id") == "pair-table", "the field to have the focus again")
    tv.navigates(lambda: tv.keys(code.lower(), Keys.ENTER), f"/t/{code}/tv")
    tv.wait_text(".tv-code .table-code", code)
    tv.js(MOMENTS)
    tv.wait_text("main", "Bob")
    tv.wait_visible("#lobby-qr .qr")
    assert qr_text(tv, "#lobby-qr .qr") == [f"http://{ROOM_HOST}:{server.port}/t/{code}"]
    shot(tv, "tv-01-lobby")
    # Nobody taps a TV: its keep-awake video, muted, starts by itself.
    tv.until(lambda: tv.js(PLAYING), "the TV's keep-awake video to play")

    ann.tap("#start")
    for page in (ann, bob, tv):
        page.wait_text("main", "Cave 1 of 1")
    ann.wait_visible("#move-deeper")
    ann.tap("#move-deeper")
    ann.until(lambda: ann.find("#move-deeper").get_attribute("aria-pressed") == "true", "Deeper pressed")
    ann.wait_text(".choice-note", "Your choice: Deeper")
    # The screen is kept awake over plain HTTP: the tap started the looping video.
    ann.until(lambda: ann.js(PLAYING), "the keep-awake video to play")
    audible = ann.js(AUDIBLE)
    assert audible["loop"] is False and audible["muted"] is False and audible["volume"] > 0, audible
    assert audible["sound"] > 0, audible
    # Past the file's end it loops by seeking back: once it has been playing for longer than the file (3 s), it
    # is playing again (looked at until it is: a single look can land in the instant between its end and the seek).
    began = time.monotonic()
    ann.until(lambda: time.monotonic() - began > 3 and ann.js(PLAYING), "the video to play on past its end", 20)
    shot(ann, "phone-03-chosen")
    accessible(ann, "chosen", langs=("hu",))
    # Bob reloads in the middle of the decision: same seat, same cave.
    bob.wait_text("main", "has chosen")
    bob.reload()
    bob.until(lambda: bob.text("#who") == "Bob", "Bob's seat after the reload")
    bob.wait_visible("#move-deeper")
    assert not bob.visible("#join")
    bob.tap("#move-deeper")
    for page in (ann, bob, tv):
        page.wait_text("main", "Everyone went deeper.")
        page.wait_text("main", "Another Spiders collapses the cave!")
    shot(bob, "phone-04-hazard")
    accessible(bob, "a hazard", langs=("ja",))
    shot(tv, "tv-03-cave")
    accessible(tv, "TV in a cave", phone=False, langs=("hu",))

    ann.tap("#move-camp")
    bob.tap("#move-deeper")
    for page in (ann, bob):
        page.wait_text("main", "Ann walked out: banked 2 gems + 1 gem from the path.")
    # The TV at that reveal's beat: Ann's walk-out shown, the next card not yet turned, in the sofa's type.
    reveals = tv.until(lambda: [m for m in tv.js("return __gtMoments") if m["what"] == "reveal"][1:], "the 2nd beat")
    assert reveals[0]["phase"] == "reveal", reveals[0]
    assert "Ann walked out: banked 2 gems + 1 gem from the path." in reveals[0]["text"], reveals[0]["text"]
    assert reveals[0]["cards"] == 2, reveals[0]  # 5 and the spiders: the 7 waits for the beat's end
    assert not reveals[0]["small"], reveals[0]
    ann.wait_hidden("#actions")
    bob.tap("#move-deeper")
    for page in (ann, bob, tv):
        page.wait_text("main", "Ann wins!", timeout=15)
    # Before the results, for the pause, the TV showed the recap of the cave: who took home what, in large type.
    recap = next((m for m in tv.js("return __gtMoments") if m["what"] == "recap"), None)
    assert recap, tv.js("return __gtMoments")
    assert "Cave 1: what everyone took home" in recap["text"], recap["text"]
    assert "took home" in recap["text"].split("Cave 1: what everyone took home")[1], recap["text"]
    assert not recap["small"], recap
    ann.wait_visible("#again")
    ann.until(lambda: ann.count("table.scores tbody tr") == 2, "two rows of scores")
    # The awards under the standings (games/expedition/hindsight.py): three, as nothing was left on the path.
    ann.until(lambda: ann.count("#results .awards li") == 3, "the awards")
    awards = ann.text("#results .awards")
    assert "Boldest walk-out: Ann, 3 gems out of cave 1" in awards and "Unluckiest: Bob, 9 gems lost" in awards, awards
    # It looped by seeking back (the file is two seconds long) all along, and stops after the game.
    state = "const v = document.querySelector('video.keep-awake'); return [document.body.dataset.phase, v.paused]"
    ann.until(lambda: not ann.js(PLAYING), f"the keep-awake video to stop after the game (then: {ann.js(state)})")
    shot(ann, "phone-08-results")
    accessible(ann, "results")
    shot(tv, "tv-05-results")


def test_a_booty_hunter_turn_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    code = booty_table(server, script=BAG, seconds=60)
    sam = webkit.phone("sam")
    join(sam, code, "Sam")
    for n in (2, 3):  # one bot, then the other, as a thumb does
        sam.tap("#add-bot")
        sam.wait_text("#lobby-count", f"{n} of 3 chairs taken")
    shot(sam, "booty-phone-01-lobby")
    sam.tap("#start")
    sam.wait_text(".bh-turn", "Your turn")
    sam.wait_text(".bh-round", "Round 1 of 12 · 0 tiles placed · 9 tiles in the bag")
    sam.until(lambda: sam.count(".bh-spot") == 1, "one spot for the first tile")
    shot(sam, "booty-phone-02-my-turn")
    accessible(sam, "Booty Hunter, my turn", langs=("hu",))
    # Rotate (the first tile fits its one spot any way round), pick the spot, change nothing, place it.
    label = "return document.querySelector('.bh-mine svg').getAttribute('aria-label')"
    before = sam.js(label)
    sam.tap(".bh-rotate")
    sam.until(lambda: sam.js(label) != before, "the drawn tile to turn")
    sam.until(lambda: sam.count(".bh-spot") == 1, "the spot after turning")
    sam.find(".bh-spot").click()
    sam.wait_text(".bh-note", "Place it here?")
    sam.until(lambda: sam.count(".bh-board .bh-ghost") == 1, "the tile shown on the spot")
    sam.until(lambda: sam.find(".bh-place").is_enabled(), "Place to be enabled")
    shot(sam, "booty-phone-04-spot-chosen")
    accessible(sam, "Booty Hunter, a spot chosen", langs=("ja",))
    sam.tap(".bh-place")
    # The bots answer (one tile is set aside as fitting nowhere); it is Sam's turn again.
    sam.wait_text(".bh-placed", "tiles placed", timeout=15)
    sam.until(lambda: sam.text(".bh-placed") in ("2 tiles placed", "3 tiles placed"), "the bots' tiles", 15)
    sam.wait_text(".bh-turn", "Your turn", timeout=15)
    shot(sam, "booty-phone-05-round-2")


def test_a_tap_while_reconnecting_is_kept_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    """An iPhone whose connection dropped (the server is killed here): the tap is kept and sent when back."""
    # No clock, and a gone phone holds the decision for 10 minutes: under the clock, Bob's phone gone for 5 s after
    # the restart (``decisions.GRACE``: a loaded machine, WebKit's reconnect backoff) is rightly sent to camp.
    code = server.create_table(script=[["5", "fire", "7", "fire"]], turn_clock=False, absent_grace=600, pause=1)
    ann = webkit.phone("ann")
    join(ann, code, "Ann")
    bob = webkit.phone("bob")
    join(bob, code, "Bob")
    ann.tap("#start")
    ann.wait_visible("#move-deeper")
    bob.wait_visible("#move-deeper")
    server.kill()
    ann.wait_text("#net", "Connection lost — reconnecting…")
    ann.tap("#move-deeper")
    ann.wait_text("#toast", "Offline: your tap is kept and will be sent when the connection is back.")
    ann.until(lambda: ann.find("#move-deeper").get_attribute("aria-pressed") == "true", "Deeper shown as chosen")
    shot(ann, "room-03-tap-kept")
    server.start()
    ann.wait_hidden("#net", timeout=20)
    bob.wait_hidden("#net", timeout=20)
    bob.wait_text("main", "has chosen", timeout=10)
    bob.tap("#move-deeper")
    for page in (ann, bob):
        page.wait_text("main", "Everyone went deeper.")


def test_the_host_gives_one_player_more_time_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    """Per-person extra time (issue 41) in WebKit: in Bob's sheet the host picks "No clock" with the keyboard (the
    sheet redrawn in place, the focus kept); Bob's phone alone says so; at the table's clock Ann's phone says the
    time is up while Bob's, with no clock, waits for him; his choice reveals."""
    code = server.create_table(script=[["1"] * 30], options={"caves": 1}, seconds=2)
    ann = webkit.phone("ann")
    join(ann, code, "Ann")
    bob = webkit.phone("bob")
    join(bob, code, "Bob")
    ann.tap('#lobby button[aria-label="Manage Bob"]')
    ann.wait_visible("#more-0")
    assert ann.find("#more-1").get_attribute("aria-pressed") == "true"
    ann.js("document.querySelector('#more-0').focus()")
    ann.keys(Keys.ENTER)
    ann.until(lambda: ann.find("#more-0").get_attribute("aria-pressed") == "true", "No clock to be pressed")
    assert ann.js("return document.activeElement.id") == "more-0"  # the same button, redrawn in place
    bob.wait_text("#more-time", "The host gave you all the time you need: no clock for you.")
    accessible(ann, "more time in the host's sheet", langs=("hu",))
    shot(ann, "host-more-time")
    tap_text(ann, "#host-sheet button", "Close")
    ann.tap("#start")
    bob.wait_text("#clock-label", "No clock for you: take your time")
    ann.wait_text("#clock-label", "Time is up: waiting for the last choice", timeout=15)
    ann.wait_hidden("#move-deeper")  # Ann's silence is locked: no move to make
    shot(bob, "phone-more-time")
    accessible(bob, "a decision on a player's own clock", langs=("ja",))
    bob.tap("#move-deeper")
    ann.wait_text("main", "Bob went deeper")


TOASTS = """window.__toasts = [];
const el = document.querySelector('#toast');
new MutationObserver(() => { if (!el.hidden) __toasts.push(el.textContent); })
  .observe(el, { childList: true, characterData: true, subtree: true, attributes: true });"""


def test_a_phone_cut_off_and_back_in_webkit(server: ServerProcess, webkit: WebKit, proxy: RoomProxy) -> None:
    """An iPhone cut off (the room's proxy drops its connections and refuses new ones: no `online` event, as when
    the Wi-Fi goes): a tap made meanwhile is sent once it is back and counts while its decision is open; past the
    grace the reveal walks it out, the tap did not count, and back without a reload the phone says "While you were
    away" what happened to it, in the second person, never toasting it in the third (issue 41)."""
    # The clock off: a gone phone holds a reveal up for the absence grace (1 s here; 5 s under a clock).
    code = server.create_table(script=[["5", "7", "9", "11", "13", "14"]], turn_clock=False, absent_grace=1)
    crowd = Crowd(server.ws)
    try:
        crowd.join(code, "Bob")  # the host: a phone of the Python client, not behind the proxy
        ann = webkit.phone("ann")
        join(ann, code, "Ann")
        ann.js(TOASTS)
        crowd.do(lambda c: c["Bob"].start())
        ann.wait_visible("#move-deeper")
        proxy.cut()
        ann.wait_text("#net", "Connection lost — reconnecting…")
        ann.tap("#move-deeper")
        ann.wait_text("#toast", "Offline: your tap is kept and will be sent when the connection is back.")
        time.sleep(2)
        proxy.mend()
        ann.wait_hidden("#net")
        crowd.do(lambda c: c["Bob"].until(lambda s: any(p["chosen"] for p in s["people"] if p["name"] == "Ann")))
        crowd.do(lambda c: c["Bob"].choose("deeper"))
        ann.wait_text("main", "Everyone went deeper.")

        proxy.cut()
        ann.wait_text("#net", "Connection lost — reconnecting…")
        crowd.do(lambda c: c["Bob"].choose("deeper"))
        ann.tap("#move-deeper")
        crowd.do(lambda c: c["Bob"].until(lambda s: any(n["kind"] == "timed_out" for n in s["news"])))
        proxy.mend()
        ann.wait_text("#banner", "While you were away")
        ann.wait_text("#banner", "You were sent to camp in cave 1 while your phone was offline.")
        ann.wait_text("#toast", "Your tap while offline did not count: that decision is over.")
        shot(ann, "phone-back-while-away")
        toasts = ann.js("return window.__toasts")
        assert not [line for line in toasts if "Ann" in line], toasts
    finally:
        crowd.close()


def tap_text(page: Page, css: str, text: str) -> None:
    """Tap the element matching ``css`` whose text is ``text`` (a button named by what it says)."""
    page.until(
        lambda: page.js(
            "return [...document.querySelectorAll(arguments[0])].some((e) => e.textContent.trim() === arguments[1]"
            " && e.getClientRects().length > 0)",
            css,
            text,
        ),
        f"{css} saying {text!r}",
    )
    page.js(
        "[...document.querySelectorAll(arguments[0])].find((e) => e.textContent.trim() === arguments[1]).click()",
        css,
        text,
    )


def test_a_bot_mid_game_and_a_switch_to_booty_hunter_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    """Issue 41 in WebKit (test_switch.py in Chromium): the host adds a bot to an empty chair during a cave, and it
    plays in the next one; at the results the host switches the table to Booty Hunter, the TV follows without a
    reload, the fourth person watches, and Ann places a tile."""
    code = server.create_table(script=TWO_CAVES, options={"caves": 2}, seconds=60, pause=1)
    ann = webkit.phone("ann")
    join(ann, code, "Ann")
    crowd = Crowd(server.ws)
    players: list[Any] = []
    try:
        crowd.join(code, "Bob", "Cy", "Dee")
        tv = webkit.tv()
        tv.goto(f"/t/{code}/tv")
        tv.wait_text("#lobby-count", "4 of 8 chairs taken")
        players = start_playing_along(crowd, "Bob", "Cy", "Dee")
        ann.tap("#start")
        ann.wait_visible("#move-camp")
        tap_text(ann, "#host-strip button", "Host controls")
        ann.wait_text("#sheet-bot-hint", "It walks in at the next cave.")
        ann.tap("#sheet-add-bot")
        ann.wait_text("#host-sheet .host-people", "Ada")
        tv.wait_text("#tv-next", "Walking in at the next cave: Ada")
        shot(ann, "switch-phone-bot-mid-game")
        accessible(ann, "the host's tools in a game", langs=("hu",))
        tap_text(ann, "#host-sheet button", "Close")
        ann.tap("#move-camp")
        tv.wait_text("#game", "Cave 2 of 2")
        tv.wait_text("#game", "Ada")
        ann.tap("#move-camp")
        tv.wait_text("#game .reveal", "Ada")
        ann.wait_visible("#results", timeout=20)
        for page in (ann, tv):
            page.js("window.__sameDocument = true")
        tap_text(ann, "#results-host button", "Change the settings")
        ann.wait_visible("#set-seconds")
        ann.js("const s = document.querySelector('#set-game'); s.value = 'booty'; s.dispatchEvent(new Event('change'))")
        ann.wait_text("#set-game-hint", "Booty Hunter has 3 chairs: Dee will watch.")
        shot(ann, "switch-phone-settings")
        accessible(ann, "the settings sheet, switching", langs=("ja",))
        tap_text(ann, "#host-sheet button", "Switch to Booty Hunter")
        for page in (ann, tv):
            page.wait_text("#lobby-game", "Booty Hunter")
            page.wait_text("#lobby-count", "3 of 3 chairs taken")
            assert page.js("return window.__sameDocument === true"), page.label
        tv.wait_text("#queue", "Dee")
        ann.tap("#start")
        ann.wait_text(".bh-turn", "Your turn", timeout=15)  # (Bob and Cy place theirs when it is their turn)
        for _ in range(4):  # turned until it fits somewhere
            if ann.count(".bh-spot"):
                break
            ann.tap(".bh-rotate")
        ann.find(".bh-spot").click()
        ann.until(lambda: ann.find(".bh-place").is_enabled(), "Place to be enabled")
        placed = ann.text(".bh-placed")
        ann.tap(".bh-place")
        tv.until(lambda: tv.text(".bh-placed") not in (placed, "0 tiles placed"), "Ann's tile on the TV")
        assert tv.js("return document.querySelector('#tv-hazards').childElementCount") == 0
        shot(tv, "switch-tv-booty-game")
    finally:
        for player in players:
            player.cancel()
        crowd.close()


def test_the_host_counts_down_pauses_and_removes_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    """The host's night in WebKit: the start's countdown on the other phones, a pause on every screen and its
    resume, a player removed and banned (told, and shown nothing of the table) and another removed (told, and
    looking on), neither keeping a move or a clock while the game goes on — with the TV watching."""
    code = server.create_table(script=[["5", "7", "9", "11", "13", "snakes", "snakes"]], seconds=60, countdown=4)
    ann = webkit.phone("ann")
    join(ann, code, "Ann")
    bob = webkit.phone("bob")
    join(bob, code, "Bob")
    cy = webkit.phone("cy")
    join(cy, code, "Cy")
    tv = webkit.tv()
    tv.goto(f"/t/{code}/tv")
    tv.wait_text("#people", "Cy")
    ann.tap("#start")
    bob.wait_text("#clock-label", "The game starts in")
    bob.wait_text("#banner", "Ann is starting the game.")
    tv.wait_text("#banner", "The game starts in")
    shot(bob, "host-countdown")
    bob.wait_visible("#move-deeper", timeout=10)
    tap_text(ann, "#host-strip button", "Pause")
    bob.wait_text("#banner", "Paused by Ann")
    tv.wait_text("#banner", "Paused by Ann")
    bob.wait_text("#clock-label", "Paused by Ann")
    shot(bob, "host-paused")
    shot(tv, "host-tv-paused")
    ann.tap("#resume")
    bob.wait_hidden("#banner")
    # Cy is removed and banned while Ann and Bob play on: Cy's phone says so and shows nothing of the table.
    tap_text(ann, "#host-strip button", "Host controls")
    ann.tap('#host-sheet button[aria-label="Manage Cy"]')
    tap_text(ann, "#host-sheet button", "Remove and ban Cy")
    tap_text(ann, "#sure button", "Yes, remove and ban")  # (asked once)
    cy.wait_text("#banner", "Ann (the host) removed you from this table and will not let you back in.")
    tv.wait_text("#tv-news", "Ann removed Cy and banned them from this table.")
    for css in ("#game", "#move-deeper", "#move-camp", "#clock", "#invite-btn", "#toast"):  # (the banner first)
        cy.wait_hidden(css)
    assert bob.visible("#move-deeper") and bob.visible("#clock")  # the game goes on
    shot(cy, "host-banned-in-game")
    # Bob, connected, is removed: told, and looking on, with no move and no clock.
    tap_text(ann, "#host-strip button", "Host controls")
    ann.tap('#host-sheet button[aria-label="Manage Bob"]')
    tap_text(ann, "#host-sheet button", "Remove Bob")
    tap_text(ann, "#sure button", "Yes, remove")  # (asked once)
    bob.wait_text("#banner", "Ann (the host) removed you from the table.")
    bob.wait_visible("#join-name")
    tv.wait_text("#tv-news", "Ann removed Bob from the table.")
    for css in ("#move-deeper", "#move-camp", "#clock"):
        bob.wait_hidden(css)
    shot(bob, "host-removed")
    shot(tv, "host-tv-removed")


CROWD_SOURCES = ("127.0.41.1", "127.0.41.2", "127.0.41.3")
"""Where this module's crowds of several connect from: joins budgets of their own (see test_hold.py)."""


def test_the_host_reaches_pause_by_keyboard_and_keeps_it_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    """test_hold.py's keyboard-only test in WebKit: the host reaches Pause with Tab during a decision while the two
    other phones (the Python client) choose and change their minds; focus stays on that button through three
    choices (theirs, then hers), the reveal and the next card, and through Enter (Pause, then Resume)."""
    code = server.create_table(script=[["5", "7", "9", "spiders", "spiders"]], options={"caves": 1}, seconds=60, beat=1)
    ann = webkit.phone("ann")
    join(ann, code, "Ann")
    run = webdriver_run(ann.driver)
    crowd = Crowd(server.ws, CROWD_SOURCES)

    async def choose(client: Any, move: str) -> None:  # a choice, once the server has taken it
        await client.choose(move)
        await client.until(lambda s: (s.get("me") or {}).get("choice") == move)

    async def fidget(c: dict[str, Any]) -> None:  # 4 changes each (the server takes 10 a decision)
        await asyncio.gather(*(c[name].until(lambda s: bool((s.get("me") or {}).get("moves"))) for name in c))
        for move in ("deeper", "camp", "deeper", "camp"):
            for name in ("Bob", "Cy"):
                await choose(c[name], move)

    try:
        crowd.join(code, "Bob", "Cy")
        ann.wait_text("#lobby-count", "3 of 8 chairs taken")
        run(PHASES)
        ann.tap("#start")
        ann.wait_visible("#move-deeper")
        fidgeting = asyncio.run_coroutine_threadsafe(fidget(crowd.clients), crowd.loop)
        for _ in range(30):  # Tab, while the states come
            ann.keys(Keys.TAB)
            if ann.js("return document.activeElement.matches('#strip-pause')"):
                break
        assert run(MARK) == "Pause", run(FOCUSED)
        fidgeting.result(15)
        for name in ("Bob", "Cy"):
            crowd.run(choose(crowd.clients[name], "deeper"))
            assert run(KEPT), (name, run(FOCUSED))
        ann.js("document.querySelector('#move-deeper').click()")  # the third choice: a click that moves no focus
        ann.until(lambda: ann.count("#game .path li") == 2, "the reveal and the next card")
        assert run("() => window.__phases.includes('reveal')"), run("() => window.__phases")
        assert run(KEPT), run(FOCUSED)
        ann.keys(Keys.ENTER)  # Pause, from the keyboard: the same button now resumes
        ann.wait_visible("#resume")
        ann.wait_text("#strip-pause", "Resume the game")
        assert run(KEPT), run(FOCUSED)
        ann.keys(Keys.ENTER)
        ann.wait_hidden("#resume")
        ann.wait_text("#strip-pause", "Pause")
        assert run(KEPT), run(FOCUSED)
    finally:
        crowd.close()


def test_the_tv_at_720p_with_eight_long_names_paused_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    """Issue 40's TV case in WebKit: 1280×720, eight chairs of long names, a decision the host paused: in English,
    Hungarian and Japanese the page does not scroll, nothing is cut or off the stage (test_hold.py's HOLDS,
    test_stage.py's OFF_STAGE), no text is under the 720p floor, and axe and the hand checks find nothing."""
    code = server.create_table(script=[["5", "relic", "7", "spiders", "spiders"]], options={"caves": 1}, seconds=60)
    tv = webkit.open("tv-720", (1280, 720))
    tv.goto(f"/t/{code}/tv")
    inner = tv.js("return [innerWidth, innerHeight]")
    if inner != [1280, 720]:  # the window's frame, if any, taken off
        tv.driver.set_window_size(2 * 1280 - inner[0], 2 * 720 - inner[1])
        tv.until(lambda: tv.js("return [innerWidth, innerHeight]") == [1280, 720], "a 1280×720 viewport")
    run = webdriver_run(tv.driver)
    crowd = Crowd(server.ws, CROWD_SOURCES)
    try:
        crowd.join(code, *SEATED)
        tv.wait_text("#lobby-count", "8 of 8")
        host = crowd.clients[SEATED[0]]

        async def deeper(names: list[str], decision: int) -> None:  # each in that decision
            for name in names:
                await crowd.clients[name].until(
                    lambda s: bool((s.get("me") or {}).get("moves")) and s.get("decision") == decision
                )
                await crowd.clients[name].choose("deeper", decision)

        crowd.run(host.start())
        first = crowd.run(host.until(lambda s: bool((s.get("me") or {}).get("moves"))))["decision"]
        crowd.run(deeper(SEATED, first))  # the relic: a second card
        tv.until(lambda: tv.count("#game .path li") == 2, "the relic on the path")
        crowd.run(deeper(SEATED[1:], first + 1))  # all but the host: the TV waits for her
        tv.wait_visible("#waiting-for")
        crowd.run(host.pause())
        tv.wait_visible("#banner")
        problems = []
        for lang in ("en", "hu", "ja"):
            set_lang(tv, lang)
            run("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            found = run(HOLDS) + run(f"() => ({OFF_STAGE})({json.dumps(STAGE)})")
            found += [f"{x['size']:.1f}px: {x['text']!r}" for x in run(TEXT_SIZES) if x["size"] < FLOOR[720] - 0.3]
            problems += [f"[{lang}] {p}" for p in found] + check_page(run, f"[{lang}]", phone=False)
            shot(tv, f"tv-720-paused-{lang}")
        set_lang(tv, "en")
        assert not problems, "\n".join(problems)
    finally:
        crowd.close()


# Bob's phone at a last call: the moment its clock first says so, what the page shows is noted and the choice
# changed there and then, by the page's own Camp button (a tap sent from here over WebDriver would race the call's
# clock; the page reacts at once, whatever the machine's load).
LAST_CALL = """window.__gtLastCall = [];
const label = document.querySelector('#clock-label');
const seen = () => {
  if (__gtLastCall.length || !label.textContent.startsWith('Last call')) return;
  const shown = (e) => Boolean(e) && !e.closest('[hidden]') && e.getClientRects().length > 0;
  const deeper = document.querySelector('#move-deeper'), camp = document.querySelector('#move-camp');
  __gtLastCall.push({ label: label.textContent, num: document.querySelector('#clock-num').textContent,
    deeper: deeper.getAttribute('aria-pressed'), camp: shown(camp) });
  camp.click();
};
new MutationObserver(seen).observe(label, { childList: true, characterData: true, subtree: true });"""

SEAT_MARK = """const row = [...document.querySelectorAll('#game .players .player')]
  .findIndex((e) => e.querySelector('.name').textContent.includes(arguments[0]));
const mark = row < 0 ? null : document.querySelectorAll('#game .players .player')[row].querySelector('.seat-mark');
return mark ? [row, mark.dataset.seatStyle] : null;"""
"""The row of ``arguments[0]`` in the phone's list of players (ordered by seat) and their mark's look."""


def test_the_ready_check_last_call_looks_and_silent_hold_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    """Issue 41's night in WebKit (test_night.py in Chromium): the host's start asks "Ready?" on every screen, the TV
    says whom it waits for and the host's Start reads "Start anyway"; Bob's "I'm ready" starts the game.  Bob's
    last choice is a slip: the clock says "Last call: the reveal is coming" and his change counts (everyone walks
    out: the game is over).  Cy leaves; the host makes the clock 5 s, plays again and starts anyway; Bob sits a
    seat earlier in the same look.  Nobody answers: every screen asks "Is everyone here?", and Bob lifts it."""
    code = server.create_table(
        script=[["1"] * 30] * 2,
        options={"caves": 1},
        seconds=60,
        pause=1,
        ready_check=True,
        last_call=2,
        hold_silent=True,
    )
    ann = webkit.phone("ann")
    join(ann, code, "Ann")
    crowd = Crowd(server.ws)
    try:
        crowd.join(code, "Cy")  # between Ann and Bob: Bob's seat is 2 in the first game
        cy = crowd.clients["Cy"]
        bob = webkit.phone("bob")
        join(bob, code, "Bob")
        tv = webkit.tv()
        tv.goto(f"/t/{code}/tv")
        tv.wait_text("#people", "Bob")

        ann.tap("#start")
        for page in (ann, bob, tv):
            page.wait_text("#banner", "Ready?")
        crowd.run(cy.send({"type": "ready", "ready": True}))
        tv.wait_text("#banner", "Waiting for: Bob")
        assert "Cy" not in tv.text("#banner"), tv.text("#banner")
        ann.wait_text("#start", "Start anyway")
        for page in (bob, tv):  # (the host has started: nobody waits for her)
            page.wait_hidden("#lobby-wait")
        shot(tv, "night-tv-ready")
        shot(bob, "night-phone-ready")
        accessible(bob, "the ready check (a player's phone)", langs=("hu",))
        bob.tap("#ready")
        bob.wait_visible("#move-deeper")  # everyone ready: the game began
        first = bob.until(lambda: bob.js(SEAT_MARK, "Bob"), "Bob's mark")
        assert first == [2, "2"], first

        bob.js(LAST_CALL)
        ann.tap("#move-camp")
        crowd.run(cy.until(lambda s: bool((s.get("me") or {}).get("moves"))))
        crowd.run(cy.choose("camp"))
        bob.until(lambda: bob.count("#game .players .player.s-chosen") == 2, "Ann's and Cy's choices")
        bob.tap("#move-deeper")  # the last choice, a slip of the thumb: the call, and the page changes it
        call = bob.until(lambda: bob.js("return window.__gtLastCall"), "the last call on Bob's clock")
        assert call == [{"label": "Last call: the reveal is coming", "num": "", "deeper": "true", "camp": True}], call
        # Everyone walked out (had the change not counted, Bob would be in the cave on his own): the game is over.
        crowd.run(cy.until(lambda s: s["phase"] == "results"))
        ann.wait_visible("#again", timeout=15)
        bob.wait_visible("#results")

        crowd.run(cy.leave())
        tap_text(ann, "#results-host button", "Change the settings")
        ann.wait_visible("#set-seconds")
        ann.js("const s = document.querySelector('#set-seconds'); s.value = '5'; s.dispatchEvent(new Event('change'))")
        tap_text(ann, "#host-sheet button", "Save")
        ann.wait_hidden("#host-sheet")
        ann.wait_text("#again", "Play again")
        ann.tap("#again")
        for page in (ann, bob, tv):
            page.wait_text("#banner", "Ready?")
        tv.wait_text("#banner", "Waiting for: Bob")
        ann.wait_text("#again", "Start anyway")
        bob.wait_hidden("#again-wait")
        ann.tap("#again")
        bob.wait_visible("#move-deeper")
        # Seats are dealt again (Cy's is free: Bob's is 1); Bob keeps his colour and mark.
        again = bob.until(lambda: bob.js(SEAT_MARK, "Bob"), "Bob's mark in the second game")
        assert again == [1, "2"], again
        assert bob.js(SEAT_MARK, "Ann") == [0, "0"]

        # Nobody answers: at the 5 s clock nothing is revealed; every screen asks.
        for page in (ann, bob, tv):
            page.wait_text("#banner", "Is everyone here?", timeout=15)
        assert bob.count("#game .reveal") == 0
        tv.wait_text("#banner", "Any player can carry on from their phone: the clock starts again.")  # (no button)
        bob.wait_text("#resume", "We're here: go on")  # Bob, not the host, may say the table is here
        shot(bob, "night-phone-hold")
        shot(tv, "night-tv-hold")
        accessible(bob, "a held decision (a player's phone)", langs=("ja",))
        bob.tap("#resume")
        for page in (ann, bob, tv):
            page.wait_hidden("#banner")
    finally:
        crowd.close()


def test_the_results_keep_the_game_and_the_night_lists_it_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    """Issue 41's night kept, in WebKit (test_night_kept.py in Chromium): the results page shows the result card
    (an SVG image, loaded, with its alt text) and offers it and the record as files; the night's page lists the
    game with its winner; nothing scrolls sideways."""
    code = play_short_game(server, HOSTILE)  # (Python clients: no event loop of Playwright's in this module)
    page = webkit.phone("keeper")
    page.goto(f"/t/{code}/results/1")
    page.wait_text(".winner-line", f"{HOSTILE[0]} wins!")
    page.wait_visible("#keep")
    card = f"/api/tables/{code}/games/1/card.svg?lang=en"
    assert page.js("return document.querySelector('#card-link').getAttribute('href')") == card
    assert page.find("#card-link").get_attribute("download") == f"gemtable-{code}-game-1.svg"
    assert page.find("#record-link").get_attribute("download") == f"gemtable-{code}-game-1.json"
    assert page.find("#card-img").get_attribute("alt") == f"Result card of game 1. {HOSTILE[0]} wins!"
    page.until(
        lambda: page.js("const i = document.querySelector('#card-img'); return i.complete && i.naturalWidth"),
        "the card to load",
    )
    # (WebKit gives an SVG image's naturalWidth as drawn, not the 800 of its width attribute: the card is checked
    # loaded and fitting the phone's width)
    assert page.js("return document.querySelector('#card-img').getBoundingClientRect().width <= innerWidth - 16")
    assert page.js("return document.documentElement.scrollWidth <= innerWidth"), "the results scroll sideways"
    accessible(page, "the results kept", langs=("hu",))
    shot(page, "results-keep")
    page.navigates(lambda: page.tap("#night-link"), f"/t/{code}/night")
    page.wait_text("h1", f"Tonight at table {code}")
    assert page.count(".night-game") == 1
    page.wait_text(".night-game .winner-line", "wins!")
    assert page.js("return document.documentElement.scrollWidth <= innerWidth"), "the night scrolls sideways"
    accessible(page, "the night's games", langs=("ja",))
    shot(page, "night-games")


def test_a_watcher_predicts_and_sees_the_score_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    """The audience plays (issue 42) in WebKit: Ivy, arrived during the cave (a chair for the next one, no seat in
    this one), calls the collapse with a tap (its button pressed), and once the next card is turned sees her
    call locked and scored, with her points for the night; axe in Hungarian on the panel."""
    code = server.create_table(script=[["5", "spiders", "spiders"]], options={"caves": 1}, seconds=60)
    ann = webkit.phone("ann")
    join(ann, code, "Ann")
    bob = webkit.phone("bob")
    join(bob, code, "Bob")
    ann.tap("#start")
    ann.wait_visible("#move-deeper")
    ivy = webkit.phone("ivy")
    join(ivy, code, "Ivy")
    ivy.wait_visible("#aud-no")
    ivy.tap("#aud-no")  # the cave holds, she says
    ivy.until(lambda: ivy.find("#aud-no").get_attribute("aria-pressed") == "true", "No to be pressed")
    ivy.wait_text("#aud-state", "Your prediction is in")
    accessible(ivy, "the audience's panel", langs=("hu",))
    ann.tap("#move-deeper")
    bob.tap("#move-deeper")  # the first spider: the cave holds
    ivy.wait_text("#aud-locked", "Locked at the reveal")
    ivy.wait_text("#aud-scored", "Your call scored 1 point")
    ivy.wait_text("#aud-score", "You have 1 point tonight")
    shot(ivy, "phone-audience")


def test_the_replay_steps_a_booty_game_by_keyboard_in_webkit(server: ServerProcess, webkit: WebKit) -> None:
    """Issue 42's replay, in WebKit (test_replay.py in Chromium steps an expedition): a finished Booty Hunter game
    stepped by the keys alone, tile by tile to the count, whose scores are the record's; axe in Hungarian."""
    code = play_booty(server)  # (Python clients: no event loop of Playwright's in this module)
    record = server.get(f"/api/tables/{code}/games/1")[1]
    page = webkit.phone("replay")
    page.goto(f"/t/{code}/games/1/replay")
    page.wait_text("#rp-counter", "Step 1 of 10 · tile 0 of 9")
    page.keys(Keys.ARROW_RIGHT)
    page.wait_text("#rp-counter", "Step 2 of 10 · tile 1 of 9")
    seat, move = record["inputs"][1]
    x, y, _ = move.split(",")
    page.wait_text("#rp-live", f"{record['names'][str(seat)]}\u2069 (Red) placed a tile at column {x}, row {y}")
    assert page.count(".rp-board .rp-tile") == 1
    page.keys(Keys.END)
    page.wait_text("#rp-counter", "Step 10 of 10 · tile 9 of 9")
    assert page.count(".rp-board .rp-tile") == 9 and page.find("#rp-next").get_attribute("disabled") is not None
    shown = page.js(
        "return [...document.querySelectorAll('.rp-scores tbody tr')]"
        ".map((row) => [row.dataset.seat, row.querySelector('td').innerText])"
    )
    assert sorted((int(seat), int(score)) for seat, score in shown) == list(enumerate(record["scores"]))
    assert page.js("return document.documentElement.scrollWidth <= innerWidth"), "the replay scrolls sideways"
    accessible(page, "the replay at its end", langs=("hu",))
    page.keys(Keys.HOME)
    page.wait_text("#rp-counter", "Step 1 of 10")
