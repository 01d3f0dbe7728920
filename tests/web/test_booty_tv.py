"""Booty Hunter on the TV, from the sofa, through every phase of a game: the lobby, a turn, the host's pause, a
leaver whose colour a bot plays, and the results of a game the host ended. At each, at 1920×1080, 1280×720 and
3840×2160 in English, Hungarian and Japanese (``test_hold.holds``): no scrolling, the stage and the join QR code
whole, the text floor, nothing cut or drawn over other text; axe at 1080p in the three languages; whose turn it
is, who left and which colour a bot plays in the TV's large type (the smallest sizes found go to
artifacts/tv-text-sizes.json, beside the matrix's)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import check_page, playwright_run
from tests.web.conftest import Browser
from tests.web.test_booty import BAG, booty_table
from tests.web.test_hold import holds
from tests.web.test_play import join
from tests.web.test_stage import PREFIX, set_lang, small_text

pytestmark = pytest.mark.browser

PAUSE = 20  # seconds the last move is shown before the results (the TV's own clock is moved past it)


def axe(tv: Any, state: str, problems: list[str]) -> None:
    """axe-core and the hand checks on the 1080p TV, in each language."""
    for lang in ("en", "hu", "ja"):
        set_lang(tv, lang)
        problems += check_page(playwright_run(tv), f"Booty Hunter TV, {state} [{lang}]: axe", phone=False)


def test_the_tv_says_whose_turn_who_left_and_which_colour_a_bot_plays(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = booty_table(server, script=BAG, seconds=60, pause=PAUSE)  # Ann, the first chair, plays first
    ann, kim = browser.phone("ann"), browser.phone("kim")
    join(ann, code, "Ann")
    join(kim, code, "Kim")
    ann.locator("#add-bot").tap()
    tv = browser.tv("booty-tv")
    tv.clock.install()  # (time flows as usual until the test moves it on)
    tv.goto(f"/t/{code}/tv")
    expect(tv.locator("#people .bh-swatch")).to_have_count(3)  # the lobby: each colour's swatch
    problems: list[str] = []
    holds(tv, "booty-lobby", problems, shot)
    axe(tv, "the lobby", problems)

    ann.locator("#start").tap()
    set_lang(tv, "en")
    expect(tv.locator(".bh-turn-name")).to_have_text("Ann's turn")
    expect(tv.locator(".bh-pl.turn .bh-now")).to_have_text("placing a tile")
    expect(tv.locator("#waiting-for")).to_have_text("Waiting for: Ann")
    holds(tv, "booty-turn", problems, shot)
    axe(tv, "a turn", problems)

    ann.locator("#host-strip button").first.tap()  # Pause
    expect(ann.locator("#resume")).to_be_visible()
    expect(tv.locator("#banner")).to_be_visible()
    holds(tv, "booty-paused", problems, shot)
    axe(tv, "paused", problems)
    ann.locator("#resume").tap()
    expect(tv.locator("#banner")).to_be_hidden()

    # Kim leaves: a bot plays Blue for her, and the TV says so in her row and in "Lately".
    kim.locator("#invite-btn").tap()
    kim.locator("#invite-leave").tap()
    kim.locator("#leave-yes").tap()  # the page's own question: "Leave this table for good?"
    set_lang(tv, "en")
    row = tv.locator(".bh-pl").filter(has_text="Kim")
    expect(row).to_contain_text("Blue")
    expect(row).to_contain_text("left the game")
    expect(row).to_contain_text("a bot plays")
    expect(tv.locator("#tv-news")).to_contain_text("Kim left")
    for width, height in ((1920, 1080), (1280, 720)):  # the sofa's sizes, into the figures' file
        tv.set_viewport_size({"width": width, "height": height})
        for lang in ("en", "hu", "ja"):
            set_lang(tv, lang)
            found = small_text(tv, {"test": "booty", "state": "6-booty-left", "players": 3})
            problems += [f"{height}p [{lang}]: {p}" for p in found]
        shot(tv, PREFIX + f"tv-{height}p-booty-left")
    holds(tv, "booty-left", problems, shot)

    # The host ends the game: the last move is shown for the pause, then the results.
    ann.locator("#host-strip").get_by_role("button", name="Host controls").tap()
    ann.locator("#host-sheet").get_by_role("button", name="End the game now").tap()
    ann.locator("#host-sheet").get_by_role("button", name="Yes, end it").tap()
    expect(ann.locator("#results")).to_be_visible(timeout=30_000)
    tv.clock.fast_forward(PAUSE * 1000 + 1000)
    expect(tv.locator("#results table.scores tbody tr")).to_have_count(3, timeout=30_000)
    holds(tv, "booty-results", problems, shot)
    axe(tv, "the results", problems)
    assert not problems, "\n".join(problems[:60])
