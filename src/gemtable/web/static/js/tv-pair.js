// The TV's pairing page, /tv (issue 22 §3): a short number that a phone at the table types in ("Show on the
// TV" in its invite sheet), or a table's code typed here with the remote. Either way the TV opens /t/CODE/tv.
// The pairing lives five minutes and is used once (server/pairing.py); a lapsed one is replaced.

import { $ } from './dom.js';
import { initLang, langSwitch, loadTexts, t } from './i18n.js';

let pairing = null;

async function openPairing() {
  const res = await fetch('/api/pairings', { method: 'POST' });
  if (!res.ok) throw new Error(String(res.status));
  pairing = await res.json();
  $('#pair-digits').textContent = pairing.pairing.split('').join(' ');
  $('#pair-digits').setAttribute('aria-label', pairing.pairing.split('').join(' '));
}

async function poll() {
  try {
    if (!pairing) await openPairing();
    const url = `/api/pairings/${pairing.pairing}?secret=${encodeURIComponent(pairing.secret)}`;
    const res = await fetch(url);
    if (res.status === 404) pairing = null;  // lapsed: a new number at the next turn
    else if (res.ok) {
      const { url: target } = await res.json();
      if (target) { location.assign(target); return; }
    }
  } catch { /* the server is away for a moment: try again */ }
  setTimeout(poll, 2000);
}

async function openTable(event) {
  event.preventDefault();
  const code = $('#pair-table').value.trim().toUpperCase();
  const error = $('#pair-error');
  error.hidden = true;
  if (!/^[A-Z]{4}$/.test(code)) {
    error.textContent = t('pair.bad_code');
    error.hidden = false;
    return;
  }
  const res = await fetch(`/api/tables/${code}`);
  if (res.ok) { location.assign(`/t/${code}/tv`); return; }
  error.textContent = t(res.status === 429 ? 'pair.slow' : 'pair.no_table');
  error.hidden = false;
}

/** A remote has arrows and Enter: up and down move between the field, the button and the language list. */
function arrows(event) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const order = [$('#pair-table'), $('#pair-open'), document.querySelector('.lang select')].filter(Boolean);
  const at = order.indexOf(document.activeElement);
  if (at < 0 || (document.activeElement.tagName === 'SELECT')) return;
  event.preventDefault();
  order[(at + (event.key === 'ArrowDown' ? 1 : order.length - 1)) % order.length].focus();
}

await initLang([]);
await loadTexts('pair');
$('#lang-slot').replaceWith(langSwitch());
$('#pair-form').addEventListener('submit', openTable);
document.addEventListener('keydown', arrows);
$('#pair-table').focus();
poll();
