"""Issue 41 on the screens (Chromium; the same case in WebKit in test_webkit.py): the host adds a bot to an empty chair
during a game, from the host's tools; it walks in at the next cave and plays there. At the results the host switches
the table to Booty Hunter from the settings sheet: every phone and the TV follow without a reload (same code, the TV
still paired), the person beyond its three chairs watches, and a game of it starts and a tile is placed; then back
to the expedition."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from playwright.sync_api import expect

from gemtable.client import Client
from tests.server.harness import ServerProcess
from tests.web.a11y import assert_accessible
from tests.web.conftest import Browser
from tests.web.crowd import Crowd
from tests.web.test_booty import place
from tests.web.test_play import join, small_targets
from tools.oracles import probes

pytestmark = pytest.mark.browser

SCRIPT = [["5", "7", "spiders", "spiders"]] * 2
"""Two caves, each over at its fourth card (the second spiders) if nobody walks out before."""
KEPT = "() => window.__sameDocument === true"
"""Set on a page before the switch: still there after it, so the page followed it without a reload."""


async def play_along(client: Client, rng: random.Random) -> None:
    """A phone of the Python client that answers every decision put to it at once: in the expedition it walks out
    (so that the host's taps decide when a cave ends), in Booty Hunter it places a tile as a person might."""
    answered: set[tuple[int, int]] = set()
    while True:
        state = await client.until(
            lambda s: (
                s["phase"] == "playing"
                and bool((s.get("me") or {}).get("moves"))
                and (s["game_number"], s["decision"]) not in answered
            ),
            timeout=3600,
        )
        answered.add((state["game_number"], state["decision"]))
        moves = state["me"]["moves"]
        move = "camp" if "camp" in moves else probes(state["game"]).honest_move(state["state"], moves, rng, False)
        await client.choose(move, state["decision"])


def start_playing_along(crowd: Crowd, *names: str) -> list[Any]:
    return [
        asyncio.run_coroutine_threadsafe(play_along(crowd.clients[name], random.Random(name)), crowd.loop)
        for name in names
    ]


def test_a_bot_takes_an_empty_chair_mid_game_then_the_host_switches_to_booty_hunter(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = server.create_table(script=SCRIPT, options={"caves": 2}, seconds=60, pause=1)
    ann = browser.phone("ann")
    join(ann, code, "Ann")
    crowd = Crowd(server.ws)
    players: list[Any] = []
    try:
        crowd.join(code, "Bob", "Cy", "Dee")
        tv = browser.tv()
        tv.goto(f"/t/{code}/tv")
        expect(tv.locator("#lobby-count")).to_have_text("4 of 8 chairs taken")
        players = start_playing_along(crowd, "Bob", "Cy", "Dee")
        ann.locator("#start").tap()
        expect(ann.locator("#move-camp")).to_be_visible()

        # Cave 1: the host's tools have a bot for an empty chair; it walks in at the next cave.
        ann.locator("#host-strip").get_by_role("button", name="Host controls").tap()
        sheet = ann.locator("#host-sheet")
        expect(sheet.locator("#sheet-bot-hint")).to_have_text("It walks in at the next cave.")
        sheet.locator("#sheet-bot-kind").select_option("cautious")
        add = sheet.get_by_role("button", name="Add a bot")
        add.tap()
        expect(sheet.locator(".host-people")).to_contain_text("Ada")
        expect(add).to_be_focused()  # (the sheet is drawn in place)
        assert not small_targets(ann), small_targets(ann)
        assert_accessible(ann, "the host's tools in a game")
        shot(ann, "switch-phone-bot-mid-game")
        expect(tv.locator("#tv-next")).to_have_text("Walking in at the next cave: Ada")
        sheet.get_by_role("button", name="Close").tap()
        ann.locator("#move-camp").tap()  # the others walked out already: the cave ends

        # Cave 2: Ada is in it, and plays (her move is revealed with everyone's).
        expect(tv.locator("#game")).to_contain_text("Cave 2 of 2")
        expect(tv.locator("#game")).to_contain_text("Ada")
        ann.locator("#move-camp").tap()
        expect(tv.locator("#game .reveal")).to_contain_text("Ada")
        for page in (ann, tv):
            expect(page.locator("#results")).to_be_visible(timeout=20_000)
        status, record = server.get(f"/api/tables/{code}/games/1")
        assert status == 200
        ada = next(int(seat) for seat, name in record["names"].items() if name == "Ada")
        rounds = [i for i, item in enumerate(record["inputs"]) if item[0] == "round"]
        assert ada not in record["inputs"][rounds[0]][1] and ada in record["inputs"][rounds[1]][1]
        assert any(item[0] == ada for item in record["inputs"][rounds[1] :]), record["inputs"]

        # At the results: the settings sheet's first field is the game.
        for page in (ann, tv):
            page.evaluate("() => { window.__sameDocument = true; }")
        ann.locator("#results-host").get_by_role("button", name="Change the settings").tap()
        sheet.get_by_label("Game").select_option("booty")
        expect(sheet.locator("#set-game-hint")).to_contain_text("Booty Hunter has 3 chairs: Dee will watch.")
        expect(sheet.locator("#set-game-hint")).to_contain_text("The bots leave")
        expect(sheet.locator("#set-preset option")).to_have_count(2)
        expect(sheet.get_by_label("Game")).to_be_focused()  # (drawn again for the game picked, focus on its field)
        assert not small_targets(ann), small_targets(ann)
        assert_accessible(ann, "the settings sheet, switching")
        shot(ann, "switch-phone-settings")
        sheet.get_by_role("button", name="Switch to Booty Hunter").tap()

        # Every screen follows: the same code, Booty Hunter's lobby; Dee watches.
        for page in (ann, tv):
            expect(page.locator("#lobby-game")).to_contain_text("Booty Hunter")
            expect(page.locator("#lobby-count")).to_have_text("3 of 3 chairs taken")
            assert page.evaluate(KEPT)
        expect(tv.locator(".tv-code .table-code")).to_have_text(code)
        expect(tv.locator("#queue")).to_contain_text("Dee")
        dee = crowd.do(lambda c: c["Dee"].until(lambda s: s["game"] == "booty"))
        assert dee["me"]["status"] == "watching" and dee["code"] == code
        shot(tv, "switch-tv-booty-lobby")
        ann.locator("#start").tap()
        expect(tv.locator(".bh-board")).to_be_visible()
        expect(tv.locator("#tv-hazards")).to_be_empty()  # (the expedition's side column went with it)
        place(ann)  # (Bob and Cy place theirs when it is their turn)
        for page in (ann, tv):
            expect(page.locator(".bh-placed")).not_to_have_text("0 tiles placed")
        assert ann.evaluate(KEPT) and tv.evaluate(KEPT)
        shot(tv, "switch-tv-booty-game")
        # The expedition's record is still the night's first game, its results page unchanged.
        results = browser.phone("results")
        results.goto(f"/t/{code}/results/1")
        expect(results.locator("#results-body")).to_contain_text("Ada")

        # And back: the host ends the game, switches to the expedition; Dee sits down again, a cave opens.
        ann.locator("#host-strip").get_by_role("button", name="Host controls").tap()
        sheet.get_by_role("button", name="End the game now").tap()
        sheet.get_by_role("button", name="Yes, end it").tap()
        ann.locator("#results-host").get_by_role("button", name="Change the settings").tap()
        sheet.get_by_label("Game").select_option("expedition")
        sheet.get_by_role("button", name="Switch to The expedition").tap()
        for page in (ann, tv):
            expect(page.locator("#lobby-count")).to_have_text("4 of 8 chairs taken")
            assert page.evaluate(KEPT)
        ann.locator("#start").tap()
        expect(tv.locator("#game")).to_contain_text("Cave 1 of 5")
        expect(tv.locator("#tv-hazards")).not_to_be_empty()
        assert tv.evaluate(KEPT)
        shot(tv, "switch-tv-back-to-the-expedition")
    finally:
        for player in players:
            player.cancel()
        crowd.close()
