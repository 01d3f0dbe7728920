"""The night, round two (issue 41), through the pages in a real Chromium against a real server, at 390×844
over a non-local name: a cave nobody answers holds and asks "Is everyone here?" on every phone and the TV, and
any player lifts it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import assert_accessible
from tests.web.conftest import Browser
from tests.web.crowd import Crowd
from tests.web.test_play import join, small_targets, tap

pytestmark = pytest.mark.browser


def test_a_cave_nobody_answers_asks_whether_everyone_is_here(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table(script=[["1"] * 30], options={"caves": 1}, seconds=3, hold_silent=True)
    ann = browser.phone("ann")
    join(ann, code, "Ann")
    bob = browser.phone("bob")
    join(bob, code, "Bob")
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    expect(tv.locator("main")).to_contain_text("Bob")
    ann.locator("#start").tap()
    expect(bob.locator("#move-deeper")).to_be_visible()
    # Nobody taps: at the deadline nothing is revealed; every screen asks.
    for page in (ann, bob, tv):
        expect(page.locator("#banner")).to_contain_text("Is everyone here?", timeout=15_000)
    expect(bob.locator(".reveal")).to_have_count(0)
    # The TV has no button to tap: it says who can carry on.
    expect(tv.locator("#banner")).to_contain_text("Any player can carry on from their phone: the clock starts again.")
    expect(tv.locator("#banner")).not_to_contain_text("tap below")
    assert_accessible(bob, "a held cave (a player's phone)")
    # Bob is not the host, and he may say the table is here.
    resume = bob.get_by_role("button", name="We're here: go on")
    expect(resume).to_be_visible()
    resume.tap()
    for page in (ann, bob, tv):
        expect(page.locator("#banner")).to_be_hidden()
    expect(bob.locator("#move-deeper")).to_be_visible()
    # Now Ann answers and Bob stays silent: one silent player among answering ones walks out (no hold).
    tap(ann, "deeper")
    expect(bob.locator("main")).to_contain_text("Bob walked out", timeout=15_000)


def test_the_last_choice_can_be_changed_during_the_last_call(server: ServerProcess, browser: Browser) -> None:
    # The longest last call the settings allow (3 s), so that a second tap is in time on a busy machine too.
    code = server.create_table(script=[["1"] * 30], options={"caves": 1}, seconds=60, last_call=3)
    ann = browser.phone("ann")
    join(ann, code, "Ann")
    bob = browser.phone("bob")
    join(bob, code, "Bob")
    ann.locator("#start").tap()
    tap(ann, "deeper")
    expect(bob.locator("main")).to_contain_text("has chosen")
    tap(bob, "camp")  # the last choice, a slip of the thumb
    expect(bob.locator("#clock-label")).to_have_text("Last call: the reveal is coming")
    tap(bob, "deeper")  # changed before the reveal
    expect(bob.locator("main")).to_contain_text("Everyone went deeper.", timeout=15_000)


def test_a_player_keeps_their_colour_and_mark_in_the_next_game(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table(script=[["1", "1"]] * 5, options={"caves": 1}, seconds=60)
    crowd = Crowd(server.ws)
    try:
        crowd.join(code, "Ann")  # the host, on a phone of the Python client
        bob = browser.phone("bob")
        join(bob, code, "Bob")
        crowd.join(code, "Cy")
        crowd.run(crowd.clients["Ann"].start())
        expect(bob.locator("#move-camp")).to_be_visible()
        mark = bob.locator(".players .player:has-text('Bob') .seat-mark")
        expect(mark).to_have_attribute("data-seat-style", "1")  # Bob's seat 1, and his look
        for name in ("Ann", "Cy"):
            crowd.run(crowd.clients[name].choose("camp"))
        tap(bob, "camp")
        crowd.run(crowd.clients["Cy"].until(lambda s: s["phase"] == "results"))
        # Ann leaves; Bob (the host now) plays again: the seats are dealt anew (Bob's is 0), his mark stays.
        crowd.run(crowd.clients["Ann"].leave())
        expect(bob.locator("#again")).to_be_visible(timeout=15_000)
        bob.locator("#again").tap()
        expect(bob.locator("#move-camp")).to_be_visible(timeout=15_000)
        expect(mark).to_have_attribute("data-seat-style", "1")
        state = crowd.run(crowd.clients["Cy"].until(lambda s: s["phase"] == "playing"))
        bob_now = next(p for p in state["people"] if p["name"] == "Bob")
        assert bob_now["seat"] == 0 and bob_now["look"] == 1
    finally:
        crowd.close()


def test_a_ready_check_before_the_game_and_the_host_may_start_anyway(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table(script=[["1", "snakes", "snakes"]] * 5, options={"caves": 1}, ready_check=True)
    ann = browser.phone("ann")
    join(ann, code, "Ann")
    bob = browser.phone("bob")
    join(bob, code, "Bob")
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    expect(tv.locator("main")).to_contain_text("Bob")
    ann.locator("#start").tap()
    # Every screen asks; the TV says whom the room waits for; Bob's phone has its "I'm ready".
    for page in (ann, bob, tv):
        expect(page.locator("#banner")).to_contain_text("Ready?")
    expect(tv.locator("#banner")).to_contain_text("Waiting for: Bob")
    expect(ann.locator("#start")).to_have_text("Start anyway")
    for page in (bob, tv):  # the host has started: no "Waiting for Ann to start the game."
        expect(page.locator("#lobby-wait")).to_be_hidden()
    assert_accessible(bob, "the ready check (a player's phone)")
    bob.get_by_role("button", name="I'm ready").tap()
    expect(bob.locator("#move-deeper")).to_be_visible()  # everyone ready: the game began
    tap(ann, "camp")
    tap(bob, "camp")
    expect(ann.locator("#again")).to_be_visible(timeout=15_000)
    # Play again: Bob does not answer this time; the host starts anyway.
    ann.locator("#again").tap()
    expect(bob.locator("#banner")).to_contain_text("Ready?")
    expect(ann.locator("#again")).to_have_text("Start anyway")
    expect(bob.locator("#again-wait")).to_be_hidden()  # (nor "Waiting for Ann to start a new game.")
    ann.locator("#again").tap()
    expect(bob.locator("#move-deeper")).to_be_visible()


def test_the_host_gives_one_player_more_time_and_only_they_are_told(server: ServerProcess, browser: Browser) -> None:
    """Per-person extra time (issue 41): in Bob's sheet the host picks "No clock" (the sheet redrawn in place, the
    focus kept); Bob's phone alone says so; at the table's clock Ann's silence is locked and her phone says the
    time is up, while Bob's, with no clock, waits for him; his choice reveals. Cy, a phone of the Python client,
    is never sent anyone's factor."""
    code = server.create_table(script=[["1"] * 30], options={"caves": 1}, seconds=2)
    crowd = Crowd(server.ws)
    try:
        ann = browser.phone("ann")
        join(ann, code, "Ann")
        bob = browser.phone("bob")
        join(bob, code, "Bob")
        crowd.join(code, "Cy")
        ann.get_by_role("button", name="Manage Bob").tap()
        group = ann.locator("#host-sheet").get_by_role("group", name="More time for Bob")
        expect(group.get_by_role("button", name="Usual")).to_have_attribute("aria-pressed", "true")
        no_clock = group.get_by_role("button", name="No clock")
        no_clock.focus()
        no_clock.press("Enter")  # (as a keyboard or a switch does: the focus is on it)
        expect(no_clock).to_have_attribute("aria-pressed", "true")  # the table took it: the same button, redrawn
        expect(no_clock).to_be_focused()
        expect(group.get_by_role("button", name="Usual")).to_have_attribute("aria-pressed", "false")
        assert not small_targets(ann), small_targets(ann)
        assert_accessible(ann, "more time in the host's sheet")
        expect(bob.locator("#more-time")).to_have_text("The host gave you all the time you need: no clock for you.")
        ann.locator("#host-sheet").get_by_role("button", name="Back").tap()
        expect(ann.locator("#host-sheet")).to_contain_text("More time: No clock")
        ann.keyboard.press("Escape")
        ann.locator("#start").tap()
        expect(bob.locator("#clock-label")).to_have_text("No clock for you: take your time")
        expect(bob.locator("#more-time")).to_be_hidden()
        # Ann and Cy stay silent: at the table's clock their silence is locked; the decision waits for Bob.
        expect(ann.locator("#clock-label")).to_have_text("Time is up: waiting for the last choice", timeout=15_000)
        expect(ann.locator("#move-deeper")).to_be_hidden()
        assert_accessible(bob, "a decision on a player's own clock")
        tap(bob, "deeper")
        expect(ann.locator("main")).to_contain_text("Bob went deeper")
        frames = crowd.clients["Cy"].frames
        assert frames and not [f for f in frames if '"factor"' in f or '"extra_time":{"' in f]
    finally:
        crowd.close()
