"""A finished game's replay (issue 42, item 4) in a real Chromium at 390×844 over a non-local name: the page
steps a whole game by keyboard to its final scores (the record's), passes axe, weighs under its budget; and the
one file ``gemtable replay --html`` writes steps the same way opened from the disk (file://, no server)."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from gemtable.cli import main
from tests.server.harness import ServerProcess
from tests.server.test_night_kept import play_short_game
from tests.web.a11y import assert_accessible
from tests.web.conftest import Browser
from tests.web.test_pages import REPLAY_BUDGET

pytestmark = pytest.mark.browser


def final_scores(page: Any) -> dict[str, int]:
    rows = page.locator(".rp-scores tbody tr")
    return {
        row.locator("th").inner_text().strip("\u2068\u2069"): int(row.locator("td").inner_text()) for row in rows.all()
    }


def test_the_replay_steps_a_whole_game_by_keyboard(
    server: ServerProcess, browser: Browser, tmp_path: Path, shot: Any
) -> None:
    with ThreadPoolExecutor(1) as other:  # (its own event loop: Playwright's holds this thread)
        code = other.submit(play_short_game, server, ["Ann", "Bob"]).result(60)  # Ann walks out; Bob: two Spiders
    record = server.get(f"/api/tables/{code}/games/1")[1]
    want = {record["names"][str(seat)]: score for seat, score in enumerate(record["scores"])}
    page = browser.phone("replay")
    loaded: dict[str, int] = {}

    def count(response: Any) -> None:
        if response.url.startswith(browser.base) and response.request.method == "GET":
            loaded[response.url] = loaded.get(response.url, 0) + len(response.body())

    page.on("response", count)
    page.goto(f"/t/{code}/games/1/replay")
    counter, live = page.locator("#rp-counter"), page.locator("#rp-live")
    expect(counter).to_have_text("Step 1 of 3 · cave 1 of 1, card 1")
    expect(page.locator("h1")).to_have_text("Replay of game 1: The expedition")
    expect(live).to_contain_text("The first card: 5 gems.")
    page.wait_for_load_state("networkidle")
    report = "\n".join(f"{size:7d} {url}" for url, size in sorted(loaded.items(), key=lambda kv: -kv[1]))
    print(f"\nreplay page: {sum(loaded.values())} bytes in {len(loaded)} files\n{report}")
    assert sum(loaded.values()) < REPLAY_BUDGET, report
    assert_accessible(page, "the replay page")
    page.locator("#lang").select_option("ja")  # the steps again, with the Japanese words
    expect(page.locator("h1")).to_have_text("ゲーム1のリプレイ:探検")
    assert_accessible(page, "the replay page [ja]")
    page.locator("#lang").select_option("en")
    expect(counter).to_have_text("Step 1 of 3 · cave 1 of 1, card 1")
    # The keys: → a step on, ← back, End the last, Home the first; each step announced in words.
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("Step 2 of 3 · cave 1 of 1, card 2")
    took = f"\u2068Ann\u2069 walked out with {record['scores'][0]} gems."
    expect(live).to_contain_text(f"Deeper: \u2068Bob\u2069. {took} The next card: Spiders.")
    expect(page.locator(".rp-table tr[data-seat='0'] .rp-choice")).to_have_text("Walk out")
    shot(page, "replay-step-2")
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_text("Step 3 of 3 · cave 1 of 1, card 3")
    expect(live).to_contain_text("A second Spiders: the cave collapses.")
    expect(page.locator("#rp-next")).to_be_disabled()
    assert final_scores(page) == want
    expect(page.locator(".rp-winner")).to_have_text("\u2068Ann\u2069 wins.")
    shot(page, "replay-end")
    page.keyboard.press("Home")
    expect(counter).to_contain_text("Step 1 of 3")
    page.keyboard.press("Space")  # plays; Space again pauses (the button says which)
    expect(page.locator("#rp-play")).to_have_text("❚❚ Pause")
    page.keyboard.press("Space")
    expect(page.locator("#rp-play")).to_have_text("▶ Play")
    page.keyboard.press("End")
    assert final_scores(page) == want
    page.locator("#rp-back").tap()  # the buttons too
    expect(counter).to_contain_text("Step 2 of 3")
    # The results page and the night's list lead to it.
    page.goto(f"/t/{code}/results/1")
    expect(page.locator("#replay-link")).to_have_attribute("href", f"/t/{code}/games/1/replay")
    page.goto(f"/t/{code}/night")
    page.get_by_role("link", name="Watch the replay, step by step").tap()
    expect(page).to_have_url(re.compile(f"/t/{code}/games/1/replay$"))
    expect(counter).to_contain_text("Step 1 of 3")

    # The same replay as one file, opened from the disk: no server, no network.
    path, out = tmp_path / "record.json", tmp_path / "replay.html"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path), "--html", str(out)]) == 0
    offline = browser.phone("replay-file")
    requests: list[str] = []
    offline.on("request", lambda request: requests.append(request.url))
    offline.goto(out.as_uri())
    expect(offline.locator("#rp-counter")).to_have_text("Step 1 of 3 · cave 1 of 1, card 1")
    for _ in range(2):
        offline.keyboard.press("ArrowRight")
    expect(offline.locator("#rp-live")).to_contain_text("A second Spiders: the cave collapses.")
    assert final_scores(offline) == want
    assert all(re.match(r"(file|data):", url) for url in requests), requests
