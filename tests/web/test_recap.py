"""Between caves, a recap of the cave that ended; at the end, the final standings with places.

Three people: in cave 1 Ann walks out alone at the relic (3 gems and the relic), Bob and Cy at the next card
(4 gems each); every screen's recap says so, and how many cards the next cave's deck holds. Cave 2 collapses on
a second fire: the recap says what each lost. The results: Ann 1st, Bob and Cy both 2nd (a tie shares its
place), with their relics, before the chart — on the TV in its large type, and on the phones.

What might have been, on each player's own phone: after cave 1, Ann is told the 7 would have given her 2 more
(shared by three); Bob and Cy, who walked out last, that the next card goes back into the deck (never named); after
the collapse, that they rode the cave to its end. The awards under the standings: Ann's walk-out with the relic the
boldest, Bob last out of a cave (a tie with Cy goes to the lower seat), cave 1's odd gem left on the path, Ann the
unluckiest of three who each lost 1 (the lowest seat): on the phones (in Japanese too) and the game's results
page, not on the TV. Axe on a phone's recap and on its results.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import assert_accessible
from tests.web.conftest import Browser
from tests.web.test_play import cave_heading, join, tap
from tests.web.test_stage import PREFIX, off_stage, small_text

pytestmark = pytest.mark.browser

SCRIPT = [["5", "relic", "7"], ["4", "fire", "fire"]]


def decide(phones: dict[str, Any], moves: dict[str, str]) -> None:
    for name, move in moves.items():
        button = phones[name].locator(f"#move-{move}")
        expect(button).to_be_visible(timeout=15_000)
        expect(button).to_have_attribute("aria-pressed", "false", timeout=15_000)
        tap(phones[name], move)


def test_a_recap_between_caves_and_the_standings_with_places(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table(script=SCRIPT, options={"caves": 2}, seconds=60, pause=10)
    phones = {name: browser.phone(name.lower()) for name in ("Ann", "Bob", "Cy")}
    for name, page in phones.items():
        join(page, code, name)
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    phones["Ann"].locator("#start").tap()
    expect(tv.locator("#game .path li")).to_have_count(1)
    decide(phones, {"Ann": "deeper", "Bob": "deeper", "Cy": "deeper"})
    expect(tv.locator("#game .path li")).to_have_count(2)
    decide(phones, {"Ann": "camp", "Bob": "deeper", "Cy": "deeper"})
    expect(tv.locator("#game .path li")).to_have_count(3)
    decide(phones, {"Bob": "camp", "Cy": "camp"})
    # The pause between caves: the recap, on the TV (in place of the path) and on every phone.
    recap = tv.locator("#game .recap")
    expect(recap).to_contain_text("Cave 1: what everyone took home")
    rows = recap.locator(".recap-row")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Ann")
    expect(rows.nth(0)).to_contain_text("took home 3")
    expect(rows.nth(0).locator(".relic-chip")).to_have_text("5")
    expect(rows.nth(1)).to_contain_text("took home 4")
    expect(recap.locator(".recap-next")).to_have_text("The next cave: 31 cards in the deck.")
    expect(tv.locator("#game .recap .seat-mark")).to_have_count(3)
    assert not small_text(tv), small_text(tv)
    assert not off_stage(tv), off_stage(tv)
    shot(tv, PREFIX + "tv-1080p-recap")
    for page in phones.values():
        expect(page.locator(".recap")).to_contain_text("Cy")
        expect(page.locator(".recap")).to_contain_text("took home 4")
    # What might have been: each phone its own line; the TV none.
    expect(phones["Ann"].locator(".recap .hindsight")).to_have_text(
        "Had you stayed one more card: 7 gems, and 2 gems more for you."
    )
    for name in ("Bob", "Cy"):
        expect(phones[name].locator(".recap .hindsight")).to_have_text(
            "The next card goes back into the deck: it stays a secret."
        )
    expect(tv.locator(".hindsight")).to_have_count(0)
    assert_accessible(phones["Ann"], "a cave's recap with what might have been (a player's phone)")
    shot(phones["Bob"], "recap-phone")
    # Cave 2: a second fire buries everyone's gem.
    expect(tv.locator("#game .cave-title")).to_have_text(cave_heading(2), timeout=15_000)
    decide(phones, {"Ann": "deeper", "Bob": "deeper", "Cy": "deeper"})
    expect(tv.locator("#game .path li")).to_have_count(2)
    decide(phones, {"Ann": "deeper", "Bob": "deeper", "Cy": "deeper"})
    expect(recap).to_contain_text("Cave 2: what everyone took home")
    expect(recap.locator(".recap-row.buried")).to_have_count(3)
    expect(recap.locator(".recap-row").nth(2)).to_contain_text("lost in the collapse 1")
    expect(phones["Bob"].locator(".recap .hindsight")).to_have_text("You rode this cave to its end.")
    shot(tv, PREFIX + "tv-1080p-recap-collapse")
    # The results: the standings with places, a tie sharing its place, the relics, then the chart.
    for page in (tv, phones["Cy"]):
        scores = page.locator("#results table.scores tbody tr")
        expect(scores).to_have_count(3, timeout=20_000)
        expect(scores.nth(0).locator(".place")).to_have_text("1st")
        expect(scores.nth(0)).to_contain_text("Ann")
        expect(scores.nth(0).locator(".relic-chip")).to_have_text("5")
        expect(scores.nth(1).locator(".place")).to_have_text("2nd")
        expect(scores.nth(2).locator(".place")).to_have_text("2nd")
        standings = page.locator("#results table.scores").bounding_box()
        chart = page.locator("#results .chart").bounding_box()
        assert standings and chart
        # Before the chart in reading order: above it on a phone, to its left on the TV (side by side).
        if page is tv:
            assert standings["x"] + standings["width"] <= chart["x"], (standings, chart)
        else:
            assert standings["y"] + standings["height"] <= chart["y"], (standings, chart)
    # The awards, under the standings on the phones (the TV keeps its screen to the standings and the chart).
    expect(tv.locator("#results .awards")).to_be_hidden()
    for page in (phones["Cy"],):
        awards = page.locator("#results .awards li")
        expect(awards).to_have_count(4)
        expect(awards.nth(0)).to_have_text("Boldest walk-out: Ann, 3 gems out of cave 1 and relics worth 5")
        expect(awards.nth(1)).to_have_text("Last out of the cave: Bob, once")
        expect(awards.nth(2)).to_have_text("Richest path left behind: cave 1, 1 gem back to the supply")
        expect(awards.nth(3)).to_have_text("Unluckiest: Ann, 1 gem lost in the collapse of cave 2")
    status, record = server.get(f"/api/tables/{code}/games/1")
    assert status == 200 and record["final"]["awards"]["boldest"] == {
        "seat": 0, "cave": 1, "gems": 3, "relics": 5, "card": 2
    }  # fmt: skip
    assert not off_stage(tv), off_stage(tv)
    assert_accessible(phones["Cy"], "the results with the awards (a player's phone)")
    assert not small_text(tv), small_text(tv)
    shot(tv, PREFIX + "tv-1080p-standings")
    shot(phones["Cy"], "standings-phone", full=True)
    phones["Cy"].locator("#lang").select_option("hu")
    expect(phones["Cy"].locator("#results .scores tbody tr").nth(0).locator(".place")).to_have_text("1.")
    phones["Cy"].locator("#lang").select_option("ja")
    expect(phones["Cy"].locator("#results .scores tbody tr").nth(1).locator(".place")).to_have_text("2位")
    expect(phones["Cy"].locator("#results .awards li").nth(1)).to_have_text("洞窟から最後に出た人：Bob、1回")
    # The game's own results page draws them from the record's final view.
    page = phones["Bob"]
    page.goto(f"/t/{code}/results/1")
    expect(page.locator("#results-body .awards li")).to_have_count(4)
    expect(page.locator("#results-body .awards h2")).to_have_text("Awards")
    expect(page.locator("#results-body .awards li").nth(3)).to_have_text(
        "Unluckiest: Ann, 1 gem lost in the collapse of cave 2"
    )
