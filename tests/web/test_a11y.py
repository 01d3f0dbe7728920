"""Accessibility, measured: axe-core (WCAG 2.0–2.2 A and AA) and the hand-written checks of ``a11y.py`` on every
page and phase a player sees, in English, Hungarian and Japanese (Chromium; WebKit in test_webkit.py).

Each test collects every problem of every moment it visits and fails once, with the whole list, so one run
says everything that is wrong.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.harness import ServerProcess
from tests.web.a11y import check_page, focus_problem, playwright_run
from tests.web.conftest import Browser
from tests.web.test_play import join

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-GB", "hu": "hu-HU", "ja": "ja-JP"}
PROMPT = {"en": "Your name", "hu": "A neved", "ja": "あなたの名前"}
# Cave 1: 5, spiders, 7, spiders (a collapse); cave 2: 3, then both walk out: the results.
SCRIPT = [["5", "spiders", "7", "spiders"], ["3", "fire", "fire"]]


class Audit:
    """Problems found so far, by moment."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def page(self, page: Any, where: str, phone: bool = True) -> None:
        self.problems += check_page(playwright_run(page), where, phone)

    def focus(self, page: Any, where: str) -> None:
        problem = focus_problem(playwright_run(page))
        if problem:
            self.problems.append(f"{where}: {problem}")

    def done(self) -> None:
        assert not self.problems, "\n".join(self.problems)


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_start_lobby_cave_and_results_pass_axe_and_the_hand_checks(
    server: ServerProcess, browser: Browser, lang: str
) -> None:
    audit = Audit()
    ann = browser.phone(f"a11y-ann-{lang}", locale=LOCALES[lang])
    ann.goto("/")
    expect(ann.locator("#game option")).to_have_count(2)
    audit.page(ann, f"{lang} start")
    for rules in ("/rules/expedition", "/rules/booty"):
        ann.goto(rules)
        expect(ann.locator("main h1")).to_be_visible()
        ann.wait_for_load_state("networkidle")
        audit.page(ann, f"{lang} {rules}")

    code = server.create_table(script=SCRIPT, options={"caves": 2}, seconds=60, pause=2)
    ann.goto(f"/t/{code}")
    expect(ann.get_by_label(PROMPT[lang])).to_be_visible()
    audit.page(ann, f"{lang} name prompt")
    join(ann, code, "Ann", prompt=PROMPT[lang])
    audit.focus(ann, f"{lang} after Join")
    bob = browser.phone(f"a11y-bob-{lang}", locale=LOCALES[lang])
    join(bob, code, "Bob", prompt=PROMPT[lang])
    expect(bob.locator("#lobby-wait")).to_be_visible()
    expect(ann.locator("#start")).to_be_enabled()
    audit.page(ann, f"{lang} lobby (host)")
    audit.page(bob, f"{lang} lobby (guest)")

    ann.locator("#start").tap()
    expect(ann.locator("#move-deeper")).to_be_visible()
    audit.focus(ann, f"{lang} after Start")
    audit.page(ann, f"{lang} choosing")
    ann.locator("#move-deeper").tap()
    expect(ann.locator("#move-deeper")).to_have_attribute("aria-pressed", "true")
    audit.focus(ann, f"{lang} after Deeper")
    audit.page(ann, f"{lang} chosen")
    bob.locator("#move-deeper").tap()
    expect(ann.locator(".hz.deadly")).to_have_count(1)  # the spiders: a reveal, a warning
    audit.page(ann, f"{lang} reveal, a hazard")
    bob.locator("#move-camp").tap()
    ann.locator("#move-deeper").tap()
    expect(bob.locator("#actions")).to_be_hidden()
    audit.focus(bob, f"{lang} after Camp")
    audit.page(bob, f"{lang} in camp")
    ann.locator("#move-deeper").tap()
    expect(ann.locator(".collapse")).to_be_visible()
    audit.focus(ann, f"{lang} after the collapse")
    audit.page(ann, f"{lang} collapse")
    expect(ann.locator("h1.cave-title")).to_contain_text("2", timeout=8000)
    audit.page(ann, f"{lang} cave 2")
    ann.locator("#move-camp").tap()
    bob.locator("#move-camp").tap()
    expect(ann.locator("#results")).to_be_visible(timeout=8000)
    expect(ann.locator("table.scores")).to_be_visible()
    audit.focus(ann, f"{lang} at the results")
    audit.page(ann, f"{lang} results (host)")
    audit.page(bob, f"{lang} results (guest)")
    ann.goto(f"/t/{code}/results/1")
    expect(ann.locator("table.scores")).to_be_visible()
    audit.page(ann, f"{lang} results page")
    audit.done()
