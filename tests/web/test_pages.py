"""The other pages, the languages, the page weight and the Content-Security-Policy."""

from __future__ import annotations

import json
import re
import urllib.request
from html.parser import HTMLParser
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import Browser
from tests.web.test_play import contrast_failures, join, small_targets

pytestmark = pytest.mark.browser

BUDGET = 150 * 1024
REPLAY_BUDGET = 56 * 1024
"""The replay page (``/t/CODE/games/N/replay``) of a one-cave game: its page, code, styles, the game's drawing
module and the replay (its steps and its words), everything it loads (measured in tests/web/test_replay.py,
which opens it anyway; about 44 KB, of which the shared app.css is 15)."""


def test_the_start_page_creates_a_table_and_lands_on_the_name_prompt(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    page = browser.phone("start")
    page.goto("/")
    expect(page.locator("h1")).to_have_text("A game table for friends")
    expect(page.locator("#game option")).to_have_count(2)
    page.locator("#preset").select_option("classic")
    expect(page.locator("#opt-relics")).not_to_be_checked()
    expect(page.locator("#rules-link")).to_have_attribute("href", "/rules/expedition?preset=classic")
    page.locator("#seconds").select_option("15")
    shot(page, "phone-14-start")
    assert not small_targets(page), small_targets(page)
    assert not contrast_failures(page), contrast_failures(page)
    page.get_by_role("button", name="Create the table").tap()
    expect(page).to_have_url(re.compile(r"/t/[A-Z]{4}$"))
    expect(page.get_by_label("Your name")).to_be_visible()
    code = page.url.rsplit("/", 1)[1]
    status, summary = server.get(f"/api/tables/{code}")
    assert status == 200 and summary["game"] == "expedition"
    expect(page.locator("#lobby-game")).to_contain_text("Classic Diamant")
    expect(page.locator("#lobby-game")).to_contain_text("15 s per decision")

    # Joining by code from the start page lands on the same name prompt.
    other = browser.phone("by-code")
    other.goto("/")
    other.locator("#code").fill(code.lower())
    other.get_by_role("button", name="Join", exact=True).tap()
    expect(other).to_have_url(re.compile(f"/t/{code}$"))
    expect(other.get_by_label("Your name")).to_be_visible()
    other.goto("/")
    other.locator("#code").fill("QQQQ")
    other.get_by_role("button", name="Join", exact=True).tap()
    expect(other.locator("#code-error")).to_have_text("There is no table with that code.")

    # A tap on Join while the page's words are still on their way (held here, as on a slow phone) waits for
    # them: the browser does not submit the form its own way, which reloaded the page and lost the code.
    slow = browser.phone("slow")
    held: list[Any] = []
    slow.route(re.compile(r"/static/i18n/"), lambda route: held.append(route))
    with slow.expect_request(re.compile(r"/static/i18n/")):  # asked for once the page's script runs
        slow.goto("/", wait_until="commit")
    slow.locator("#code").fill("QQQQ")
    slow.locator("#code-form button").tap()
    expect(slow.locator("#code")).to_have_value("QQQQ")  # no reload
    assert held, "the page's words were not asked for"
    for route in held:
        route.continue_()
    slow.unroute(re.compile(r"/static/i18n/"))
    expect(slow.locator("#code-error")).to_have_text("There is no table with that code.")
    assert slow.url.endswith("/")

    desk = browser.desktop("desktop")
    desk.goto("/")
    expect(desk.locator("h1")).to_be_visible()
    shot(desk, "desktop-01-start")
    desk.goto(f"/t/{code}")
    expect(desk.get_by_label("Your name")).to_be_visible()
    shot(desk, "desktop-02-phone-page")


def test_the_language_comes_from_the_browser_and_the_switch_is_remembered(
    server: ServerProcess, browser: Browser, shot: Any
) -> None:
    page = browser.phone("lang", locale="hu-HU")
    page.goto("/")
    expect(page.locator("h1")).to_have_text("Játékasztal barátoknak")
    expect(page.locator("html")).to_have_attribute("lang", "hu")
    page.locator("#lang").select_option("ja")
    expect(page.locator("h1")).to_have_text("友だちと囲むゲームテーブル")
    expect(page.get_by_role("button", name="テーブルを作る")).to_be_visible()
    page.reload()
    expect(page.locator("h1")).to_have_text("友だちと囲むゲームテーブル")
    shot(page, "phone-15-start-ja")
    code = server.create_table(script=[["3", "fire", "fire"]], seconds=30)
    join(page, code, "Kei", prompt="あなたの名前")
    expect(page.locator("#lobby-title")).to_have_text(f"テーブル {code}")
    expect(page.locator("#start")).to_have_text("ゲーム開始")
    page.locator("#lang").select_option("en")
    expect(page.locator("#start")).to_have_text("Start the game")
    expect(page.locator("#lobby-title")).to_have_text(f"Table {code}")
    other = browser.phone("lang-en", locale="en-US")
    other.goto("/")
    expect(other.locator("h1")).to_have_text("A game table for friends")


def test_the_rules_pages(server: ServerProcess, browser: Browser, shot: Any) -> None:
    page = browser.phone("rules")
    page.goto("/rules/expedition")
    expect(page.locator("h1")).to_have_text("The expedition — rules")
    for hazard in ("Snakes", "Spiders", "Mummies", "Fire", "Rockfall"):
        expect(page.locator(".card.hazard").filter(has_text=hazard).first).to_be_visible()
    expect(page.locator("main")).to_contain_text("The first three carried out are worth 5, the last two 10.")
    expect(page.locator("main")).to_contain_text("give one person more time per card")  # (extra time, issue 41)
    shot(page, "phone-16-rules", full=True)
    page.goto("/rules/expedition?preset=classic")
    expect(page.locator("main")).to_contain_text("Five rubies make a diamond.")
    expect(page.locator("main")).to_contain_text("card by card")
    expect(page.locator("main")).to_contain_text("without relics")
    expect(page.locator(".card.treasure").first).to_have_attribute("aria-label", "5 rubies")
    shot(page, "phone-17-rules-classic", full=True)
    page.goto("/rules/booty")
    expect(page.locator("h1")).to_have_text("Booty Hunter — rules")
    expect(page.locator("main")).to_contain_text("docs/booty-hunter.md")
    expect(page.locator("main")).to_contain_text("give one person more time per turn")


def test_the_phone_page_weighs_under_150_kb(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table(script=[["5", "spiders", "spiders"]], seconds=30)
    page = browser.phone("weight", locale="ja-JP")  # the largest translation file
    loaded: dict[str, int] = {}

    def count(response: Any) -> None:
        if response.url.startswith(browser.base) and response.request.method == "GET":
            loaded[response.url] = loaded.get(response.url, 0) + len(response.body())

    page.on("response", count)
    join(page, code, "Lea", prompt="あなたの名前")
    page.locator("#invite-btn").tap()
    expect(page.locator("#invite .qr")).to_be_visible()
    page.locator("#invite-close").tap()
    other = browser.phone("weight-2")
    join(other, code, "Max")
    # Over plain HTTP (no Wake Lock API) a started game plays the keep-awake video: waited for, so that the
    # count does not depend on whether it arrived before the network went quiet.
    with page.expect_response(lambda response: "/static/media/keep-awake." in response.url):
        page.locator("#start").tap()
    expect(page.locator("#move-deeper")).to_be_visible()
    page.wait_for_load_state("networkidle")
    # What installing to the home screen adds: the manifest and its icons.
    status, manifest = server.get("/manifest.webmanifest")
    assert status == 200
    manifest = json.loads(manifest)
    for url in ["/manifest.webmanifest", *(icon["src"] for icon in manifest["icons"])]:
        if browser.base + url not in loaded:
            status, body = server.get(url)
            assert status == 200, url
            loaded[browser.base + url] = len(body)
    media = {url: size for url, size in loaded.items() if "/static/media/" in url}
    loaded = {url: size for url, size in loaded.items() if url not in media}
    total = sum(loaded.values())  # the page: its code, styles, words, QR code and icons (docs/pages.md)
    kinds = {".js", ".css", ".json", ".html", ".svg", ".png", ".webmanifest"}
    assert any(url.endswith("/games/expedition/page.js") for url in loaded)
    assert any(url.endswith(".json") for url in loaded)
    report = "\n".join(f"{size:7d} {url}" for url, size in sorted(loaded.items(), key=lambda kv: -kv[1]))
    print(f"\nphone page: {total} bytes in {len(loaded)} files\n{report}\nand the keep-awake video: {media}")
    assert len(media) == 1 and 0 < sum(media.values()) < 4096, media
    assert all(any(url.split("?")[0].endswith(k) for k in kinds) or "/api/" in url or "/t/" in url for url in loaded)
    assert total < BUDGET, report


class _Inline(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if tag == "script" and "src" not in names:
            self.problems.append("inline <script>")
        if tag == "style":
            self.problems.append("<style> block")
        if "style" in names:
            self.problems.append(f"style attribute on <{tag}>")
        self.problems += [f"{name} handler on <{tag}>" for name in names if name.startswith("on")]
        if tag == "a" and any(value and value.startswith("javascript:") for _, value in attrs):
            self.problems.append("javascript: link")


def test_no_inline_code_a_strict_csp_and_no_violation(server: ServerProcess, browser: Browser) -> None:
    code = server.create_table()
    pages = ["/", f"/t/{code}", f"/t/{code}/tv", f"/t/{code}/results/1", f"/t/{code}/games/1/replay"]
    pages += ["/rules/expedition", "/rules/booty"]
    for path in pages:
        with urllib.request.urlopen(server.base + path) as response:
            csp = response.headers.get("content-security-policy", "")
            html = response.read().decode()
        assert "script-src 'self'" in csp and "style-src 'self'" in csp and "unsafe-inline" not in csp, path
        parser = _Inline()
        parser.feed(html)
        assert not parser.problems, (path, parser.problems)
        assert 'rel="manifest"' in html, path
    page = browser.phone("csp")
    violations: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', "
        "(e) => console.error('Content Security Policy: ' + e.violatedDirective))"
    )
    for path in pages:
        page.goto(path)
        page.wait_for_load_state("networkidle")
    join(page, code, "Noa")
    page.locator("#invite-btn").tap()
    expect(page.locator("#invite .qr")).to_be_visible()
    assert violations == []
    assert browser.watch(page).csp_violations() == []
