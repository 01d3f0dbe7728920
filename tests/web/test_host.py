"""The host runs the night, through the pages (issue 19; Chromium here, WebKit in test_webkit.py): the start's
countdown and its cancel, pause and resume, a phone offline walked out (tagged so) and told when it comes back,
a person removed, a game ended early with its story, a Booty Hunter leave played on by a bot, banning and
lifting, the settings, handing the role on — on the phones, the TV and the results page, with screenshots."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import assert_accessible
from tests.web.conftest import Browser
from tests.web.test_booty import BAG, place
from tests.web.test_play import contrast_failures, join, small_targets, tap

pytestmark = pytest.mark.browser

RICH = [["17", "1", "2", "3", "4", "5", "7", "9", "11", "13", "14", "15", "snakes", "snakes"]] * 5


def reopen(browser: Browser, page: Any, label: str) -> Any:
    """The same phone (its storage: the seat token, what it was told) opening the table again."""
    context = page.context
    url = page.url
    page.close()
    again = browser._page(label, context)
    again.goto(url)
    return again


def test_a_night_with_a_countdown_a_pause_an_offline_phone_a_removal_and_an_early_end(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table(script=RICH, options={"caves": 3}, seconds=15, pause=2, countdown=6)
    ann, bob, cy = browser.phone("ann"), browser.phone("bob"), browser.phone("cy")
    for page, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
        join(page, code, name)
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    expect(tv.locator("#people")).to_contain_text("Cy")

    # A start counts down on every screen; the host may cancel it.
    ann.locator("#start").tap()
    expect(tv.locator("#banner")).to_contain_text("The game starts in")  # the TV's lobby has no clock: its banner
    expect(bob.locator("#clock-label")).to_have_text("The game starts in")  # a phone's sticky clock counts down
    for page in (bob, tv):
        expect(page.locator("#banner")).to_contain_text("Ann is starting the game.")
    expect(ann.locator("#cancel-start")).to_be_visible()
    expect(bob.locator("#cancel-start")).to_have_count(0)  # the host's alone
    expect(bob.locator("#clock")).to_be_visible()
    shot(bob, "host-phone-countdown")
    shot(tv, "host-tv-countdown")
    ann.locator("#cancel-start").tap()
    expect(bob.locator("#banner")).to_be_hidden()
    expect(tv.locator("#lobby-news")).to_contain_text("Ann cancelled the start.")
    ann.locator("#start").tap()
    for page in (ann, bob, cy):
        expect(page.locator("#move-deeper")).to_be_visible(timeout=12_000)

    # Pause: every screen says who paused; the clock stops; a choice still counts, and stays secret.
    ann.locator("#host-strip").get_by_role("button", name="Pause").tap()
    for page in (bob, tv):
        expect(page.locator("#banner")).to_contain_text("Paused by Ann")
        expect(page.locator("#clock-label")).to_have_text("Paused by Ann")
    frozen = bob.locator("#clock-num").text_content()
    bob.wait_for_timeout(1500)
    assert bob.locator("#clock-num").text_content() == frozen
    tap(bob, "deeper")
    expect(bob.locator(".choice-note")).to_contain_text("Your choice: Deeper")
    shot(bob, "host-phone-paused")
    shot(ann, "host-phone-paused-host")
    shot(tv, "host-tv-paused")
    assert not small_targets(ann), small_targets(ann)
    assert not contrast_failures(bob), contrast_failures(bob)
    ann.locator("#resume").tap()
    expect(bob.locator("#banner")).to_be_hidden()

    # Cy's phone goes dark: after the grace, Cy is sent to camp, tagged "phone offline" on every screen.
    cy.close()
    tap(ann, "deeper")
    for page in (ann, bob, tv):
        expect(page.locator(".leavers")).to_contain_text("Cy walked out", timeout=12_000)
        expect(page.locator(".leavers .late.offline")).to_have_text("phone offline")
    expect(bob.locator("#toast")).to_contain_text("Phone offline: Cy went back to camp (cave 1).")
    shot(bob, "host-phone-offline-camp")
    shot(tv, "host-tv-offline-camp")
    # Cave 1 ends; in cave 2 Cy, still gone, is walked out again.
    tap(ann, "camp")
    tap(bob, "camp")
    expect(ann.locator(".cave-title")).to_have_text("Cave 2 of 3", timeout=12_000)
    tap(ann, "deeper")
    tap(bob, "deeper")
    expect(ann.locator(".leavers")).to_contain_text("Cy walked out", timeout=12_000)
    # Cy comes back: the phone says what happened while it was gone.
    cy = reopen(browser, cy, "cy-back")
    expect(cy.locator("#banner")).to_contain_text("While you were away")
    expect(cy.locator("#banner")).to_contain_text(
        "You were sent to camp in caves 1 and 2 while your phone was offline."
    )
    shot(cy, "host-phone-while-away")
    cy.locator("#banner").get_by_role("button", name="OK").tap()
    expect(cy.locator("#banner")).to_be_hidden()

    # The host removes Bob (connected, mid-cave): Bob is told and looks on; every screen says so.
    ann.locator("#host-strip").get_by_role("button", name="Host controls").tap()
    ann.locator("#host-sheet").get_by_role("button", name="Manage Bob").tap()
    shot(ann, "host-phone-manage")
    ann.locator("#host-sheet").get_by_role("button", name="Remove Bob", exact=True).tap()
    ann.locator("#sure").get_by_role("button", name="Yes, remove").tap()  # (asked once)
    expect(bob.locator("#banner")).to_contain_text("Ann (the host) removed you from the table.")
    expect(bob.locator("#join")).to_be_visible()
    expect(bob.locator("#actions")).to_be_hidden()
    expect(tv.locator("#tv-news")).to_contain_text("Ann removed Bob from the table.")
    expect(tv.locator(".players")).to_contain_text("removed by the host")
    shot(bob, "host-phone-removed")
    shot(tv, "host-tv-removed")

    # The host ends the game now: the results say so, and tell the story.
    ann.locator("#host-strip").get_by_role("button", name="Host controls").tap()
    sheet = ann.locator("#host-sheet")
    sheet.get_by_role("button", name="End the game now").tap()
    expect(sheet).to_contain_text("End the game now? The scores count as they stand.")
    sheet.get_by_role("button", name="Yes, end it").tap()
    for page in (ann, cy, tv):
        expect(page.locator("#results")).to_be_visible(timeout=8_000)
        expect(page.locator("#results")).to_contain_text("Ann ended this game early")
        expect(page.locator("#results-story")).to_contain_text("Ann removed Bob from the table (cave 2).")
        expect(page.locator("#results-story")).to_contain_text("Phone offline: Cy went back to camp (cave 1).")
    expect(ann.locator("#results .scores")).to_contain_text("removed by the host in cave 2")
    shot(ann, "host-phone-results-story", full=True)
    shot(tv, "host-tv-results-story")
    results = browser.phone("results")
    results.goto(f"/t/{code}/results/1")
    expect(results.locator("#results-story")).to_contain_text("Ann removed Bob from the table (cave 2).")
    expect(results.locator("#results-story")).to_contain_text("Ann ended the game early.")
    shot(results, "host-results-page-story", full=True)


def test_remove_and_ban_ask_once_and_a_phone_put_out_keeps_no_move_and_no_clock(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    """Issue 41: the host's remove and ban ask once first (the page's own question over the sheet; No keeps
    everything as it was); the phone removed says so and looks on, the phone banned says so and shows nothing of the
    table: neither keeps Deeper or Camp, nor a clock running."""
    code = server.create_table(script=[["5", "7", "9", "11", "13", "14"]], seconds=60)
    ann, bob, cy = browser.phone("ann"), browser.phone("bob"), browser.phone("cy")
    for page, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
        join(page, code, name)
    ann.locator("#add-bot").tap()  # (the game plays on once Bob and Cy are out)
    ann.locator("#start").tap()
    for page in (ann, bob, cy):
        expect(page.locator("#move-deeper")).to_be_visible()
    tools = ann.locator("#host-strip").get_by_role("button", name="Host controls")
    sheet, question = ann.locator("#host-sheet"), ann.locator("#sure")

    # Asked, the host says no: nothing happens, and the focus is back on Remove.
    tools.tap()
    sheet.get_by_role("button", name="Manage Bob").tap()
    remove = sheet.get_by_role("button", name="Remove Bob", exact=True)
    remove.tap()
    expect(question.get_by_role("heading")).to_have_text("Remove Bob from the table?")
    expect(question).to_contain_text("In a game, their turn is played on as if they had left.")
    keep = question.get_by_role("button", name="No, keep Bob")
    expect(keep).to_be_focused()
    shot(ann, "host-phone-remove-asked")
    assert_accessible(ann, "the host asked before a removal")
    keep.tap()
    expect(question).to_have_count(0)
    expect(remove).to_be_focused()
    expect(bob.locator("#move-deeper")).to_be_visible()
    expect(bob.locator("#banner")).to_be_hidden()

    # Asked again, the host confirms: Bob's phone says so and looks on, with no move and no clock.
    remove.tap()
    question.get_by_role("button", name="Yes, remove").tap()
    expect(sheet).to_be_hidden()
    expect(bob.locator("#banner")).to_contain_text("Ann (the host) removed you from the table.")

    # Remove and ban Cy: asked the same way; Cy's phone says so, and shows nothing of the table any more.
    tools.tap()
    sheet.get_by_role("button", name="Manage Cy").tap()
    sheet.get_by_role("button", name="Remove and ban Cy").tap()
    expect(question.get_by_role("heading")).to_have_text("Remove Cy and ban them from this table?")
    # (a toast on Cy's screen as the ban lands, as "Ann removed Bob" is for its few seconds: held, whatever the pace)
    cy.evaluate(
        "() => { const el = document.querySelector('#toast'); el.textContent = 'Ann removed Bob.'; el.hidden = false; }"
    )
    question.get_by_role("button", name="Yes, remove and ban").tap()
    shut_out = cy.wait_for_function(  # (looked at in the frame the banner is drawn in)
        "() => document.querySelector('#banner').textContent.includes('will not let you back in')"
        " && {toast: !document.querySelector('#toast').hidden}"
    ).json_value()
    assert shut_out == {"toast": False}  # what was said of the table is cleared with the rest of it
    expect(cy.locator("#banner")).to_contain_text(
        "Ann (the host) removed you from this table and will not let you back in."
    )
    expect(cy.locator("#invite-btn")).to_be_hidden()  # no invitation to a table Cy may not enter
    shot(bob, "host-phone-removed-in-game")
    shot(cy, "host-phone-banned-in-game")
    tap(ann, "deeper")  # the game plays on, for Ann and the bot
    expect(ann.locator("#clock")).to_be_visible()
    for page in (bob, cy):
        expect(page.locator("#move-deeper")).to_be_hidden()
        expect(page.locator("#move-camp")).to_be_hidden()
        expect(page.locator("#clock")).to_be_hidden()
    expect(cy.locator("#game")).to_be_hidden()


def test_a_booty_hunter_leave_hands_the_colour_to_a_bot_on_every_screen(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    status, body = server.post(
        "/api/tables", {"game": "booty", "script": BAG, "seconds": 60, "countdown": 0, "ready_check": False}
    )
    assert status == 201
    code = body["code"]
    ann, bob, cy = browser.phone("ann"), browser.phone("bob"), browser.phone("cy")
    for page, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
        join(page, code, name)
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    ann.locator("#start").tap()
    expect(tv.locator(".bh-players")).to_contain_text("Bob")
    # Bob taps Leave (in the invite sheet): a bot plays his colour at once, at a bot's pace.
    bob.locator("#invite-btn").tap()
    bob.locator("#invite-leave").tap()
    bob.locator("#leave-yes").tap()  # the page's own question: "Leave this table for good?"
    for page in (ann, cy, tv):
        row = page.locator(".bh-pl").filter(has_text="Bob")
        expect(row).to_contain_text("left")
        expect(row).to_contain_text("a bot plays")
    expect(ann.locator("#toast")).to_contain_text("Bob left the game")
    shot(tv, "host-tv-booty-left")
    # Ann plays; Bob's turn is a bot's, at a bot's pace (the turn clock is 60 s); then Cy's.
    place(ann)
    expect(cy.locator("#actions")).to_be_visible(timeout=5_000)
    for page in (ann, tv):
        expect(page.locator(".bh-players")).to_contain_text(re.compile(r"a bot plays since move \d+"))
    expect(tv.locator("#tv-news")).to_contain_text(re.compile(r"A bot plays Blue for Bob from move \d+"))
    shot(ann, "host-phone-booty-bot-plays")
    shot(tv, "host-tv-booty-bot-plays")
    place(cy)
    # The host ends it: the results say who played Bob's colour from when; Play again waits for a third player.
    ann.locator("#host-strip").get_by_role("button", name="Host controls").tap()
    ann.locator("#host-sheet").get_by_role("button", name="End the game now").tap()
    ann.locator("#host-sheet").get_by_role("button", name="Yes, end it").tap()
    for page in (ann, tv):
        expect(page.locator("#results")).to_be_visible(timeout=30_000)
    ann.locator("#results").get_by_role("button", name="Skip to the results").tap()
    expect(ann.locator("#results .scores")).to_contain_text(re.compile(r"left at move \d+"))
    expect(ann.locator("#results .scores")).to_contain_text(re.compile(r"a bot played from move \d+"))
    expect(ann.locator("#again")).to_be_hidden()
    expect(ann.locator("#again-hint")).to_have_text("At least 3 players are needed.")
    expect(ann.locator("#results-story")).to_contain_text("Bob left the game")
    shot(ann, "host-phone-booty-results", full=True)
    results = browser.phone("results")
    results.goto(f"/t/{code}/results/1")
    expect(results.locator(".scores")).to_contain_text(re.compile(r"a bot played from move \d+"))
    shot(results, "host-results-page-booty", full=True)


def test_ban_lift_settings_and_handing_the_role_on_in_the_lobby(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table()
    ann, bob, cy = browser.phone("ann"), browser.phone("bob"), browser.phone("cy")
    for page, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
        join(page, code, name)
    # Settings between games: the host's sheet, drawn from the game's manifest.
    ann.get_by_role("button", name="Change the settings").tap()
    sheet = ann.locator("#host-sheet")
    sheet.locator("#set-seconds").select_option("30")
    sheet.locator("#set-caves").select_option("3")
    shot(ann, "host-phone-settings")
    assert not small_targets(ann), small_targets(ann)
    sheet.get_by_role("button", name="Save").tap()
    expect(bob.locator("#lobby-game")).to_contain_text("30 s per decision")
    expect(bob.locator("#lobby-news")).to_contain_text("Ann changed the settings.")
    # Ban: Bob's phone is closed with a plain message; the lobby lists him, with Lift.
    ann.get_by_role("button", name="Manage Bob").tap()
    ann.locator("#host-sheet").get_by_role("button", name="Remove and ban Bob").tap()
    ann.locator("#sure").get_by_role("button", name="Yes, remove and ban").tap()  # (asked once)
    expect(bob.locator("#banner")).to_contain_text(
        "Ann (the host) removed you from this table and will not let you back in."
    )
    expect(bob.locator("#join")).to_be_hidden()
    bans = ann.locator("#host-more .bans")
    expect(bans).to_contain_text("Bob")
    shot(bob, "host-phone-banned")
    shot(ann, "host-phone-bans-list")
    bob.reload()  # the banned phone stays out (its token, and — were it not a local test — its address)
    expect(bob.locator("#banner")).to_contain_text("will not let you back in")
    expect(bob.locator("#invite-btn")).to_be_hidden()
    ann.get_by_role("button", name="Lift the ban on Bob").tap()
    expect(bans).to_have_count(0)
    # Handing the role on: Cy is the host now, for good.
    ann.get_by_role("button", name="Manage Cy").tap()
    ann.locator("#host-sheet").get_by_role("button", name="Make Cy the host").tap()
    expect(cy.locator("#start")).to_be_visible()
    expect(ann.locator("#start")).to_be_hidden()
    expect(ann.locator("#lobby-news")).to_contain_text("Ann made Cy the host.")


def test_every_seat_of_sixteen_has_a_style_of_its_own(server: ServerProcess, browser: Browser) -> None:
    page = browser.phone("styles")
    page.goto("/")
    styles = page.evaluate(
        """async () => {
          const m = await import('/static/js/seat-style.js');
          const c = await import('/static/js/chart.js');
          const all = Array.from({ length: 16 }, (_, i) => m.seatStyle(i));
          const series = Array.from({ length: 9 }, (_, i) => ({ name: `P${i}`, values: [i, i + 1], seat: i }));
          const body = c.chart(series, { title: 'x' });
          document.body.append(body);
          return { all, drawn: [...body.querySelectorAll('g.series')].map((g) => g.dataset.seatStyle),
                   wrap: m.seatStyle(16).index };
        }"""
    )
    all_ = styles["all"]
    assert len({s["colour"] for s in all_}) == 16
    assert len({(s["shape"], s["filled"]) for s in all_}) == 16  # told apart without colour
    assert styles["drawn"] == [str(i) for i in range(9)]  # the 9th line is not the 1st's
    assert styles["wrap"] == 0
