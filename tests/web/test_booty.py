"""Booty Hunter through the pages: three phones and a TV play a scripted game by tapping.

The bag is scripted (``first: 0``): Ann (red) lays the all-gem tile 37 in the middle, so Bob's
first draw, the gem-less tile 28, fits nowhere and is set aside; nine tiles are placed in three
rounds and the bag is empty.  Every placement is made as a person makes it: rotate, tap a
highlighted spot, place it.  Then the count flips the markers one by one, the results name the
winner, and the host plays again.  What is asserted is what a person reads.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web import make_booty_tiles
from tests.web.conftest import Browser
from tests.web.test_play import contrast_failures, join, small_targets

WEB = Path(__file__).resolve().parents[2] / "src" / "gemtable" / "games" / "booty" / "web"
BAG = {"bag": [37, 28, 1, 5, 9, 13, 17, 21, 25, 33], "first": 0}
NAMES = ("Ann", "Bob", "Cat")
COLOURS = ("Red", "Blue", "Yellow")
BUDGET = 150 * 1024


def booty_table(server: ServerProcess, **settings: Any) -> str:
    status, body = server.post("/api/tables", {"game": "booty", "countdown": 0, "ready_check": False, **settings})
    assert status == 201, body
    return str(body["code"])


def placed(n: int) -> str:
    return f"{n} tile placed" if n == 1 else f"{n} tiles placed"


def place(page: Any, rotations: int = 1) -> None:
    """Rotate the drawn tile, tap the first highlighted spot, place it."""
    expect(page.locator("#actions")).to_be_visible()
    for _ in range(rotations):
        page.locator(".bh-rotate").tap()
    for _ in range(4):  # turned so that it fits somewhere
        if page.locator(".bh-spot").count():
            break
        page.locator(".bh-rotate").tap()
    page.locator(".bh-spot").first.tap()
    expect(page.locator(".bh-board .bh-ghost")).to_have_count(1)
    expect(page.locator(".bh-place")).to_be_enabled()
    page.locator(".bh-place").tap()


def small_spots(page: Any) -> list[str]:
    """Highlighted spots smaller than 44×44 px on the screen."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('.bh-spot')].map((el) => el.getBoundingClientRect())
          .filter((r) => r.width < 44 || r.height < 44).map((r) => `${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    return found


# --- without a browser -----------------------------------------------------------------------


def test_the_pages_tile_copy_is_the_engines_tile_set() -> None:
    copy = (WEB / "tiles.json").read_text(encoding="utf-8")
    assert copy == make_booty_tiles.text(), "run: .venv/bin/python -m tests.web.make_booty_tiles"
    engine = json.loads(make_booty_tiles.ENGINE.read_text(encoding="utf-8"))["tiles"]
    assert json.loads(copy)["tiles"] == engine
    assert len(engine) == 38


def test_the_rules_texts_have_every_key_in_every_language() -> None:
    def load(lang: str) -> dict[str, str]:
        texts: dict[str, str] = json.loads((WEB / f"rules.{lang}.json").read_text(encoding="utf-8"))
        return texts

    english = load("en")
    used = set(re.findall(r"\br\('([a-z_0-9]+)'", (WEB / "rules.js").read_text(encoding="utf-8")))
    used |= {
        f"{point}_{part}"
        for point, readings in (("touching", ["scores", "void"]), ("tie", ["share", "none"]))
        for part in ["h", *readings]
    }  # built as r(`${key}_${value}`)
    assert used - set(english) == set(), used - set(english)
    for lang in ("hu", "ja"):
        other = load(lang)
        assert set(other) == set(english), set(other) ^ set(english)
        for key, text in english.items():
            assert other[key], f"{lang}: {key} is empty"
            assert set(re.findall(r"\{(\w+)\}", other[key])) == set(re.findall(r"\{(\w+)\}", text)), f"{lang}: {key}"


# --- in Chromium -----------------------------------------------------------------------------


@pytest.mark.browser
def test_three_phones_and_a_tv_play_booty_hunter_by_tapping(server: ServerProcess, browser: Browser, shot: Any) -> None:
    code = booty_table(server, script=BAG, seconds=60)
    phones = []
    for name in NAMES:
        page = browser.phone(name.lower())
        join(page, code, name)
        phones.append(page)
    ann, bob, cat = phones
    tv = browser.tv()
    tv.goto(f"/t/{code}/tv")
    expect(tv.locator("main")).to_contain_text("Cat")
    expect(ann.locator("#lobby-game")).to_contain_text("Booty Hunter · Every area scores · 60 s per turn")
    expect(ann.locator("#lobby-count")).to_have_text("3 of 3 chairs taken")
    shot(ann, "booty-phone-01-lobby")

    ann.locator("#start").tap()
    for page, colour in zip(phones, COLOURS, strict=True):
        expect(page.locator(".bh-round")).to_contain_text("Round 1 of 12 · 0 tiles placed · 9 tiles in the bag")
        expect(page.locator(".bh-you")).to_contain_text(f"You play {colour}")
    expect(ann.locator(".bh-turn")).to_contain_text("Your turn")
    expect(ann.locator("#clock-label")).to_have_text("Your turn — place within")
    expect(bob.locator(".bh-turn")).to_contain_text("Ann's turn")
    expect(bob.locator(".bh-turn")).to_contain_text("Red")
    expect(bob.locator("#actions")).to_be_hidden()
    expect(tv.locator(".bh-turn")).to_contain_text("Ann's turn")
    expect(tv.locator("#clock-label")).to_have_text("Ann's turn — ends in")
    # The first tile goes in the middle: one spot, and the whole turn by thumb.
    expect(ann.locator(".bh-spot")).to_have_count(1)
    shot(ann, "booty-phone-02-my-turn")
    shot(bob, "booty-phone-03-watching-a-turn")
    assert not small_targets(ann), small_targets(ann)
    assert not contrast_failures(ann), contrast_failures(ann)
    assert not small_spots(ann), small_spots(ann)

    # Ann picks the spot, changes her mind (cancel), picks it again and places the tile.
    ann.locator(".bh-spot").first.tap()
    expect(ann.locator(".bh-note")).to_contain_text("Place it here?")
    expect(ann.locator(".bh-board .bh-ghost")).to_have_count(1)
    ann.locator(".bh-cancel").tap()
    expect(ann.locator(".bh-place")).to_be_disabled()
    expect(ann.locator(".bh-note")).to_have_text("Tap a highlighted spot on the board.")
    place(ann)

    # Bob's first draw (tile 28, no gem half) fits nowhere next to four gem halves: set aside.
    for page in phones:
        expect(page.locator(".bh-placed")).to_have_text(placed(1))
        expect(page.locator(".bh-aside")).to_contain_text("drawn by Bob")
    expect(bob.locator(".bh-turn")).to_contain_text("Your turn")
    expect(bob.locator("#live")).to_contain_text("Your turn: place your tile.")
    expect(tv.locator(".bh-aside")).to_contain_text("drawn by Bob")
    bob.locator(".bh-spot").first.tap()
    expect(bob.locator(".bh-note")).to_contain_text(re.compile("Place it here|Only this way"))
    shot(bob, "booty-phone-04-spot-chosen")
    assert not small_targets(bob), small_targets(bob)
    assert not contrast_failures(bob), contrast_failures(bob)
    bob.locator(".bh-place").tap()

    for n in range(2, 9):
        for page in phones:
            expect(page.locator(".bh-placed")).to_have_text(placed(n))
        turn = n % 3
        expect(phones[turn].locator(".bh-turn")).to_contain_text("Your turn")
        expect(phones[(turn + 1) % 3].locator(".bh-turn")).to_contain_text(f"{NAMES[turn]}'s turn")
        expect(tv.locator(".bh-turn")).to_contain_text(f"{NAMES[turn]}'s turn")
        if n == 4:
            expect(tv.locator(".bh-round")).to_contain_text("Round 2 of 12")
            expect(tv.locator(".bh-board [data-marker='white']").first).to_be_visible()
            shot(cat, "booty-phone-05-round-2")
            shot(tv, "booty-tv-01-play")
        place(phones[turn], rotations=n % 2)

    # The count: diamond by diamond, markers flip from white to black, points shown.
    for page in (*phones, tv):
        expect(page.locator(".bh-count .results-title")).to_have_text("The count")
    # (The record is read once the phones show the end: the last tap may still be on its way to the server.)
    final = server.get(f"/api/tables/{code}/games/1")[1]
    winners = [final["names"][str(seat)] for seat in final["winners"]]
    win_text = f"{winners[0]} wins!" if len(winners) == 1 else f"{' and '.join(winners)} share the win!"
    expect(ann.locator(".bh-results [data-marker='black']").first).to_be_attached(timeout=5000)
    expect(ann.locator(".bh-results .bh-ring")).to_have_count(1)
    expect(ann.locator(".bh-step")).to_contain_text(re.compile(r"Diamond \d of \d"))
    expect(ann.locator(".bh-gain").first).to_have_text(re.compile(r"^\+\d+$"))
    expect(ann.locator("#again")).to_be_hidden()  # the host's "play again" comes after the count
    expect(tv.locator(".bh-results [data-marker='black']").first).to_be_attached()
    shot(ann, "booty-phone-06-count")
    shot(tv, "booty-tv-02-count")
    assert not contrast_failures(ann), contrast_failures(ann)

    # A tap skips the count on one phone; the others watch it to the end.
    bob.locator(".bh-results .bh-board").tap()
    expect(bob.locator(".winner-line")).to_have_text(win_text, timeout=2000)
    expect(bob.locator(".bh-results [data-marker='white']")).to_have_count(0)
    for page in (ann, cat, tv):
        expect(page.locator(".winner-line")).to_have_text(win_text, timeout=20_000)
    rows = ann.locator(".bh-results table.scores tbody tr")
    expect(rows).to_have_count(3)
    best = max(final["scores"])
    expect(rows.first.locator(".total")).to_have_text(str(best))
    expect(ann.locator("#again")).to_be_visible()
    expect(cat.locator("#again-wait")).to_have_text("Waiting for Ann to start a new game.")
    expect(tv.locator(".bh-results [data-marker='white']")).to_have_count(0)
    shot(ann, "booty-phone-07-results")
    shot(tv, "booty-tv-03-results")
    assert not small_targets(ann), small_targets(ann)
    assert not contrast_failures(ann), contrast_failures(ann)

    # The results page: the scores, the winner and (the table still shows it) the final board.
    cat.goto(f"/t/{code}/results/1")
    expect(cat.locator(".winner-line")).to_have_text(win_text)
    expect(cat.locator("table.scores tbody tr")).to_have_count(3)
    expect(cat.locator(".bh-board [data-marker='black']").first).to_be_attached()
    shot(cat, "booty-results-page", full=True)

    # Play again: a new game, the same three colours.
    ann.locator("#again").tap()
    for page in (ann, bob):
        expect(page.locator(".bh-placed")).to_have_text(placed(0))
    expect(ann.locator(".bh-turn")).to_contain_text("Your turn")


@pytest.mark.browser
def test_the_start_page_sets_up_booty_hunter(server: ServerProcess, browser: Browser, shot: Any) -> None:
    page = browser.phone("start")
    page.goto("/")
    expect(page.locator("#game option")).to_have_count(2)
    page.locator("#game").select_option("booty")
    expect(page.locator("#preset option")).to_have_text(["Every area scores", "Only the larger area scores"])
    expect(page.locator("#seconds-label")).to_have_text("Seconds per turn")
    expect(page.locator("#seconds")).to_have_value("60")
    expect(page.locator("#opt-relics")).to_have_count(0)  # the options are the chosen game's, from its manifest
    expect(page.locator("#opt-touching")).to_have_value("scores")  # the usual readings by default
    expect(page.locator("#opt-tie")).to_have_value("share")
    expect(page.locator("#opt-touching option")).to_have_text(["still scores (usual)", "scores nothing at all"])
    expect(page.locator("#opt-clock")).to_be_checked()
    expect(page.locator("#clock-hint")).to_contain_text("first spot that fits")
    page.locator("#preset").select_option("largest-area")
    expect(page.locator("#rules-link")).to_have_attribute("href", "/rules/booty?preset=largest-area")
    page.locator("#opt-clock").tap()
    expect(page.locator("#clock-hint")).to_contain_text("gone for 30 seconds")
    expect(page.locator("#seconds")).to_be_disabled()
    page.locator("#opt-touching").select_option("void")
    shot(page, "booty-start", full=True)
    assert not small_targets(page), small_targets(page)
    assert not contrast_failures(page), contrast_failures(page)
    page.get_by_role("button", name="Create the table").tap()
    expect(page).to_have_url(re.compile(r"/t/[A-Z]{4}$"))
    page.get_by_label("Your name").fill("Ann")
    page.locator("#join-go").tap()
    expect(page.locator("#lobby-game")).to_have_text("Booty Hunter · Only the larger area scores · no turn clock")
    expect(page.locator("#rules-link")).to_have_attribute(
        "href", re.compile(r"^/rules/booty\?preset=largest-area&touching=void&tie=share$")
    )
    # Back to the expedition: its own seconds.
    page.goto("/")
    page.locator("#game").select_option("booty")
    page.locator("#game").select_option("expedition")
    expect(page.locator("#seconds-label")).to_have_text("Seconds per decision")
    expect(page.locator("#seconds")).to_have_value("10")
    expect(page.locator("#clock-options")).to_contain_text("Decision clock")  # the expedition's: on by default
    expect(page.locator("#opt-clock")).to_be_checked()
    expect(page.locator("#opt-relics")).to_be_checked()
    expect(page.locator("#opt-touching")).to_have_count(0)


@pytest.mark.browser
def test_the_booty_rules_page_draws_every_tile(server: ServerProcess, browser: Browser, shot: Any) -> None:
    page = browser.phone("rules")
    page.goto("/rules/booty?preset=largest-area")
    expect(page.locator("h1")).to_have_text("Booty Hunter — rules")
    expect(page.locator(".bh-grid .bh-tile-svg")).to_have_count(38)
    main = page.locator("main")
    expect(main).to_contain_text("Only the larger area scores: only the touching area of the greatest size")
    expect(page.locator(".bh-mode")).to_contain_text("(this table)")
    expect(main).to_contain_text("once a player's phone has been gone for 30 seconds, their tile is placed for them")
    expect(main).to_contain_text("60 unless changed")
    expect(page.locator(".bh-sim dl")).to_have_count(3)
    expect(page.locator(".bh-sim")).to_contain_text("96 of 72,096 (0.13 %)")
    expect(page.locator(".bh-fig [data-marker='white']")).to_have_count(5)  # 1 + 4 diamonds in the two figures
    expect(main).to_contain_text("docs/booty-hunter.md")
    tile = page.locator(".bh-grid .bh-tile-svg").first
    expect(tile).to_have_attribute("aria-label", re.compile(r"gem half, Red land worth 2, Blue land worth 1"))
    shot(page, "booty-rules", full=True)
    assert not contrast_failures(page), contrast_failures(page)
    page.locator("#lang").select_option("hu")
    expect(page.locator("h1")).to_have_text("Booty Hunter — szabályok")
    expect(main).to_contain_text("30 másodperce eltűnt")
    page.locator("#lang").select_option("ja")
    expect(page.locator("h1")).to_have_text("ブーティーハンター — ルール")
    expect(page.locator(".bh-grid .bh-tile-svg")).to_have_count(38)
    shot(page, "booty-rules-ja")


@pytest.mark.browser
def test_a_phone_with_two_bots_weighs_under_150_kb_pans_and_pinches(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    code = booty_table(server, script=BAG, turn_clock=False)
    page = browser.phone("weight", locale="ja-JP")  # the largest translation file
    loaded: dict[str, int] = {}

    def count(response: Any) -> None:
        if response.url.startswith(browser.base) and response.request.method == "GET":
            loaded[response.url] = loaded.get(response.url, 0) + len(response.body())

    page.on("response", count)
    join(page, code, "Lea", prompt="あなたの名前")
    page.locator("#bot-kind").select_option("greedy")
    page.locator("#add-bot").tap()
    page.locator("#bot-kind").select_option("random")
    page.locator("#add-bot").tap()
    expect(page.locator("#lobby-count")).to_have_text("3席中 3席が埋まっています")
    expect(page.locator("#lobby-game")).to_contain_text("手番タイマーなし")
    page.locator("#invite-btn").tap()
    expect(page.locator("#invite .qr")).to_be_visible()
    page.locator("#invite-close").tap()
    page.locator("#start").tap()
    expect(page.locator(".bh-turn")).to_contain_text("あなたの番")
    expect(page.locator("#clock-label")).to_have_text("あなたの番（手番タイマーなし）")
    expect(page.locator(".bh-you")).to_contain_text("あなたの色：赤")
    page.wait_for_load_state("networkidle")
    status, manifest = server.get("/manifest.webmanifest")
    assert status == 200
    for url in ["/manifest.webmanifest", *(icon["src"] for icon in json.loads(manifest)["icons"])]:
        if browser.base + url not in loaded:
            status, body = server.get(url)
            assert status == 200, url
            loaded[browser.base + url] = len(body)
    total = sum(loaded.values())
    report = "\n".join(f"{size:7d} {url}" for url, size in sorted(loaded.items(), key=lambda kv: -kv[1]))
    print(f"\nbooty phone page: {total} bytes in {len(loaded)} files\n{report}")
    assert any(url.endswith("/games/booty/page.js") for url in loaded)
    assert any(url.endswith("/games/booty/page.css") for url in loaded)
    assert total < BUDGET, report
    shot(page, "booty-phone-08-ja-bots")

    # One finger pans the board, two pinch it; "show the whole board" fits it again.
    board = page.locator(".bh-play .bh-board")
    fitted = board.get_attribute("viewBox")
    box = board.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, *points: tuple[float, float]) -> None:
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": kind, "touchPoints": [{"x": px, "y": py, "id": i} for i, (px, py) in enumerate(points)]},
        )

    touch("touchStart", (x, y))
    for step in range(1, 6):
        touch("touchMove", (x + step * 12, y + step * 6))
    touch("touchEnd")
    panned = board.get_attribute("viewBox")
    assert panned != fitted
    assert float(panned.split()[2]) == pytest.approx(float(fitted.split()[2]), rel=1e-3)  # same zoom
    touch("touchStart", (x - 30, y), (x + 30, y))
    for step in range(1, 6):
        touch("touchMove", (x - 30 - step * 15, y), (x + 30 + step * 15, y))
    touch("touchEnd")
    pinched = board.get_attribute("viewBox")
    assert float(pinched.split()[2]) < float(panned.split()[2]) * 0.6  # zoomed in
    page.locator(".bh-zoom .btn").nth(1).tap()  # zoom out
    assert float(board.get_attribute("viewBox").split()[2]) > float(pinched.split()[2])
    page.locator(".bh-zoom .btn").nth(2).tap()  # the whole board
    expect(board).to_have_attribute("viewBox", fitted)
    expect(page.locator(".bh-zoom .btn").nth(2)).to_have_attribute("aria-label", "盤面全体を表示")
    # The spot is still there to tap; the bots answer and it is Lea's turn again.
    place(page, rotations=0)
    expect(page.locator(".bh-placed")).to_have_text("3枚配置済み", timeout=10_000)
    expect(page.locator(".bh-turn")).to_contain_text("あなたの番")


@pytest.mark.browser
def test_the_turn_clock_places_a_silent_players_tile(server: ServerProcess, browser: Browser) -> None:
    """The rule on the rules page: when the turn clock runs out, the first spot that fits, fewest turns."""
    # The hold is off: a lone player's silence would first ask whether everyone is here (test_silent_hold.py).
    code = booty_table(server, script=BAG, seconds=2, hold_silent=False)
    page = browser.phone("silent")
    join(page, code, "Sam")
    for _ in range(2):
        page.locator("#add-bot").tap()
    expect(page.locator("#lobby-count")).to_have_text("3 of 3 chairs taken")
    page.locator("#start").tap()
    expect(page.locator(".bh-turn")).to_contain_text("Your turn")
    expect(page.locator("#clock-num")).to_have_text(re.compile(r"^[12] s$"))
    expect(page.locator(".bh-placed")).to_have_text(placed(1), timeout=5000)  # nobody tapped anything
    expect(page.locator("#actions")).to_be_hidden()
    expect(page.locator("#live")).to_contain_text("Sam placed tile 1.")
    expect(page.locator(".bh-board .bh-tile").first).to_have_attribute("transform", "translate(0 0)")


@pytest.mark.browser
def test_the_rules_page_says_which_reading_is_which(server: ServerProcess, browser: Browser, shot: Any) -> None:
    page = browser.phone("readings")
    page.goto("/rules/booty?preset=largest-area&touching=void&tie=share")
    touching, tie = page.locator("#reading-touching"), page.locator("#reading-tie")
    expect(touching.locator("h3")).to_have_text("A diamond touching another diamond")
    expect(touching.locator("li")).to_have_text(
        [
            "It still scores: its touching land areas score as usual,"
            " and the gem half it touches adds nothing. (default)",
            "It scores nothing at all, for anyone. (this table)",
        ]
    )
    expect(tie.locator("li")).to_have_text(
        ["Every area of the greatest size scores. (default) (this table)", "None of the tied areas scores."]
    )
    expect(page.locator("main")).to_contain_text("This tile set is gemtable's own design, not the physical game's")
    touching.scroll_into_view_if_needed()
    shot(page, "booty-rules-readings")
    assert not contrast_failures(page), contrast_failures(page)
    page.locator("#lang").select_option("hu")
    expect(touching.locator("li").nth(1)).to_have_text("Semmit sem ér, senkinek. (ennél az asztalnál)")
    # /rules lists every game whose manifest names a rules page, by its translated title.
    page.goto("/rules")
    expect(page.locator("main a")).to_have_text(["Az expedíció", "Booty Hunter"])
