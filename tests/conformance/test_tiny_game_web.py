"""The tiny game's web part, from its own folder, in a real Chromium against a real server that knows the game
only through ``GEMTABLE_GAMES``: its board and buttons (its page module), its styles, its texts in English,
Hungarian and Japanese, its rules page — and, when its module fails to load, an error that says so (logged),
never a board that "is not built yet".  Nothing outside ``tiny_game/`` names it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from gemtable.games import EXTRA
from tests.conformance.conftest import TINY
from tests.server.harness import ServerProcess
from tests.web.conftest import ROOM_HOST, Browser

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
WEB = Path(__file__).resolve().parent / "tiny_game" / "web"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server told about the tiny game the way any server is: ``GEMTABLE_GAMES`` (and the folder on its path)."""
    mp = pytest.MonkeyPatch()
    mp.setenv(EXTRA, TINY)
    mp.setenv("PYTHONPATH", str(ROOT))
    public = f"http://{ROOM_HOST}:{{port}}"
    proc = ServerProcess(tmp_path_factory.mktemp("tiny-web") / "data", public_url=public).start()
    try:
        yield proc
    finally:
        proc.stop()
        mp.undo()


def texts(lang: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((WEB / f"texts.{lang}.json").read_text("utf-8"))
    return loaded


def new_table(server: ServerProcess) -> str:
    """A table of pick, without the start's countdown (as the harness makes them: these tests are about the game's
    folder, not about starting)."""
    status, body = server.post(
        "/api/tables", {"game": "pick", "seconds": 10, "pause": 0.5, "countdown": 0, "ready_check": False}
    )
    assert status == 201, body
    return str(body["code"])


def test_the_catalogue_points_into_the_games_own_folder(server: ServerProcess) -> None:
    status, catalogue = server.get("/api/games")
    assert status == 200
    pick = next(game for game in catalogue["games"] if game["name"] == "pick")
    assert pick["page"] == "/games/pick/page.js" and pick["rules_page"] == "/games/pick/rules.js"
    assert pick["styles"] == ["/games/pick/page.css"] and pick["translations"] == ["/games/pick/texts"]
    for url, file in [("/games/pick/page.js", "page.js"), ("/games/pick/texts.ja.json", "texts.ja.json")]:
        status, body = server.get(url)
        assert status == 200 and (body if isinstance(body, bytes) else json.dumps(body).encode())
        assert (WEB / file).is_file()


def test_a_whole_game_of_pick_on_a_live_table_in_chromium(server: ServerProcess, browser: Browser, shot: Any) -> None:
    code = new_table(server)
    ja = texts("ja")
    page = browser.phone("pick-ja", locale="ja-JP")
    page.goto(f"/t/{code}")
    page.locator("#join-name").fill("Aki")
    page.locator("#join-go").tap()
    expect(page.locator("#who")).to_have_text("Aki")
    page.locator("#bot-kind").select_option("random")
    page.locator("#add-bot").tap()
    expect(page.locator("#start")).to_be_enabled()
    page.locator("#start").tap()
    for round_number, pick in enumerate(["2", "3", "1"], 1):
        title = ja["pick.round"].replace("{n}", str(round_number)).replace("{total}", "3")
        expect(page.locator("#pick-title")).to_have_text(title)
        expect(page.locator(".pick-note")).to_have_text(ja["pick.choose"])
        button = page.locator(f"#pick-{pick}")
        expect(button).to_be_visible()
        if round_number == 1:
            # The game's own style sheet, from its folder: big buttons (a touch target of 64 px at least).
            assert button.evaluate("(el) => parseFloat(getComputedStyle(el).minHeight)") >= 64
            assert page.evaluate(
                "() => [...document.styleSheets].some((s) => s.href?.endsWith('/games/pick/page.css'))"
            )
            shot(page, "pick-phone-ja-round-1")
        button.tap()
        if round_number < 3:
            expect(page.locator(".pick-history tbody tr")).to_have_count(round_number, timeout=15_000)
    expect(page.locator(".pick-scores li")).to_have_count(2, timeout=15_000)
    expect(page.locator(".pick-scores")).to_contain_text("Aki")
    status, record = server.get(f"/api/tables/{code}/games/1")
    assert status == 200 and record["game"] == "pick"
    assert [move for seat, move in (i for i in record["inputs"] if i[0] != "round") if seat == 0] == ["2", "3", "1"]
    shot(page, "pick-phone-ja-results")


def test_its_rules_page_in_hungarian(server: ServerProcess, browser: Browser, shot: Any) -> None:
    hu = texts("hu")
    page = browser.phone("pick-rules-hu", locale="hu-HU")
    page.goto("/rules/pick")
    expect(page.locator("h1")).to_have_text(hu["pick.rules_title"])
    expect(page.locator(".pick-rules")).to_contain_text(hu["pick.rules_score"])
    assert page.locator("h1").evaluate("(el) => getComputedStyle(el).color") == "rgb(59, 47, 30)"  # page.css
    shot(page, "pick-rules-hu")
    page.goto("/rules")
    expect(page.get_by_role("link", name=hu["game.pick"])).to_be_visible()  # listed by its own title


def test_a_game_module_that_fails_to_load_is_an_error_logged_and_shown(server: ServerProcess, browser: Browser) -> None:
    code = new_table(server)
    page = browser.phone("pick-broken", locale="en-GB")
    page.route("**/games/pick/page.js", lambda route: route.fulfill(status=500, body="broken"))
    page.goto(f"/t/{code}")
    page.locator("#join-name").fill("Bea")
    page.locator("#join-go").tap()
    page.locator("#bot-kind").select_option("random")
    page.locator("#add-bot").tap()
    page.locator("#start").tap()
    alert = page.get_by_role("alert").filter(
        has_text=json.loads((ROOT / "src/gemtable/web/static/i18n/nogame.en.json").read_text())["nogame.failed"]
    )
    expect(alert).to_be_visible()
    console = browser.watch(page).console
    assert any("pick's module /games/pick/page.js did not load" in line for line in console), console
