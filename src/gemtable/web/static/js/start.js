// The start page: join a table by its code, or create one.

import { h, $, put, show } from './dom.js';
import { t, has, initLang, langSwitch, onLang } from './i18n.js';
import { serverInfo } from './qr.js';

const PRESET_RELICS = { table: true, classic: false };
/** Seconds per decision (the expedition) or per turn (Booty Hunter): the choices and the default. */
const SECONDS = { expedition: [[5, 8, 10, 15, 20, 30, 60], 10], booty: [[30, 45, 60, 90, 120], 60] };
let games = [];
let secondsFor = 'expedition';

function fillSeconds(game) {
  const [choices, usual] = SECONDS[game] || SECONDS.expedition;
  const label = $('#seconds-label');
  label.dataset.i18n = game === 'booty' ? 'start.seconds_turn' : 'start.seconds';
  label.textContent = t(label.dataset.i18n);
  if (secondsFor === game && $('#seconds').options.length) return;
  secondsFor = game;
  put($('#seconds'), choices.map((n) => h('option', { value: n, text: n })));
  $('#seconds').value = String(usual);
}

function syncClock() {
  const on = $('#opt-clock').checked;
  $('#clock-hint').textContent = t(on ? 'opt.turn_clock_hint' : 'opt.no_clock_hint');
  $('#seconds').disabled = $('#game').value === 'booty' && !on;
}

function fillPresets() {
  const game = games.find((g) => g.name === $('#game').value);
  if (!game) return;
  const keep = $('#preset').value;
  put($('#preset'), game.presets.map((p) => h('option', { value: p,
    text: has(`preset.${game.name}.${p}`) ? t(`preset.${game.name}.${p}`) : p })));
  if (game.presets.includes(keep)) $('#preset').value = keep;
  show($('#exp-options'), game.name === 'expedition');
  show($('#booty-options'), game.name === 'booty');
  fillSeconds(game.name);
  syncClock();
  syncPreset();
}

function syncPreset() {
  const game = $('#game').value;
  const preset = $('#preset').value;
  if (game === 'expedition' && preset in PRESET_RELICS) $('#opt-relics').checked = PRESET_RELICS[preset];
  $('#rules-link').href = `/rules/${game}?preset=${encodeURIComponent(preset)}`;
}

function fillGames() {
  const keep = $('#game').value;
  put($('#game'), games.map((g) => h('option', { value: g.name, text: has('game.' + g.name) ? t('game.' + g.name) : g.title })));
  if (keep) $('#game').value = keep;
  fillPresets();
}

function fail(sel, text) {
  const el = $(sel);
  el.textContent = text;
  el.hidden = false;
}

async function create(event) {
  event.preventDefault();
  const game = $('#game').value;
  const body = { game, preset: $('#preset').value, seconds: Number($('#seconds').value), options: {} };
  if (game === 'expedition') {
    body.options = { relics: $('#opt-relics').checked, show_odds: $('#opt-odds').checked, caves: Number($('#opt-caves').value) };
  }
  if (game === 'booty') body.turn_clock = $('#opt-clock').checked;
  $('#create').disabled = true;
  try {
    const res = await fetch('/api/tables', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body) });
    const data = await res.json();
    if (!res.ok) throw new Error(has('err.' + data.error) ? t('err.' + data.error) : data.message);
    location.href = `/t/${data.code}`;
  } catch (err) {
    fail('#new-error', err.message || t('err.network'));
    $('#create').disabled = false;
  }
}

async function join(event) {
  event.preventDefault();
  const code = $('#code').value.toUpperCase().replace(/[^A-Z]/g, '');
  if (code.length !== 4) {
    fail('#code-error', t('start.code_help'));
    return;
  }
  try {
    const res = await fetch(`/api/tables/${code}`);
    if (res.ok) {
      location.href = `/t/${code}`;
      return;
    }
    const data = await res.json().catch(() => ({}));
    fail('#code-error', has('err.' + data.error) ? t('err.' + data.error) : data.message || t('err.no-table'));
  } catch {
    fail('#code-error', t('err.network'));
  }
}

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/i;

/** A host who opened this page as localhost learns the address phones use instead, and why; a machine
 * that phones cannot reach at all says so. */
async function phonesNote() {
  let info;
  try { info = await serverInfo(); } catch { return; }
  const local = LOOPBACK.test(location.hostname);
  if (info.reachable && !local) return;
  $('#phones-why').textContent = t(info.reachable ? 'start.local_note' : 'start.unreachable');
  $('#phones-url').textContent = info.reachable ? `${info.public_url}/` : '';
  $('#phones-note').hidden = false;
}

async function main() {
  await initLang();
  $('#lang-slot').replaceWith(langSwitch());
  onLang(() => { fillGames(); phonesNote(); });
  phonesNote();
  $('#game').addEventListener('change', fillPresets);
  $('#preset').addEventListener('change', syncPreset);
  $('#opt-clock').addEventListener('change', syncClock);
  $('#new-form').addEventListener('submit', create);
  $('#code-form').addEventListener('submit', join);
  $('#code').addEventListener('input', () => { $('#code-error').hidden = true; });
  const res = await fetch('/api/games');
  games = (await res.json()).games;
  fillGames();
}

main();
