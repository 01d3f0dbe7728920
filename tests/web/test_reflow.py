"""Large text and small screens (WCAG 1.4.4, 1.4.10): at 320 CSS px, at 200 % text and at 200 % page zoom, in
Hungarian (the longest words) and Japanese, every phase of a cave and a Booty Hunter turn (mine, then a spot
chosen): no sideways scrolling, no clipped button text, the choices stacked, the fixed bar within a third of the
screen (reflow.py says how each is made).
Screenshots: artifacts/screenshots/reflow-MODE-LANG-MOMENT.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.conftest import ARGS, CALM, CHROMIUM_FULL, ROOM_HOST, SHOTS, Browser, room_base
from tests.web.crowd import Crowd
from tests.web.reflow import BIG_TEXT, NARROW, ZOOM, big_text_problems, bigtext_profile, reflow_problems
from tests.web.test_booty import BAG, booty_table

pytestmark = pytest.mark.browser

LOCALES = {"hu": "hu-HU", "ja": "ja-JP"}
PROMPT = {"hu": "A neved", "ja": "あなたの名前"}
NAMES = {"hu": ("Ann", "Bob"), "ja": ("さくらこ", "たかはし")}  # (a Japanese name breaks nowhere inside)
SCRIPT = [["5", "spiders", "7", "spiders"]]
SETTLED = """() => Promise.race([new Promise((done) => setTimeout(done, 2000)),
  Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))])"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of each test's own (fresh per-address join limits)."""
    proc = ServerProcess(tmp_path / "data", public_url=f"http://{ROOM_HOST}:{{port}}").start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def bigtext(chromium: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A second Chromium whose text size is 200 % (its own preferences): one persistent context, one phone.
    (Through the module's Playwright: one sync Playwright at a time.)"""
    profile = bigtext_profile(tmp_path_factory.mktemp("bigtext"))
    context = chromium.browser_type.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM_FULL,
        headless=True,
        args=ARGS,
        is_mobile=True,
        has_touch=True,
        reduced_motion=CALM,  # (the cave's collapse shakes for 0.6 s: a layout measured in it was off by its 8 px)
        **BIG_TEXT,
    )
    context.set_default_timeout(10_000)
    yield context
    context.close()


def moments(page: Any, server: ServerProcess, lang: str, mode: str) -> list[str]:
    """A cave from the lobby to the results on ``page`` (already in ``lang``), with a Python-client phone."""
    problems: list[str] = []

    def look(moment: str) -> None:
        page.wait_for_timeout(150)
        page.evaluate(SETTLED)  # a moment's animation (the collapse shakes) is measured once it is over
        problems.extend(reflow_problems(page, f"{mode} {lang} {moment}"))
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"reflow-{mode}-{lang}-{moment}.png"), animations="disabled")
        if mode == "text200" and moment in ("choosing", "chosen", "results"):  # 200 % text at 390 px, and at 320
            problems.extend(big_text_problems(page, f"{mode} {lang} {moment}"))
            page.set_viewport_size(NARROW["viewport"])
            page.wait_for_timeout(100)
            where = f"{mode} 320px {lang} {moment}"
            problems.extend(reflow_problems(page, where) + big_text_problems(page, where))
            page.screenshot(path=str(SHOTS / f"reflow-{mode}-320-{lang}-{moment}.png"), animations="disabled")
            page.set_viewport_size(BIG_TEXT["viewport"])

    page.goto("/")
    expect(page.locator("#game option")).to_have_count(2)
    look("start")
    code = server.create_table(script=SCRIPT, options={"caves": 1}, seconds=60, pause=2)
    page.goto(f"/t/{code}")
    ann, bob_name = NAMES[lang]
    page.get_by_label(PROMPT[lang]).fill(ann)
    page.locator("#join-go").tap()
    expect(page.locator("#who")).to_have_text(ann)
    crowd = Crowd(server.ws)
    try:
        crowd.join(code, bob_name)
        expect(page.locator("#people")).to_contain_text(bob_name)
        look("lobby")
        page.locator("#start").tap()
        expect(page.locator("#move-deeper")).to_be_visible()
        look("choosing")
        page.locator("#move-deeper").tap()
        expect(page.locator("#move-deeper")).to_have_attribute("aria-pressed", "true")
        look("chosen")
        bob = crowd.clients[bob_name]

        def choose(move: str) -> None:
            async def go(_: Any) -> None:
                await bob.until(
                    lambda s: bool((s.get("me") or {}).get("moves")) and not (s.get("me") or {}).get("choice")
                )
                await bob.choose(move)

            crowd.do(go)

        choose("deeper")
        expect(page.locator(".hz.deadly")).to_have_count(1)
        look("hazard")
        page.locator("#move-camp").tap()
        choose("deeper")
        expect(page.locator("#actions")).to_be_hidden()
        look("camp")
        choose("deeper")
        expect(page.locator(".collapse")).to_be_visible()
        look("collapse")
        expect(page.locator("table.scores")).to_be_visible(timeout=8000)
        look("results")
    finally:
        crowd.close()
    booty = booty_table(server, script=BAG, seconds=60)  # Booty Hunter's phone: my turn, then a spot chosen
    page.goto(f"/t/{booty}")
    page.get_by_label(PROMPT[lang]).fill("Sam")
    page.locator("#join-go").tap()
    expect(page.locator("#who")).to_have_text("Sam")
    for bots in (1, 2):
        page.locator("#add-bot").tap()
        expect(page.locator("#people .is-bot")).to_have_count(bots)
    page.locator("#start").tap()
    expect(page.locator(".bh-spot")).to_have_count(1)  # the first tile: one spot, beside the start
    look("booty-turn")
    spot = page.locator(".bh-spot")
    spot.evaluate("(el) => el.scrollIntoView({block: 'center'})")  # above the bar, as a thumb scrolls it
    spot.tap()
    expect(page.locator(".bh-place")).to_be_enabled()
    look("booty-spot")
    page.goto("/rules/expedition")
    expect(page.locator("main h1")).to_be_visible()
    look("rules")
    return problems


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("mode", ["320px", "zoom200"])
def test_a_cave_at_320_px_and_at_200_percent_zoom(
    server: ServerProcess, browser: Browser, mode: str, lang: str
) -> None:
    page = browser.sized(f"{mode}-{lang}", locale=LOCALES[lang], **(NARROW if mode == "320px" else ZOOM))
    problems = moments(page, server, lang, mode)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_cave_at_200_percent_text(server: ServerProcess, bigtext: Any, lang: str) -> None:
    page = bigtext.pages[0] if bigtext.pages else bigtext.new_page()
    base = room_base(server)
    page.goto(base + "/")
    page.evaluate("(lang) => localStorage.setItem('gemtable.lang', lang)", lang)
    problems = moments(_Based(page, base), server, lang, "text200")
    root = page.evaluate("() => getComputedStyle(document.documentElement).fontSize")
    assert root == "34px", f"the root font follows the browser's text size: {root}"
    assert not problems, "\n".join(problems)


class _Based:
    """A page whose ``goto`` takes paths (the persistent context has no base URL)."""

    def __init__(self, page: Any, base: str) -> None:
        self._page = page
        self._base = base

    def goto(self, path: str) -> Any:
        return self._page.goto(self._base + path)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)
