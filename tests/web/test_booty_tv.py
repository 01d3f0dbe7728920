"""Booty Hunter on the TV, from the sofa: whose turn it is, who left and which colour a bot plays, in the TV's
large type at 1920×1080 and 1280×720, in English, Hungarian and Japanese (the smallest sizes found go to
artifacts/tv-text-sizes.json, beside the matrix's)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.test_booty import BAG, booty_table
from tests.web.test_play import join
from tests.web.test_stage import PREFIX, off_stage, overlaps, set_lang, small_text

pytestmark = pytest.mark.browser


def test_the_tv_says_whose_turn_who_left_and_which_colour_a_bot_plays(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = booty_table(server, script=BAG, seconds=60)  # Ann, the first chair, plays first (unscripted: anyone)
    ann, kim = browser.phone("ann"), browser.phone("kim")
    join(ann, code, "Ann")
    join(kim, code, "Kim")
    ann.locator("#add-bot").tap()
    tvs = {}
    for width, height in ((1920, 1080), (1280, 720)):
        context = browser._context(viewport={"width": width, "height": height}, locale="en-GB", base_url=browser.base)
        tvs[height] = browser._page(f"tv-{height}", context)
        tvs[height].goto(f"/t/{code}/tv")
        expect(tvs[height].locator("#people .bh-swatch")).to_have_count(3)  # the lobby: each colour's swatch
    ann.locator("#start").tap()
    for tv in tvs.values():
        expect(tv.locator(".bh-turn-name")).to_have_text("Ann's turn")
        expect(tv.locator(".bh-pl.turn .bh-now")).to_have_text("placing a tile")
        expect(tv.locator("#waiting-for")).to_have_text("Waiting for: Ann")
    # Kim leaves: a bot plays Blue for her, and every TV says so in her row and in "Lately".
    kim.locator("#invite-btn").tap()
    kim.locator("#invite-leave").tap()
    kim.locator("#leave-yes").tap()  # the page's own question: "Leave this table for good?"
    problems: list[str] = []
    for height, tv in tvs.items():
        row = tv.locator(".bh-pl").filter(has_text="Kim")
        expect(row).to_contain_text("Blue")
        expect(row).to_contain_text("left the game")
        expect(row).to_contain_text("a bot plays")
        expect(tv.locator("#tv-news")).to_contain_text("Kim left")
        for lang in ("en", "hu", "ja"):
            set_lang(tv, lang)
            found = small_text(tv, {"test": "booty", "state": "6-booty-left", "players": 3})
            problems += [f"{height}p [{lang}]: {p}" for p in found + off_stage(tv) + overlaps(tv)]
        shot(tv, PREFIX + f"tv-{height}p-booty-left")
    assert not problems, "\n".join(problems)
