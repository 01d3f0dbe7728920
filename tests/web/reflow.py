"""Reflow checks (WCAG 1.4.4 and 1.4.10) for the browser tests: a page at 320 CSS px, at 200 % text or at 200 %
page zoom must not scroll sideways, clip a button's text or let its fixed bar take more than a third of the
screen; the expedition's two choices stack; a table's header keeps in line with its rows (as many cells shown).

How each is made (docs/pages.md, "Large text and small screens"):

* **320 px**: a phone context 320×640 CSS px.
* **200 % page zoom**: what a phone's page zoom does to the layout: the viewport's CSS width and height halve
  while the device pixels stay (a 390×844 phone zoomed to 200 % lays out at 195×422 CSS px, scale 2).
* **200 % text**: the browser's own text-size settings, not a style we inject: Chromium's preferences
  ``webkit.webprefs.default_font_size`` 32 (twice its 16) and ``minimum_font_size`` 28 (twice the pages'
  smallest, 14), written into a fresh profile before Chromium starts (``bigtext_profile``). Text sized from
  the root (rem, %) doubles; text in px is lifted to 28 px; the layout viewport stays 390 px.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ZOOM = {"viewport": {"width": 195, "height": 422}, "device_scale_factor": 2}
NARROW = {"viewport": {"width": 320, "height": 640}, "device_scale_factor": 2}
BIG_TEXT = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1}
PREFS = {"webkit": {"webprefs": {"default_font_size": 32, "minimum_font_size": 28}}}


def bigtext_profile(folder: Path) -> Path:
    """A Chromium profile whose text size is 200 % (its own preferences, as a person would set them)."""
    default = folder / "Default"
    default.mkdir(parents=True, exist_ok=True)
    (default / "Preferences").write_text(json.dumps(PREFS), encoding="utf-8")
    return folder


REFLOW = """() => {
  const W = document.documentElement.clientWidth;
  const H = window.innerHeight;
  const out = [];
  const shown = (el) => el.getClientRects().length > 0 && !el.closest('[hidden], dialog:not([open])')
    && getComputedStyle(el).visibility !== 'hidden';
  const name = (el) => el.id ? '#' + el.id : `${el.localName}.${[...el.classList].join('.')}`
    + ` "${(el.innerText || '').trim().replace(/\\s+/g, ' ').slice(0, 24)}"`;
  const skip = '.sr-only, svg, .bh-wrap, .keep-awake, .path, .card';
  if (document.documentElement.scrollWidth > W + 1) {
    out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px in ${W}`);
  }
  const out_ = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.right > W + 1 || r.left < -1);
  };
  for (const el of document.querySelectorAll('body *')) {
    if (!shown(el) || el.closest(skip) || !out_(el) || (el.parentElement && out_(el.parentElement))) continue;
    const r = el.getBoundingClientRect();
    out.push(`${name(el)} is outside the screen: ${Math.round(r.left)}..${Math.round(r.right)} of ${W}`);
  }
  for (const el of document.querySelectorAll('main *, .bar *, .clock *, .actions *')) {  // text wider than its box
    if (!shown(el) || el.closest(skip) || el.clientWidth <= 1 || getComputedStyle(el).overflowX !== 'visible') continue;
    if (el.scrollWidth > el.clientWidth + 1 && ![...el.children].some((c) => c.scrollWidth > c.clientWidth + 1)) {
      out.push(`${name(el)} overflows its box: ${el.scrollWidth} px in ${el.clientWidth}`);
    }
  }
  for (const el of document.querySelectorAll('button, .btn, select, .move')) {
    if (!shown(el) || el.closest('.sr-only')) continue;
    for (const part of [el, ...el.querySelectorAll('span, b')]) {
      const clipped = part.clientWidth > 1 && part.scrollWidth > part.clientWidth + 1;
      if (clipped && getComputedStyle(part).overflow !== 'visible') {
        out.push(`${name(el)} clips its text`);
        break;
      }
    }
  }
  const bar = document.querySelector('#actions');
  if (bar && shown(bar) && getComputedStyle(bar).position === 'fixed') {
    const tall = bar.getBoundingClientRect().height;
    if (tall > H / 3 + 1) out.push(`the fixed bar takes ${Math.round(tall)} of ${H} px`);
  }
  for (const table of document.querySelectorAll('table')) {  // a header over the cells it names
    if (!shown(table)) continue;
    const counts = [...table.rows].map((row) => [...row.cells].filter(shown).length);
    if (new Set(counts).size > 1) out.push(`${name(table)}: rows of ${[...new Set(counts)].join(' and ')} cells`);
  }
  const deeper = document.querySelector('#move-deeper');
  const camp = document.querySelector('#move-camp');
  if (deeper && camp && shown(deeper)) {
    const side = camp.getBoundingClientRect().top < deeper.getBoundingClientRect().bottom - 1;
    if (side) out.push('the choices do not stack');
  }
  return out;
}"""


def reflow_problems(page: Any, where: str) -> list[str]:
    return [f"{where}: {p}" for p in page.evaluate(REFLOW)]


BIG_TEXT_HOLDS = """() => {
  const out = [];
  const shown = (el) => el.getClientRects().length > 0 && !el.closest('[hidden], dialog:not([open])');
  const rects = (node, a = 0, b = node.length) => {
    const range = document.createRange();
    range.setStart(node, a);
    range.setEnd(node, b);
    return [...range.getClientRects()].filter((r) => r.width > 0);
  };
  const texts = (el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const found = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent.trim()) found.push(n);
    return found;
  };
  for (const button of document.querySelectorAll('.move')) {  // a choice's words inside its button
    if (!shown(button)) continue;
    const b = button.getBoundingClientRect();
    const outside = texts(button).find((n) => rects(n).some((r) => r.left < b.left - 1 || r.right > b.right + 1
      || r.top < b.top - 1 || r.bottom > b.bottom + 1));
    if (outside) out.push(`#${button.id}: "${outside.textContent.trim().slice(0, 30)}" runs outside the button`);
  }
  // a header's words and a name whole on one line (a word may break only at a soft hyphen)
  for (const [sel, what] of [['thead th', 'a header'], ['.name, .who-seat', 'a name']]) {
    for (const el of document.querySelectorAll(sel)) {
      if (!shown(el)) continue;
      for (const n of texts(el)) {
        for (const m of n.textContent.matchAll(/[^\\s\\u00ad]+/g)) {  // its first and last letters on one line
          const [first, last] = [m.index, m.index + m[0].length - 1].map((i) => rects(n, i, i + 1).at(-1));
          if (first && last && Math.abs(first.top - last.top) > 2) out.push(`${what} split inside "${m[0]}"`);
        }
      }
    }
  }
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  // the chart's text grows with the page's
  const tick = [...document.querySelectorAll('.chart-svg .tick')].find(shown);
  if (tick && tick.getBoundingClientRect().height < root * 0.55) {
    out.push(`the chart's text is ${tick.getBoundingClientRect().height.toFixed(1)} px high at ${root} px text`);
  }
  return out;
}"""


def big_text_problems(page: Any, where: str) -> list[str]:
    """At 200 % text: the choices' words inside their buttons, headers and names not split inside a word, the
    chart's text grown with the page's."""
    return [f"{where}: {p}" for p in page.evaluate(BIG_TEXT_HOLDS)]
