"""Accessibility checks for the browser tests: axe-core, and the hand-written checks axe does not make.

axe-core comes from the PyPI wheel ``axe-playwright-python`` (pinned in pyproject.toml's ``test`` extra), which
bundles Deque's ``axe.min.js`` (4.12.1 in 0.1.8): the same file as the npm package ``axe-core``, installed by
the pip install that installs every other test tool, so the tests need neither npm nor a network at run time.
Only the JavaScript file is used: it is put into the page with the page's own ``evaluate`` (Playwright) or
``execute_script`` (WebDriver), which runs as the test harness, not as a page script, so the pages' strict CSP
stays on while axe runs.

``violations(run)`` runs axe with the WCAG 2.0, 2.1 and 2.2 A and AA rules and two of its best-practice rules,
``heading-order`` (no heading skips a level) and ``region`` (all content inside a landmark), every impact counted
(docs/pages.md says why these); ``hand_checks(run)`` checks what those rules do not:

* one ``h1`` (or ``role=heading`` of level 1) in view per page, screen-reader-only ones included;
* every visible control's accessible name contains its visible text (WCAG 2.5.3, label in name), with the
  names computed by axe's own accessible-name code;
* every visible control (buttons, selects, text fields, links that are not inside a sentence, ARIA buttons,
  links, switches, checkboxes, tabs and menu items) is at least 44×44 CSS px (on a phone; a native checkbox
  24×24, as its label is the target too);
* no text in view under 14 px.

``focus_problem(run)`` says where focus is after an action: never on the body (WCAG 2.4.3, 2.4.7).
``focus_ring(run)`` says whether the focused control shows it: an outline at least 2 px wide whose colour has
3:1 against the colour beside it (WCAG 2.4.7 and 1.4.11; axe checks neither).
``motion(run)`` lists what moves on the page: every running animation or transition and every element whose
computed style gives it one (with ``prefers-reduced-motion: reduce`` the list must be empty).
``run`` evaluates a JavaScript function expression (``() => …``, may be async) in the page and returns its
value: :func:`playwright_run` and :func:`webdriver_run` make one.
"""

from __future__ import annotations

import importlib.resources
import json
from collections.abc import Callable
from functools import cache
from typing import Any

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# Two of axe's best-practice rules, run besides the tags: headings that do not skip a level, and every piece of
# content inside a landmark (a screen reader's user moves through a page by its headings and its landmarks).
RULES = {"heading-order": {"enabled": True}, "region": {"enabled": True}}
Run = Callable[[str], Any]


@cache
def axe_source() -> str:
    return (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def playwright_run(page: Any, axe: bool = True) -> Run:
    """``run`` for a Playwright page; with axe put into it first (``axe=False``: for checks that need none)."""

    def run(fn: str) -> Any:
        if axe and not page.evaluate("() => Boolean(window.axe)"):
            page.evaluate(axe_source())
        return page.evaluate(fn)

    return run


def webdriver_run(driver: Any) -> Run:
    def run(fn: str) -> Any:
        if not driver.execute_script("return Boolean(window.axe)"):
            driver.execute_script(axe_source())
        return driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f"Promise.resolve(({fn})()).then(done, (e) => done({{error: String(e)}}));"
        )

    return run


AXE_RUN = """async () => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: TAGS}, rules: RULES,
    resultTypes: ['violations']});
  return result.violations.flatMap((v) => v.nodes.map((n) =>
    `${v.id} (${v.impact}): ${v.help} — ${n.target.join(' ')}: ${(n.failureSummary || '').replace(/\\s+/g, ' ')}`));
}""".replace("TAGS", str(TAGS)).replace("RULES", json.dumps(RULES))

HAND = """() => {
  const shown = (el) => el.getClientRects().length > 0 && !el.closest('[hidden], [inert], dialog:not([open])')
    && getComputedStyle(el).visibility !== 'hidden';
  const out = [];
  const tops = [...document.querySelectorAll('h1, [role=heading][aria-level="1"]')].filter(shown)
    .filter((el) => !el.hasAttribute('aria-level') || el.getAttribute('aria-level') === '1');
  if (tops.length !== 1) out.push(`${tops.length} h1 in view: ${tops.map((e) => e.textContent.trim()).join(' | ')}`);
  const norm = (s) => (s || '').toLowerCase().replace(/[\\s\\u00a0\\u3000]+/g, ' ')
    .replace(/[.,:;!?…·—–()"'“”‘’「」。、✓+−-]/g, '').trim();
  // Behind an open modal dialog (the last opened is the last in these pages' markup) nothing can be reached: it
  // is inert, out of the accessibility tree (its name is ""), so only the dialog's own controls are checked.
  const modal = [...document.querySelectorAll('dialog')].filter((d) => d.matches(':modal')).pop();
  axe.setup(document);
  try {
    const controls = document.querySelectorAll('a[href], button, select, input, textarea, '
      + '[role=button], [role=switch], [role=checkbox], [role=link], [role=tab], [role=menuitem]');
    for (const el of controls) {
      if (!shown(el) || el.closest('.sr-only') || (modal && !modal.contains(el))) continue;
      const label = el.id || el.className || el.localName;
      const box = el.getBoundingClientRect();
      const inline = el.localName === 'a' && getComputedStyle(el).display === 'inline';
      const small = el.matches('input[type=checkbox], input[type=radio]') ? box.width < 24 || box.height < 24
        : box.width < 44 || box.height < 44;
      const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
      if (!inline && el.localName !== 'dialog' && small) out.push(`target ${label} ${size}`);
      if (el.matches('input, select, textarea')) continue;
      const seen = norm(el.innerText);
      const name = norm(axe.commons.text.accessibleTextVirtual(axe.utils.getNodeFromTree(el)));
      if (seen && !name.includes(seen)) out.push(`name of ${label} is "${name}", shows "${seen}"`);
    }
  } finally { axe.teardown(); }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || !shown(el) || el.closest('svg, .sr-only, option')) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 14) out.push(`text under 14 px (${size} px): ${node.textContent.trim().slice(0, 30)}`);
  }
  return out;
}"""

FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return 'focus is on the body';
  if (!el.isConnected || el.getClientRects().length === 0) return `focus is on ${el.id || el.localName}, not shown`;
  return '';
}"""

RING = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return 'focus is on the body';
  const what = el.id ? '#' + el.id : el.localName + '.' + [...el.classList].join('.');
  const cs = getComputedStyle(el);
  const width = parseFloat(cs.outlineWidth) || 0;
  if (cs.outlineStyle === 'none' || width < 2) {
    return `${what} shows no focus ring (outline ${cs.outlineStyle} ${width} px)`;
  }
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const opaque = (c) => { const v = rgb(c); return v.length === 3 || (v.length > 3 && v[3] > 0.5); };
  // The colour beside the ring: the element's own background when the ring is drawn inside it, else the
  // nearest ancestor's (an outline is drawn outside the border, past its offset).
  let bg = 'rgb(255, 255, 255)';
  for (let at = parseFloat(cs.outlineOffset) < 0 ? el : el.parentElement; at; at = at.parentElement) {
    const c = getComputedStyle(at).backgroundColor;
    if (opaque(c)) { bg = c; break; }
  }
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(cs.outlineColor), lum(bg)].sort((a, b) => b - a);
  const ratio = (hi + 0.05) / (lo + 0.05);
  return ratio < 3 ? `${what}'s focus ring ${cs.outlineColor} on ${bg}: ${ratio.toFixed(2)}:1, under 3:1` : '';
}"""

MOTION = """() => {
  const name = (el) => el.id ? '#' + el.id : el.localName + '.' + [...el.classList].join('.');
  const out = document.getAnimations().map((a) => `running: ${a.animationName || a.transitionProperty
    || 'an animation'} on ${a.effect && a.effect.target ? name(a.effect.target) : '?'}`);
  const some = (list) => list.split(',').some((d) => parseFloat(d) > 0);
  for (const el of document.querySelectorAll('body, body *')) {
    const cs = getComputedStyle(el);
    if (cs.animationName !== 'none' && some(cs.animationDuration)) {
      out.push(`${name(el)}: animation ${cs.animationName} ${cs.animationDuration}`);
    }
    if (some(cs.transitionDuration)) {
      out.push(`${name(el)}: transition ${cs.transitionProperty} ${cs.transitionDuration}`);
    }
  }
  return out;
}"""


def violations(run: Run) -> list[str]:
    """axe-core's violations on the page as it is now (WCAG 2.x A and AA, heading order, landmarks), one line per
    element."""
    return list(run(AXE_RUN))


def hand_checks(run: Run, phone: bool = True) -> list[str]:
    """One h1, label in name, 44 px targets and 14 px text: the problems, one per line.  The last two are phone
    rules: the TV (``phone=False``) is read from across the room at its own scale (test_stage.py checks it)."""
    problems = list(run(HAND))
    return problems if phone else [p for p in problems if not p.startswith(("target ", "text under"))]


def focus_problem(run: Run) -> str:
    return str(run(FOCUS))


def focus_ring(run: Run) -> str:
    return str(run(RING))


def motion(run: Run) -> list[str]:
    return list(run(MOTION))


def check_page(run: Run, where: str, phone: bool = True) -> list[str]:
    """Every problem axe and the hand checks find, each prefixed with ``where``."""
    return [f"{where}: {p}" for p in violations(run) + hand_checks(run, phone)]


def assert_accessible(page: Any, where: str, phone: bool = True) -> None:
    """Fail with a readable list if axe or the hand checks find anything on a Playwright page."""
    problems = check_page(playwright_run(page), where, phone)
    assert not problems, "\n".join(problems)


def assert_focus_kept(page: Any, where: str) -> None:
    problem = focus_problem(playwright_run(page))
    assert not problem, f"{where}: {problem}"
