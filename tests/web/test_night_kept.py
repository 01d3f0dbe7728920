"""The night is kept (issue 41), on a phone at 390×844 over a name that is not local: the results page offers the
result card (shown, with its alt text, and saved) and the record (downloaded as a file), and links to the
night's games, which list the game and its winner.  The card itself is looked at in Chromium as an SVG page.

(The three players are Python clients: the pages are what is tested here; ``tests/server/test_night_kept.py``
checks the routes, the hostile names and the restart.)"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.server.test_night_kept import HOSTILE, play_night, play_short_game
from tests.web.a11y import assert_accessible
from tests.web.conftest import SHOTS, Browser
from tests.web.test_hold import holds

pytestmark = pytest.mark.browser


def test_the_results_page_keeps_the_game_and_the_night_lists_it(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    with ThreadPoolExecutor(1) as other:  # (its own event loop: Playwright's holds this thread)
        code = other.submit(play_short_game, server, HOSTILE).result(60)
    winner = f"{HOSTILE[0]} wins!"
    page = browser.phone("keeper")
    page.goto(f"/t/{code}/results/1")
    expect(page.locator(".winner-line")).to_have_text(winner)
    keep = page.locator("#keep")
    expect(keep).to_be_visible()
    card = f"/api/tables/{code}/games/1/card.svg?lang=en"
    expect(page.locator("#card-link")).to_have_attribute("href", card)
    expect(page.locator("#card-link")).to_have_attribute("download", f"gemtable-{code}-game-1.svg")
    expect(page.locator("#card-img")).to_have_attribute("alt", f"Result card of game 1. {winner}")
    page.wait_for_function(
        "() => document.querySelector('#card-img').complete && document.querySelector('#card-img').naturalWidth === 800"
    )
    box = page.locator("#card-img").bounding_box()
    assert box and box["width"] <= 390 - 16, box  # the card fits the phone's width
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    with page.expect_download() as kept:
        page.locator("#record-link").tap()
    assert kept.value.suggested_filename == f"gemtable-{code}-game-1.json"
    keep.scroll_into_view_if_needed()
    shot(page, "results-keep")

    page.locator("#night-link").tap()
    expect(page).to_have_url(re.compile(f"/t/{code}/night$"))
    expect(page.locator("h1")).to_have_text(f"Tonight at table {code}")
    games = page.locator(".night-game")
    expect(games).to_have_count(1)
    expect(games.locator("h2 a")).to_have_text(re.compile(r"^Game 1 · The expedition · \d\d:\d\d"))
    expect(games.locator("h2 a")).to_have_attribute("href", f"/t/{code}/results/1")
    reka, shalom, gergo = (f"\u2068{name}\u2069" for name in HOSTILE)  # each name isolated
    expect(games.locator(".winner-line")).to_have_text(f"{reka} wins!")
    expect(games.locator(".note")).to_have_text(f"Scores: 1st {reka} 3, 2nd {shalom} 0, 2nd {gergo} 0.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "night-games")
    page.goto("/t/QQQQ/night")
    expect(page.locator(".warn")).to_have_text("There is no table with that code.")

    viewer = browser.desktop("card")  # the card as a page of its own, at its own size
    viewer.goto(card)
    expect(viewer.locator("svg title")).to_have_text(f"The expedition · Game 1. \u2068{HOSTILE[0]}\u2069 wins!")
    SHOTS.mkdir(parents=True, exist_ok=True)
    viewer.screenshot(path=str(SHOTS / "result-card.png"), clip={"x": 0, "y": 0, "width": 800, "height": 560})


def test_the_nights_standings_on_the_night_page_the_results_and_the_tv(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    """Two games at one table (Python players, and a watcher who predicts in the second): the night's page leads
    with the standings and their card, the second game's results show them under the game's, and the TV's results
    name the leaders in its foot, above the audience's."""
    with ThreadPoolExecutor(1) as other:
        code = other.submit(play_night, server, ["Ann", "Bob", "Cleo"], [{0}, {0, 1}], "Ivy").result(60)
    page = browser.phone("night")
    page.goto(f"/t/{code}/night")
    board = page.locator(".night-standings")
    expect(board.locator("h2")).to_have_text("The night's standings")
    rows = board.locator("tbody tr")
    expect(rows).to_have_count(3)
    assert [rows.nth(i).locator("td, th").all_inner_texts() for i in range(3)] == [
        ["1st", "\u2068Ann\u2069", "2 / 2", "5"],
        ["2nd", "\u2068Bob\u2069", "1 / 2", "2"],
        ["3rd", "\u2068Cleo\u2069", "0 / 2", "0"],
    ]
    expect(page.locator("#night-card-link")).to_have_attribute("href", f"/api/tables/{code}/night.svg?lang=en")
    expect(page.locator(".night-game")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert_accessible(page, "the night's standings (a phone)")
    shot(page, "night-standings")
    page.locator("#lang").select_option("ja")
    expect(board.locator("h2")).to_have_text("今夜の順位")
    expect(rows.first.locator("td").first).to_have_text("1位")

    page.goto(f"/t/{code}/results/2")
    expect(page.locator(".night-standings tbody tr")).to_have_count(3)
    expect(page.locator(".night-standings tbody tr").first.locator("td").first).to_have_text("1位")  # (kept: ja)

    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    line = tv.locator("#tv-night")
    expect(line).to_have_text("The night: 1. \u2068Ann\u2069 (5) · 2. \u2068Bob\u2069 (2) · 3. \u2068Cleo\u2069 (0)")
    # Ivy came during game 2's cave and called it right (Ann and Bob out, no collapse): the audience's line too,
    # and the TV holds both under its results.
    expect(tv.locator("#tv-audience")).to_have_text("The audience: 1. \u2068Ivy\u2069 (3 points)")
    problems: list[str] = []
    holds(tv, "night-results", problems, shot)
    assert not problems, "\n".join(problems)
