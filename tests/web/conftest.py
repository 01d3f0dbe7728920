"""Fixtures for the browser tests: Debian's Chromium through Playwright (sync API), a real server.

One Chromium per test module; a real ``gemtable serve`` process per test module; a fresh
browser context per person (a phone at 390×844 with touch, or a TV at 1920×1080).  Every page
records its console and its uncaught errors, and a test fails if a page threw or broke the CSP.

The pages are opened as a phone in the room opens them: at ``http://gemtable.test:PORT``, a name
that is not local (Chromium maps it to 127.0.0.1 itself, ``--host-resolver-rules``), so every
page runs in the same insecure context as on a LAN: no Wake Lock, no Clipboard API, no Web Share.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import ServerProcess

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM_FULL = "/usr/bin/chromium"
"""Debian's Chromium, the browser a host installs: the tests that need the whole browser's own preferences use it
(``test_reflow.py``: the text size, which only a profile's preferences set)."""
CHROMIUM = "/usr/bin/chromium-headless-shell" if Path("/usr/bin/chromium-headless-shell").exists() else CHROMIUM_FULL
"""The browser of the other tests: Debian's ``chromium-headless-shell``, the same Chromium (one source package,
one version, the same Blink and V8) built as the old headless shell, without the browser's windowing layer —
what Playwright itself runs for headless tests.  It draws the pages with about 35 % less CPU than
``chromium --headless`` (docs/testing.md), and the gate is bound by its two cores."""
ROOM_HOST = "gemtable.test"
"""The name the pages are opened at: not local, so not a secure context (``.test`` is reserved, RFC 2606)."""
ARGS = [
    f"--host-resolver-rules=MAP {ROOM_HOST} 127.0.0.1",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
CALM = "reduce"
"""What the pages' contexts ask of ``prefers-reduced-motion`` unless a test says otherwise: a page whose clock
runs animates its bar at the screen's frame rate, and ten such pages on two cores cost a quarter of the browser's
time in the gate (docs/testing.md).  The tests about motion (what moves, what buzzes) ask for it."""
CSP_WORDS = re.compile(r"content security policy|refused to (apply|execute|load)", re.I)


@dataclass
class Watch:
    """What one page said: console lines and uncaught errors."""

    console: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def csp_violations(self) -> list[str]:
        return [line for line in self.console if CSP_WORDS.search(line)]


@dataclass
class Browser:
    chromium: Any
    base: str = ""
    pages: list[tuple[str, Any, Watch]] = field(default_factory=list)
    contexts: list[Any] = field(default_factory=list)

    def _context(self, **kw: Any) -> Any:
        """A browser context; it asks for reduced motion unless ``reduced_motion`` says otherwise (see
        :data:`CALM`)."""
        context = self.chromium.new_context(**{"reduced_motion": CALM, **kw})
        context.set_default_timeout(10_000)
        self.contexts.append(context)
        return context

    def _page(self, label: str, context: Any) -> Any:
        page = context.new_page()
        watch = Watch()
        page.on("console", lambda msg: watch.console.append(f"{msg.type}: {msg.text}"))
        page.on("pageerror", lambda exc: watch.errors.append(str(exc)))
        self.pages.append((label, page, watch))
        return page

    def phone(self, label: str, locale: str = "en-GB", motion: bool = False) -> Any:
        """A phone: 390×844, touch, in ``locale``; with ``motion``, one that does not ask for reduced motion."""
        context = self._context(
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
            device_scale_factor=1,
            locale=locale,
            base_url=self.base,
            reduced_motion="no-preference" if motion else CALM,
        )
        return self._page(label, context)

    def sized(self, label: str, locale: str = "en-GB", **context: Any) -> Any:
        """A phone (touch) with the context's ``viewport`` and ``device_scale_factor`` given."""
        return self._page(
            label, self._context(is_mobile=True, has_touch=True, locale=locale, base_url=self.base, **context)
        )

    def tv(self, label: str = "tv", locale: str = "en-GB") -> Any:
        context = self._context(viewport=TV, locale=locale, base_url=self.base)
        return self._page(label, context)

    def desktop(self, label: str, locale: str = "en-GB") -> Any:
        context = self._context(
            viewport={"width": 1440, "height": 1000}, locale=locale, base_url=self.base, has_touch=True
        )
        return self._page(label, context)

    def watch(self, page: Any) -> Watch:
        return next(w for _, p, w in self.pages if p is page)

    def close_all(self) -> None:
        for context in self.contexts:
            context.close()
        self.contexts.clear()

    def problems(self) -> list[str]:
        out = []
        for label, _, watch in self.pages:
            out += [f"{label}: uncaught {e}" for e in watch.errors]
            out += [f"{label}: {line}" for line in watch.csp_violations()]
        return out


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Chromium for one test module.  (Per module, not per session: Playwright's sync API keeps an
    event loop running while it is open, and other tests' ``asyncio.run`` must not find one.)"""
    if not Path(CHROMIUM).exists():
        raise RuntimeError("Debian's chromium is not installed: scripts/setup-system installs it")
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


def room_base(server: ServerProcess) -> str:
    """The server's address as a phone on the network reaches it."""
    return f"http://{ROOM_HOST}:{server.port}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("web") / "data", public_url=f"http://{ROOM_HOST}:{{port}}").start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture
def browser(chromium: Any, server: ServerProcess) -> Iterator[Browser]:
    """Contexts of one test; at the end, no page may have thrown or broken the CSP."""
    b = Browser(chromium, base=room_base(server))
    try:
        yield b
        problems = b.problems()
        assert not problems, "\n".join(problems)
    finally:
        b.close_all()


@pytest.fixture
def shot() -> Callable[[Any, str], None]:
    """Save a screenshot into artifacts/screenshots/NAME.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str, full: bool = False) -> None:
        page.wait_for_timeout(120)  # let the card animation settle
        page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled", full_page=full)

    return take
