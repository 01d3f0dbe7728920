// The start page: join a table by its code, or create one.

import { h, $, put, show } from './dom.js';
import { t, has, initLang, langSwitch, loadTexts, onLang } from './i18n.js';
import { serverInfo } from './qr.js';
import { games as catalogue } from './catalogue.js';
import { optionInput, optionValue, optionValues, presetOptions, secondsOptions, setOption } from './settings-form.js';

// Everything about a game comes from its manifest (/api/games): its presets, the options a host may change
// (each with its type, range, default and label), the seconds a decision or a turn may take, and whether
// its turns run one after another (then the turn clock may be switched off).
let games = [];
let ready = Promise.resolve();  // the page's words and the catalogue: the forms wait for them
let secondsFor = null;
let optionsFor = null;

const chosen = () => games.find((g) => g.name === $('#game').value) || null;
const label = (key, fallback) => (has(key) ? t(key) : fallback);

function fillSeconds(game) {
  const el = $('#seconds-label');
  el.dataset.i18n = game.dynamics === 'turns' ? 'start.seconds_turn' : 'start.seconds';
  el.textContent = t(el.dataset.i18n);
  if (secondsFor === game.name && $('#seconds').options.length) return;
  secondsFor = game.name;
  put($('#seconds'), secondsOptions(game));
  $('#seconds').value = String(game.seconds.default);
}

function syncClock() {
  const game = chosen();
  const turns = !game || game.dynamics === 'turns';
  const on = $('#opt-clock').checked;
  $('#clock-name').textContent = t(turns ? 'opt.turn_clock' : 'opt.decision_clock');
  $('#clock-hint').textContent = t(turns ? (on ? 'opt.turn_clock_hint' : 'opt.no_clock_hint')
    : (on ? 'opt.decision_clock_hint' : 'opt.no_decision_clock_hint'));
  $('#seconds').disabled = !on;
}

function fillOptions(game) {
  const keep = Object.fromEntries(game.options.filter((o) => o.offered && $(`#opt-${o.key}`))
    .map((o) => [o.key, optionValue(o)]));
  put($('#options'), game.options.filter((o) => o.offered).map((o) => optionInput(o)));
  for (const [key, value] of Object.entries(keep)) setOption(game, key, value);
  show($('#clock-options'), true);
}

function fillPresets() {
  const game = chosen();
  if (!game) return;
  const keep = $('#preset').value;
  const names = game.presets.map((p) => p.name);
  put($('#preset'), presetOptions(game));
  if (names.includes(keep)) $('#preset').value = keep;
  const fresh = optionsFor !== game.name;
  optionsFor = game.name;
  fillOptions(game);
  fillSeconds(game);
  syncClock();
  syncPreset(fresh);
}

/** A preset chosen sets the options it names, and the others back to their defaults. */
function syncPreset(reset = true) {
  const game = chosen();
  if (!game) return;
  const preset = game.presets.find((p) => p.name === $('#preset').value) || game.presets[0];
  if (reset) for (const option of game.options) setOption(game, option.key, preset.options[option.key] ?? option.default);
  $('#rules-link').href = `/rules/${game.name}?preset=${encodeURIComponent(preset.name)}`;
}

function fillGames() {
  const keep = $('#game').value;
  put($('#game'), games.map((g) => h('option', { value: g.name, text: label(`game.${g.name}`, g.title) })));
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
  await ready.catch(() => {});  // (a page that failed to load its words still tries)
  const game = chosen();
  if (!game) return;
  const options = optionValues(game);
  const body = { game: game.name, preset: $('#preset').value, seconds: Number($('#seconds').value), options };
  body.turn_clock = $('#opt-clock').checked;
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
  await ready.catch(() => {});  // (a page that failed to load its words still tries)
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

async function setup() {
  await initLang();
  await Promise.all([loadTexts('forms'), loadTexts('errors')]);  // the start page's and the host's sheet's words
  $('#lang-slot').replaceWith(langSwitch());
  onLang(() => { fillGames(); phonesNote(); });
  phonesNote();
  $('#game').addEventListener('change', fillPresets);
  $('#preset').addEventListener('change', () => syncPreset(true));
  $('#opt-clock').addEventListener('change', syncClock);
  games = await catalogue();
  fillGames();
}

function main() {
  // The forms are caught before anything is loaded: a tap on Join or Create while the page's words are still
  // on their way (a slow phone, a busy laptop) waits for them, instead of the browser submitting the form its
  // own way, which reloads the page and loses what was typed.
  $('#new-form').addEventListener('submit', create);
  $('#code-form').addEventListener('submit', join);
  $('#code').addEventListener('input', () => { $('#code-error').hidden = true; });
  ready = setup();
}

main();
