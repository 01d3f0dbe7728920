"""WebKit for the browser tests: Debian's WebKitGTK (its MiniBrowser) through WebKitWebDriver and Selenium.

Every browser on an iPhone is WebKit.  Here each person is a MiniBrowser of their own, under an Xvfb
display that the fixture starts (no desktop needed), reaching the test server as a phone in the room
does: at ``http://gemtable.test:PORT`` through :class:`RoomProxy` (WebKit has no host-resolver rules),
so the page is not a secure context.  As on an iPhone, a muted video may start by itself and one with
sound only from a tap.  Uncaught errors, unhandled rejections and CSP violations are collected by a
listener put into each page once it has loaded (WebDriver classic has no way in before), read before
the page is left and at the end of each test.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.proxy import Proxy, ProxyType
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

from tests.web.room_proxy import RoomProxy

DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
RENDERER = {"WEBKIT_DISABLE_DMABUF_RENDERER": "1"}
"""WebKitGTK draws a page's layers with OpenGL and hands them to MiniBrowser as DMA buffers; on a machine with no
GPU that OpenGL is Mesa's llvmpipe, and with that renderer under Xvfb a still page that scrolls (the start page,
a phone at a table) was composited again and again: 0.8 s of processor time every 2 s, idle.  With the
shared-memory renderer it costs 0.1 s (docs/testing.md).  What the page lays out, runs and shows is the same."""
KICK_ON = """if (!window.__kick) {
  const dot = document.createElement('div');
  dot.style.cssText = 'position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none;z-index:2147483647';
  document.documentElement.append(dot);
  let n = 0;
  const step = () => {
    dot.style.background = `rgba(0,0,0,${(n++ % 2) / 250})`;
    window.__kick.frame = requestAnimationFrame(step);
  };
  window.__kick = {dot, frame: requestAnimationFrame(step)};
}"""
KICK_OFF = """if (window.__kick) {
  cancelAnimationFrame(window.__kick.frame); window.__kick.dot.remove(); window.__kick = null;
}"""
XVFB = "/usr/bin/Xvfb"
WATCH = """if (!window.__gtProblems) {
  window.__gtProblems = [];
  addEventListener('error', (e) => __gtProblems.push('uncaught ' + e.message));
  addEventListener('unhandledrejection',
    (e) => __gtProblems.push('unhandled ' + ((e.reason && e.reason.message) || e.reason)));
  document.addEventListener('securitypolicyviolation',
    (e) => __gtProblems.push('CSP ' + e.violatedDirective + ' ' + e.blockedURI));
}"""
T = TypeVar("T")


STARTS = 3
SESSION_CEILING = 60.0
"""Seconds a new MiniBrowser session may take to start before its driver is ended and it is tried again."""


def _end(service: Service) -> None:
    process = getattr(service, "process", None)
    if process is not None and process.poll() is None:
        process.kill()


class Xvfb:
    """A virtual X display of its own (``-displayfd`` picks a free number)."""

    def __init__(self, size: str = "1920x1200x24") -> None:
        for path in (XVFB, DRIVER, MINIBROWSER):
            if not Path(path).exists():
                raise RuntimeError(f"{path} is missing: scripts/setup-system installs xvfb and webkit2gtk-driver")
        read, write = os.pipe()
        self.proc = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", size, "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            self.proc.kill()
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Page:
    """One person's MiniBrowser: a thin layer over Selenium with waits that say what they waited for."""

    def __init__(self, label: str, driver: Any, base: str, log: Path) -> None:
        self.label = label
        self.driver = driver
        self.base = base
        self.log = log
        self.seen: list[str] = []

    def _collect(self) -> None:
        with contextlib.suppress(WebDriverException):
            self.seen += [str(p) for p in self.driver.execute_script("return window.__gtProblems || []")]

    def _watch(self) -> None:
        self.driver.execute_script(WATCH)

    def goto(self, path: str) -> None:
        self._collect()
        self.driver.get(self.base + path)
        self._watch()

    def reload(self) -> None:
        self._collect()
        self.driver.refresh()
        self._watch()

    def navigates(self, action: Callable[[], None], path: str, timeout: float = 10) -> None:
        """An action after which the page goes to ``path`` by itself (a form, a script): what the page saw is read
        before, the listener put into the new page once it is there."""
        self._collect()
        action()
        self.until(lambda: self.driver.current_url.endswith(path), f"the page to go to {path}", timeout)
        self.until(lambda: self.js("return document.readyState") == "complete", f"{path} to load", timeout)
        self._watch()

    def keys(self, *keys: str) -> None:
        """Keys typed to whatever has the focus, as a keyboard (or a TV's remote) does."""
        ActionChains(self.driver).send_keys(*keys).perform()

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def find(self, css: str) -> Any:
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def count(self, css: str) -> int:
        return len(self.driver.find_elements(By.CSS_SELECTOR, css))

    def until(self, check: Callable[[], T], what: str, timeout: float = 10) -> T:
        """Poll ``check`` until it is truthy; fail saying ``what`` and the last answer."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while True:
            try:
                answer = check()
                if answer:
                    return answer
                last = answer
            except WebDriverException as e:
                last = e.msg
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.label}: waited {timeout} s for {what}; last: {last!r}")
            time.sleep(0.1)

    def text(self, css: str) -> str:
        return str(self.js("const e = document.querySelector(arguments[0]); return e ? e.innerText : null;", css))

    def visible(self, css: str) -> bool:
        return bool(
            self.js(
                """const e = document.querySelector(arguments[0]);
          return Boolean(e) && !e.closest('[hidden]') && e.getClientRects().length > 0;""",
                css,
            )
        )

    def wait_text(self, css: str, text: str, timeout: float = 10) -> None:
        seen = [""]

        def check() -> bool:
            seen[0] = self.text(css)
            return text in seen[0]

        try:
            self.until(check, f"{css} to contain {text!r}", timeout)
        except AssertionError as e:
            raise AssertionError(f"{e}\n{css} said: {seen[0][-1500:]}") from None

    def wait_visible(self, css: str, timeout: float = 10) -> None:
        self.until(lambda: self.visible(css), f"{css} to be visible", timeout)

    def wait_hidden(self, css: str, timeout: float = 10) -> None:
        self.until(lambda: not self.visible(css), f"{css} to be hidden", timeout)

    def tap(self, css: str) -> None:
        self.wait_visible(css)
        self.find(css).click()

    def fill(self, css: str, value: str) -> None:
        field = self.find(css)
        field.clear()
        field.send_keys(value)

    def png(self) -> bytes:
        """A screenshot.  WebKitGTK's snapshot waits for the page's next drawn frame, and with the shared-memory
        renderer (``RENDERER``) a still page draws none: a dot in a corner, one two-hundred-and-fiftieth opaque,
        is nudged every frame while it is taken, then removed."""
        self.js(KICK_ON)
        try:
            return bytes(self.driver.get_screenshot_as_png())
        finally:
            self.js(KICK_OFF)

    def problems(self) -> list[str]:
        self._collect()
        return [f"{self.label}: {line}" for line in self.seen]


class WebKit:
    """The MiniBrowsers of one test; ``close_all`` quits them."""

    PHONE = (390, 844)  # asked for; MiniBrowser's window is never narrower than 447 px
    TV = (1920, 1080)

    def __init__(self, display: str, proxy: RoomProxy, base: str, logs: Path) -> None:
        self.display = display
        self.proxy = proxy
        self.base = base
        self.logs = logs
        self.pages: list[Page] = []

    def open(self, label: str, size: tuple[int, int]) -> Page:
        opts = Options()
        opts.binary_location = MINIBROWSER
        opts.add_argument("--automation")
        opts.proxy = Proxy(
            {"proxyType": ProxyType.MANUAL, "httpProxy": self.proxy.address, "sslProxy": self.proxy.address}
        )
        log = self.logs / f"webkit-{label}.log"
        env = {**os.environ, "DISPLAY": self.display, **RENDERER}
        env.pop("WAYLAND_DISPLAY", None)
        driver = None
        for attempt in range(1, STARTS + 1):
            service = Service(executable_path=DRIVER, log_output=str(log), env=env)
            # WebKitWebDriver waits for ever for a MiniBrowser that could not start (seen once under a CPU hog:
            # "cannot open display" in its log, and the session's request never answered): past the ceiling its
            # process is ended, which fails the request, and a new driver and browser are started.
            watchdog = threading.Timer(SESSION_CEILING, _end, args=(service,))
            watchdog.start()
            try:
                driver = webdriver.WebKitGTK(options=opts, service=service)
                break
            except Exception:  # (the request fails as the driver's connection drops: urllib3's error or Selenium's)
                with contextlib.suppress(Exception):
                    service.stop()
                if attempt == STARTS:
                    raise
            finally:
                watchdog.cancel()
        assert driver is not None
        driver.set_window_size(*size)
        page = Page(label, driver, self.base, log)
        self.pages.append(page)
        return page

    def phone(self, label: str) -> Page:
        return self.open(label, self.PHONE)

    def tv(self, label: str = "tv") -> Page:
        return self.open(label, self.TV)

    def problems(self) -> list[str]:
        return [p for page in self.pages for p in page.problems()]

    def close_all(self) -> None:
        for page in self.pages:
            with contextlib.suppress(WebDriverException):
                page.driver.quit()
        self.pages.clear()
