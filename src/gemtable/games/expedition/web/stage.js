// The expedition on the TV, the room's stage (page.js loads it on the TV alone, so a phone never carries it):
// the reveal, the cave, the path as large as the screen allows, the explorers in large type, and the hazards in
// the side column. The TV's type scale is tv.css's; what a game needs of the stage beyond it is here.

import { h, put } from '/static/js/dom.js';
import { t } from '/static/js/i18n.js';

/** Draw the cave on the stage: ``parts`` are page.js's pieces of it (reveal, head, path, pathFoot, players,
 *  danger); ``local`` is the page module's memory for this table. */
export function renderStage(el, v, parts, local) {
  const { reveal, head, path, pathFoot, players, danger, recap } = parts;
  const list = players.querySelector('ul');
  list.dataset.n = String(list.children.length);  // tv.css: one row of up to four, or two of four
  const slot = document.getElementById('tv-hazards');
  if (slot) {
    put(slot, danger);
    fitDanger(slot);
    slot.dataset.game = v.table.game;  // (the shared stage.js empties it if the table switches to another game)
  }
  if (recap) {  // a cave that ended: its recap takes the explorers' place, under the path it ended with
    const rows = recap.querySelector('ul');
    rows.dataset.n = String(rows.children.length);
  }
  put(el, reveal, head, path, ...(recap ? [recap] : [pathFoot, players]));
  fitPath(path);
  if (!local.fitter && window.ResizeObserver) {  // the reveal above the path grows, the roster wraps: refit
    local.fitter = new ResizeObserver(() => {
      const p = el.querySelector('.path');
      if (p) fitPath(p);
      const side = document.getElementById('tv-hazards');
      if (side) fitDanger(side);
    });
  }
  if (local.fitter) {
    local.fitter.disconnect();
    local.fitter.observe(path);
  }
}

/** The largest cards that let the whole path fit its box (cards shrink as the path grows). A card too small
 *  to print its name in the TV's smallest type shows its drawing alone (``tight``): the drawing and the card's
 *  label say what it is. Cards never get smaller than 2.4 times that type (its value stays above it): a path
 *  longer than its box at that size shows its last cards, after a chip "+5 earlier" in the place of the rest. */
function fitPath(path) {
  path.querySelector(':scope > .earlier')?.remove();
  const cards = [...path.children];
  for (const li of cards) li.classList.remove('before');
  const width = path.clientWidth;
  const height = path.clientHeight;
  if (!width || !height) return;
  const n = Math.max(1, cards.length);
  const style = getComputedStyle(path);
  const gap = parseFloat(style.columnGap) || 8;
  const rowGap = parseFloat(style.rowGap) || gap;
  const small = parseFloat(style.fontSize) || 20;  // the TV's smallest type (tv.css: .path at --s)
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const badge = rem * 0.5;  // the gems lying on a card hang below it
  const tall = (w) => w * 1.36 + Math.max(w * 0.12, badge);
  const cols = (w) => Math.max(1, Math.floor((width + gap) / (w + gap)));
  const rows = (w) => Math.floor((height + rowGap) / (tall(w) + rowGap));
  const least = Math.ceil(small * 2.4);
  let best = least;
  for (let w = Math.floor(rem * 13); w > least; w -= 1) {
    if (cols(w) * rows(w) >= n) {
      best = w;
      break;
    }
  }
  path.style.setProperty('--cw', `${best}px`);
  if (cols(best) * Math.max(1, rows(best)) < n) {  // the last cards that fit, after the chip (which takes a card's place or more)
    const chip = h('li', { class: 'earlier' });
    path.prepend(chip);
    let before = 0;
    for (;;) {
      chip.textContent = t('exp.earlier', { n: before });
      const room = cols(best) * Math.max(1, rows(best)) - Math.ceil((chip.offsetWidth + gap) / (best + gap));
      if (before >= n - room) break;
      before = n - room;
    }
    cards.slice(0, before).forEach((li) => li.classList.add('before'));
  }
  path.classList.toggle('tight', best * 0.147 < small);
}

/** The hazards' region shows its tiles whole: the lines under them (the odds, then the warning; the tiles say
 *  which hazards are deadly) are left out (``off``), the last first, while the region would cut them. */
function fitDanger(slot) {
  const lines = [...slot.querySelectorAll('.danger > p')];
  for (const p of lines) p.classList.remove('off');
  const cut = () => slot.scrollHeight > slot.clientHeight + 1;
  for (const p of lines.reverse()) {
    if (!cut()) break;
    p.classList.add('off');
  }
}
