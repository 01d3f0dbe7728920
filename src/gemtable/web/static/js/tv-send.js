// "Show on the TV" in the invite sheet (issue 22 §3): what to open on the TV, and a field for the number the
// TV's /tv page shows. Loaded (with its words, pair.LANG.json) the first time the phone taps it.

import { h, put, $ } from './dom.js';
import { loadTexts, t } from './i18n.js';
import { serverInfo } from './qr.js';

/** "Show on the TV" tapped: the box under it opens (the form drawn the first time, focused) or closes. */
export function toggle(code) {
  const box = $('#invite-tv-box');
  const open = box.hidden;
  box.hidden = !open;
  $('#invite-tv').setAttribute('aria-expanded', String(open));
  if (open && !box.firstChild) tvForm(box, code);
  else if (open) $('#tv-pairing', box)?.focus();
}

export async function tvForm(box, code) {
  await loadTexts('pair');
  const base = (await serverInfo().catch(() => ({}))).public_url || location.origin;
  const status = h('p', { id: 'tv-status', role: 'status' });
  const field = h('input', { id: 'tv-pairing', inputmode: 'numeric', autocomplete: 'off', maxlength: 9,
    'aria-describedby': 'tv-how' });
  const form = h('form', { class: 'tv-send', novalidate: true },
    h('p', { id: 'tv-how', text: t('pair.how', { url: `${base}/tv`, code }) }),
    h('label', { for: 'tv-pairing', text: t('pair.number') }),
    h('div', { class: 'row' }, field, h('button', { type: 'submit', class: 'btn primary', id: 'tv-send',
      text: t('pair.send') })),
    status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    status.textContent = '';
    const res = await fetch(`/api/pairings/${encodeURIComponent(field.value.trim())}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ table: code }),
    }).catch(() => null);
    const body = res ? await res.json().catch(() => ({})) : {};
    status.textContent = res && res.ok ? t('pair.sent')
      : t({ 'no-pairing': 'pair.no_pairing', 'pairing-used': 'pair.used', 'slow-down': 'pair.slow' }[body.error]
        || 'err.network');
    field.setAttribute('aria-invalid', res && res.ok ? 'false' : 'true');
    if (!(res && res.ok)) field.focus();
  });
  put(box, form);
  field.focus();
  return $('#tv-pairing', box);
}
