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
from tests.web.test_play import join, tap

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
    ann.locator("#again").tap()
    expect(bob.locator("#move-deeper")).to_be_visible()
