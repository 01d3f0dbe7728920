// The expedition on the TV, the room's stage (page.js loads it on the TV alone, so a phone never carries it):
// the reveal, the cave, the path as large as the screen allows, the explorers in large type, and the hazards in
// the side column. The TV's type scale is tv.css's; what a game needs of the stage beyond it is here.

import { put } from '/static/js/dom.js';

/** Draw the cave on the stage: ``parts`` are page.js's pieces of it (reveal, head, path, pathFoot, players,
 *  danger); ``local`` is the page module's memory for this table. */
export function renderStage(el, v, parts, local) {
  const { reveal, head, path, pathFoot, players, danger, recap } = parts;
  const list = players.querySelector('ul');
  list.dataset.n = String(list.children.length);  // tv.css: one row of up to four, or two of four
  const slot = document.getElementById('tv-hazards');
  if (slot) put(slot, danger);
  if (recap) {  // a cave that ended: its recap takes the explorers' place, under the path it ended with
    const rows = recap.querySelector('ul');
    rows.dataset.n = String(rows.children.length);
  }
  put(el, reveal, head, path, ...(recap ? [recap] : [pathFoot, players]));
  fitPath(path);
  if (!local.fitter && window.ResizeObserver) {  // the reveal above the path grows, the roster wraps: refit
    local.fitter = new ResizeObserver(() => { const p = el.querySelector('.path'); if (p) fitPath(p); });
  }
  if (local.fitter) {
    local.fitter.disconnect();
    local.fitter.observe(path);
  }
}

/** The largest cards that let the whole path fit its box (cards shrink as the path grows). A card too small
 *  to print its name in the TV's smallest type (24 px at 1080p) shows its drawing alone (``tight``): the
 *  drawing and the card's label say what it is. */
function fitPath(path) {
  const width = path.clientWidth;
  const height = path.clientHeight;
  if (!width || !height) return;
  const n = Math.max(1, path.children.length);
  const style = getComputedStyle(path);
  const gap = parseFloat(style.columnGap) || 8;
  const rowGap = parseFloat(style.rowGap) || gap;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const badge = rem * 0.5;  // the gems lying on a card hang below it
  let best = 20;
  for (let w = Math.floor(rem * 13); w >= 20; w -= 1) {
    const tall = w * 1.36 + Math.max(w * 0.12, badge);
    const cols = Math.max(1, Math.floor((width + gap) / (w + gap)));
    const rows = Math.ceil(n / cols);
    if (rows * tall + (rows - 1) * rowGap <= height) {
      best = w;
      break;
    }
  }
  path.style.setProperty('--cw', `${best}px`);
  path.classList.toggle('tight', best * 0.147 < rem * 0.93);
}
